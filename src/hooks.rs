//! Effects at the edge: the URL fragment and local storage follow the state, and Back /
//! Forward (or a pasted link) feed the state through the reducer.

use super::state::{Action, AppState, BrokenLink, HistoryMode};
use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use rebalance_lab_core::scenario::link;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use yew::prelude::*;

/// Local storage key of the last scenario (as a link fragment).
pub const STORAGE_KEY: &str = "rebalance-lab.scenario";

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The current fragment without its `#` (only the first: `##` is a fragment `#`, which
/// is reported as a broken link like any other text that is not a scenario).
pub fn current_fragment() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.strip_prefix('#').unwrap_or(&h).to_string())
        .unwrap_or_default()
}

/// A link longer than this is read in a task of its own, before the app's first render
/// ([`super::start`]): at 10,000 members (170 KB) reading it and drawing the group in one
/// task held the main thread for the whole opening.
pub const READ_FIRST: usize = 65_536;

thread_local! {
    /// What reading a long link gave, for the first render to start from, with the link's
    /// hash (the address may change before that render).
    static OPENED: std::cell::Cell<Option<(u64, Action)>> = const { std::cell::Cell::new(None) };
}

fn hash_of(fragment: &str) -> u64 {
    use std::hash::BuildHasher;
    std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one(fragment)
}

/// Reads the page's link now, for the first render ([`initial_state`]) to start from.
pub fn read_first() {
    let fragment = current_fragment();
    OPENED.with(|o| o.set(Some((hash_of(&fragment), read_fragment(&fragment)))));
}

fn storage() -> Option<web_sys::Storage> {
    window().and_then(|w| w.local_storage().ok().flatten())
}

fn read_fragment(fragment: &str) -> Action {
    match link::from_fragment(fragment) {
        Ok(state) => Action::LoadLink(Box::new(state)),
        Err(e) => Action::LinkBroken(BrokenLink {
            message: e.to_string(),
            raw: fragment.to_string(),
            partial: false,
            fallback: "the scenario you had",
        }),
    }
}

/// The state to start from: the link wins; without one, the last scenario from local
/// storage; without that, the default. A broken link keeps the default scenario on screen
/// and says what failed.
pub fn initial_state() -> AppState {
    // Without a link, or with one that cannot be read, the last scenario is the base; a
    // good link needs nothing from storage.
    let last = || {
        let stored = storage()
            .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
            .and_then(|saved| link::from_fragment(&saved).ok());
        match stored {
            Some(st) => (
                AppState::default().apply(Action::LoadLink(Box::new(st))),
                true,
            ),
            None => (AppState::default(), false),
        }
    };
    let fragment = current_fragment();
    if fragment.is_empty() {
        return last().0;
    }
    // (a long link was read already, in the task before, unless the address changed since:
    // nothing listened for Back or a pasted link before the first render)
    let read = match OPENED.with(|o| o.take()) {
        Some((read_from, read)) if read_from == hash_of(&fragment) => read,
        _ => read_fragment(&fragment),
    };
    match read {
        Action::LinkBroken(mut b) => {
            let (base, stored) = last();
            b.fallback = if stored {
                "your last scenario"
            } else {
                "the default scenario"
            };
            base.apply(Action::LinkBroken(b))
        }
        load => AppState::default().apply(load),
    }
}

/// The URL and storage follow every change, and Back / Forward (or a link pasted into the
/// address bar) load what the URL says. Returns the link fragment to show: the current
/// state's once it is written, in the task after the repaint that changed it.
#[hook]
pub fn use_url_sync(state: UseReducerHandle<AppState>) -> String {
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let listener = window().map(|w| {
                EventListener::new(&w, "popstate", move |_| {
                    let fragment = current_fragment();
                    if !fragment.is_empty() {
                        dispatcher.dispatch(read_fragment(&fragment));
                    }
                })
            });
            move || drop(listener)
        });
    }
    let revision = state.revision;
    let broken = state.broken_link.is_some();
    let history = state.history;
    // Written once per change of the state the link holds (every such change bumps the
    // revision), not once per repaint, and in a task of its own after the repaint, with the
    // URL and storage writes (history.pushState and localStorage cost milliseconds each): at
    // 10,000 members the link takes 30 to 50 ms to write, which an edit's repaint no longer
    // waits for (unless edits come faster than that task: then the older write runs in the
    // newer edit's task, below). Until then the bar shows the link as it was: at first the
    // one opened, or, with none or a broken one, the state's, written now.
    let shown = use_mut_ref(|| match current_fragment() {
        f if f.is_empty() || broken => state.link_fragment(),
        f => f,
    });
    let update = use_force_update();
    let pending = use_mut_ref(|| Pending {
        write: None,
        timer: None,
    });
    {
        let (state, shown) = (state.clone(), shown.clone());
        use_effect_with(revision, move |_| {
            let bar = pending.clone();
            let write: Box<dyn FnOnce()> = Box::new(move || {
                let fragment = state.link_fragment();
                write_url(&fragment, history, broken);
                // (a repaint only when it changed: an opened link is mostly written back as it
                // came; in a task of its own: after the link's writes, a 600 KB link's repaint
                // made a task of 200 ms at 10,000 members)
                if *shown.borrow() != fragment {
                    *shown.borrow_mut() = fragment;
                    later(&bar, Box::new(move || update.force_update()));
                }
            });
            later(&pending, write);
            || ()
        });
    }
    let fragment = shown.borrow().clone();
    fragment
}

/// Runs `write` in a task of its own, and a write (or the bar's repaint) still waiting now:
/// each discrete action is a history entry, and none is lost.
fn later(pending: &Rc<RefCell<Pending>>, write: Box<dyn FnOnce()>) {
    let older = pending.borrow_mut().write.replace(write);
    if let Some(older) = older {
        older();
    }
    let p = pending.clone();
    pending.borrow_mut().timer = Some(Timeout::new(0, move || {
        let w = p.borrow_mut().write.take();
        if let Some(w) = w {
            w();
        }
    }));
}

/// A URL and storage write waiting for its task.
pub struct Pending {
    write: Option<Box<dyn FnOnce()>>,
    timer: Option<Timeout>,
}

fn write_url(fragment: &str, history: HistoryMode, broken: bool) {
    // While a broken link is on screen and nothing was edited, leave it in the address bar,
    // and leave the stored scenario as it was.
    if broken && history == HistoryMode::None {
        return;
    }
    if let Some(s) = storage() {
        let _ = s.set_item(STORAGE_KEY, fragment);
    }
    if current_fragment() == fragment {
        return;
    }
    if let Some(h) = window().and_then(|w| w.history().ok()) {
        let url = format!("#{fragment}");
        let _ = if history == HistoryMode::Push {
            h.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            h.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    }
}
