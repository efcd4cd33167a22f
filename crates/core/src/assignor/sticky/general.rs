//! `GeneralAssignmentBuilder`: subscriptions differ. Keep what each member still may own,
//! hand out the rest one partition at a time to the least loaded subscriber (the `TreeSet`
//! ordered by (partition count, member id)), then move partitions towards balance
//! (`performReassignments`), preferring the previous owner of an older generation and
//! undoing moves that bounce a partition back (`PartitionMovements`); if that did not lower
//! the balance score, the moves are reverted.
//!
//! Java's balancing loop can run forever on rare inputs; this one stops after a bounded
//! amount of work and says so ([`General::stopped_early`]).

use super::input::{Claims, Prep, Racks, Tp, DEFAULT_GENERATION, NONE};
use super::StickyError;
use crate::java::{JavaHash, JavaHashMap};

/// Inner balancing steps (one partition looked at) before we give up where Java would
/// keep going.
const MAX_STEPS: u64 = 20_000_000;
/// Passes of `performReassignments` over its list before we give up.
const MAX_PASSES: u32 = 10_000;

pub(super) struct General {
    /// Per member (input index), Java's list of partitions.
    pub lists: Vec<Vec<Tp>>,
    /// Members in the final `currentAssignment` map's iteration order.
    pub final_order: Vec<u32>,
    /// True when balancing stopped on our bound (Java would have kept going).
    pub stopped_early: bool,
}

/// A `TopicPartition` as a `HashSet` key: a dense index with its Java hash code.
#[derive(Debug, Clone, Copy)]
struct TpKey {
    d: usize,
    hash: i32,
}

impl PartialEq for TpKey {
    fn eq(&self, o: &TpKey) -> bool {
        self.d == o.d
    }
}

impl JavaHash for TpKey {
    fn java_hash(&self) -> i32 {
        self.hash
    }
}

type Pair = (u32, u32);

/// Java's `TreeSet` of (partition count, member rank), as a sorted vector: the same order.
/// Faster than std's `BTreeSet` for the sets this walks (one entry per member, walked from
/// the front at almost every step): `cargo bench -p rebalance-lab-core --bench core --
/// sticky`, 100 members x half of 100 topics x 1,000 partitions, fresh: about 25 ms against
/// 30 ms with a `BTreeSet`.
#[derive(Default)]
struct SortedSet {
    v: Vec<(u32, u32)>,
}

impl SortedSet {
    fn insert(&mut self, k: (u32, u32)) {
        if let Err(i) = self.v.binary_search(&k) {
            self.v.insert(i, k);
        }
    }

    fn remove(&mut self, k: &(u32, u32)) {
        if let Ok(i) = self.v.binary_search(k) {
            self.v.remove(i);
        }
    }

    fn first(&self) -> Option<&(u32, u32)> {
        self.v.first()
    }

    fn last(&self) -> Option<&(u32, u32)> {
        self.v.last()
    }

    fn iter(&self) -> std::slice::Iter<'_, (u32, u32)> {
        self.v.iter()
    }
}

/// `PartitionMovements`: where each moved partition came from, per topic and (src, dst).
struct Movements {
    /// Per dense partition, its (src, dst), or `(NONE, NONE)`.
    by_partition: Vec<Pair>,
    /// Per topic, its (src, dst) pairs with their partitions (an empty list: no entry).
    by_topic: Vec<Vec<(Pair, JavaHashMap<TpKey, ()>)>>,
}

const NO_PAIR: Pair = (NONE, NONE);

impl Movements {
    fn new(partitions: usize, topics: usize) -> Movements {
        Movements {
            by_partition: vec![NO_PAIR; partitions],
            by_topic: (0..topics).map(|_| Vec::new()).collect(),
        }
    }

    fn remove_record(&mut self, d: usize, t: u32, key: TpKey) -> Option<Pair> {
        let pair = std::mem::replace(&mut self.by_partition[d], NO_PAIR);
        if pair == NO_PAIR {
            return None;
        }
        let topic = &mut self.by_topic[t as usize];
        if let Some(i) = topic.iter().position(|(p, _)| *p == pair) {
            let set = &mut topic[i].1;
            set.remove(&key);
            if set.is_empty() {
                topic.remove(i);
            }
        }
        Some(pair)
    }

