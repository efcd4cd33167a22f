//! The Java consumer under the consumer protocol: its heartbeats and the fields each one
//! carries (`ConsumerHeartbeatRequestManager.HeartbeatState`), and reconciling to what the
//! coordinator assigns (`AbstractMembershipManager`: revoke, take what is new, acknowledge).

use super::trace::{HeartbeatError, HeartbeatRequest, HeartbeatResponse};
use super::*;

impl<'a> Sim<'a> {
    /// The client's ConsumerGroupHeartbeat: every field when it joins (epoch 0), else its
    /// epoch, and what it owns when that changed since it last said (after each
    /// reconciliation). The coordinator answers at once; the answer reaches the client a
    /// round trip later.
    pub(super) fn send_heartbeat(&mut self, c: usize) {
        let cl = &mut self.clients[c];
        if cl.stale {
            return;
        }
        if cl.cut_until > self.now {
            // it cannot reach the coordinator: the heartbeat fails
            cl.full_next = true;
            return;
        }
        let (joining, all) = (cl.joining, cl.joining || cl.full_next);
        cl.full_next = false;
        let owned = (all || cl.sent_local != Some(cl.local_epoch)).then(|| cl.owned.clone());
        let (id, epoch, local) = (cl.member_id, cl.epoch, cl.local_epoch);
        let (client, member_id) = self.names_for_trace(c, id);
        let req = HeartbeatRequest {
            client,
            member_id,
            member_epoch: if joining { 0 } else { epoch },
            instance_id: self.instance_id(c),
            rebalance_timeout_ms: all.then_some(self.clients[c].settings.max_poll_interval_ms),
            subscribed: all.then(|| self.topics[c].clone()),
            owned,
        };
        self.clients[c].sent_local = Some(local);
        let response = self.exchange(c, req, id);
        let inc = self.clients[c].incarnation;
        self.push(self.now + self.s.round_trip_ms, Ev::Reply(c, inc, response));
    }

    /// The leave heartbeat of `close()` or of a poll timeout: epoch -1, or -2 for a static
    /// member. Its answer changes nothing for the client.
    pub(super) fn send_leave(&mut self, c: usize) {
        let id = self.clients[c].member_id;
        let (client, member_id) = self.names_for_trace(c, id);
        let req = HeartbeatRequest {
            client,
            member_id,
            member_epoch: if self.instance_ids[c].is_some() {
                LEAVE_STATIC
            } else {
                -1
            },
            instance_id: self.instance_id(c),
            rebalance_timeout_ms: None,
            subscribed: None,
            owned: None,
        };
        self.exchange(c, req, id);
    }

    /// The client's alias and its member id as a request names them, when the run keeps
    /// its requests (the coordinator goes by the member's number; only the trace reads
    /// names).
    fn names_for_trace(&self, c: usize, id: u64) -> (String, String) {
        if self.trace.requests() {
            (self.names[c].clone(), self.member_name(id))
        } else {
            (String::new(), String::new())
        }
    }

    fn instance_id(&self, c: usize) -> Option<String> {
        self.instance_ids[c].clone()
    }

    /// The coordinator handles the request now; both go in the trace when asked.
    fn exchange(&mut self, c: usize, req: HeartbeatRequest, id: u64) -> HeartbeatResponse {
        let response = self.consumer_group_heartbeat(c, &req, id);
        if self.trace.requests() {
            let t = self.now;
            self.wire.push(Line::Heartbeat { t, request: req });
            self.wire.push(Line::HeartbeatAnswer {
                t,
                response: response.clone(),
            });
        }
        response
    }

    pub(super) fn on_reply(&mut self, c: usize, response: HeartbeatResponse) {
        let now = self.now;
        if self.clients[c].stale {
            // it has left (a poll timeout): the answer to a heartbeat sent before is dropped
            return;
        }
        match response.error {
            HeartbeatError::None => {}
            HeartbeatError::UnknownMemberId | HeartbeatError::FencedMemberEpoch => {
                // fenced: onPartitionsLost, then join again with epoch 0 and the same id
                let lost = self.lose_owned(c, 0.0);
                let cl = &mut self.clients[c];
                cl.consuming = true;
                cl.joining = true;
                cl.epoch = 0;
                self.happen(Some(c), "lost", format!("Heartbeat: {}; onPartitionsLost ({lost} partitions), and it joins again with epoch 0.", response.error.name()));
                self.send_heartbeat(c);
                return;
            }
            HeartbeatError::UnreleasedInstanceId | HeartbeatError::FencedInstanceId => {
                self.lose_owned(c, 0.0);
                self.down(c);
                let again = crate::timeline::RESTART_AFTER_FATAL_MS;
                self.happen(
                    Some(c),
                    "fatal",
                    format!("Heartbeat: {}: its old self still holds the group.instance.id (it left no -2). The Java consumer throws; its supervisor starts it again {} s later.", response.error.name(), again / 1000),
                );
                let inc = self.clients[c].incarnation;
                self.push(self.now + again, Ev::Restart(c, inc));
                return;
            }
        }
        let cl = &self.clients[c];
        if !cl.consuming && cl.cut_until <= now && cl.slow_until <= now {
            // back from a cut and still a member: it consumes what it owns again
            self.resume(c);
        }
        let cl = &mut self.clients[c];
        cl.epoch = response.member_epoch;
        cl.joining = false;
        if let Some(a) = response.assignment {
            // replaceTargetAssignmentWithNewAssignment: a new target when it differs
            if cl.target.as_ref() != Some(&a) {
                cl.target = Some(a);
                cl.reconciled = false;
            }
        }
        let regular = now + self.interval() - self.s.round_trip_ms;
        let next_poll = self.clients[c]
            .backlog
            .next_poll(now, &self.clients[c].settings);
        if self.clients[c].reconciled {
            self.push_heartbeat(c, regular.max(now), false);
        } else if self.clients[c].slow_until > now {
            // the heartbeat thread goes on; the callbacks wait for the batch to end
            self.push_heartbeat(c, regular.max(now), false);
        } else if next_poll > now {
            // behind: the callbacks run in its next poll(), when the batch in hand is done
            self.push_heartbeat(c, regular.max(now), false);
            let inc = self.clients[c].incarnation;
            self.push(next_poll, Ev::Reconcile(c, inc));
        } else {
            self.apply_assignment(c);
        }
    }

