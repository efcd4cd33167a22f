//! The members: added, counted, renamed, given an instance id, a rack and topics, removed.

use super::{id_at, seed_of, AppState, HistoryMode, Outcome};
use rebalance_lab_core::group::GroupEvent;
use rebalance_lab_core::scenario::edit;
use std::rc::Rc;

pub(super) fn add(next: &mut AppState) -> Outcome {
    let seed = seed_of(next);
    edit::add_member(Rc::make_mut(&mut next.scenario), seed);
    Outcome::Changed(HistoryMode::Push)
}

/// "members: N": the group gets N members in one step.
pub(super) fn set_count(next: &mut AppState, text: &str) -> Outcome {
    let seed = seed_of(next);
    match edit::set_member_count(Rc::make_mut(&mut next.scenario), text, seed) {
        Ok(_) => Outcome::Changed(HistoryMode::Push),
        Err(message) => Outcome::refused("member-count", message),
    }
}

pub(super) fn rename(next: &mut AppState, index: usize, id: &str) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    let old = s.members.get(index).map(|m| m.id.clone());
    let r = edit::rename_member(s, index, id);
    if let (Ok(()), Some(old)) = (&r, old) {
        next.rekey(&old, id);
        next.colours.rename(&old, id);
    }
    Outcome::typed(r, format!("member-{index}-id"))
}

pub(super) fn set_instance_id(next: &mut AppState, index: usize, text: &str) -> Outcome {
    let r = edit::set_instance_id(Rc::make_mut(&mut next.scenario), index, text);
    Outcome::typed(r, format!("member-{index}-instance"))
}

/// The rack is in the member's bytes: hex still being typed gives way to them.
pub(super) fn set_rack(next: &mut AppState, index: usize, text: &str) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    let r = edit::set_rack(s, index, text);
    if r.is_ok() {
        next.hex_drafts.remove(&id_at(s, index));
    }
    Outcome::typed(r, format!("member-{index}-rack"))
}

/// So are its topics.
pub(super) fn set_subscribed(next: &mut AppState, index: usize, topic: &str, on: bool) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    match edit::set_subscribed(s, index, topic, on) {
        Ok(()) => {
            next.hex_drafts.remove(&id_at(s, index));
            Outcome::Changed(HistoryMode::Push)
        }
        Err(message) => Outcome::refused("", message),
    }
}

/// A member leaves: the group's log records it (so the leader after it is the broker's),
/// and its view state goes; the others keep theirs, keyed by member id.
pub(super) fn remove(next: &mut AppState, index: usize) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    let gone = id_at(s, index);
    if next.group_log.is_empty() {
        next.group_log = s
            .members
            .iter()
            .map(|m| GroupEvent::Join(m.id.clone()))
            .collect();
    }
    edit::remove_member(s, index);
    next.hex_drafts.remove(&gone);
    next.versions.remove(&gone);
    if next.bytes_member.as_ref() == Some(&gone) {
        next.bytes_member = None;
    }
    Outcome::Changed(HistoryMode::Push)
}

/// Who joined first, when the person knows it (an import cannot: kafka-consumer-groups.sh
/// does not print it): the member moves to the head of the list, which is the join order
/// while nobody has left; the others keep their order.
pub(super) fn join_first(next: &mut AppState, index: usize) -> Outcome {
    if !next.group_log.is_empty() {
        return Outcome::refused(
            "group",
            "a member has left since the members joined: the joins and leaves decide the order, not the list".into(),
        );
    }
    let s = Rc::make_mut(&mut next.scenario);
    if index >= s.members.len() {
        return Outcome::refused("group", format!("there is no member {}", index + 1));
    }
    let m = s.members.remove(index);
    s.members.insert(0, m);
    Outcome::Changed(HistoryMode::Push)
}