    fn add_record(&mut self, key: TpKey, t: u32, pair: Pair) {
        self.by_partition[key.d] = pair;
        let topic = &mut self.by_topic[t as usize];
        let i = match topic.iter().position(|(p, _)| *p == pair) {
            Some(i) => i,
            None => {
                topic.push((pair, JavaHashMap::new()));
                topic.len() - 1
            }
        };
        topic[i].1.insert(key, ());
    }

    fn move_partition(&mut self, key: TpKey, t: u32, old: u32, new: u32) {
        match self.remove_record(key.d, t, key) {
            Some(existing) => {
                if existing.0 != new {
                    self.add_record(key, t, (existing.0, new));
                }
            }
            None => self.add_record(key, t, (old, new)),
        }
    }

    /// `getTheActualPartitionToBeMoved`: moving a partition back the way another one of
    /// its topic came, move that one instead (the first of Java's `HashSet`).
    fn actual(&self, d: usize, t: u32, mut old: u32, new: u32) -> usize {
        let topic = &self.by_topic[t as usize];
        if topic.is_empty() {
            return d;
        }
        let pair = self.by_partition[d];
        if pair != NO_PAIR {
            old = pair.0;
        }
        let set = topic.iter().find(|(p, _)| *p == (new, old)).map(|(_, s)| s);
        match set.and_then(|s| s.keys().next()) {
            Some(k) => k.d,
            None => d,
        }
    }
}

struct Builder<'p, 'a> {
    prep: &'p Prep<'a>,
    racks: &'p Racks,
    lists: Vec<Vec<Tp>>,
    /// Member is a key of `currentAssignment` (not set aside as fixed).
    current: Vec<bool>,
    /// `currentAssignment`'s keys, for Java's iteration order.
    keys: JavaHashMap<&'a str, u32>,
    /// Per member, its subscribed topics in metadata (duplicates kept).
    potential: Vec<Vec<u32>>,
    /// Per member, `words` words with a bit per topic it subscribes to (the look-up walking
    /// the tree for the least loaded subscriber); empty above 8 MB (then `potential` is
    /// searched).
    bits: Vec<u32>,
    words: usize,
    /// The same with a bit per topic the member holds a partition of: built by each
    /// `performReassignments` when `bits` is, kept by its moves.
    held: Vec<u32>,
    /// Per topic, its potential consumers in subscriptions-map order (duplicates kept).
    topic_consumers: Vec<Vec<u32>>,
    /// `currentPartitionConsumer` per dense partition.
    owner: Vec<u32>,
    /// `sortedCurrentSubscriptions`: (partition count, member rank).
    tree: SortedSet,
    revocation_required: bool,
    movements: Movements,
    /// `isBalanced()` cached until the assignment changes.
    balanced: Option<bool>,
    /// Every partition held exists and is held once, and none is held by nobody: known
    /// after the first full `isBalanced` of a `performReassignments`, whose moves keep it so.
    plain: std::cell::Cell<Option<bool>>,
    /// A topic has a fixed member among its potential consumers (Java then fails on it).
    topic_has_fixed: Vec<bool>,
    steps: u64,
    stopped_early: bool,
}

