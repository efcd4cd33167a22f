//! RangeAssignor, as in the Java client (including KIP-881 rack awareness).
//!
//! Each topic on its own, over its subscribers only, in assignor order: with n partitions
//! and m subscribers, member i gets n div m, plus one if i < n mod m, starting at
//! (n div m) * i + min(i, n mod m). When racks apply, a first pass gives members only
//! partitions with a replica on their rack (within the same quotas), co-partitioned topics
//! together; then the plain rule places the rest.

use super::{
    prepare, totals, Assignment, AssignorKind, GroupInput, Share, TopicAssignment, TopicMeta,
    UNASSIGNED,
};
use crate::collections::{sort, VecMap};
use std::rc::Rc;

/// Rack names, sorted and without repeats.
type RackSet<'a> = Vec<&'a str>;

fn rack_set<'a>(racks: impl Iterator<Item = &'a str>) -> RackSet<'a> {
    let mut set: Vec<&str> = racks.collect();
    sort(&mut set);
    set.dedup();
    set
}

/// The last shares built: for these subscribers and this partition count.
type SharedShares<'a> = (&'a [u32], u32, Rc<[Share]>);

/// Java's TopicAssignmentState.
struct State<'a> {
    name: &'a str,
    partitions: u32,
    /// Subscribers in order (member indices).
    consumers: &'a [u32],
    /// Each member's non-empty rack, by member index (shared by all topics).
    racks: &'a [Option<&'a str>],
    /// Per partition, its replicas' racks; empty when no subscriber has a rack (Java's
    /// partitionRacks is then an empty map, and its size() groups topics).
    partition_racks: Vec<RackSet<'a>>,
    needs_rack_aware: bool,
    owners: Vec<u32>,
    /// assigned count per consumer position
    assigned: Vec<u32>,
    per: u32,
    remaining_extra: u32,
    /// First partition not yet assigned (the plain pass takes unassigned ones in order).
    cursor: usize,
    rack_pass_used: bool,
}

impl<'a> State<'a> {
    fn new(
        name: &'a str,
        meta: &'a TopicMeta,
        consumers: &'a [u32],
        racks: &'a [Option<&'a str>],
        any_rack: bool,
    ) -> Self {
        let n = meta.partitions;
        let m = consumers.len() as u32;
        let consumer_racks = if any_rack {
            rack_set(consumers.iter().filter_map(|c| racks[*c as usize]))
        } else {
            Vec::new()
        };
        let mut partition_racks = Vec::new();
        let mut all_partition_racks = Vec::new();
        if !consumer_racks.is_empty() {
            partition_racks = (0..n as usize)
                .map(|p| {
                    let set = rack_set(meta.racks.get(p).into_iter().flatten().map(String::as_str));
                    all_partition_racks.extend(set.iter().copied());
                    set
                })
                .collect();
            all_partition_racks = rack_set(all_partition_racks.into_iter());
        }
        // AbstractPartitionAssignor.useRackAwareAssignment (preferRackAwareLogic = false).
        let needs_rack_aware = !consumer_racks.is_empty()
            && consumer_racks
                .iter()
                .any(|r| all_partition_racks.binary_search(r).is_ok())
            && !partition_racks.iter().all(|r| *r == all_partition_racks);
        State {
            name,
            partitions: n,
            per: n.checked_div(m).unwrap_or(0),
            remaining_extra: n.checked_rem(m).unwrap_or(0),
            // Allocated only when a rack pass needs it (see `assigned_mut`).
            assigned: Vec::new(),
            consumers,
            racks,
            partition_racks,
            needs_rack_aware,
            owners: vec![UNASSIGNED; n as usize],
            cursor: 0,
            rack_pass_used: false,
        }
    }

    fn max_assignable(&self, c: usize) -> u32 {
        let max = self.per + u32::from(self.remaining_extra > 0);
        max.saturating_sub(self.assigned.get(c).copied().unwrap_or(0))
    }

    fn racks_match(&self, c: usize, p: usize) -> bool {
        match self.racks[self.consumers[c] as usize] {
            None => true,
            Some(rack) => self
                .partition_racks
                .get(p)
                .is_some_and(|r| r.binary_search(&rack).is_ok()),
        }
    }

    /// Java's onAssigned, for `count` partitions just given to consumer `c`.
    fn on_assigned(&mut self, c: usize, count: u32) {
        if self.assigned.is_empty() {
            self.assigned = vec![0; self.consumers.len()];
        }
        self.assigned[c] += count;
        if self.assigned[c] > self.per {
            self.remaining_extra = self.remaining_extra.saturating_sub(1);
        }
    }

    fn unassigned_left(&mut self) -> bool {
        while self.cursor < self.owners.len() && self.owners[self.cursor] != UNASSIGNED {
            self.cursor += 1;
        }
        self.cursor < self.owners.len()
    }

    /// Java's assignRanges with mayAssign = racksMatch.
    fn assign_ranges_rack_matching(&mut self) {
        for c in 0..self.consumers.len() {
            if !self.unassigned_left() {
                break;
            }
            let limit = self.max_assignable(c) as usize;
            let picked: Vec<usize> = (self.cursor..self.owners.len())
                .filter(|p| self.owners[*p] == UNASSIGNED && self.racks_match(c, *p))
                .take(limit)
                .collect();
            if picked.is_empty() {
                continue;
            }
            for p in &picked {
                self.owners[*p] = self.consumers[c];
            }
            self.rack_pass_used = true;
            self.on_assigned(c, picked.len() as u32);
        }
    }

    /// Java's assignRanges with mayAssign = always: the first unassigned partitions in
    /// order, up to each consumer's remaining quota. Linear: a cursor skips assigned ones.
    fn assign_ranges(&mut self) {
        if self.assigned.is_empty() {
            // Nothing placed yet (no rack pass here): the plain rule, one write per partition.
            let mut p = 0usize;
            for (c, m) in self.consumers.iter().enumerate() {
                let count = (self.per + u32::from((c as u32) < self.remaining_extra)) as usize;
                self.owners[p..p + count].fill(*m);
                p += count;
            }
            return;
        }
        for c in 0..self.consumers.len() {
            if !self.unassigned_left() {
                break;
            }
            let limit = self.max_assignable(c);
            let owner = self.consumers[c];
            let mut given = 0;
            while given < limit && self.unassigned_left() {
                self.owners[self.cursor] = owner;
                self.cursor += 1;
                given += 1;
            }
            if given > 0 {
                self.on_assigned(c, given);
            }
        }
    }
}

