//! RangeAssignor, as in the Java client (including KIP-881 rack awareness).
//!
//! Each topic on its own, over its subscribers only, in assignor order: with n partitions
//! and m subscribers, member i gets n div m, plus one if i < n mod m, starting at
//! (n div m) * i + min(i, n mod m). When racks apply, a first pass gives members only
//! partitions with a replica on their rack (within the same quotas), co-partitioned topics
//! together; then the plain rule places the rest.

use super::{
    prepare_with, totals, Assignment, AssignorKind, GroupInput, LeaderClient, Share,
    TopicAssignment, TopicMeta, UNASSIGNED,
};
use crate::collections::FastMap;
use std::rc::Rc;

/// Rack names, sorted and without repeats.
type RackSet<'a> = Vec<&'a str>;

fn rack_set<'a>(racks: impl Iterator<Item = &'a str>) -> RackSet<'a> {
    let mut set: Vec<&str> = racks.collect();
    crate::collections::sort(&mut set);
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

    /// Whether partition `p` has a replica on `rack`.
    fn racks_match_rack(&self, rack: &str, p: usize) -> bool {
        self.partition_racks
            .get(p)
            .is_some_and(|r| r.binary_search(&rack).is_ok())
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
    ///
    /// Java scans every unassigned partition for every consumer (consumers × partitions
    /// when racks rarely match). Here a consumer without a rack takes the next unassigned
    /// partitions, and one with a rack walks only the partitions that have a replica on
    /// its rack; both skip assigned partitions once, so the pass is linear in the rack
    /// lists.
    fn assign_ranges_rack_matching(&mut self) {
        let n = self.owners.len();
        // The partitions with a replica on each consumer rack, in order.
        let mut rack_index: FastMap<&str, usize> = FastMap::default();
        for c in self.consumers {
            if let Some(r) = self.racks[*c as usize] {
                let next = rack_index.len();
                rack_index.entry(r).or_insert(next);
            }
        }
        let mut on_rack: Vec<Vec<u32>> = vec![Vec::new(); rack_index.len()];
        for (p, set) in self.partition_racks.iter().enumerate() {
            for r in set {
                if let Some(&k) = rack_index.get(r) {
                    on_rack[k].push(p as u32);
                }
            }
        }
        let mut rack_next = vec![0usize; on_rack.len()];
        // next_free[p]: a partition at or after p that may be unassigned (path-halved).
        let mut next_free: Vec<u32> = (0..=n as u32).collect();
        fn find(next_free: &mut [u32], mut p: usize) -> usize {
            while next_free[p] as usize != p {
                let up = next_free[next_free[p] as usize];
                next_free[p] = up;
                p = up as usize;
            }
            p
        }
        for c in 0..self.consumers.len() {
            if !self.unassigned_left() {
                break;
            }
            let limit = self.max_assignable(c) as usize;
            let owner = self.consumers[c];
            let mut picked = 0usize;
            match self.racks[owner as usize] {
                None => {
                    while picked < limit {
                        let p = find(&mut next_free, self.cursor);
                        if p >= n {
                            break;
                        }
                        self.owners[p] = owner;
                        next_free[p] = p as u32 + 1;
                        picked += 1;
                    }
                }
                Some(rack) => {
                    let k = rack_index[rack];
                    let list = &on_rack[k];
                    let at = &mut rack_next[k];
                    while picked < limit && *at < list.len() {
                        let p = list[*at] as usize;
                        *at += 1;
                        if self.owners[p] == UNASSIGNED {
                            self.owners[p] = owner;
                            next_free[p] = p as u32 + 1;
                            picked += 1;
                        }
                    }
                }
            }
            if picked == 0 {
                continue;
            }
            self.rack_pass_used = true;
            self.on_assigned(c, picked as u32);
        }
    }

    /// Java's assignRanges with mayAssign = always: the first unassigned partitions in
    /// order, up to each consumer's remaining quota. Linear: a cursor skips assigned ones.
    fn assign_ranges(&mut self) {
        if self.assigned.is_empty() {
            // Nothing placed yet (no rack pass here): the plain rule, one write per partition.
            let mut p = 0usize;
            for (c, m) in self.consumers.iter().enumerate() {
                if p == self.owners.len() {
                    // The rest get nothing (more members than partitions).
                    break;
                }
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
///
/// Java tries the consumers one by one for every partition (partitions × consumers when
/// racks rarely match). A consumer that has used up its quota never gets it back (assigned
/// counts only grow and the extras only shrink), so here each rack keeps its consumers in
/// order and drops the exhausted ones from the front; a partition asks only the consumers
/// without a rack and those on the racks all its topics have a replica on.
fn assign_co_partitioned(states: &mut [&mut State<'_>], num_partitions: u32) {
    let consumers = states[0].consumers;
    let racks = states[0].racks;
    let mut rack_index: FastMap<&str, usize> = FastMap::default();
    let mut no_rack: Vec<usize> = Vec::new();
    let mut on_rack: Vec<Vec<usize>> = Vec::new();
    for (c, m) in consumers.iter().enumerate() {
        match racks[*m as usize] {
            None => no_rack.push(c),
            Some(r) => {
                let k = *rack_index.entry(r).or_insert_with(|| {
                    on_rack.push(Vec::new());
                    on_rack.len() - 1
                });
                on_rack[k].push(c);
            }
        }
    }
    let mut no_rack_next = 0usize;
    let mut rack_next = vec![0usize; on_rack.len()];
    let has_quota =
        |states: &[&mut State<'_>], c: usize| states.iter().all(|t| t.max_assignable(c) > 0);
    for p in 0..num_partitions as usize {
        // The first consumer with quota left, among those without a rack...
        while no_rack_next < no_rack.len() && !has_quota(states, no_rack[no_rack_next]) {
            no_rack_next += 1;
        }
        let mut found = no_rack.get(no_rack_next).copied();
        // ...and on each rack that every topic has a replica of partition p on.
        let Some(narrowest) = states
            .iter()
            .map(|t| t.partition_racks.get(p).map_or(&[][..], |r| r.as_slice()))
            .min_by_key(|r| r.len())
        else {
            break;
        };
        for rack in narrowest {
            let Some(&k) = rack_index.get(rack) else {
                continue;
            };
            if !states.iter().all(|t| t.racks_match_rack(rack, p)) {
                continue;
            }
            let list = &on_rack[k];
            let at = &mut rack_next[k];
            while *at < list.len() && !has_quota(states, list[*at]) {
                *at += 1;
            }
            if let Some(&c) = list.get(*at) {
                if found.is_none_or(|f| c < f) {
                    found = Some(c);
                }
            }
        }
        if let Some(c) = found {
            for t in states.iter_mut() {
                if t.owners[p] == UNASSIGNED {
                    t.owners[p] = t.consumers[c];
                    t.rack_pass_used = true;
                }
                t.on_assigned(c, 1);
            }
        }
    }
}

/// Runs the RangeAssignor (the Java client's).
pub fn range(input: &GroupInput) -> Assignment {
    range_with(input, LeaderClient::Java)
}

/// Runs the RangeAssignor with the member order of the leader's `client`.
///
/// Without racks librdkafka's range is Java's over its own member order. With racks,
/// librdkafka's rack-aware pass (src/rdkafka_range_assignor.c) groups co-partitioned topics
/// differently from Java's; this uses Java's rack-aware logic in either case.
pub fn range_with(input: &GroupInput, client: LeaderClient) -> Assignment {
    let prep = prepare_with(input, client);
    let racks: Vec<Option<&str>> = input
        .members
        .iter()
        .map(|m| m.rack.as_deref().filter(|r| !r.is_empty()))
        .collect();
    let any_rack = racks.iter().any(Option::is_some);
    let mut states: Vec<State<'_>> = prep
        .topics
        .iter()
        .filter_map(|(name, meta, l)| {
            meta.map(|m| State::new(name, m, &prep.lists[*l as usize], &racks, any_rack))
        })
        .collect();

    if states.iter().any(|s| s.needs_rack_aware) {
        // Group by (subscribers, partitionRacks.size()), groups visited in key order, each
        // group's topics in topic order. One sort and one pass (not a sorted insertion and
        // a scan of every topic per group, quadratic in the number of topics).
        let mut keyed: Vec<((&[u32], usize), usize)> = states
            .iter()
            .enumerate()
            .map(|(i, s)| ((s.consumers, s.partition_racks.len()), i))
            .collect();
        crate::collections::sort_by(&mut keyed, |a, b| a.0.cmp(&b.0));
        let mut group_of = vec![0usize; states.len()];
        let mut group_partitions: Vec<usize> = Vec::new();
        for (j, (key, i)) in keyed.iter().enumerate() {
            if j == 0 || keyed[j - 1].0 != *key {
                group_partitions.push(key.1);
            }
            group_of[*i] = group_partitions.len() - 1;
        }
        let mut groups: Vec<Vec<&mut State<'_>>> =
            (0..group_partitions.len()).map(|_| Vec::new()).collect();
        for (i, s) in states.iter_mut().enumerate() {
            groups[group_of[i]].push(s);
        }
        for (mut refs, partitions) in groups.into_iter().zip(group_partitions) {
            if refs.len() > 1 {
                assign_co_partitioned(&mut refs, partitions as u32);
            } else if refs[0].needs_rack_aware {
                refs[0].assign_ranges_rack_matching();
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
    // Topics with the same subscribers (one shared list) and partition count have the same
    // shares: built once.
    let mut last_shares: Option<SharedShares<'_>> = None;
    for (name, _, l) in &prep.topics {
        let subs = &prep.lists[*l as usize];
        let state = match states.peek() {
            Some(s) if s.name == *name => states.next(),
            _ => None,
        };
        match state {
            Some(s) => {
                let shares = match &last_shares {
                    Some((subs_before, n, shares))
                        if *n == s.partitions && std::ptr::eq(*subs_before, s.consumers) =>
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
                    shares: shares.into(),
                    rack_aware: s.rack_pass_used,
                });
            }
            None => topics.push(TopicAssignment {
                topic: name.to_string(),
                partitions: 0,
                owners: Vec::new(),
                shares: std::rc::Rc::<[Share]>::from(super::zero_shares(subs)).into(),
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
        ..Default::default()
    }
}
