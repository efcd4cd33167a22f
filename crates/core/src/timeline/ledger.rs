//! Who consumed which partition when, and what the gaps cost.

use super::Tenure;

/// What a run cost, counted from the start of the story to the end of the run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Costs {
    /// Rebalances begun (the classic group left Stable; the consumer group's epoch rose).
    pub rebalances: u32,
    /// The sum over partitions of the seconds each was not consumed (a partition no member
    /// has consumed, as one of a topic no member subscribes to, never stopped).
    pub partition_seconds_paused: f64,
    /// Partitions that stopped at least once.
    pub partitions_paused: u32,
    /// The longest time any one partition was not consumed (ms).
    pub longest_partition_stop_ms: i64,
    /// The longest time no partition of the group was consumed (ms).
    pub longest_group_stop_ms: i64,
    /// The most records any partition had waiting when it was consumed again, or when the
    /// run ended with it still stopped (what piled up while it stopped, plus what its new
    /// owner reads again).
    pub peak_lag_records: u64,
    /// Records processed twice: processed after the last commit by an owner that then
    /// lost the partition, so the next owner reads them again.
    pub records_read_twice: u64,
    /// Records never processed: committed before processing by an owner that died first.
    pub records_missed: u64,
}

/// A run's ledger closed: each partition's tenures (when kept), each member's spans of
/// consuming anything, and the costs.
#[derive(Debug, Clone)]
pub struct Closed {
    /// Per partition, who consumed it when.
    pub tenures: Vec<Vec<Tenure>>,
    /// Per member, when it consumed at least one partition.
    pub lanes: Vec<Vec<(i64, i64)>>,
    /// Per partition, its lag at its peak (records).
    pub peak_lag: Vec<u64>,
    /// What the run cost.
    pub costs: Costs,
}

#[derive(Debug, Clone, Copy)]
struct Open {
    member: usize,
    start: i64,
    committed_at: i64,
    start_offset: u64,
}

/// The partitions' tenures as a run goes, and the costs counted as they happen (no pass
/// over every tenure at the end: an eager group of 100,000 partitions ends a tenure per
/// partition at every rebalance).
#[derive(Debug, Clone)]
pub struct Ledger {
    records_per_ms: f64,
    open: Vec<Option<Open>>,
    keep_tenures: bool,
    tenures: Vec<Vec<Tenure>>,
    /// When each partition last stopped being consumed (0 before it ever was).
    stopped_at: Vec<i64>,
    stopped_ever: Vec<bool>,
    /// Whether each partition has been consumed.
    consumed_ever: Vec<bool>,
    /// Whether each partition's stops count: once it has been consumed, or from the story's
    /// start when the group's members subscribe to it then. (A partition of a topic nobody
    /// subscribes to never stopped: it never started.)
    counted: Vec<bool>,
    /// The partitions the group's members subscribe to when the story starts.
    expected: Vec<bool>,
    reread: Vec<f64>,
    /// Records produced to a partition that its last owner had not processed when it
    /// stopped: they wait for the next one.
    unprocessed: Vec<f64>,
    counting_from: i64,
    consumed_now: usize,
    group_stopped_at: i64,
    /// Whether the group's stops count: once it has consumed a partition, or from the
    /// story's start when its members subscribe to any.
    group_counted: bool,
    costs: Costs,
    paused_ms: i128,
    /// Per partition, its lag at its peak (records), counted from `counting_from`.
    peak_lag: Vec<f64>,
    read_twice: f64,
    missed: f64,
    overlaps: u32,
    /// The first overlaps.
    overlap_log: Vec<Overlap>,
    /// How often a partition was given to a member that did not consume it already.
    starts: u64,
    /// Per member: how many partitions it consumes now, since when it consumes any, and
    /// the spans in which it consumed any (its lane on the timeline).
    member_partitions: Vec<usize>,
    member_since: Vec<i64>,
    lanes: Vec<Vec<(i64, i64)>>,
}

/// How many overlaps a run says one by one.
pub const MAX_OVERLAPS_SAID: usize = 5;

/// A partition given to a member while another still consumed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overlap {
    /// When (ms).
    pub time_ms: i64,
    /// The partition (its index across the group's topics).
    pub partition: usize,
    /// The member that still consumed it.
    pub consumer: usize,
    /// The member given it.
    pub given_to: usize,
}

