//! KIP-848 reconciliation: how the broker moves each member from its current assignment to
//! its new target, one heartbeat at a time, never giving a partition to two members.
//!
//! The rules are those of apache/kafka 1eb7644,
//! `group-coordinator/.../modern/consumer/CurrentAssignmentBuilder.java`
//! (`computeNextAssignment`), applied at each `ConsumerGroupHeartbeat`:
//! - kept = current ∩ target; to revoke = current − target; to assign = target − kept,
//!   less the partitions still held by another member (`currentPartitionEpoch != -1`:
//!   "unreleased").
//! - A member with partitions to revoke goes to `UNREVOKED_PARTITIONS` with only the kept
//!   partitions: it gets nothing new until a later heartbeat no longer reports the revoked
//!   ones (`ownsRevokedPartitions`), which releases them.
//! - Otherwise it gets kept + the free partitions at once, and is `UNRELEASED_PARTITIONS`
//!   while some of its target is still held by others, `STABLE` when it has all of it.
//!
//! The model counts heartbeat *rounds*: in each round every member heartbeats once, and
//! what is released in a round reaches its new owner in the next (the coordinator
//! processes heartbeats one by one, so a new owner that heartbeats after the release may
//! get it a round earlier: these counts are the upper bound). A client acknowledges a
//! revocation in its first heartbeat after being told (it revokes in between). A member
//! that left holds nothing (its partitions are released when it is removed).

use crate::collections::FastMap;

/// A member's partitions: (topic, partitions).
pub type Partitions = Vec<(String, Vec<u32>)>;

/// What reconciliation means for one member.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemberPlan {
    /// Member id.
    pub member: String,
    /// Partitions it keeps throughout.
    pub keep: Partitions,
    /// Partitions it must revoke (and acknowledge) before it gets anything new.
    pub revoke: Partitions,
    /// New partitions nobody holds: given at its first heartbeat (or, if it must revoke,
    /// with its acknowledgement).
    pub take_now: Partitions,
    /// New partitions another member must revoke first.
    pub wait: Partitions,
    /// The round at which it holds exactly its target (0: nothing changes for it); `None`
    /// when it never does (only when two targets claim one partition).
    pub stable_after: Option<u32>,
}

/// The reconciliation of a whole group.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reconciliation {
    /// One plan per member of the target, in the target's order.
    pub members: Vec<MemberPlan>,
    /// Heartbeat rounds until every member holds its target (0 when nothing moves); `None`
    /// when that never happens (two targets claim one partition).
    pub heartbeats_until_stable: Option<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Stable,
    UnrevokedPartitions,
    UnreleasedPartitions,
}

/// Topic names interned, partitions as `topic << 32 | partition`.
#[derive(Default)]
struct Keys {
    names: Vec<String>,
    index: FastMap<String, u32>,
}