pub(super) fn build(
    prep: &Prep<'_>,
    racks: &Racks,
    claims: &Claims,
) -> Result<General, StickyError> {
    let n = prep.input.members.len();
    let nt = prep.topics.len();
    let mut potential = vec![Vec::new(); n];
    let mut topic_consumers = vec![Vec::new(); nt];
    let mut keys = JavaHashMap::new();
    for &m in &prep.map_order {
        keys.insert(prep.input.members[m as usize].id.as_str(), m);
        for &id in prep.subs.of(m) {
            let t = prep.topic_of_name[id as usize];
            if t != NONE {
                potential[m as usize].push(t);
                topic_consumers[t as usize].push(m);
            }
        }
    }
    let words = nt.div_ceil(32);
    let size = n.saturating_mul(words);
    let mut bits = vec![0u32; if size <= 1 << 21 { size } else { 0 }];
    if !bits.is_empty() {
        for (m, p) in potential.iter().enumerate() {
            for t in p {
                bits[m * words + *t as usize / 32] |= 1 << (t % 32);
            }
        }
    }
    let mut current = vec![false; n];
    for &m in &prep.map_order {
        current[m as usize] = true;
    }
    let mut b = Builder {
        prep,
        racks,
        lists: claims.owned.to_vecs(),
        current,
        keys,
        potential,
        bits,
        words,
        held: Vec::new(),
        topic_consumers,
        owner: vec![NONE; prep.total as usize],
        tree: SortedSet::default(),
        revocation_required: false,
        movements: Movements::new(prep.total as usize, nt),
        balanced: None,
        plain: Default::default(),
        topic_has_fixed: vec![false; nt],
        steps: 0,
        stopped_early: false,
    };
    for (_, &m) in b.keys.iter() {
        for tp in &b.lists[m as usize] {
            if let Some(d) = prep.dense(*tp) {
                b.owner[d] = m;
            }
        }
    }
    // TopicComparator: fewer potential consumers first, then name
    let mut topic_order: Vec<u32> = (0..nt as u32).collect();
    let tc = &b.topic_consumers;
    super::input::sort_ids(&mut topic_order, &|a, b| {
        (tc[a as usize].len(), a).cmp(&(tc[b as usize].len(), b))
    });
    let mut sorted_all: Vec<usize> = Vec::with_capacity(prep.total as usize);
    for t in &topic_order {
        let ti = &prep.topics[*t as usize];
        sorted_all.extend(ti.offset as usize..(ti.offset + ti.partitions) as usize);
    }
    let prev = prepopulate(prep, claims.max_generation);
    let assigned = b.assign_owned();
    let unassigned = b.unassigned(&sorted_all, &topic_order, assigned);
    for &m in &prep.map_order {
        b.tree.insert(b.key(m));
    }
    b.balance(&prev, unassigned, sorted_all)?;
    let final_order = b.keys.iter().map(|(_, m)| *m).collect();
    Ok(General {
        lists: b.lists,
        final_order,
        stopped_early: b.stopped_early,
    })
}

/// `prepopulateCurrentAssignments`: the previous owner of each partition among members of
/// an older generation (the newest of those wins).
/// Per dense partition, (member, generation), or `NONE` as the member.
fn prepopulate(prep: &Prep<'_>, max_generation: i32) -> Vec<(u32, i32)> {
    let mut prev: Vec<(u32, i32)> = vec![(NONE, 0); prep.total as usize];
    for &m in &prep.map_order {
        let generation = match prep.generation[m as usize] {
            Some(g) if g < max_generation => g,
            None if max_generation > DEFAULT_GENERATION => DEFAULT_GENERATION,
            _ => continue,
        };
        for tp in &prep.member_data[m as usize] {
            let Some(d) = prep.dense(*tp) else { continue };
            let e = &mut prev[d];
            if e.0 == NONE || generation > e.1 {
                *e = (m, generation);
            }
        }
    }
    prev
}

#[cold]
#[inline(never)]
fn npe() -> StickyError {
    StickyError::java("java.lang.NullPointerException")
}

impl Builder<'_, '_> {
    fn key(&self, m: u32) -> (u32, u32) {
        (
            self.lists[m as usize].len() as u32,
            self.prep.rank[m as usize],
        )
    }

    fn len(&self, m: u32) -> Result<usize, StickyError> {
        if self.current[m as usize] {
            Ok(self.lists[m as usize].len())
        } else {
            Err(npe())
        }
    }

    fn subscribed(&self, m: u32, t: u32) -> bool {
        if self.bits.is_empty() {
            return self.potential[m as usize].contains(&t);
        }
        self.bits[m as usize * self.words + t as usize / 32] >> (t % 32) & 1 != 0
    }

