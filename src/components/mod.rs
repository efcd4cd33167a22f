//! The app's views: plain props and callbacks.

pub mod bytes;
pub mod editor;
pub mod explain;
pub mod glossary;
pub mod grid;
pub mod group;
pub mod import;
pub mod lesson;
pub mod linkbar;
pub mod presets;
pub mod status;
pub mod timeline;
pub mod whatif;

use yew::prelude::*;

/// Per-member lists (the editor's rows, the totals, the side-by-side table, the explanation's
/// rows, what moved) show this many members until asked for all: each member costs a few
/// dozen elements, and drawing them all for a 10,000-member group took twenty seconds.
pub const MEMBERS_SHOWN: usize = 50;

/// How many of `total` members a list shows, given its "show all" state.
pub fn members_shown(all: bool, total: usize) -> usize {
    if all {
        total
    } else {
        total.min(MEMBERS_SHOWN)
    }
}

/// The toggle under a per-member list that is (or could be) cut at [`MEMBERS_SHOWN`];
/// nothing for a list that short.
pub fn show_all_toggle(all: &UseStateHandle<bool>, total: usize, list: &'static str) -> Html {
    if total <= MEMBERS_SHOWN {
        return html! {};
    }
    let flip = {
        let all = all.clone();
        Callback::from(move |_| all.set(!*all))
    };
    let label = if **all {
        format!("Show the first {MEMBERS_SHOWN} members only")
    } else {
        format!("Show all {total} members ({MEMBERS_SHOWN} shown)")
    };
    html! {
        <button class="show-all" data-show-all={list} onclick={flip}>{ label }</button>
    }
}

/// After the repaint a press causes, the focus goes to the first of `ids` that is on the page
/// and enabled: the pressed button's own id first, then the one to fall back on when the
/// press removed or disabled it (Back on the first step, Leave the story). A button yew
/// patched in place keeps the focus by itself; one the repaint replaced would drop it to the
/// page's start, and a keyboard user would lose their place.
pub fn refocus(ids: &[&str]) {
    let ids: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
    // (yew repaints in a task of its own after the click's: a timer fires after it)
    gloo::timers::callback::Timeout::new(0, move || {
        use wasm_bindgen::JsCast;
        let doc = gloo::utils::document();
        if let Some(button) = ids
            .iter()
            .filter_map(|id| doc.get_element_by_id(id))
            .filter_map(|e| e.dyn_into::<web_sys::HtmlButtonElement>().ok())
            .find(|b| !b.disabled())
        {
            let _ = button.focus();
        }
    })
    .forget();
}
