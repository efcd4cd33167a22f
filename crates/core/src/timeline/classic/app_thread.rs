//! The Java consumer's application thread and heartbeat thread: polls, batches, commits,
//! the heartbeat ticks, and when a member consumes, stops and catches up.

use super::*;

impl<'a> Sim<'a> {
    // ------------------------------------------------------------------ the app thread

    pub(super) fn tick(&mut self, c: usize, epoch: u64) {
        let cl = &self.clients[c];
        if !cl.up || cl.fatal || cl.heartbeat_epoch != epoch {
            return;
        }
        let quiet = !self.record_wire
            && self.broker.state() == GroupState::Stable
            && cl.phase == Phase::Stable
            && !cl.rejoin_needed
            && cl.consuming
            && cl.cut_until <= self.now
            && cl.slow_until <= self.now
            && !cl.member_id.is_empty();
        if quiet {
            self.clients[c].quiet = Some(self.now);
        } else {
            let next = self.now + self.clients[c].settings.heartbeat_interval_ms;
            self.push(next, Ev::Tick(c, epoch));
        }
        let cl = &self.clients[c];
        if cl.cut_until > self.now || cl.member_id.is_empty() {
            return;
        }
        if matches!(cl.phase, Phase::Syncing | Phase::Stable) {
            self.send_heartbeat(c);
        }
    }

    /// The last heartbeat a quiet member sent by now, and its next. A tick due now has
    /// happened when a client's event is handled (ticks come first among the clients'
    /// events due at one time), not yet while a coordinator timer fires (timers come first).
    pub(super) fn quiet_heartbeats(&self, c: usize, anchor: i64) -> (i64, i64) {
        let h = self.clients[c].settings.heartbeat_interval_ms;
        let by = if self.firing_timer {
            self.now - 1
        } else {
            self.now
        };
        let last = anchor + (by - anchor).max(0) / h * h;
        (last, last + h)
    }

    /// A quiet member heartbeats every interval again, as if it had all along.
    pub(super) fn wake(&mut self, c: usize) {
        let Some(anchor) = self.clients[c].quiet.take() else {
            return;
        };
        let (last, next) = self.quiet_heartbeats(c, anchor);
        if last > anchor {
            let member_id = self.clients[c].member_id.clone();
            self.broker.advance_to(self.now);
            self.broker.assume_heartbeat(&member_id, last);
            if last + self.s.round_trip_ms >= self.now {
                // its answer (NONE, the group being Stable) is still on its way
                let inc = self.clients[c].incarnation;
                self.clients[c].awaiting.push((Api::Heartbeat, inc));
                let alias = self.clients[c].name.clone();
                let reply = Response::new(&alias, Api::Heartbeat, ErrorCode::None);
                self.push(last + self.s.round_trip_ms, Ev::Deliver(c, reply));
            }
        }
        let epoch = self.clients[c].heartbeat_epoch;
        self.push(next, Ev::Tick(c, epoch));
    }

    /// The next coordinator timer is the heartbeat deadline of a quiet member: it has kept
    /// heartbeating, so the deadline moves on instead of firing.
    pub(super) fn heartbeat_is_assumed(&mut self) -> bool {
        let Some((_, TimerKey::Heartbeat(member_id))) = self.broker.next_timer() else {
            return false;
        };
        let Some(&c) = self.member_client.get(&*member_id) else {
            return false;
        };
        let cl = &self.clients[c];
        let Some(anchor) = cl.quiet else {
            return false;
        };
        if !cl.up || *cl.member_id != *member_id {
            return false;
        }
        // (a timer fires before the ticks due at its time)
        let h = self.clients[c].settings.heartbeat_interval_ms;
        let last = anchor + (self.now - 1 - anchor).max(0) / h * h;
        self.broker.assume_heartbeat(&member_id, last);
        true
    }

    /// After a network cut: a heartbeat at once, then every interval.
    pub(super) fn tick_now(&mut self, c: usize) {
        self.clients[c].heartbeat_epoch += 1;
        let epoch = self.clients[c].heartbeat_epoch;
        self.push(self.now, Ev::Tick(c, epoch));
    }