/// Java's assignCoPartitionedWithRackMatching: partition i of every topic in the group goes
/// to the first remaining consumer whose rack matches it in all of them and that still has
/// quota in all of them.
fn assign_co_partitioned(states: &mut [&mut State<'_>], num_partitions: u32) {
    let mut remaining: Vec<usize> = (0..states[0].consumers.len()).collect();
    for p in 0..num_partitions as usize {
        let found = remaining.iter().position(|&c| {
            states
                .iter()
                .all(|t| t.racks_match(c, p) && t.max_assignable(c) > 0)
        });
        if let Some(k) = found {
            let c = remaining[k];
            for t in states.iter_mut() {
                // Java's assign(consumer, topic, p): adds it even if already taken by an
                // earlier pass would not happen here (each topic is in one group only).
                if t.owners[p] == UNASSIGNED {
                    t.owners[p] = t.consumers[c];
                    t.rack_pass_used = true;
                }
                t.on_assigned(c, 1);
            }
            if states.iter().all(|t| t.max_assignable(c) == 0) {
                remaining.remove(k);
                if remaining.is_empty() {
                    break;
                }
            }
        }
    }
}

/// Runs the RangeAssignor.
pub fn range(input: &GroupInput) -> Assignment {
    let prep = prepare(input);
    let racks: Vec<Option<&str>> = input
        .members
        .iter()
        .map(|m| m.rack.as_deref().filter(|r| !r.is_empty()))
        .collect();
    let any_rack = racks.iter().any(Option::is_some);
    let mut states: Vec<State<'_>> = prep
        .topics
        .iter()
        .filter_map(|(name, meta, subs)| meta.map(|m| State::new(name, m, subs, &racks, any_rack)))
        .collect();

    if states.iter().any(|s| s.needs_rack_aware) {
        // Group by (subscribers, partitionRacks.size()).
        // (kept in key order, the order the groups are then visited in)
        let mut groups: VecMap<(&[u32], usize), Vec<usize>> = VecMap::new();
        for (i, s) in states.iter().enumerate() {
            groups
                .entry_or_default((s.consumers, s.partition_racks.len()))
                .push(i);
        }
        for (key, members) in groups {
            if members.len() > 1 {
                let mut refs: Vec<&mut State<'_>> = states
                    .iter_mut()
                    .enumerate()
                    .filter(|(i, _)| members.contains(i))
                    .map(|(_, s)| s)
                    .collect();
                assign_co_partitioned(&mut refs, key.1 as u32);
            } else {
                let s = &mut states[members[0]];
                if s.needs_rack_aware {
                    s.assign_ranges_rack_matching();
                }
            }
        }
    }
    for s in states.iter_mut() {
        s.cursor = 0;
        s.assign_ranges();
    }

    // `states` holds the topics with metadata, in the same order as `prep.topics`.
    let mut states = states.into_iter().peekable();
    let mut topics = Vec::with_capacity(prep.topics.len());
    // Topics with the same subscribers and partition count have the same shares: built once.
    let mut last_shares: Option<SharedShares<'_>> = None;
    for (name, _, subs) in &prep.topics {
        let state = match states.peek() {
            Some(s) if s.name == *name => states.next(),
            _ => None,
        };
        match state {
            Some(s) => {
                let shares = match &last_shares {
                    Some((subs_before, n, shares))
                        if *subs_before == s.consumers && *n == s.partitions =>
                    {
                        shares.clone()
                    }
                    _ => {
                        let extra = s
                            .partitions
                            .checked_rem(s.consumers.len() as u32)
                            .unwrap_or(0);
                        let shares: Rc<[Share]> = s
                            .consumers
                            .iter()
                            .enumerate()
                            .map(|(i, m)| {
                                let i = i as u32;
                                let quota = s.per + u32::from(i < extra);
                                Share {
                                    member: *m,
                                    index: i,
                                    quota,
                                    first: (quota > 0).then(|| s.per * i + i.min(extra)),
                                }
                            })
                            .collect();
                        last_shares = Some((s.consumers, s.partitions, shares.clone()));
                        shares
                    }
                };
                topics.push(TopicAssignment {
                    topic: name.to_string(),
                    partitions: s.partitions,
                    owners: s.owners,
                    shares,
                    rack_aware: s.rack_pass_used,
                });
            }
            None => topics.push(TopicAssignment {
                topic: name.to_string(),
                partitions: 0,
                owners: Vec::new(),
                shares: subs
                    .iter()
                    .enumerate()
                    .map(|(i, m)| Share {
                        member: *m,
                        index: i as u32,
                        quota: 0,
                        first: None,
                    })
                    .collect(),
                rack_aware: false,
            }),
        }
    }
    let totals = totals(input.members.len(), &topics);
    Assignment {
        assignor: AssignorKind::Range,
        order: prep.order,
        topics,
        totals,
    }
}
