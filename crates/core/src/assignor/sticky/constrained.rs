//! `ConstrainedAssignmentBuilder`: every raw subscription is equal. Members keep their
//! previous partitions (sorted by (partition, topic)) up to the quota, rack-matched ones
//! only when rack-aware; the rest is dealt round-robin to the unfilled members sorted by
//! member id, first within racks when rack-aware.

use super::input::{p_key, sort_tps, Claims, Lists, Prep, Racks, Tp, NONE};
use super::StickyError;
use crate::collections::FastMap;

pub(super) struct Built {
    /// Per member (input index), the partitions it keeps: the start of Java's list.
    pub lists: Lists,
    /// The new partitions in the order they were given, with their member: the rest of each
    /// member's list, in order.
    pub log: Vec<(Tp, u32)>,
    /// Whether a kept partition that does not exist made Java walk the partitions without
    /// matching the kept ones (so a kept partition may also be in the log).
    pub rewalked: bool,
    /// `partitionsTransferringOwnership`: partition -> the member it goes to.
    pub transferring: FastMap<Tp, u32>,
}

struct Builder<'p, 'a> {
    prep: &'p Prep<'a>,
    racks: &'p Racks,
    claims: &'p Claims,
    min_quota: usize,
    max_quota: usize,
    expected_over: usize,
    current_over: usize,
    lists: Lists,
    log: Vec<(Tp, u32)>,
    /// Per member, its partitions so far.
    counts: Vec<u32>,
    maybe_revoked: FastMap<Tp, u32>,
    transferring: FastMap<Tp, u32>,
}

/// Takes the claims' owned partitions: each member's list starts as them.
pub(super) fn build(
    prep: &Prep<'_>,
    racks: &Racks,
    claims: &mut Claims,
) -> Result<Built, StickyError> {
    let members = prep.members();
    if members == 0 {
        // `totalPartitionsCount % numberOfConsumers`
        return Err(StickyError::java(
            "java.lang.ArithmeticException: / by zero",
        ));
    }
    let total = prep.total as usize;
    let max_quota = total.div_ceil(members);
    let lists = std::mem::take(&mut claims.owned);
    let claims = &*claims;
    let mut b = Builder {
        prep,
        racks,
        claims,
        min_quota: total / members,
        max_quota,
        expected_over: total % members,
        current_over: 0,
        lists,
        log: Vec::with_capacity(total),
        counts: vec![0; prep.input.members.len()],
        maybe_revoked: FastMap::default(),
        transferring: FastMap::default(),
    };
    let (mut under, mut exact, rewalked) = b.assign_owned();
    let mut unassigned = b.unassigned(rewalked);
    under = prep.in_rank_order(&under);
    exact = prep.in_rank_order(&exact);
    if !racks.consumers_by_partition.is_empty() {
        // sortPartitionsByRackConsumers: a stable sort by consumers on the partition's racks
        let c = &racks.consumers_by_partition;
        sort_tps(&mut unassigned, &|tp| {
            c[prep.dense(*tp).unwrap_or(0)] as u64
        });
    }
    if racks.rack_aware {
        b.rack_aware_round_robin(&mut unassigned, &mut under, &mut exact);
    }
    let under = b.round_robin(&unassigned, under, exact.into())?;
    b.verify_unfilled(&under)?;
    Ok(Built {
        lists: b.lists,
        log: b.log,
        rewalked,
        transferring: b.transferring,
    })
}

