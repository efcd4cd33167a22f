//! The link: copy it, and see how long it is. Written as markup: the copy itself is the
//! page script's (`web/boot.js`, on `#copy-link`): the clipboard's promise handled there
//! costs the bundle far less than a component, its state and a future in the module.

use crate::markup::escape_into;
use rebalance_lab_core::scenario::link;
use yew::prelude::*;

/// The page's address (its fragment is [`link::link_with_fragment`]'s to replace).
fn page_address() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// The bar: Copy link and where the copy's outcome is said (a live region on the page before
/// anything is said in it), then the link's length and the link itself. The first part is a
/// fixed string, which is never written again: an edit changes the link, and rewriting the
/// button and the live region with it would drop the focus and what the region said.
pub fn link_bar(fragment: &str) -> Html {
    let url = link::link_with_fragment(&page_address(), fragment);
    // (its bytes are its characters: a browser's address is ASCII, every character past it
    // percent-encoded, and so is every fragment the page writes)
    let mut m = format!(
        "<span class=\"link-length\">{} characters</span><input id=\"link\" class=\"link-text\" readonly aria-label=\"Link to this scenario\" value=\"",
        url.len()
    );
    escape_into(&url, &mut m);
    m.push_str("\">");
    // (Chromium keeps an address of at most 2 MiB: a longer one is never stored, so a reload
    // opens the link before it, and no browser opens the copy)
    if url.len() > 2 << 20 {
        m.push_str("<p class=\"alert\" id=\"link-too-long\">This link is over the 2 MB a browser keeps of an address: reloading opens an older link, and the copy cannot be opened.</p>");
    }
    html! {
        <div class="linkbar">
            { Html::from_html_unchecked(AttrValue::Static("<button id=\"copy-link\" data-app=\"copy-link\">Copy link</button><span class=\"copied\" id=\"link-copied\" role=\"status\"></span>")) }
            { Html::from_html_unchecked(m.into()) }
        </div>
    }
}
