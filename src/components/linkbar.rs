//! The link: copy it, and see how long it is.

use rebalance_lab_core::scenario::link;
use yew::prelude::*;

/// The page's address (its fragment is [`link::link_with_fragment`]'s to replace).
fn page_address() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The scenario's fragment, as the address bar has it.
    pub fragment: AttrValue,
}

/// The bar: Copy link and where the copy's outcome is said (a live region on the page before
/// anything is said in it), then the link's length and the link itself.
#[function_component]
pub fn LinkBar(p: &Props) -> Html {
    let url = link::link_with_fragment(&page_address(), &p.fragment);
    let said = use_state(|| "");
    let copy = {
        let (said, url) = (said.clone(), url.clone());
        Callback::from(move |_: MouseEvent| {
            let (said, url) = (said.clone(), url.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let clipboard = web_sys::window().map(|w| w.navigator().clipboard());
                let copied = match clipboard {
                    Some(c) => wasm_bindgen_futures::JsFuture::from(c.write_text(&url))
                        .await
                        .is_ok(),
                    None => false,
                };
                said.set(if copied {
                    "Link copied"
                } else {
                    "The browser refused the clipboard: select the link below and copy it"
                });
            });
        })
    };
    // (its bytes are its characters: a browser's address is ASCII, every character past it
    // percent-encoded, and so is every fragment the page writes)
    let length = format!("{} characters", url.len());
    // (Chromium keeps an address of at most 2 MiB: a longer one is never stored, so a reload
    // opens the link before it, and no browser opens the copy)
    let too_long = url.len() > 2 << 20;
    html! {
        <div class="linkbar">
            <button id="copy-link" onclick={copy}>{ "Copy link" }</button>
            <span class="copied" id="link-copied" role="status">{ *said }</span>
            <span class="link-length">{ length }</span>
            <input id="link" class="link-text" readonly=true aria-label="Link to this scenario" value={url} />
            if too_long {
                <p class="alert" id="link-too-long">{ "This link is over the 2 MB a browser keeps of an address: reloading opens an older link, and the copy cannot be opened." }</p>
            }
        </div>
    }
}