/// Sorts a member's kept partitions by partition, then topic name (topic indices are in
/// name order), stably: a short list by insertion (no allocation, as most members own a few
/// partitions), a longer one through the crate's sort.
fn sort_kept(v: &mut [Tp]) {
    let key = |tp: &Tp| p_key(tp.p) << 32 | tp.t as u64;
    if v.len() > 16 {
        sort_tps(v, &key);
        return;
    }
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && key(&v[j]) < key(&v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

impl Builder<'_, '_> {
    /// `assignOwnedPartitions`; returns the unfilled members (under minQuota, exactly at
    /// minQuota), and whether a kept partition does not exist.
    fn assign_owned(&mut self) -> (Vec<u32>, Vec<u32>, bool) {
        let mut rewalked = false;
        let mut under = Vec::new();
        let mut exact: Vec<u32> = Vec::new();
        let mut owned: Vec<Tp> = Vec::new();
        for &m in &self.prep.map_order {
            // With nothing to filter out, the kept partitions are sorted and cut where they
            // lie (each list starts as the member's owned partitions).
            let in_place =
                self.racks.consumer[m as usize] == NONE && self.claims.multiple_owners.is_empty();
            if in_place {
                sort_kept(self.lists.slot_mut(m));
            } else {
                owned.clear();
                for &tp in &self.lists[m as usize] {
                    if self.racks.mismatch(self.prep, m, tp) {
                        self.maybe_revoked.insert(tp, m);
                    } else {
                        owned.push(tp);
                    }
                }
                sort_kept(&mut owned);
                if !self.claims.multiple_owners.is_empty() {
                    owned.retain(|tp| !self.claims.multiple_owners.contains_key(tp));
                }
                self.lists.set(m, &owned);
            }
            let len = self.lists[m as usize].len();
            let keep = if len < self.min_quota {
                under.push(m);
                len
            } else if len >= self.max_quota && self.current_over < self.expected_over {
                self.current_over += 1;
                if self.current_over == self.expected_over {
                    exact.clear();
                }
                self.max_quota
            } else {
                if self.current_over < self.expected_over {
                    exact.push(m);
                }
                self.min_quota
            };
            for tp in &self.lists[m as usize][keep..] {
                self.maybe_revoked.insert(*tp, m);
            }
            self.lists.truncate(m, keep);
            let kept = &self.lists[m as usize];
            // (when every claimed partition is known to exist, so does every kept one)
            rewalked |=
                !self.prep.claimed_once && kept.iter().any(|tp| self.prep.dense(*tp).is_none());
            self.counts[m as usize] = kept.len() as u32;
        }
        (under, exact, rewalked)
    }

    /// `getUnassignedPartitions`: all partitions in (topic name, partition) order, minus
    /// the kept ones, walked with Java's two pointers. A kept partition that does not
    /// exist stops the walk from matching (Java's quirk): every partition after it in that
    /// order counts as unassigned, kept or not (after a kept (t, -1), all of t's too).
    fn unassigned(&self, rewalked: bool) -> Vec<Tp> {
        let prep = self.prep;
        if !loop_only()
            && prep
                .map_order
                .iter()
                .all(|m| self.lists[*m as usize].is_empty())
        {
            // nothing kept (a fresh group): every partition, in order
            let mut out = Vec::with_capacity(prep.total as usize);
            for (t, info) in prep.topics.iter().enumerate() {
                out.extend((0..info.partitions as i32).map(|p| Tp { t: t as u32, p }));
            }
            return out;
        }
        // the kept partitions: marked when they all exist, else sorted for Java's walk
        let mut assigned: Vec<Tp> = Vec::new();
        let mut taken = vec![false; prep.total as usize];
        // (a topic with every partition kept is skipped)
        let mut free: Vec<u32> = prep.topics.iter().map(|t| t.partitions).collect();
        for m in &prep.map_order {
            for tp in &self.lists[*m as usize] {
                match prep.dense(*tp) {
                    Some(d) if !rewalked => {
                        taken[d] = true;
                        free[tp.t as usize] = free[tp.t as usize].saturating_sub(1);
                    }
                    _ => assigned.push(*tp),
                }
            }
        }
        sort_tps(&mut assigned, &|tp| (tp.t as u64) << 32 | p_key(tp.p));
        let mut it = assigned.iter();
        let mut next = it.next();
        let mut out = Vec::with_capacity(prep.total as usize);
        for (t, info) in prep.topics.iter().enumerate() {
            if free[t] == 0 {
                continue;
            }
            for p in 0..info.partitions as i32 {
                let tp = Tp { t: t as u32, p };
                if next == Some(&tp) {
                    next = it.next();
                } else if !taken[(info.offset + p as u32) as usize] {
                    out.push(tp);
                }
            }
        }
        out
    }

    /// `assignNewPartition`: returns the member's new count.
    #[inline(always)]
    fn assign_new(&mut self, tp: Tp, m: u32) -> usize {
        self.log.push((tp, m));
        let c = &mut self.counts[m as usize];
        *c += 1;
        let count = *c as usize;
        // (a fresh group has no claims: no look-ups)
        if self.maybe_revoked.is_empty() && self.claims.multiple_owners.is_empty() {
            return count;
        }
        let revoked_elsewhere = self.maybe_revoked.get(&tp).is_some_and(|o| *o != m);
        if revoked_elsewhere || self.claims.multiple_owners.contains_key(&tp) {
            self.transferring.insert(tp, m);
        }
        count
    }

    /// `assignRackAwareRoundRobin`: removes what it places from `unassigned`.
    fn rack_aware_round_robin(
        &mut self,
        unassigned: &mut Vec<Tp>,
        under: &mut Vec<u32>,
        exact: &mut Vec<u32>,
    ) {
        let mut next_unfilled = 0usize;
        let mut left = Vec::with_capacity(unassigned.len());
        for &tp in unassigned.iter() {
            let d = self.prep.dense(tp).unwrap_or(0);
            let mut consumer = NONE;
            if let Some(mut i) = self.racks.next_rack_consumer(d, under, next_unfilled) {
                consumer = under[i];
                let count = self.count(consumer) + 1;
                if count >= self.min_quota {
                    under.remove(i);
                    if count < self.max_quota && self.current_over < self.expected_over {
                        exact.push(consumer);
                    }
                } else {
                    i += 1;
                }
                next_unfilled = if under.is_empty() { 0 } else { i % under.len() };
            } else if !exact.is_empty() {
                if let Some(i) = self.racks.next_rack_consumer(d, exact, 0) {
                    consumer = exact[i];
                    if self.count(consumer) + 1 == self.max_quota {
                        exact.remove(i);
                        self.current_over += 1;
                        if self.current_over == self.expected_over {
                            exact.clear();
                        }
                    }
                }
            }
            if consumer != NONE {
                self.assign_new(tp, consumer);
            } else {
                left.push(tp);
            }
        }
        *unassigned = left;
    }

    /// `assignRoundRobin`: Java iterates the under-minQuota list (removing members that
    /// reach minQuota, restarting at its end), and once it is empty polls the members at
    /// minQuota. Returns the under-minQuota members left.
    fn round_robin(
        &mut self,
        unassigned: &[Tp],
        mut under: Vec<u32>,
        mut exact: std::collections::VecDeque<u32>,
    ) -> Result<Vec<u32>, StickyError> {
        if let Some(left) = self.round_robin_from_nothing(unassigned, &under, &exact) {
            return Ok(left);
        }
        let mut kept: Vec<u32> = Vec::with_capacity(under.len());
        let mut pos = 0usize;
        for &tp in unassigned {
            let from_iterator;
            let consumer = if pos < under.len() {
                from_iterator = true;
                pos += 1;
                under[pos - 1]
            } else if kept.is_empty() && exact.is_empty() {
                return Err(StickyError::java(
                    "java.lang.IllegalStateException: No more unfilled consumers to be assigned.",
                ));
            } else if kept.is_empty() {
                from_iterator = false;
                exact.pop_front().unwrap_or(NONE)
            } else {
                // the iterator restarts over what is left
                under = std::mem::take(&mut kept);
                pos = 1;
                from_iterator = true;
                under[0]
            };
            let count = self.assign_new(tp, consumer);
            if count == self.min_quota {
                if !from_iterator {
                    // Iterator.remove() with nothing to remove
                    return Err(StickyError::java("java.lang.IllegalStateException"));
                }
                exact.push_back(consumer);
            } else {
                if from_iterator {
                    kept.push(consumer);
                }
                if count == self.max_quota {
                    self.current_over += 1;
                }
            }
        }
        kept.extend_from_slice(&under[pos.min(under.len())..]);
        Ok(kept)
    }

    /// [`Builder::round_robin`] where every member starts from nothing (a fresh
    /// group: all of them under minQuota with no partition, nobody at it, nothing revoked),
    /// in closed form: Java's iterator makes minQuota passes over the members in order (each
    /// pass gives each member one partition; in the last one each reaches minQuota and moves
    /// to the queue), then the queue, in the same order, takes one more partition each for
    /// what is left. `None` where that does not hold (the loop runs instead).
    fn round_robin_from_nothing(
        &mut self,
        unassigned: &[Tp],
        under: &[u32],
        exact: &std::collections::VecDeque<u32>,
    ) -> Option<Vec<u32>> {
        let (n, q) = (under.len(), self.min_quota);
        let full = n.checked_mul(q)?;
        let fits = unassigned.len() >= full && unassigned.len() - full <= n;
        let from_nothing = !loop_only()
            && q > 0
            && fits
            && exact.is_empty()
            && self.maybe_revoked.is_empty()
            && self.claims.multiple_owners.is_empty()
            && under.iter().all(|m| self.counts[*m as usize] == 0);
        if !from_nothing {
            return None;
        }
        #[cfg(test)]
        CLOSED_FORMS.with(|c| c.set(c.get() + 1));
        let (passes, rest) = unassigned.split_at(full);
        for (tp, m) in passes.iter().zip(under.iter().cycle()) {
            self.log.push((*tp, *m));
        }
        for (tp, m) in rest.iter().zip(under) {
            self.log.push((*tp, *m));
        }
        for (i, m) in under.iter().enumerate() {
            self.counts[*m as usize] = (q + usize::from(i < rest.len())) as u32;
        }
        // each of the queue's members reaches maxQuota (minQuota + 1) with its one more
        if self.max_quota == q + 1 {
            self.current_over += rest.len();
        }
        Some(Vec::new())
    }

    /// How many partitions member m has so far.
    fn count(&self, m: u32) -> usize {
        self.counts[m as usize] as usize
    }

    /// `verifyUnfilledMembers`.
    fn verify_unfilled(&self, under: &[u32]) -> Result<(), StickyError> {
        if under.is_empty() {
            return Ok(());
        }
        if self.current_over != self.expected_over {
            return Err(StickyError::java(
                "java.lang.IllegalStateException: We haven't reached the expected number of members \
                 with more than the minQuota partitions, but no more partitions to be assigned",
            ));
        }
        for &m in under {
            if self.count(m) != self.min_quota {
                return Err(StickyError::java(format!(
                    "java.lang.IllegalStateException: Consumer: [{}] doesn't reach minQuota partitions, \
                     and no more partitions to be assigned",
                    self.prep.input.members[m as usize].id
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: the loops only, without the closed forms beside them.
    static LOOP_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: how many round-robins the closed form answered.
    static CLOSED_FORMS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether a test turned the closed forms off (never outside tests).
fn loop_only() -> bool {
    #[cfg(test)]
    return LOOP_ONLY.with(|c| c.get());
    #[cfg(not(test))]
    false
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::assignor::{benchmark_input, try_assign, AssignorKind};

    /// A fresh group's assignment from the closed forms is the loops' (Java's iteration),
    /// for groups with and without partitions left over, uneven topics, members with ids
    /// out of their input order, racks, and more members than partitions.
    #[test]
    fn a_fresh_group_in_closed_form_is_the_loops_answer() {
        let mut checked = 0;
        for members in [1u32, 2, 3, 7, 10, 33, 64, 65, 130] {
            for (topics, partitions) in [(1u32, 1u32), (1, 7), (3, 5), (5, 13), (2, 64)] {
                for racks in [false, true] {
                    let mut input = benchmark_input(members, topics, partitions);
                    for (i, t) in input.topics.iter_mut().enumerate() {
                        t.partitions += i as u32 % 3; // uneven topics
                        if racks {
                            t.racks = (0..t.partitions)
                                .map(|p| vec![format!("r{}", p % 3)])
                                .collect();
                        }
                    }
                    for (i, m) in input.members.iter_mut().enumerate() {
                        m.id = format!("{}-{}", ["c", "consumer", "b"][i % 3], (i * 7919) % 1000);
                        if racks && i % 2 == 0 {
                            m.rack = Some(format!("r{}", i % 4));
                        }
                    }
                    for kind in [AssignorKind::Sticky, AssignorKind::CooperativeSticky] {
                        let fast = try_assign(kind, &input).map_err(|e| e.to_string());
                        super::LOOP_ONLY.with(|c| c.set(true));
                        let slow = try_assign(kind, &input).map_err(|e| e.to_string());
                        super::LOOP_ONLY.with(|c| c.set(false));
                        // the whole result: lists, shares, totals, notes
                        assert!(
                            fast == slow,
                            "{kind:?}, {members} members, {topics} x {partitions}, racks {racks}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 9 * 5 * 2 * 2);
        // (the closed form answered where it applies: without racks, at least one
        // partition per member; about half the groups)
        let closed = super::CLOSED_FORMS.with(|c| c.get());
        assert!(closed >= 60, "the closed form ran {closed} times");
    }
}