impl Ledger {
    /// No partition consumed yet, and no cost counted until [`Ledger::count_from`] says from
    /// when; `expected` are the partitions the group's members subscribe to (by index, a
    /// flag each); each partition's tenures are kept when `keep_tenures` (for a timeline
    /// drawn per partition).
    pub fn new(records_per_second: f64, expected: Vec<bool>, keep_tenures: bool) -> Ledger {
        let partitions = expected.len();
        Ledger {
            records_per_ms: records_per_second / 1000.0,
            open: vec![None; partitions],
            keep_tenures,
            tenures: vec![Vec::new(); if keep_tenures { partitions } else { 0 }],
            stopped_at: vec![0; partitions],
            stopped_ever: vec![false; partitions],
            consumed_ever: vec![false; partitions],
            counted: vec![false; partitions],
            expected,
            reread: vec![0.0; partitions],
            unprocessed: vec![0.0; partitions],
            counting_from: i64::MAX,
            consumed_now: 0,
            group_stopped_at: 0,
            group_counted: false,
            costs: Costs::default(),
            paused_ms: 0,
            peak_lag: vec![0.0; partitions],
            read_twice: 0.0,
            missed: 0.0,
            overlaps: 0,
            overlap_log: Vec::new(),
            starts: 0,
            member_partitions: Vec::new(),
            member_since: Vec::new(),
            lanes: Vec::new(),
        }
    }

    /// Costs count from `t` on (the story's start, once the group has formed).
    /// A partition the members subscribe to then stops from `t` on if it is not consumed
    /// (a member refused at its first JoinGroup, a group that has not settled).
    pub fn count_from(&mut self, t: i64) {
        self.counting_from = t;
        for (counted, expected) in self.counted.iter_mut().zip(&self.expected) {
            *counted |= *expected;
        }
        self.group_counted |= self.expected.contains(&true);
    }

    /// Records produced to a partition per millisecond.
    pub fn records_per_ms(&self) -> f64 {
        self.records_per_ms
    }

    /// Who consumes `p` now, if anyone.
    pub fn owner(&self, p: usize) -> Option<usize> {
        self.open[p].map(|o| o.member)
    }

    /// A stop from `from` to `to`, counted where it falls after `counting_from`.
    fn stop_of(&self, from: i64, to: i64) -> i64 {
        (to - from.max(self.counting_from)).max(0)
    }

    /// `member` starts consuming `p` at `t`: from the last committed offset when
    /// `from_committed` (a new owner, which reads again what the last one did not commit),
    /// else from where it stopped (after a network cut). Returns the records waiting for it.
    pub fn start(&mut self, p: usize, member: usize, t: i64, from_committed: bool) -> f64 {
        if let Some(o) = self.open[p] {
            if o.member == member {
                return 0.0;
            }
            // two consumers at once: the coordinator gave it away while its last owner does
            // not know yet (the run says so; the stories' tests hold this to zero)
            self.overlaps += 1;
            if self.overlap_log.len() < MAX_OVERLAPS_SAID {
                self.overlap_log.push(Overlap {
                    time_ms: t,
                    partition: p,
                    consumer: o.member,
                    given_to: member,
                });
            }
            self.end(p, o.member, t, 0.0, 0.0);
        }
        self.starts += 1;
        let stopped = self.stopped_at[p];
        let reread = if from_committed { self.reread[p] } else { 0.0 };
        let behind = self.unprocessed[p];
        let waiting = self.records_per_ms * (t - stopped).max(0) as f64 + behind + reread;
        let counted = self.counted[p];
        self.counted[p] = true;
        self.consumed_ever[p] = true;
        let stop = if counted { self.stop_of(stopped, t) } else { 0 };
        if stop > 0 {
            self.paused_ms += i128::from(stop);
            self.costs.longest_partition_stop_ms = self.costs.longest_partition_stop_ms.max(stop);
            self.stopped_ever[p] = true;
        }
        if t >= self.counting_from && counted {
            self.peak_lag[p] = self.peak_lag[p].max(waiting);
            self.read_twice += reread;
        }
        self.reread[p] = 0.0;
        self.unprocessed[p] = 0.0;
        let start_offset = (self.records_per_ms * stopped as f64 - behind - reread)
            .round()
            .max(0.0) as u64;
        if self.consumed_now == 0 && self.group_counted {
            let whole = self.stop_of(self.group_stopped_at, t);
            self.costs.longest_group_stop_ms = self.costs.longest_group_stop_ms.max(whole);
        }
        self.group_counted = true;
        self.consumed_now += 1;
        if self.member_partitions.len() <= member {
            self.member_partitions.resize(member + 1, 0);
            self.member_since.resize(member + 1, 0);
            self.lanes.resize(member + 1, Vec::new());
        }
        if self.member_partitions[member] == 0 {
            self.member_since[member] = t;
        }
        self.member_partitions[member] += 1;
        self.open[p] = Some(Open {
            member,
            start: t,
            committed_at: t,
            start_offset,
        });
        waiting
    }

    /// The owner of `p` commits what it processed, at `t`.
    /// `member` commits `p` at `t` (a member no longer its consumer commits nothing: Kafka
    /// refuses the commit of a member the coordinator removed).
    pub fn commit(&mut self, p: usize, member: usize, t: i64) {
        if let Some(o) = self.open[p].as_mut().filter(|o| o.member == member) {
            o.committed_at = o.committed_at.max(t);
        }
    }

    /// When `p`'s owner began and last committed, if it has an owner.
    pub fn committed_at(&self, p: usize) -> Option<(i64, i64)> {
        self.open[p].map(|o| (o.start, o.committed_at))
    }

