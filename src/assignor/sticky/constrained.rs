//! `ConstrainedAssignmentBuilder`: every raw subscription is equal. Members keep their
//! previous partitions (sorted by (partition, topic)) up to the quota, rack-matched ones
//! only when rack-aware; the rest is dealt round-robin to the unfilled members sorted by
//! member id, first within racks when rack-aware.

use super::input::{Claims, Prep, Racks, Tp, NONE};
use super::StickyError;
use crate::collections::{sort, sort_by, FastMap};

pub(super) struct Built {
    /// Per member (input index), Java's list of partitions.
    pub lists: Vec<Vec<Tp>>,
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
    lists: Vec<Vec<Tp>>,
    maybe_revoked: FastMap<Tp, u32>,
    transferring: FastMap<Tp, u32>,
}

pub(super) fn build(prep: &Prep<'_>, racks: &Racks, claims: &Claims) -> Result<Built, StickyError> {
    let members = prep.members();
    if members == 0 {
        // `totalPartitionsCount % numberOfConsumers`
        return Err(StickyError::java(
            "java.lang.ArithmeticException: / by zero",
        ));
    }
    let total = prep.total as usize;
    let mut b = Builder {
        prep,
        racks,
        claims,
        min_quota: total / members,
        max_quota: total.div_ceil(members),
        expected_over: total % members,
        current_over: 0,
        lists: vec![Vec::new(); prep.input.members.len()],
        maybe_revoked: FastMap::default(),
        transferring: FastMap::default(),
    };
    let (mut under, mut exact, assigned) = b.assign_owned();
    let mut unassigned = b.unassigned(assigned);
    sort_by(&mut under, |a, b| {
        prep.rank[*a as usize].cmp(&prep.rank[*b as usize])
    });
    sort_by(&mut exact, |a, b| {
        prep.rank[*a as usize].cmp(&prep.rank[*b as usize])
    });
    if !racks.consumers_by_partition.is_empty() {
        // sortPartitionsByRackConsumers: a stable sort by consumers on the partition's racks
        let c = &racks.consumers_by_partition;
        sort_by(&mut unassigned, |a, b| c[*a].cmp(&c[*b]));
    }
    if racks.rack_aware {
        b.rack_aware_round_robin(&mut unassigned, &mut under, &mut exact);
    }
    let under = b.round_robin(&unassigned, under, exact.into())?;
    b.verify_unfilled(&under)?;
    Ok(Built {
        lists: b.lists,
        transferring: b.transferring,
    })
}

impl Builder<'_, '_> {
    /// `assignOwnedPartitions`; returns the unfilled members (under minQuota, exactly at
    /// minQuota) and the partitions kept.
    fn assign_owned(&mut self) -> (Vec<u32>, Vec<u32>, Vec<Tp>) {
        let mut under = Vec::new();
        let mut exact: Vec<u32> = Vec::new();
        let mut assigned = Vec::new();
        for &m in &self.prep.map_order {
            let mut owned: Vec<Tp> = Vec::with_capacity(self.claims.owned[m as usize].len());
            for &tp in &self.claims.owned[m as usize] {
                if self.racks.mismatch(self.prep, m, tp) {
                    self.maybe_revoked.insert(tp, m);
                } else {
                    owned.push(tp);
                }
            }
            // sorted by partition, then topic name (topic indices are in name order)
            sort_by(&mut owned, |a, b| (a.p, a.t).cmp(&(b.p, b.t)));
            if !self.claims.multiple_owners.is_empty() {
                owned.retain(|tp| !self.claims.multiple_owners.contains_key(tp));
            }
            let keep = if owned.len() < self.min_quota {
                under.push(m);
                owned.len()
            } else if owned.len() >= self.max_quota && self.current_over < self.expected_over {
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
            for tp in &owned[keep..] {
                self.maybe_revoked.insert(*tp, m);
            }
            owned.truncate(keep);
            assigned.extend_from_slice(&owned);
            self.lists[m as usize] = owned;
        }
        (under, exact, assigned)
    }

    /// `getUnassignedPartitions`, as dense indices: all partitions in (topic name,
    /// partition) order, minus the kept ones, walked with Java's two pointers. A kept
    /// partition that does not exist stops the walk from matching (Java's quirk): every
    /// partition after it counts as unassigned, kept or not.
    fn unassigned(&self, mut assigned: Vec<Tp>) -> Vec<usize> {
        let total = self.prep.total as usize;
        if assigned.iter().all(|tp| self.prep.dense(*tp).is_some()) {
            let mut taken = vec![false; total];
            for tp in &assigned {
                taken[self.prep.dense(*tp).unwrap_or(0)] = true;
            }
            return (0..total).filter(|d| !taken[*d]).collect();
        }
        sort(&mut assigned);
        let mut out = Vec::with_capacity(total);
        let mut it = assigned.iter();
        let mut next = it.next();
        for d in 0..total {
            let tp = self.prep.tp_at(d);
            match next {
                Some(n) if *n == tp => next = it.next(),
                _ => out.push(d),
            }
        }
        out
    }

    /// `assignNewPartition`: returns the member's new count.
    fn assign_new(&mut self, d: usize, m: u32) -> usize {
        let tp = self.prep.tp_at(d);
        self.lists[m as usize].push(tp);
        let revoked_elsewhere = self.maybe_revoked.get(&tp).is_some_and(|o| *o != m);
        if revoked_elsewhere || self.claims.multiple_owners.contains_key(&tp) {
            self.transferring.insert(tp, m);
        }
        self.lists[m as usize].len()
    }

    /// `assignRackAwareRoundRobin`: removes what it places from `unassigned`.
    fn rack_aware_round_robin(
        &mut self,
        unassigned: &mut Vec<usize>,
        under: &mut Vec<u32>,
        exact: &mut Vec<u32>,
    ) {
        let mut next_unfilled = 0usize;
        let mut left = Vec::with_capacity(unassigned.len());
        for &d in unassigned.iter() {
            let mut consumer = NONE;
            if let Some(mut i) = self.racks.next_rack_consumer(d, under, next_unfilled) {
                consumer = under[i];
                let count = self.lists[consumer as usize].len() + 1;
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
                    if self.lists[consumer as usize].len() + 1 == self.max_quota {
                        exact.remove(i);
                        self.current_over += 1;
                        if self.current_over == self.expected_over {
                            exact.clear();
                        }
                    }
                }
            }
            if consumer != NONE {
                self.assign_new(d, consumer);
            } else {
                left.push(d);
            }
        }
        *unassigned = left;
    }

    /// `assignRoundRobin`: Java iterates the under-minQuota list (removing members that
    /// reach minQuota, restarting at its end), and once it is empty polls the members at
    /// minQuota. Returns the under-minQuota members left.
    fn round_robin(
        &mut self,
        unassigned: &[usize],
        mut under: Vec<u32>,
        mut exact: std::collections::VecDeque<u32>,
    ) -> Result<Vec<u32>, StickyError> {
        let mut kept: Vec<u32> = Vec::with_capacity(under.len());
        let mut pos = 0usize;
        for &d in unassigned {
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
            let count = self.assign_new(d, consumer);
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
            if self.lists[m as usize].len() != self.min_quota {
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
