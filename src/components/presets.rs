//! One-click teaching scenarios.

use crate::state::Action;
use rebalance_lab_core::scenario::presets::PRESETS;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The preset on screen, until an edit changes it.
    pub loaded: Option<&'static str>,
    pub dispatch: Callback<Action>,
}

/// The presets bar and the lesson of the one on screen.
#[function_component]
pub fn Presets(p: &Props) -> Html {
    let (dispatch, loaded) = (&p.dispatch, p.loaded);
    html! {
        <>
        <nav class="presets" aria-label="Presets">
            <span class="presets-label">{ "Try: " }</span>
            { for PRESETS.iter().map(|p| {
                let key = p.key;
                let onclick = dispatch.reform(move |_| Action::LoadPreset(key));
                let on = loaded == Some(key);
                html! { <button class="preset" data-preset={key} aria-pressed={on.to_string()}
                    aria-describedby="preset-lesson" {onclick}>{ p.label }</button> }
            }) }
        </nav>
        <p class="preset-lesson" id="preset-lesson" role="status">{
            match PRESETS.iter().find(|p| Some(p.key) == loaded) {
                Some(p) => format!("{}: {}", p.label, p.lesson),
                None => "Each preset shows one idea in one group; click one, then change anything.".to_string(),
            }
        }</p>
        </>
    }
}