    /// The app thread's next `poll()`: at once, or after the batch it is processing.
    pub(super) fn schedule_poll(&mut self, c: usize) {
        if self.clients[c].poll_scheduled {
            return;
        }
        self.clients[c].poll_scheduled = true;
        let at = self.next_poll(c);
        let inc = self.clients[c].incarnation;
        self.push(at, Ev::Poll(c, inc));
    }

    pub(super) fn next_poll(&self, c: usize) -> i64 {
        let cl = &self.clients[c];
        if cl.slow_until > self.now {
            return cl.slow_until;
        }
        cl.backlog.next_poll(self.now, &self.clients[c].settings)
    }

    /// `poll()`: rejoins when a rebalance is needed (`onJoinPrepare`, then JoinGroup).
    pub(super) fn poll(&mut self, c: usize) {
        let now = self.now;
        let cl = &self.clients[c];
        if !cl.up || cl.fatal {
            return;
        }
        if cl.slow_until > now {
            self.schedule_poll(c);
            return;
        }
        if !cl.consuming
            && cl.cut_until <= now
            && !cl.reconnecting
            && cl.phase == Phase::Stable
            && cl.generation != -1
            && !cl.member_id.is_empty()
        {
            self.resume(c, "The slow batch is done");
        }
        let cl = &self.clients[c];
        if !cl.rejoin_needed || matches!(cl.phase, Phase::Joining | Phase::Syncing) {
            return;
        }
        // onJoinPrepare
        let reset = cl.generation == -1 || cl.member_id.is_empty();
        let mut wait = 0;
        if reset {
            let n = self.clients[c].owned.len();
            if n > 0 {
                self.lose_all(c);
                self.happen(
                    Some(c),
                    "lost",
                    format!("onPartitionsLost: its {n} partitions were no longer its own."),
                );
            }
        } else {
            if matches!(self.clients[c].settings.commit, CommitPolicy::Auto { .. }) {
                wait = self.s.round_trip_ms;
            }
            let owned = self.clients[c].owned.clone();
            if self.clients[c].consuming {
                for &p in &owned {
                    self.ledger.commit(p, c, now);
                }
            }
            if self.clients[c].eager && !owned.is_empty() {
                if self.clients[c].consuming {
                    let behind = self.hand_over(c, owned.len(), owned.len());
                    for &p in &owned {
                        self.ledger.end(p, c, now, 0.0, behind);
                    }
                }
                self.clients[c].owned.clear();
                if self.tells_each_member() {
                    self.happen(
                        Some(c),
                        "revoke",
                        format!(
                            "onJoinPrepare: it commits and revokes all {} partitions (eager).",
                            owned.len()
                        ),
                    );
                }
            }
        }
        let cl = &mut self.clients[c];
        cl.rejoin_needed = false;
        cl.phase = Phase::Joining;
        cl.heartbeat_epoch += 1;
        let inc = cl.incarnation;
        self.push(now + wait, Ev::SendJoin(c, inc));
    }

    /// `max.poll.interval.ms` passed inside one batch: the heartbeat thread leaves the group
    /// (a dynamic member sends LeaveGroup) and forgets its member id and generation.
    pub(super) fn poll_timeout(&mut self, c: usize, inc: u32) {
        let cl = &self.clients[c];
        if cl.incarnation != inc || !cl.up || cl.slow_until <= self.now {
            return;
        }
        let dynamic = cl.instance_id.is_none();
        let member_id = cl.member_id.clone();
        self.lose_all(c);
        let cl = &mut self.clients[c];
        cl.member_id.clear();
        cl.generation = -1;
        cl.heartbeat_epoch += 1;
        cl.phase = Phase::Unjoined;
        cl.rejoin_needed = true;
        let what = if dynamic {
            "max.poll.interval.ms passed inside one batch: the heartbeat thread sends LeaveGroup and forgets the member id."
        } else {
            "max.poll.interval.ms passed inside one batch: the static member stops heartbeating (no LeaveGroup)."
        };
        self.happen(Some(c), "poll timeout", what.into());
        if dynamic && !member_id.is_empty() {
            self.send_leave(c, member_id);
        }
    }

    // ------------------------------------------------------------------ consumption