    /// `assignOwnedPartitions`: drops partitions of topics the member left (or off its
    /// rack), returns the kept ones.
    fn assign_owned(&mut self) -> Vec<Tp> {
        let mut assigned = Vec::new();
        for i in 0..self.prep.map_order.len() {
            let m = self.prep.map_order[i];
            let mut list = std::mem::take(&mut self.lists[m as usize]);
            list.retain(|tp| {
                let keep = self.subscribed(m, tp.t) && !self.racks.mismatch(self.prep, m, *tp);
                if keep {
                    assigned.push(*tp);
                } else {
                    self.revocation_required = true;
                }
                keep
            });
            self.lists[m as usize] = list;
        }
        assigned
    }

    /// `getUnassignedPartitions` with Java's two pointers (see the constrained builder: a
    /// kept partition that does not exist stops the matching).
    fn unassigned(
        &self,
        sorted_all: &[usize],
        topic_order: &[u32],
        mut assigned: Vec<Tp>,
    ) -> Vec<usize> {
        if assigned.iter().all(|tp| self.prep.dense(*tp).is_some()) {
            let mut taken = vec![false; self.prep.total as usize];
            for tp in &assigned {
                taken[self.prep.dense(*tp).unwrap_or(0)] = true;
            }
            return sorted_all.iter().copied().filter(|d| !taken[*d]).collect();
        }
        let mut pos = vec![0usize; topic_order.len()];
        for (i, t) in topic_order.iter().enumerate() {
            pos[*t as usize] = i;
        }
        super::input::sort_tps(&mut assigned, &|tp| {
            (pos[tp.t as usize] as u64) << 32 | super::input::p_key(tp.p)
        });
        let mut out = Vec::new();
        let mut it = assigned.iter();
        let mut next = it.next();
        for &d in sorted_all {
            match next {
                Some(n) if *n == self.prep.tp_at(d) => next = it.next(),
                _ => out.push(d),
            }
        }
        out
    }

    fn set_count_changed(&mut self) {
        self.balanced = None;
    }

    /// `maybeAssignPartition`: to the least loaded subscriber (rack-matched if asked).
    fn maybe_assign_partition(&mut self, d: usize, rack: bool) -> bool {
        let tp = self.prep.tp_at(d);
        let found = self.tree.iter().find(|(_, r)| {
            let m = self.prep.by_rank[*r as usize];
            self.subscribed(m, tp.t) && (!rack || !self.racks.mismatch(self.prep, m, tp))
        });
        let Some(&key) = found else { return false };
        let m = self.prep.by_rank[key.1 as usize];
        self.tree.remove(&key);
        self.lists[m as usize].push(tp);
        self.owner[d] = m;
        self.tree.insert(self.key(m));
        self.set_count_changed();
        self.plain.set(None);
        true
    }

    fn maybe_assign(&mut self, list: &mut Vec<usize>, rack: bool, remove_assigned: bool) {
        let mut left = Vec::with_capacity(if remove_assigned { list.len() } else { 0 });
        for &d in list.iter() {
            let t = self.prep.tp_at(d).t;
            let assigned = !self.topic_consumers[t as usize].is_empty()
                && self.maybe_assign_partition(d, rack);
            if remove_assigned && !assigned {
                left.push(d);
            }
        }
        if remove_assigned {
            *list = left;
        }
    }

    fn max_assignment_size(&self, m: u32) -> usize {
        let p = &self.potential[m as usize];
        if p.len() == self.prep.topics.len() {
            self.prep.total as usize
        } else {
            p.iter()
                .map(|t| self.prep.topics[*t as usize].partitions as usize)
                .sum()
        }
    }

    fn can_participate(&self, m: u32) -> bool {
        let list = &self.lists[m as usize];
        list.len() < self.max_assignment_size(m)
            || list
                .iter()
                .any(|tp| self.topic_consumers[tp.t as usize].len() >= 2)
    }

