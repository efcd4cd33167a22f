//! `CooperativeStickyAssignor`: the sticky assignment, minus every partition that changes
//! owner; those stay unassigned until the follow-up rebalance, after their previous owners
//! have revoked them (incremental cooperative rebalancing, KIP-429).

use super::{Assignment, AssignorKind, GroupInput, StickyError};

/// Round 1: the Java client's answer, with the withheld partitions in
/// [`Assignment::withheld`]. The previous assignment is each member's subscription: its
/// owned partitions and generation id ([`crate::assignor::MemberMeta::owned`],
/// [`crate::assignor::MemberMeta::generation`]).
pub fn cooperative_sticky(input: &GroupInput) -> Result<Assignment, StickyError> {
    super::assign(input, AssignorKind::CooperativeSticky)
}

/// The group as it rejoins after round 1: every member now owns what round 1 gave it, all
/// in the next generation.
pub fn follow_up_input(input: &GroupInput, round1: &Assignment) -> GroupInput {
    let generation = input
        .members
        .iter()
        .filter_map(|m| m.generation)
        .max()
        .unwrap_or(-1)
        .saturating_add(1);
    let mut owned: Vec<Vec<(String, Vec<i32>)>> = vec![Vec::new(); input.members.len()];
    for t in &round1.topics {
        for (p, o) in t.owners.iter().enumerate() {
            let Some(list) = owned.get_mut(*o as usize) else {
                continue; // UNASSIGNED
            };
            match list.last_mut() {
                Some((name, ps)) if *name == t.topic => ps.push(p as i32),
                _ => list.push((t.topic.clone(), vec![p as i32])),
            }
        }
    }
    for g in &round1.extra {
        if let Some(list) = owned.get_mut(g.member as usize) {
            match list.iter_mut().find(|(t, _)| *t == g.topic) {
                Some((_, ps)) => ps.push(g.partition),
                None => list.push((g.topic.clone(), vec![g.partition])),
            }
        }
    }
    let mut next = input.clone();
    for (m, owned) in next.members.iter_mut().zip(owned) {
        m.owned = owned;
        m.generation = Some(generation);
    }
    next
}

/// Round 2, the follow-up rebalance: members own what round 1 gave them (see
/// [`follow_up_input`]) and the assignor runs again; it now gives out the partitions round 1
/// withheld.
pub fn cooperative_follow_up(
    input: &GroupInput,
    round1: &Assignment,
) -> Result<Assignment, StickyError> {
    cooperative_sticky(&follow_up_input(input, round1))
}