    /// Gives up every owned partition with no commit (lost, crash, poll timeout).
    pub(super) fn lose_all(&mut self, c: usize) {
        self.stop_consuming(c);
        self.clients[c].owned.clear();
        self.clients[c].consuming = true;
    }

    /// A network cut or a stalled batch: it keeps its partitions but consumes none.
    pub(super) fn suspend(&mut self, c: usize) {
        self.stop_consuming(c);
        self.clients[c].consuming = false;
    }

    /// Its partitions stop being consumed now, with no commit: the next owner reads again
    /// what it processed since its last one.
    pub(super) fn stop_consuming(&mut self, c: usize) {
        if self.clients[c].consuming {
            let owned = self.clients[c].owned.clone();
            self.stop(c, &owned, owned.len());
        }
    }

    /// Partitions `ps` of the `of` it owns stop being consumed now, with no commit of
    /// their own: their next owners read again what it processed since its last commit, and
    /// find waiting what it had not processed yet.
    pub(super) fn stop(&mut self, c: usize, ps: &[usize], of: usize) {
        let uncommitted: Vec<f64> = ps.iter().map(|&p| self.uncommitted(c, p, of)).collect();
        let behind = self.hand_over(c, ps.len(), of);
        for (&p, u) in ps.iter().zip(uncommitted) {
            self.ledger.end(p, c, self.now, u, behind);
        }
    }

    /// It stops consuming `stopping` of its `of` partitions now: the records it had not
    /// processed on them wait for their next owner (returned: per partition).
    pub(super) fn hand_over(&mut self, c: usize, stopping: usize, of: usize) -> f64 {
        let (now, rate) = (self.now, self.ledger.records_per_ms());
        let cl = &mut self.clients[c];
        cl.backlog.hand_over(now, stopping, of, rate, &cl.settings)
    }

    /// It consumes what it still owns again (`why`: what ended the pause).
    pub(super) fn resume(&mut self, c: usize, why: &str) {
        let now = self.now;
        let owned = self.clients[c].owned.clone();
        let mut waiting = 0.0;
        for &p in &owned {
            if self.ledger.owner(p).is_none() {
                waiting += self.ledger.start(p, c, now, false);
            }
        }
        self.clients[c].consuming = true;
        self.catch_up(c, waiting);
        if self.tells_each_member() {
            self.happen(
                Some(c),
                "resume",
                format!("{why}: it consumes its {} partitions again.", owned.len()),
            );
        }
    }

    /// A member given `waiting` records works through them in batches.
    pub(super) fn catch_up(&mut self, c: usize, waiting: f64) {
        let per_ms_in = self.ledger.records_per_ms() * self.clients[c].owned.len() as f64;
        let now = self.now;
        let cl = &mut self.clients[c];
        cl.backlog.add(now, waiting, per_ms_in, &cl.settings);
    }

    /// Records of `p` its owner processed since its last commit (`n`: how many partitions
    /// the owner has).
    pub(super) fn uncommitted(&self, c: usize, p: usize, n: usize) -> f64 {
        let now = self.now;
        let Some((start, committed)) = self.ledger.committed_at(p) else {
            return 0.0;
        };
        let rate = self.ledger.records_per_ms();
        match self.clients[c].settings.commit {
            CommitPolicy::Auto { interval_ms } => {
                let anchor = self.clients[c].auto_anchor;
                let tick = if now >= anchor {
                    anchor + (now - anchor) / interval_ms * interval_ms
                } else {
                    anchor
                };
                let since = start.max(committed).max(tick);
                rate * (now - since).max(0) as f64
            }
            CommitPolicy::AfterBatch => self.batch_processed(c) / n.max(1) as f64,
            CommitPolicy::BeforeProcessing => 0.0,
        }
    }

    /// Records of the current batch already processed (zero for a member keeping up).
    pub(super) fn batch_processed(&self, c: usize) -> f64 {
        self.clients[c]
            .backlog
            .processed(self.now, &self.clients[c].settings)
    }

    /// Records of the current batch not processed yet.
    pub(super) fn batch_unprocessed(&self, c: usize) -> f64 {
        self.clients[c]
            .backlog
            .unprocessed(self.now, &self.clients[c].settings)
    }
}