    fn balance(
        &mut self,
        prev: &[(u32, i32)],
        mut unassigned: Vec<usize>,
        mut sorted_all: Vec<usize>,
    ) -> Result<(), StickyError> {
        let initializing = match self.tree.last() {
            Some((count, _)) => *count == 0,
            None => return Err(StickyError::java("java.util.NoSuchElementException")),
        };
        if self.racks.rack_aware {
            let mut to_assign = unassigned.clone();
            self.maybe_assign(&mut to_assign, true, true);
            self.maybe_assign(&mut to_assign, false, false);
        } else {
            let mut list = std::mem::take(&mut unassigned);
            self.maybe_assign(&mut list, false, false);
            unassigned = list;
        }
        // partitions of topics with fewer than two potential consumers cannot move
        let fixed_topic: Vec<bool> = self.topic_consumers.iter().map(|c| c.len() < 2).collect();
        let movable = |d: &usize| !fixed_topic[self.prep.tp_at(*d).t as usize];
        sorted_all.retain(movable);
        unassigned.retain(movable);
        // members that cannot take part, set aside (consumer2AllPotentialTopics order)
        let mut by_capacity: JavaHashMap<&str, u32> =
            JavaHashMap::with_capacity(self.prep.map_order.len());
        for &m in &self.prep.map_order {
            by_capacity.insert(self.prep.input.members[m as usize].id.as_str(), m);
        }
        let mut fixed: JavaHashMap<&str, u32> = JavaHashMap::new();
        for (id, &m) in by_capacity.iter() {
            if !self.can_participate(m) {
                self.tree.remove(&self.key(m));
                self.current[m as usize] = false;
                self.keys.remove(id);
                fixed.insert(*id, m);
            }
        }
        for (_, &m) in fixed.iter() {
            for &t in &self.potential[m as usize] {
                self.topic_has_fixed[t as usize] = true;
            }
        }
        self.set_count_changed();
        // the state to revert to
        let mut pre_keys: JavaHashMap<&str, u32> = JavaHashMap::new();
        for (id, m) in self.keys.iter() {
            pre_keys.insert(*id, *m);
        }
        let pre_lists: Vec<(u32, Vec<Tp>)> = pre_keys
            .iter()
            .map(|(_, m)| (*m, self.lists[*m as usize].clone()))
            .collect();
        let pre_owner = self.owner.clone();
        if !self.revocation_required {
            self.perform(&unassigned, prev)?;
        }
        let performed = self.perform(&sorted_all, prev)?;
        if !initializing && performed {
            let now =
                self.balance_score(self.keys.iter().map(|(_, m)| self.lists[*m as usize].len()));
            let before = self.balance_score(pre_lists.iter().map(|(_, l)| l.len()));
            if now >= before {
                self.keys.clear();
                for (id, m) in pre_keys.iter() {
                    self.keys.insert(*id, *m);
                }
                for (m, l) in pre_lists {
                    self.lists[m as usize] = l;
                }
                self.owner = pre_owner;
            }
        }
        for (id, &m) in fixed.iter() {
            self.keys.insert(*id, m);
            self.current[m as usize] = true;
        }
        Ok(())
    }

    /// `getBalanceScore`: the sum over member pairs of their count difference, in Java's
    /// wrapping `int`.
    fn balance_score(&self, counts: impl Iterator<Item = usize>) -> i32 {
        let mut c: Vec<i64> = counts.map(|x| x as i64).collect();
        crate::collections::sort(&mut c);
        let n = c.len() as i64;
        let s: i128 = c
            .iter()
            .enumerate()
            .map(|(i, a)| (*a as i128) * (2 * i as i128 - n as i128 + 1))
            .sum();
        s as i32
    }

    /// `isBalanced()`, cached until the assignment changes.
    fn is_balanced(&mut self) -> Result<bool, StickyError> {
        if let Some(b) = self.balanced {
            return Ok(b);
        }
        let b = self.compute_balanced()?;
        self.balanced = Some(b);
        Ok(b)
    }

