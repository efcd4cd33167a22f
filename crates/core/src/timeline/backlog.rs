//! A member's records waiting to be processed: after a pause it works through them in
//! batches of `max.poll.records`, and between two batches (in `poll()`) it notices what the
//! group asks of it. Both protocols' clients keep one.

use super::ClientSettings;

/// When a member will have caught up, and when its current run of batches began.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Backlog {
    /// It is behind until then (ms); 0 when it keeps up.
    pub behind_until: i64,
    /// Its batches follow each other from here (ms).
    pub batch_anchor: i64,
}

/// How long one batch takes (ms).
pub(crate) fn batch_ms(c: &ClientSettings) -> i64 {
    (f64::from(c.max_poll_records) * c.processing_ms_per_record).ceil() as i64
}

impl Backlog {
    /// `waiting` more records at `now`, while `per_ms_in` arrive per ms: it is behind until
    /// it has processed them (for ever when records arrive faster than it processes them).
    pub fn add(&mut self, now: i64, waiting: f64, per_ms_in: f64, c: &ClientSettings) {
        let p = c.processing_ms_per_record;
        if waiting <= 0.0 || p <= 0.0 {
            return;
        }
        let capacity = 1.0 / p;
        let until = if capacity <= per_ms_in {
            i64::MAX / 4
        } else {
            // (at most a year of virtual time: a rate a hair under capacity takes forever)
            let ms = (waiting / (capacity - per_ms_in))
                .ceil()
                .min(31_536_000_000.0);
            now.saturating_add(ms as i64)
        };
        self.behind_until = self.behind_until.max(until);
        self.batch_anchor = now;
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
        assert_eq!(b.next_poll(3_000, &c), 3_000);
        assert_eq!(b.unprocessed(3_000, &c), 0.0);
        // faster in than out: behind for good
        let mut slow = Backlog::default();
        slow.add(0, 1.0, 2.0, &c);
        assert!(slow.behind_until > 1_000_000_000_000);
    }
}
