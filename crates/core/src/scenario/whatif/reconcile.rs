//! How the members of a consumer-protocol group reconcile with a new target, heartbeat by heartbeat.

use super::baseline::Baseline;
use crate::assignor::{Assignment, AssignorKind, GroupInput};

/// How the broker moves the group from the baseline to `a` (KIP-848,
/// [`crate::group::reconcile`]): each member of the baseline currently holds what the baseline
/// gave it (the previous target assignment), each member of `input` is to hold what `a` gives
/// it; members of the baseline no longer in `input` have left.
pub fn reconciliation(
    base: &Baseline,
    input: &GroupInput,
    a: &Assignment,
) -> crate::group::reconcile::Reconciliation {
    use crate::group::reconcile::Partitions;
    fn add(list: &mut Partitions, topic: &str, p: u32) {
        match list.last_mut() {
            Some((t, ps)) if t == topic => ps.push(p),
            _ => list.push((topic.to_string(), vec![p])),
        }
    }
    let mut before: Vec<(String, Partitions)> = base
        .members
        .iter()
        .map(|m| (m.clone(), Vec::new()))
        .collect();
    for (t, owners) in &base.topics {
        for (p, o) in owners.iter().enumerate() {
            if let Some(list) = o.and_then(|o| before.get_mut(o as usize)) {
                add(&mut list.1, t, p as u32);
            }
        }
    }
    let mut target: Vec<(String, Partitions)> = input
        .members
        .iter()
        .map(|m| (m.id.clone(), Vec::new()))
        .collect();
    for t in &a.topics {
        for (p, o) in t.owners.iter().enumerate() {
            if let Some(list) = target.get_mut(*o as usize) {
                add(&mut list.1, &t.topic, p as u32);
            }
        }
    }
    crate::group::reconcile::reconcile(&before, &target)
}

/// For the broker's assignors, the heartbeats reconciliation from `base` to `after` takes;
/// None for the client's.
pub(super) fn heartbeats_of(
    k: AssignorKind,
    base: &Baseline,
    is: &GroupInput,
    after: &Assignment,
) -> Option<u32> {
    k.is_broker().then(|| {
        reconciliation(base, is, after)
            .heartbeats_until_stable
            .unwrap_or(0)
    })
}
