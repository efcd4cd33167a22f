//! The glossary, one click away, and the small "?" buttons that open it at a term.

use rebalance_lab_core::scenario::glossary::GLOSSARY;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Opens the glossary at `key` and moves focus there. No `href="#..."`: the fragment holds
/// the scenario.
pub fn open_at(key: &str) {
    let doc = gloo::utils::document();
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

#[derive(Properties, PartialEq)]
pub struct TermProps {
    /// The term's glossary key.
    pub term: &'static str,
}

/// A small "?" after the first mention of a term: opens the glossary there ([`open_at`]).
#[function_component]
pub fn Term(props: &TermProps) -> Html {
    let key = props.term;
    let name = GLOSSARY
        .iter()
        .find(|e| e.key == key)
        .map_or(key, |e| e.term);
    let label = format!("Glossary: {name}");
    html! {
        <button class="term-link" type="button" data-term={key} aria-label={label.clone()} title={label}
            onclick={Callback::from(move |_| open_at(key))}>{ "?" }</button>
    }
}

/// A heading `text` (the app's own words) with the "?" of each of `terms` after it.
pub fn heading(tag: &'static str, text: String, terms: &[&'static str]) -> Html {
    html! {
        <@{tag}>{ text }{ for terms.iter().map(|&t| html! { <Term term={t} /> }) }</@>
    }
}

/// The glossary itself: every entry is the app's own text.
#[function_component]
pub fn Glossary() -> Html {
    html! {
        <details class="glossary" id="glossary">
            <summary>{ "Glossary: consumer group, member, partition, rebalance, ..." }</summary>
            <dl>
                { for GLOSSARY.iter().map(|e| html! { <>
                    <dt id={format!("g-{}", e.key)} tabindex="-1">{ e.term }</dt>
                    <dd>{ e.text }</dd>
                </> }) }
            </dl>
        </details>
    }
}