    /// `p` stops being consumed at `t`; its owner leaves `uncommitted` records processed
    /// but not committed, which the next owner reads again (counted when it does), and
    /// `unprocessed` records it had not processed yet (it was behind), which the next owner
    /// finds waiting. Only its consumer `member` stops it (one the coordinator already gave
    /// it away from stopped when its new consumer started).
    pub fn end(&mut self, p: usize, member: usize, t: i64, uncommitted: f64, unprocessed: f64) {
        if self.open[p].is_none_or(|o| o.member != member) {
            return;
        }
        let Some(o) = self.open[p].take() else {
            return;
        };
        if self.keep_tenures {
            self.tenures[p].push(Tenure {
                member: o.member,
                start_ms: o.start,
                end_ms: t,
                start_offset: o.start_offset,
            });
        }
        self.stopped_at[p] = t;
        // (its owner got no further back than where it started, and committed no further
        // back either: what a member behind shares over its partitions is an estimate)
        let since_start = (self.records_per_ms * t as f64 - o.start_offset as f64).max(0.0);
        let unprocessed = unprocessed.clamp(0.0, since_start);
        self.unprocessed[p] = unprocessed;
        self.reread[p] = uncommitted.clamp(0.0, since_start - unprocessed);
        self.consumed_now -= 1;
        if self.consumed_now == 0 {
            self.group_stopped_at = t;
        }
        self.member_partitions[o.member] -= 1;
        if self.member_partitions[o.member] == 0 && t > self.member_since[o.member] {
            self.lanes[o.member].push((self.member_since[o.member], t));
        }
    }

    /// Whether `p` has been consumed at all.
    pub fn consumed_ever(&self, p: usize) -> bool {
        self.consumed_ever[p]
    }

    /// How often a partition was given to a member while another still consumed it.
    pub fn overlaps(&self) -> u32 {
        self.overlaps
    }

    /// The first [`MAX_OVERLAPS_SAID`] of [`Ledger::overlaps`].
    pub fn overlap_log(&self) -> &[Overlap] {
        &self.overlap_log
    }

    /// How often a partition was given to a member that did not consume it already (the
    /// group's first assignment included, and an eager member given back what it revoked).
    pub fn starts(&self) -> u64 {
        self.starts
    }

    /// Records of `p` its last owner processed and did not commit: what a new owner, which
    /// starts from the committed offset, reads again.
    pub fn rereads(&self, p: usize) -> f64 {
        if self.open[p].is_some() {
            0.0
        } else {
            self.reread[p]
        }
    }

    /// Records committed but never processed.
    pub fn miss(&mut self, records: f64) {
        self.missed += records.max(0.0);
    }

    /// Closes every open tenure at `end` and the costs with it: each partition's tenures
    /// (when kept), each member's spans of consuming anything, and the costs.
    pub fn finish(mut self, end: i64, rebalances: u32) -> Closed {
        for m in 0..self.member_partitions.len() {
            if self.member_partitions[m] > 0 && end > self.member_since[m] {
                self.lanes[m].push((self.member_since[m], end));
            }
        }
        for p in 0..self.open.len() {
            match self.open[p].take() {
                Some(o) if self.keep_tenures => self.tenures[p].push(Tenure {
                    member: o.member,
                    start_ms: o.start,
                    end_ms: end,
                    start_offset: o.start_offset,
                }),
                Some(_) => {}
                None if self.counted[p] => {
                    let stop = self.stop_of(self.stopped_at[p], end);
                    if stop > 0 {
                        self.paused_ms += i128::from(stop);
                        self.costs.longest_partition_stop_ms =
                            self.costs.longest_partition_stop_ms.max(stop);
                        self.stopped_ever[p] = true;
                    }
                    // still stopped: its lag at the end is its peak (it only grew meanwhile)
                    if end >= self.counting_from {
                        let waiting = self.records_per_ms
                            * (end - self.stopped_at[p]).max(0) as f64
                            + self.unprocessed[p]
                            + self.reread[p];
                        self.peak_lag[p] = self.peak_lag[p].max(waiting);
                    }
                }
                None => {}
            }
        }
        if self.consumed_now == 0 && self.group_counted {
            let whole = self.stop_of(self.group_stopped_at, end);
            self.costs.longest_group_stop_ms = self.costs.longest_group_stop_ms.max(whole);
        }
        let mut costs = self.costs;
        costs.rebalances = rebalances;
        costs.partitions_paused = self.stopped_ever.iter().filter(|s| **s).count() as u32;
        costs.partition_seconds_paused = self.paused_ms as f64 / 1000.0;
        costs.peak_lag_records = self.peak_lag.iter().fold(0.0f64, |a, b| a.max(*b)).round() as u64;
        costs.records_read_twice = self.read_twice.round() as u64;
        costs.records_missed = self.missed.round() as u64;
        Closed {
            tenures: self.tenures,
            lanes: self.lanes,
            peak_lag: self.peak_lag.iter().map(|l| l.round() as u64).collect(),
            costs,
        }
    }
}
