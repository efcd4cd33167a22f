//! Who consumed which partition when, and what the gaps cost.

use super::Tenure;

/// What a run cost, counted from the start of the story to the end of the run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Costs {
    /// Rebalances begun (the classic group left Stable; the consumer group's epoch rose).
    pub rebalances: u32,
    /// The sum over partitions of the seconds each was not consumed.
    pub partition_seconds_paused: f64,
    /// Partitions that stopped at least once.
    pub partitions_paused: u32,
    /// The longest time any one partition was not consumed (ms).
    pub longest_partition_stop_ms: i64,
    /// The longest time no partition of the group was consumed (ms).
    pub longest_group_stop_ms: i64,
    /// The most records any partition had waiting when it was consumed again (what
    /// piled up while it stopped, plus what its new owner reads again).
    pub peak_lag_records: u64,
    /// Records processed twice: processed after the last commit by an owner that then
    /// lost the partition, so the next owner reads them again.
    pub records_read_twice: u64,
    /// Records never processed: committed before processing by an owner that died first.
    pub records_missed: u64,
}

#[derive(Debug, Clone, Copy)]
struct Open {
    member: usize,
    start: i64,
    committed_at: i64,
}

/// The partitions' tenures as a run goes.
#[derive(Debug, Clone)]
pub struct Ledger {
    records_per_ms: f64,
    open: Vec<Option<Open>>,
    tenures: Vec<Vec<Tenure>>,
    stopped_at: Vec<Option<i64>>,
    reread: Vec<f64>,
    counting_from: i64,
    peak_lag: f64,
    read_twice: f64,
    missed: f64,
}

impl Ledger {
    /// No partition consumed yet; costs count from `counting_from`.
    pub fn new(partitions: usize, records_per_second: f64, counting_from: i64) -> Ledger {
        Ledger {
            records_per_ms: records_per_second / 1000.0,
            open: vec![None; partitions],
            tenures: vec![Vec::new(); partitions],
            stopped_at: vec![None; partitions],
            reread: vec![0.0; partitions],
            counting_from,
            peak_lag: 0.0,
            read_twice: 0.0,
            missed: 0.0,
        }
    }

    /// Records produced to a partition per millisecond.
    pub fn records_per_ms(&self) -> f64 {
        self.records_per_ms
    }

    /// Who consumes `p` now, if anyone.
    pub fn owner(&self, p: usize) -> Option<usize> {
        self.open[p].map(|o| o.member)
    }

    /// `member` starts consuming `p` at `t`: from the last committed offset when
    /// `from_committed` (a new owner, which reads again what the last one did not commit),
    /// else from where it stopped (after a network cut). Returns the records waiting for it.
    pub fn start(&mut self, p: usize, member: usize, t: i64, from_committed: bool) -> f64 {
        if let Some(o) = self.open[p] {
            if o.member == member {
                return 0.0;
            }
            // a partition has one consumer: the old tenure ends
            self.end(p, t, 0.0);
        }
        let reread = if from_committed { self.reread[p] } else { 0.0 };
        let waiting = match self.stopped_at[p] {
            Some(s) => self.records_per_ms * (t - s).max(0) as f64 + reread,
            None => 0.0,
        };
        if t >= self.counting_from {
            self.peak_lag = self.peak_lag.max(waiting);
            self.read_twice += reread;
        }
        self.reread[p] = 0.0;
        self.open[p] = Some(Open {
            member,
            start: t,
            committed_at: t,
        });
        waiting
    }

    /// The owner of `p` commits what it processed, at `t`.
    pub fn commit(&mut self, p: usize, t: i64) {
        if let Some(o) = &mut self.open[p] {
            o.committed_at = o.committed_at.max(t);
        }
    }

    /// When `p`'s owner last committed, if it has an owner.
    pub fn committed_at(&self, p: usize) -> Option<(i64, i64)> {
        self.open[p].map(|o| (o.start, o.committed_at))
    }

    /// `p` stops being consumed at `t`; its owner leaves `uncommitted` records processed
    /// but not committed, which the next owner reads again (counted when it does).
    pub fn end(&mut self, p: usize, t: i64, uncommitted: f64) {
        let Some(o) = self.open[p].take() else { return };
        self.tenures[p].push(Tenure {
            member: o.member,
            start_ms: o.start,
            end_ms: t,
        });
        self.stopped_at[p] = Some(t);
        self.reread[p] = uncommitted.max(0.0);
    }

    /// Records committed but never processed.
    pub fn miss(&mut self, records: f64) {
        self.missed += records.max(0.0);
    }

    /// Closes every open tenure at `end` and counts the costs from `counting_from`.
    pub fn finish(mut self, end: i64, rebalances: u32) -> (Vec<Vec<Tenure>>, Costs) {
        for p in 0..self.open.len() {
            if let Some(o) = self.open[p].take() {
                self.tenures[p].push(Tenure {
                    member: o.member,
                    start_ms: o.start,
                    end_ms: end,
                });
            }
        }
        let from = self.counting_from;
        let mut costs = Costs {
            rebalances,
            ..Costs::default()
        };
        let mut paused_ms: i128 = 0;
        // the moments some partition was consumed, to find when none was
        let mut covered: Vec<(i64, i64)> = Vec::new();
        for list in &self.tenures {
            let mut at = from;
            let mut stopped = false;
            for t in list {
                let (s, e) = (t.start_ms.max(from), t.end_ms.min(end));
                if e <= s {
                    continue;
                }
                if s > at {
                    paused_ms += i128::from(s - at);
                    costs.longest_partition_stop_ms = costs.longest_partition_stop_ms.max(s - at);
                    stopped = true;
                }
                at = at.max(e);
                covered.push((s, e));
            }
            if at < end {
                paused_ms += i128::from(end - at);
                costs.longest_partition_stop_ms = costs.longest_partition_stop_ms.max(end - at);
                stopped = true;
            }
            if stopped {
                costs.partitions_paused += 1;
            }
        }
        covered.sort_unstable();
        let mut at = from;
        for (s, e) in covered {
            if s > at {
                costs.longest_group_stop_ms = costs.longest_group_stop_ms.max(s - at);
            }
            at = at.max(e);
        }
        if at < end {
            costs.longest_group_stop_ms = costs.longest_group_stop_ms.max(end - at);
        }
        costs.partition_seconds_paused = paused_ms as f64 / 1000.0;
        costs.peak_lag_records = self.peak_lag.round() as u64;
        costs.records_read_twice = self.read_twice.round() as u64;
        costs.records_missed = self.missed.round() as u64;
        (self.tenures, costs)
    }
}
