//! The glossary, one click away, and the small "?" links that open it at a term.

use crate::scenario::glossary::GLOSSARY;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Opens the glossary at `key` and moves focus there. No `href="#..."`: the fragment holds
/// the scenario.
fn open_at(key: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(d) = doc.get_element_by_id("glossary") {
        let _ = d.set_attribute("open", "");
    }
    if let Some(el) = doc
        .get_element_by_id(&format!("g-{key}"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        el.scroll_into_view();
        let _ = el.focus();
    }
}

/// A small "?" after the first mention of a term (`key`: its glossary key). A plain function,
/// not a component: it has no state, and each component costs the bundle its own machinery.
pub fn term(key: &'static str) -> Html {
    let name = GLOSSARY
        .iter()
        .find(|e| e.key == key)
        .map_or(key, |e| e.term);
    let label = AttrValue::from(format!("Glossary: {name}"));
    html! {
        <button class="term-link" type="button" data-term={key} aria-label={label.clone()}
            title={label} onclick={Callback::from(move |_| open_at(key))}>{ "?" }</button>
    }
}

/// The glossary itself (a plain function, as [`term`]).
pub fn glossary() -> Html {
    html! {
        <details class="glossary" id="glossary">
            <summary>{ "Glossary: consumer group, member, partition, rebalance, ..." }</summary>
            <dl>
                { for GLOSSARY.iter().map(|e| html! {
                    <>
                        <dt id={format!("g-{}", e.key)} tabindex="-1">{ e.term }</dt>
                        <dd>{ e.text }</dd>
                    </>
                }) }
            </dl>
        </details>
    }
}
