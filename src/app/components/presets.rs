//! One-click teaching scenarios.

use crate::app::state::Action;
use crate::scenario::presets::PRESETS;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub dispatch: Callback<Action>,
    /// The preset on screen (until an edit changes it).
    pub loaded: Option<&'static str>,
}

#[function_component(Presets)]
pub fn presets(props: &Props) -> Html {
    html! {
        <>
        <nav class="presets" aria-label="Presets">
            <span class="presets-label">{ "Try: " }</span>
            { for PRESETS.iter().map(|p| {
                let key = p.key;
                let onclick = props.dispatch.reform(move |_| Action::LoadPreset(key));
                let on = props.loaded == Some(key);
                html! { <button class={classes!("preset", on.then_some("on"))} data-preset={key} aria-pressed={on.to_string()}
                    aria-describedby="preset-lesson" {onclick}>{ p.label }</button> }
            }) }
        </nav>
        <p class="preset-lesson" id="preset-lesson" role="status">{
            match PRESETS.iter().find(|p| Some(p.key) == props.loaded) {
                Some(p) => format!("{}: {}", p.label, p.lesson),
                None => "Each preset shows one idea in one group; click one, then change anything.".to_string(),
            }
        }</p>
        </>
    }
}
