//! The what-if: a baseline pinned and let go, a rolling restart, the story's steps, the
//! planner's member counts.

use super::rekeyed;
use super::{AppState, HistoryMode, Outcome};
use rebalance_lab_core::scenario::whatif::{self, Baseline};
use std::rc::Rc;

/// Pins what is on screen, the current baseline being the previous generation.
pub(super) fn pin(next: &mut AppState) -> Outcome {
    let s = &next.scenario;
    next.baseline = Some(Baseline::now(s, next.baseline.as_ref()));
    next.pinned = Some(((**s).clone(), Vec::new()));
    Outcome::Changed(HistoryMode::Push)
}

pub(super) fn unpin(next: &mut AppState) -> Outcome {
    next.baseline = None;
    next.pinned = None;
    // (unpinned during the story: the story's group on screen is the person's to work with
    // now, and no older group comes back later)
    if next.story_step.take().is_some() && next.lesson.is_none() {
        next.own_group = None;
    }
    Outcome::Changed(HistoryMode::Push)
}

/// Every member rejoins with a new member id (pinned first when nothing is): the baseline,
/// the colours and each member's view state follow each member to its new id.
pub(super) fn rolling_restart(next: &mut AppState) -> Outcome {
    let seed = next
        .revision
        .wrapping_mul(2_654_435_761)
        .wrapping_add(next.scenario.members.len() as u64);
    let s = Rc::make_mut(&mut next.scenario);
    let mut base = next
        .baseline
        .take()
        .unwrap_or_else(|| Baseline::now(s, None));
    let (pinned, mut renames) = next
        .pinned
        .take()
        .unwrap_or_else(|| (s.clone(), Vec::new()));
    for (old, new) in whatif::rolling_restart(s, seed) {
        base.rename(&old, &new);
        next.colours.rename(&old, &new);
        // a second restart renames the first one's new id
        match renames.iter_mut().find(|(_, n)| *n == old) {
            Some(r) => r.1 = new.clone(),
            None => renames.push((old.clone(), new.clone())),
        }
        next.versions = rekeyed(&next.versions, &old, &new);
        if next.bytes_member.as_deref() == Some(old.as_str()) {
            next.bytes_member = Some(new);
        }
    }
    next.baseline = Some(base);
    next.pinned = Some((pinned, renames));
    next.hex_drafts.clear();
    Outcome::Changed(HistoryMode::Push)
}

/// A step of the story: its group, its baseline and its log of joins and leaves.
pub(super) fn story_step(next: &mut AppState, k: usize) -> Outcome {
    let Some(step) = whatif::story().into_iter().nth(k) else {
        return Outcome::refused("", format!("the story has no step {}", k + 1));
    };
    // (the person's group comes back when they leave the story)
    if next.story_step.is_none() && next.lesson.is_none() {
        next.keep_own_group();
    }
    next.scenario = Rc::new(step.scenario);
    // (the story's group is not the imported one: its lag and what Kafka's tool said of it
    // go)
    next.imported = None;
    next.baseline = step.baseline;
    next.pinned = step.previous.map(|p| (p, step.renames));
    next.story_step = Some(k);
    next.group_log = step.group_log;
    next.hex_drafts.clear();
    next.versions.clear();
    next.bytes_member = None;
    Outcome::Changed(HistoryMode::Push)
}

/// Leaves the story: the person's own group comes back.
pub(super) fn exit_story(next: &mut AppState) -> Outcome {
    next.story_step = None;
    if next.lesson.is_none() {
        next.restore_own_group();
    }
    Outcome::Changed(HistoryMode::Push)
}

/// The planner's point for `count` members, as a what-if against the group now (pinned
/// first when nothing is).
pub(super) fn plan_members(next: &mut AppState, count: u32, seed: u64) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    if next.baseline.is_none() {
        next.baseline = Some(Baseline::now(s, None));
        next.pinned = Some((s.clone(), Vec::new()));
    }
    *s = rebalance_lab_core::scenario::planner::with_members(s, count, seed);
    Outcome::Changed(HistoryMode::Push)
}
