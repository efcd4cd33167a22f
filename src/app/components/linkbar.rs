//! The link: copy it, and see how long it is.

use crate::scenario::link;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The link fragment, as the URL effect wrote it.
    pub fragment: AttrValue,
}

fn page_base() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

#[function_component(LinkBar)]
pub fn link_bar(props: &Props) -> Html {
    let copied = use_state(|| None::<String>);
    let url = link::link_with_fragment(&page_base(), &props.fragment);
    let onclick = {
        let url = url.clone();
        let copied = copied.clone();
        Callback::from(move |_| {
            let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else {
                copied.set(Some(
                    "Copy failed: select the link below and copy it".to_string(),
                ));
                return;
            };
            let promise = clipboard.write_text(&url);
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let result = wasm_bindgen_futures::JsFuture::from(promise).await;
                copied.set(Some(match result {
                    Ok(_) => "Link copied".to_string(),
                    Err(_) => {
                        "The browser refused the clipboard: select the link below and copy it"
                            .to_string()
                    }
                }));
            });
        })
    };
    html! {
        <div class="linkbar">
            <button id="copy-link" {onclick}>{ "Copy link" }</button>
            <span class="link-length">{ format!("{} characters", url.chars().count()) }</span>
            if let Some(msg) = (*copied).clone() {
                <span class="copied" role="status">{ msg }</span>
            }
            <input id="link" class="link-text" readonly=true value={url} aria-label="Link to this scenario" />
        </div>
    }
}