    /// A reconciliation starts (in its poll()) toward its target: with auto-commit on, it
    /// first commits every owned partition's position and waits for the answer
    /// (`signalReconciliationStarted`); then its callbacks run.
    pub(super) fn apply_assignment(&mut self, c: usize) {
        let cl = &self.clients[c];
        if cl.reconciling {
            // (one at a time: a newer target waits for the one in progress)
            return;
        }
        let Some(target) = cl.target.clone() else {
            return;
        };
        if matches!(self.clients[c].settings.commit, CommitPolicy::Auto { .. })
            && !cl.owned.is_empty()
        {
            let (now, inc) = (self.now, cl.incarnation);
            for p in cl.owned.clone() {
                self.ledger.commit(p, c, now);
            }
            self.clients[c].reconciling = true;
            self.push(now + self.s.round_trip_ms, Ev::Callbacks(c, inc, target));
            return;
        }
        self.run_callbacks(c, target);
    }

    /// The member's callbacks for `assignment`: it revokes what it no longer has, takes
    /// what is new, and acknowledges at once; the auto-commit timer starts again
    /// (`signalReconciliationCompleting`).
    pub(super) fn run_callbacks(&mut self, c: usize, assignment: Vec<usize>) {
        let at = self.now;
        let owned = self.clients[c].owned.clone();
        let (revoked, added) = crate::timeline::differences(&owned, &assignment);
        let uncommitted: Vec<f64> = revoked.iter().map(|&p| self.uncommitted(c, p)).collect();
        let behind = self.hand_over(c, revoked.len(), owned.len());
        for (&p, u) in revoked.iter().zip(uncommitted) {
            self.ledger.end(p, c, at, u, behind);
        }
        if !revoked.is_empty() && self.tells_each_member() {
            self.happen(
                Some(c),
                "revoke",
                format!(
                    "It revokes {} partitions (onPartitionsRevoked) and acknowledges at once.",
                    revoked.len()
                ),
            );
        }
        let again: f64 = added.iter().map(|&p| self.ledger.rereads(p)).sum();
        let mut waiting = 0.0;
        for &p in &added {
            waiting += self.ledger.start(p, c, at, true);
        }
        if !added.is_empty() && self.tells_each_member() {
            let epoch = self.clients[c].epoch;
            self.happen(
                Some(c),
                "assigned",
                format!(
                    "It is given {} partitions and starts consuming them (member epoch {epoch}){}.",
                    added.len(),
                    crate::timeline::classic::read_again(again)
                ),
            );
        }
        let cl = &mut self.clients[c];
        cl.reconciled = cl.target.as_ref() == Some(&assignment);
        cl.owned = assignment;
        cl.reconciling = false;
        cl.local_epoch += 1;
        cl.auto_anchor = at;
        self.catch_up(c, waiting);
        // ACKNOWLEDGING: the next heartbeat goes at once
        self.push_heartbeat(c, at, true);
        if !self.clients[c].reconciled {
            // a newer target came meanwhile: the next reconciliation starts
            self.apply_assignment(c);
        }
    }

    pub(super) fn uncommitted(&self, c: usize, p: usize) -> f64 {
        let Some((start, committed)) = self.ledger.committed_at(p) else {
            return 0.0;
        };
        match self.clients[c].settings.commit {
            CommitPolicy::Auto { interval_ms } => {
                let anchor = self.clients[c].auto_anchor;
                let tick = if self.now >= anchor {
                    anchor + (self.now - anchor) / interval_ms * interval_ms
                } else {
                    anchor
                };
                self.ledger.records_per_ms()
                    * (self.now - start.max(committed).max(tick)).max(0) as f64
            }
            CommitPolicy::AfterBatch => {
                let n = self.clients[c].owned.len().max(1) as f64;
                self.clients[c]
                    .backlog
                    .processed(self.now, &self.clients[c].settings)
                    / n
            }
            CommitPolicy::BeforeProcessing => 0.0,
        }
    }
}
