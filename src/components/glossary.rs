//! The glossary, one click away, and the small "?" links that open it at a term.

use rebalance_lab_core::scenario::glossary::GLOSSARY;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Opens the glossary at `key` and moves focus there. No `href="#..."`: the fragment holds
/// the scenario.
pub fn open_at(key: &str) {
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

/// A small "?" after the first mention of a term (`key`: its glossary key), as markup: the
/// app's one listener for them (`App`) opens the glossary there ([`open_at`]).
pub fn term(key: &'static str) -> String {
    let name = GLOSSARY
        .iter()
        .find(|e| e.key == key)
        .map_or(key, |e| e.term);
    format!(
        "<button class=\"term-link\" type=\"button\" data-term=\"{key}\" aria-label=\"Glossary: {name}\" title=\"Glossary: {name}\">?</button>"
    )
}

/// A heading `text` (the app's own words) with the "?" of each of `terms` after it.
pub fn heading(tag: &str, text: &str, terms: &[&'static str]) -> Html {
    let mut m = format!("<{tag}>{text}");
    for t in terms {
        m.push_str(&term(t));
    }
    m.push_str(&format!("</{tag}>"));
    Html::from_html_unchecked(m.into())
}

/// The glossary itself, as markup (every entry is the app's own text, escaped).
pub fn glossary() -> Html {
    let mut m = String::from(
        "<details class=\"glossary\" id=\"glossary\"><summary>Glossary: consumer group, member, partition, rebalance, ...</summary><dl>",
    );
    for e in GLOSSARY {
        m.push_str(&format!("<dt id=\"g-{}\" tabindex=\"-1\">", e.key));
        crate::markup::escape_into(e.term, &mut m);
        m.push_str("</dt><dd>");
        crate::markup::escape_into(e.text, &mut m);
        m.push_str("</dd>");
    }
    m.push_str("</dl></details>");
    Html::from_html_unchecked(m.into())
}
