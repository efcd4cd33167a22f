//! The one reducer that owns the app state. Pure: clone, change, return. The URL and local
//! storage are effects at the edge (see `hooks`), never in here.

use crate::assignor::AssignorKind;
use crate::scenario::link::LinkState;
use crate::scenario::{edit, presets, Scenario};
use std::rc::Rc;
use yew::Reducible;

/// How the URL should follow the last change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryMode {
    /// A discrete action: a new history entry, so Back undoes it.
    Push,
    /// Typing: replace the current entry.
    Replace,
    /// The state came from the URL (load or Back): leave the URL alone.
    None,
}

/// A link that could not be read: what failed, and the raw fragment to copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenLink {
    /// The message, with position.
    pub message: String,
    /// The fragment as it came.
    pub raw: String,
}

/// Everything the app knows.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The scenario being edited.
    pub scenario: Scenario,
    /// The topic whose arithmetic is explained.
    pub selected_topic: Option<String>,
    /// Why the last edit was refused, and where (a field key such as `topic-2-name`).
    pub refusal: Option<(String, String)>,
    /// A link that could not be read.
    pub broken_link: Option<BrokenLink>,
    /// Bumped on every scenario change; the URL effect follows it.
    pub revision: u64,
    /// How the URL follows the last change.
    pub history: HistoryMode,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            scenario: presets::preset("seven-three").unwrap_or_default(),
            selected_topic: None,
            refusal: None,
            broken_link: None,
            revision: 0,
            history: HistoryMode::None,
        }
    }
}

/// What a person (or the URL) does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    AddTopic,
    RenameTopic {
        index: usize,
        name: String,
    },
    SetPartitions {
        index: usize,
        text: String,
    },
    RemoveTopic(usize),
    AddMember,
    RenameMember {
        index: usize,
        id: String,
    },
    SetInstanceId {
        index: usize,
        text: String,
    },
    SetRack {
        index: usize,
        text: String,
    },
    SetSubscribed {
        index: usize,
        topic: String,
        on: bool,
    },
    RemoveMember(usize),
    SetAssignor(AssignorKind),
    LoadPreset(&'static str),
    SelectTopic(Option<String>),
    /// A scenario read from the URL (start or Back/Forward).
    LoadLink(Box<LinkState>),
    /// The URL's fragment could not be read.
    LinkBroken(BrokenLink),
    DismissBrokenLink,
}

impl AppState {
    /// The pure transition.
    pub fn apply(&self, action: Action) -> AppState {
        let mut next = self.clone();
        let s = &mut next.scenario;
        let (result, mode, field): (Result<(), String>, HistoryMode, String) = match action {
            Action::AddTopic => {
                let name = edit::add_topic(s);
                next.selected_topic = Some(name);
                (Ok(()), HistoryMode::Push, String::new())
            }
            Action::RenameTopic { index, name } => {
                let old = s.topics.get(index).map(|t| t.name.clone());
                let r = edit::rename_topic(s, index, &name);
                if r.is_ok() && next.selected_topic == old {
                    next.selected_topic = Some(name);
                }
                (r, HistoryMode::Replace, format!("topic-{index}-name"))
            }
            Action::SetPartitions { index, text } => (
                edit::set_partitions(s, index, &text),
                HistoryMode::Replace,
                format!("topic-{index}-partitions"),
            ),
            Action::RemoveTopic(index) => {
                edit::remove_topic(s, index);
                (Ok(()), HistoryMode::Push, String::new())
            }
            Action::AddMember => {
                edit::add_member(s);
                (Ok(()), HistoryMode::Push, String::new())
            }
            Action::RenameMember { index, id } => (
                edit::rename_member(s, index, &id),
                HistoryMode::Replace,
                format!("member-{index}-id"),
            ),
            Action::SetInstanceId { index, text } => (
                edit::set_instance_id(s, index, &text),
                HistoryMode::Replace,
                format!("member-{index}-instance"),
            ),
            Action::SetRack { index, text } => (
                edit::set_rack(s, index, &text),
                HistoryMode::Replace,
                format!("member-{index}-rack"),
            ),
            Action::SetSubscribed { index, topic, on } => (
                edit::set_subscribed(s, index, &topic, on),
                HistoryMode::Push,
                String::new(),
            ),
            Action::RemoveMember(index) => {
                edit::remove_member(s, index);
                (Ok(()), HistoryMode::Push, String::new())
            }
            Action::SetAssignor(kind) => {
                s.assignor = kind;
                (Ok(()), HistoryMode::Push, String::new())
            }
            Action::LoadPreset(key) => match presets::preset(key) {
                Some(p) => {
                    *s = p;
                    next.selected_topic = None;
                    (Ok(()), HistoryMode::Push, String::new())
                }
                None => (
                    Err(format!("no preset \"{key}\"")),
                    HistoryMode::None,
                    String::new(),
                ),
            },
            Action::SelectTopic(t) => {
                next.selected_topic = t;
                return next;
            }
            Action::LoadLink(state) => {
                *s = state.scenario;
                next.broken_link = None;
                next.refusal = None;
                next.revision += 1;
                next.history = HistoryMode::None;
                return next;
            }
            Action::LinkBroken(b) => {
                next.broken_link = Some(b);
                return next;
            }
            Action::DismissBrokenLink => {
                next.broken_link = None;
                return next;
            }
        };
        match result {
            Ok(()) => {
                next.refusal = None;
                next.revision += 1;
                next.history = mode;
                next
            }
            Err(message) => {
                // A refused edit changes nothing but the message.
                let mut same = self.clone();
                same.refusal = Some((field, message));
                same
            }
        }
    }

    /// The state a link carries.
    pub fn link_state(&self) -> LinkState {
        LinkState {
            scenario: self.scenario.clone(),
            ..Default::default()
        }
    }
}

impl Reducible for AppState {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = self.apply(action);
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}