    fn compute_balanced(&self) -> Result<bool, StickyError> {
        let (Some(first), Some(last)) = (self.tree.first(), self.tree.last()) else {
            return Err(StickyError::java("java.util.NoSuchElementException"));
        };
        if first.0 + 1 >= last.0 {
            return Ok(true);
        }
        if self.plain.get() == Some(true) && !self.held.is_empty() && self.unbalanced_pair() {
            return Ok(false);
        }
        // allPartitions: partition -> member, members in map order, the last one wins
        let total = self.prep.total as usize;
        let mut holder = vec![NONE; total];
        // `shared`: a partition is held twice, or one held does not exist (a kept partition
        // past its topic's end counts in its member's size, but the walk never meets it)
        let mut shared = false;
        for (_, &m) in self.keys.iter() {
            for tp in &self.lists[m as usize] {
                match self.prep.dense(*tp) {
                    Some(d) => {
                        shared |= holder[d] != NONE;
                        holder[d] = m;
                    }
                    None => shared = true,
                }
            }
        }
        let count = |m: u32| self.lists[m as usize].len();
        // per topic: the largest holder count, and whether a partition has no holder
        let mut topic_max = vec![0usize; self.prep.topics.len()];
        let mut topic_gap = vec![false; self.prep.topics.len()];
        for (t, ti) in self.prep.topics.iter().enumerate() {
            for &h in &holder[ti.offset as usize..(ti.offset + ti.partitions) as usize] {
                match h {
                    NONE => topic_gap[t] = true,
                    h => topic_max[t] = topic_max[t].max(count(h)),
                }
            }
        }
        // a gap in a topic of members set aside only (they hold all of theirs) is no gap
        self.plain.set(Some(
            !shared
                && topic_gap
                    .iter()
                    .zip(&self.topic_has_fixed)
                    .all(|(g, f)| !g || *f),
        ));
        for &(c, r) in self.tree.iter() {
            let m = self.prep.by_rank[r as usize];
            let c = c as usize;
            if c == self.max_assignment_size(m) {
                continue;
            }
            let exact = shared
                || self.potential[m as usize]
                    .iter()
                    .any(|t| topic_gap[*t as usize]);
            if !exact {
                if self.potential[m as usize]
                    .iter()
                    .any(|t| topic_max[*t as usize] > c + 1)
                {
                    return Ok(false);
                }
                continue;
            }
            // Java's own walk: the first partition it does not hold, in topic then
            // partition order, decides (a partition nobody holds throws). Whether it holds
            // one is `List.contains` when some are held twice, else who holds it.
            for &t in &self.potential[m as usize] {
                let ti = &self.prep.topics[t as usize];
                let start = ti.offset as usize;
                for (p, &h) in holder[start..start + ti.partitions as usize]
                    .iter()
                    .enumerate()
                {
                    if h == m || shared && self.lists[m as usize].contains(&Tp { t, p: p as i32 }) {
                        continue;
                    }
                    if h == NONE {
                        return Err(npe());
                    }
                    if c + 1 < count(h) {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// Whether a member may get a topic that another one, two or more partitions ahead,
    /// holds a partition of. In a `plain` state Java's walk then finds the assignment
    /// unbalanced whichever member it looks at first, so one such pair answers without the
    /// walk (one walk per move made balancing quadratic in the partitions). Gives up
    /// (false) after about one walk's work.
    fn unbalanced_pair(&self) -> bool {
        let mut budget = self.prep.total as usize + self.tree.v.len();
        let w = self.words;
        for &(ch, rh) in self.tree.iter().rev() {
            let h = self.prep.by_rank[rh as usize] as usize;
            for &(cm, rm) in self.tree.iter() {
                if cm + 2 > ch {
                    break;
                }
                let m = self.prep.by_rank[rm as usize];
                let Some(b) = budget.checked_sub(w + 1) else {
                    return false;
                };
                budget = b;
                if (0..w).any(|i| self.held[h * w + i] & self.bits[m as usize * w + i] != 0)
                    && cm as usize != self.max_assignment_size(m)
                {
                    return true;
                }
            }
        }
        false
    }

    /// `performReassignments`.
    fn perform(&mut self, list: &[usize], prev: &[(u32, i32)]) -> Result<bool, StickyError> {
        let mut performed = false;
        let mut passes = 0u32;
        self.plain.set(None);
        if !self.bits.is_empty() {
            let w = self.words;
            self.held = vec![0; self.bits.len()];
            for (m, list) in self.lists.iter().enumerate() {
                for tp in list {
                    self.held[m * w + tp.t as usize / 32] |= 1 << (tp.t % 32);
                }
            }
        }
        loop {
            let mut modified = false;
            for &d in list {
                if self.is_balanced()? {
                    break;
                }
                self.steps += 1;
                if self.steps > MAX_STEPS {
                    self.stopped_early = true;
                    return Ok(performed);
                }
                let t = self.prep.tp_at(d).t;
                let consumer = self.owner[d];
                if consumer == NONE {
                    return Err(npe());
                }
                let size = self.len(consumer)?;
                let pc = prev[d].0;
                if pc != NONE && size > self.len(pc)? + 1 {
                    self.reassign_to(d, pc)?;
                    performed = true;
                    modified = true;
                    continue;
                }
                let mut found_rack = false;
                let cr = self.racks.consumer[consumer as usize];
                if cr != NONE {
                    let pr = &self.racks.partition[d];
                    if !pr.is_empty() && pr.contains(&cr) {
                        for i in 0..self.topic_consumers[t as usize].len() {
                            let other = self.topic_consumers[t as usize][i];
                            let or = self.racks.consumer[other as usize];
                            if or == NONE || !self.racks.partition[d].contains(&or) {
                                continue;
                            }
                            if size > self.len(other)? + 1 {
                                self.reassign(d)?;
                                performed = true;
                                modified = true;
                                found_rack = true;
                                break;
                            }
                        }
                    }
                }
                if !found_rack && self.better_consumer_exists(t, size)? {
                    self.reassign(d)?;
                    performed = true;
                    modified = true;
                }
            }
            passes += 1;
            if !modified {
                return Ok(performed);
            }
            if passes >= MAX_PASSES {
                self.stopped_early = true;
                return Ok(performed);
            }
        }
    }

    /// Whether a potential consumer of the topic has fewer than `size - 1` partitions.
    fn better_consumer_exists(&self, t: u32, size: usize) -> Result<bool, StickyError> {
        if self.topic_has_fixed[t as usize] {
            // Java walks the list and fails on a member set aside
            for &other in &self.topic_consumers[t as usize] {
                if size > self.len(other)? + 1 {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        // the least loaded subscriber is the first subscriber in the tree
        Ok(self
            .tree
            .iter()
            .find(|(_, r)| self.subscribed(self.prep.by_rank[*r as usize], t))
            .is_some_and(|(c, _)| size > *c as usize + 1))
    }

    /// `reassignPartition(partition)`: to the least loaded subscriber.
    fn reassign(&mut self, d: usize) -> Result<(), StickyError> {
        let t = self.prep.tp_at(d).t;
        let to = self
            .tree
            .iter()
            .find(|(_, r)| self.subscribed(self.prep.by_rank[*r as usize], t))
            .map(|(_, r)| self.prep.by_rank[*r as usize])
            .ok_or_else(npe)?;
        self.reassign_to(d, to)
    }

    /// `reassignPartition(partition, newConsumer)`.
    fn reassign_to(&mut self, d: usize, to: u32) -> Result<(), StickyError> {
        let t = self.prep.tp_at(d).t;
        let q = self.movements.actual(d, t, self.owner[d], to);
        self.process_movement(q, to)
    }

    /// `processPartitionMovement`.
    fn process_movement(&mut self, d: usize, to: u32) -> Result<(), StickyError> {
        let from = self.owner[d];
        if from == NONE || !self.current[from as usize] || !self.current[to as usize] {
            return Err(npe());
        }
        let tp = self.prep.tp_at(d);
        self.tree.remove(&self.key(from));
        self.tree.remove(&self.key(to));
        let key = TpKey {
            d,
            hash: self.prep.tp_hash(tp),
        };
        self.movements.move_partition(key, tp.t, from, to);
        super::input::remove_first(&mut self.lists[from as usize], tp);
        self.lists[to as usize].push(tp);
        self.owner[d] = to;
        if !self.held.is_empty() {
            let (w, bit) = (self.words, 1u32 << (tp.t % 32));
            let i = tp.t as usize / 32;
            self.held[to as usize * w + i] |= bit;
            if !self.lists[from as usize].iter().any(|x| x.t == tp.t) {
                self.held[from as usize * w + i] &= !bit;
            }
        }
        self.tree.insert(self.key(to));
        self.tree.insert(self.key(from));
        self.set_count_changed();
        Ok(())
    }
}