impl Keys {
    fn encode(&mut self, parts: &Partitions) -> Vec<u64> {
        let mut out = Vec::new();
        for (t, ps) in parts {
            let i = match self.index.get(t) {
                Some(i) => *i,
                None => {
                    self.names.push(t.clone());
                    self.index.insert(t.clone(), self.names.len() as u32 - 1);
                    self.names.len() as u32 - 1
                }
            };
            out.extend(ps.iter().map(|p| ((i as u64) << 32) | *p as u64));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn decode(&self, keys: &[u64]) -> Partitions {
        let mut out: Partitions = Vec::new();
        for k in keys {
            let name = &self.names[(k >> 32) as usize];
            let p = *k as u32;
            match out.last_mut() {
                Some((t, ps)) if t == name => ps.push(p),
                _ => out.push((name.clone(), vec![p])),
            }
        }
        out
    }
}

/// Sorted set difference a − b.
fn minus(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter()
        .copied()
        .filter(|x| b.binary_search(x).is_err())
        .collect()
}

/// Sorted set intersection.
fn both(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter()
        .copied()
        .filter(|x| b.binary_search(x).is_ok())
        .collect()
}

/// Reconciles `target` (member id -> its new target assignment) from `baseline` (member id
/// -> its current assignment, the previous target). Members of the baseline missing from
/// the target have left and hold nothing.
pub fn reconcile(
    baseline: &[(String, Partitions)],
    target: &[(String, Partitions)],
) -> Reconciliation {
    let mut keys = Keys::default();
    let before: FastMap<&str, &Partitions> =
        baseline.iter().map(|(m, p)| (m.as_str(), p)).collect();
    let targets: Vec<Vec<u64>> = target.iter().map(|(_, p)| keys.encode(p)).collect();
    let current: Vec<Vec<u64>> = target
        .iter()
        .map(|(m, _)| match before.get(m.as_str()) {
            Some(p) => keys.encode(p),
            None => Vec::new(),
        })
        .collect();
    // Who holds each partition (assigned or pending revocation): the currentPartitionEpoch
    // the coordinator keeps.
    let mut holder: FastMap<u64, usize> = FastMap::default();
    for (i, c) in current.iter().enumerate() {
        for k in c {
            holder.insert(*k, i);
        }
    }
    let mut members: Vec<MemberPlan> = target
        .iter()
        .enumerate()
        .map(|(i, (id, _))| {
            let (cur, tgt) = (&current[i], &targets[i]);
            let new = minus(tgt, cur);
            let held = |k: &u64| holder.get(k).is_some_and(|h| *h != i);
            MemberPlan {
                member: id.clone(),
                keep: keys.decode(&both(cur, tgt)),
                revoke: keys.decode(&minus(cur, tgt)),
                take_now: keys
                    .decode(&new.iter().copied().filter(|k| !held(k)).collect::<Vec<_>>()),
                wait: keys.decode(&new.iter().copied().filter(|k| held(k)).collect::<Vec<_>>()),
                stable_after: (cur == tgt).then_some(0),
            }
        })
        .collect();
    let mut state = vec![State::Stable; target.len()];
    let mut assigned = current.clone();
    let mut pending_revocation: Vec<Vec<u64>> = vec![Vec::new(); target.len()];
    let mut round = 0u32;
    while members.iter().any(|m| m.stable_after.is_none()) {
        round += 1;
        // Decisions see the holders at the start of the round; releases and grants take
        // effect for the next.
        let mut released: Vec<(u64, usize)> = Vec::new();
        let mut granted: Vec<(u64, usize)> = Vec::new();
        let mut progress = false;
        for i in 0..target.len() {
            if members[i].stable_after.is_some() {
                continue;
            }
            if state[i] == State::UnrevokedPartitions {
                // This heartbeat no longer reports the revoked partitions.
                released.extend(pending_revocation[i].drain(..).map(|k| (k, i)));
                progress = true;
            }
            // computeNextAssignment
            let tgt = &targets[i];
            let kept = both(&assigned[i], tgt);
            let revoke = minus(&assigned[i], tgt);
            let to_assign = minus(tgt, &kept);
            if !revoke.is_empty() {
                state[i] = State::UnrevokedPartitions;
                pending_revocation[i] = revoke;
                assigned[i] = kept;
                progress = true;
                continue;
            }
            let (free, unreleased): (Vec<u64>, Vec<u64>) = to_assign
                .iter()
                .partition(|k| holder.get(k).is_none_or(|h| *h == i));
            progress |= !free.is_empty();
            granted.extend(free.iter().map(|k| (*k, i)));
            let mut now = kept;
            now.extend(free);
            now.sort_unstable();
            assigned[i] = now;
            state[i] = if unreleased.is_empty() {
                State::Stable
            } else {
                State::UnreleasedPartitions
            };
        }
        for (k, i) in released {
            if holder.get(&k) == Some(&i) {
                holder.remove(&k);
            }
        }
        for (k, i) in granted {
            holder.insert(k, i);
        }
        for i in 0..target.len() {
            if members[i].stable_after.is_none()
                && state[i] == State::Stable
                && assigned[i] == targets[i]
            {
                members[i].stable_after = Some(round);
            }
        }
        if !progress {
            break; // two targets claim one partition: it never settles
        }
    }
    let heartbeats_until_stable = members
        .iter()
        .try_fold(0u32, |acc, m| m.stable_after.map(|r| acc.max(r)));
    Reconciliation {
        members,
        heartbeats_until_stable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(ps: Listed) -> Partitions {
        ps.iter()
            .map(|(t, p)| (t.to_string(), p.to_vec()))
            .collect()
    }

    type Listed<'a> = &'a [(&'a str, &'a [u32])];

    fn group(ms: &[(&str, Listed)]) -> Vec<(String, Partitions)> {
        ms.iter().map(|(m, p)| (m.to_string(), parts(p))).collect()
    }

    #[test]
    fn nothing_changes_nothing_to_do() {
        let g = group(&[("a", &[("t", &[0, 1])]), ("b", &[("t", &[2])])]);
        let r = reconcile(&g, &g);
        assert_eq!(r.heartbeats_until_stable, Some(0));
        assert!(r
            .members
            .iter()
            .all(|m| m.revoke.is_empty() && m.wait.is_empty()));
    }

    #[test]
    fn a_join_waits_for_a_revocation() {
        // c joins; a gives partition 1 to c. Round 1: a is told to revoke 1. Round 2: a
        // acknowledges (1 released). Round 3: c gets 1.
        let before = group(&[("a", &[("t", &[0, 1])]), ("b", &[("t", &[2, 3])])]);
        let after = group(&[
            ("a", &[("t", &[0])]),
            ("b", &[("t", &[2, 3])]),
            ("c", &[("t", &[1])]),
        ]);
        let r = reconcile(&before, &after);
        let a = &r.members[0];
        assert_eq!(a.revoke, parts(&[("t", &[1])]));
        assert_eq!(a.keep, parts(&[("t", &[0])]));
        assert_eq!(a.stable_after, Some(2));
        assert_eq!(r.members[1].stable_after, Some(0));
        let c = &r.members[2];
        assert_eq!(c.wait, parts(&[("t", &[1])]));
        assert!(c.take_now.is_empty());
        assert_eq!(c.stable_after, Some(3));
        assert_eq!(r.heartbeats_until_stable, Some(3));
    }

    #[test]
    fn a_leave_frees_partitions_at_once() {
        // b left: its partitions are free, a takes them at its first heartbeat.
        let before = group(&[("a", &[("t", &[0])]), ("b", &[("t", &[1])])]);
        let after = group(&[("a", &[("t", &[0, 1])])]);
        let r = reconcile(&before, &after);
        assert_eq!(r.members[0].take_now, parts(&[("t", &[1])]));
        assert_eq!(r.heartbeats_until_stable, Some(1));
    }

    #[test]
    fn a_revoking_member_gets_free_partitions_only_with_its_acknowledgement() {
        // a gives up t:0 (deleted from its target) and gains the free u:0: in round 1 it
        // only revokes (UNREVOKED_PARTITIONS holds back new partitions), in round 2 it
        // acknowledges and gets u:0.
        let before = group(&[("a", &[("t", &[0])])]);
        let after = group(&[("a", &[("u", &[0])])]);
        let r = reconcile(&before, &after);
        assert_eq!(r.members[0].take_now, parts(&[("u", &[0])]));
        assert_eq!(r.members[0].stable_after, Some(2));
    }

    #[test]
    fn a_chain_of_moves_takes_three_rounds() {
        // a -> b -> c: b revokes one partition and waits for another.
        let before = group(&[
            ("a", &[("t", &[0, 1])]),
            ("b", &[("t", &[2, 3])]),
            ("c", &[]),
        ]);
        let after = group(&[
            ("a", &[("t", &[0])]),
            ("b", &[("t", &[1, 2])]),
            ("c", &[("t", &[3])]),
        ]);
        let r = reconcile(&before, &after);
        assert_eq!(r.members[1].revoke, parts(&[("t", &[3])]));
        assert_eq!(r.members[1].wait, parts(&[("t", &[1])]));
        assert_eq!(
            r.members.iter().map(|m| m.stable_after).collect::<Vec<_>>(),
            [Some(2), Some(3), Some(3)]
        );
    }

    #[test]
    fn a_partition_claimed_twice_never_settles() {
        let before = group(&[("a", &[("t", &[0])]), ("b", &[])]);
        let after = group(&[("a", &[("t", &[0])]), ("b", &[("t", &[0])])]);
        let r = reconcile(&before, &after);
        assert_eq!(r.heartbeats_until_stable, None);
        assert_eq!(r.members[1].stable_after, None);
    }
}
