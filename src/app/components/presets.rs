//! One-click teaching scenarios.

use crate::app::state::Action;
use crate::scenario::presets::PRESETS;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub dispatch: Callback<Action>,
}

#[function_component(Presets)]
pub fn presets(props: &Props) -> Html {
    html! {
        <nav class="presets" aria-label="Presets">
            <span class="presets-label">{ "Try: " }</span>
            { for PRESETS.iter().map(|p| {
                let key = p.key;
                let onclick = props.dispatch.reform(move |_| Action::LoadPreset(key));
                html! { <button class="preset" data-preset={key} title={p.lesson} {onclick}>{ p.label }</button> }
            }) }
        </nav>
    }
}
