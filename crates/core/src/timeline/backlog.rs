//! A member's records waiting to be processed: after a pause it works through them in
//! batches of `max.poll.records`, and between two batches (in `poll()`) it notices what the
//! group asks of it. Both protocols' clients keep one.

use super::ClientSettings;

/// When a member will have caught up, and when its current run of batches began.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Backlog {
    /// It is behind until then (ms); 0 when it keeps up.
    behind_until: i64,
    /// Its batches follow each other from here (ms).
    batch_anchor: i64,
    /// Records waiting at `batch_anchor`.
    waiting: f64,
    /// How fast they drain: records per ms processed beyond those arriving (negative when
    /// more arrive than it processes).
    drain_per_ms: f64,
}

/// How long one batch takes (ms).
pub(crate) fn batch_ms(c: &ClientSettings) -> i64 {
    (f64::from(c.max_poll_records) * c.processing_ms_per_record).ceil() as i64
}

impl Backlog {
    /// The records waiting at `now`.
    pub fn remaining(&self, now: i64) -> f64 {
        if self.waiting <= 0.0 || now >= self.behind_until {
            return 0.0;
        }
        (self.waiting - self.drain_per_ms * (now - self.batch_anchor) as f64).max(0.0)
    }

    /// `waiting` more records at `now`, while `per_ms_in` arrive per ms (over all it
    /// consumes): it is behind until it has processed them and what was still waiting (for
    /// ever when records arrive faster than it processes them).
    pub fn add(&mut self, now: i64, waiting: f64, per_ms_in: f64, c: &ClientSettings) {
        let p = c.processing_ms_per_record;
        if waiting <= 0.0 || p <= 0.0 {
            return;
        }
        let total = self.remaining(now) + waiting;
        let drain = 1.0 / p - per_ms_in;
        self.behind_until = if drain <= 0.0 {
            i64::MAX / 4
        } else {
            // (at most a year of virtual time: a rate a hair under capacity takes forever)
            let ms = (total / drain).ceil().min(31_536_000_000.0);
            now.saturating_add(ms as i64)
        };
        self.batch_anchor = now;
        self.waiting = total;
        self.drain_per_ms = drain;
    }

    /// It stops consuming `share` of its partitions at `now` (revoked, or all of them when
    /// it stops): the records waiting on them are no longer its own, and are returned (they
    /// wait for whoever consumes those partitions next); the rest wait as before, with
    /// `per_ms_in` arriving on what it keeps.
    pub fn give_up(&mut self, now: i64, share: f64, per_ms_in: f64, c: &ClientSettings) -> f64 {
        let left = self.remaining(now);
        let given = left * share.clamp(0.0, 1.0);
        *self = Backlog::default();
        self.add(now, left - given, per_ms_in, c);
        given
    }

    /// It stops consuming `stopping` of its `of` partitions at `now` (each bringing
    /// `records_per_ms`): the records waiting for it are shared evenly over its partitions,
    /// and those of the partitions it stops go with them; returns the records waiting on
    /// each.
    pub fn hand_over(
        &mut self,
        now: i64,
        stopping: usize,
        of: usize,
        records_per_ms: f64,
        c: &ClientSettings,
    ) -> f64 {
        if stopping == 0 || of == 0 {
            return 0.0;
        }
        let stopping = stopping.min(of);
        let share = stopping as f64 / of as f64;
        let kept_in = records_per_ms * (of - stopping) as f64;
        self.give_up(now, share, kept_in, c) / stopping as f64
    }

    /// When its next `poll()` comes: at once when it keeps up, else when its current batch
    /// ends.
    pub fn next_poll(&self, now: i64, c: &ClientSettings) -> i64 {
        let batch = batch_ms(c);
        if now < self.behind_until && batch > 0 {
            let since = now - self.batch_anchor;
            return self.batch_anchor + (since + batch - 1) / batch * batch;
        }
        now
    }

    /// Records of the current batch already processed (zero for a member keeping up).
    pub fn processed(&self, now: i64, c: &ClientSettings) -> f64 {
        let batch = batch_ms(c);
        if now >= self.behind_until || batch <= 0 {
            return 0.0;
        }
        let into = (now - self.batch_anchor) % batch;
        into as f64 / c.processing_ms_per_record
    }

    /// Records of the current batch not processed yet.
    pub fn unprocessed(&self, now: i64, c: &ClientSettings) -> f64 {
        if now >= self.behind_until || batch_ms(c) <= 0 {
            return 0.0;
        }
        (f64::from(c.max_poll_records) - self.processed(now, c)).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_behind_polls_between_batches_until_it_has_caught_up() {
        let c = ClientSettings {
            max_poll_records: 100,
            processing_ms_per_record: 1.0,
            ..ClientSettings::default()
        };
        let mut b = Backlog::default();
        assert_eq!(b.next_poll(50, &c), 50);
        // 1,000 records waiting, 0.5 arriving per ms, 1 processed per ms: 2 s to catch up
        b.add(1_000, 1_000.0, 0.5, &c);
        assert_eq!(b.behind_until, 3_000);
        assert_eq!(b.next_poll(1_000, &c), 1_000);
        assert_eq!(b.next_poll(1_001, &c), 1_100);
        assert_eq!(b.processed(1_030, &c), 30.0);
        assert_eq!(b.unprocessed(1_030, &c), 70.0);
        assert_eq!(b.remaining(2_000), 500.0);
        assert_eq!(b.next_poll(3_000, &c), 3_000);
        assert_eq!(b.unprocessed(3_000, &c), 0.0);
        assert_eq!(b.remaining(3_000), 0.0);
        // more while behind: what was waiting, and the new records
        let mut more = Backlog::default();
        more.add(1_000, 1_000.0, 0.5, &c);
        more.add(2_000, 1_000.0, 0.5, &c);
        assert_eq!(more.behind_until, 2_000 + 3_000);
        // giving up half its partitions at 2,000 ms: half of what waits goes with them, and
        // the other half drains faster (0.25 in per ms)
        let given = more.give_up(2_000, 0.5, 0.25, &c);
        assert_eq!(given, 750.0);
        assert_eq!(more.behind_until, 3_000);
        // faster in than out: behind for good
        let mut slow = Backlog::default();
        slow.add(0, 1.0, 2.0, &c);
        assert!(slow.behind_until > 1_000_000_000_000);
    }
}
