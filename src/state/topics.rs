//! The topics: added, renamed, resized, racked, given an id, removed, explained.

use super::{AppState, HistoryMode, Outcome};
use rebalance_lab_core::scenario::edit;
use std::rc::Rc;

pub(super) fn add(next: &mut AppState) -> Outcome {
    let name = edit::add_topic(Rc::make_mut(&mut next.scenario));
    next.selected_topic = Some(name);
    Outcome::Changed(HistoryMode::Push)
}

pub(super) fn rename(next: &mut AppState, index: usize, name: String) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    let old = s.topics.get(index).map(|t| t.name.clone());
    let r = edit::rename_topic(s, index, &name);
    // (an imported group's lag follows its topic)
    if let (Ok(()), Some(old), Some(i)) = (&r, &old, next.imported.as_mut()) {
        let i = Rc::make_mut(i);
        if let Some(l) = i.lag.remove(old) {
            i.lag.insert(name.clone(), l);
        }
    }
    if r.is_ok() && next.selected_topic == old {
        next.selected_topic = Some(name);
    }
    Outcome::typed(r, format!("topic-{index}-name"))
}

pub(super) fn set_partitions(next: &mut AppState, index: usize, text: &str) -> Outcome {
    let r = edit::set_partitions(Rc::make_mut(&mut next.scenario), index, text);
    Outcome::typed(r, format!("topic-{index}-partitions"))
}

pub(super) fn set_racks(next: &mut AppState, index: usize, text: &str) -> Outcome {
    let r = edit::set_partition_racks(Rc::make_mut(&mut next.scenario), index, text);
    Outcome::typed(r, format!("topic-{index}-racks"))
}

pub(super) fn set_id(next: &mut AppState, index: usize, text: &str) -> Outcome {
    let r = edit::set_topic_id(Rc::make_mut(&mut next.scenario), index, text);
    Outcome::typed(r, format!("topic-{index}-id"))
}

pub(super) fn remove(next: &mut AppState, index: usize) -> Outcome {
    edit::remove_topic(Rc::make_mut(&mut next.scenario), index);
    Outcome::Changed(HistoryMode::Push)
}

pub(super) fn select(next: &mut AppState, topic: Option<String>) -> Outcome {
    next.selected_topic = topic;
    Outcome::Viewed
}
