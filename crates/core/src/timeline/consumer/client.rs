//! The Java consumer under the consumer protocol: its heartbeats, and reconciling to its
//! target (revoke, acknowledge, then take what it was given).

use super::*;

impl<'a> Sim<'a> {
    // ------------------------------------------------------------------ the client

    pub(super) fn on_reply(&mut self, c: usize, reply: Reply) {
        let now = self.now;
        let inc = self.clients[c].incarnation;
        let assignment = match reply {
            Reply::Assigned(a) => Some(a),
            Reply::Unchanged => {
                let next = now + self.interval() - self.s.round_trip_ms;
                self.push_heartbeat(c, next.max(now), false);
                return;
            }
            Reply::Fenced => None,
        };
        let Some(assignment) = assignment else {
            // fenced: onPartitionsLost, then join again with epoch 0
            let lost = self.lose_owned(c);
            let cl = &mut self.clients[c];
            cl.consuming = true;
            cl.fenced = false;
            cl.member = None;
            self.happen(Some(c), "lost", format!("Heartbeat: UNKNOWN_MEMBER_ID; onPartitionsLost ({} partitions), and it joins again with epoch 0.", lost));
            self.push_heartbeat(c, now, true);
            return;
        };
        if self.clients[c].slow_until > now {
            // the heartbeat thread goes on; the callbacks wait for the batch to end
            self.push_heartbeat(c, now + self.interval() - self.s.round_trip_ms, false);
            let at = self.clients[c].slow_until;
            if let Some(member) = self.clients[c].member {
                self.push(at, Ev::Reconcile(c, inc, member, assignment));
            }
            return;
        }
        self.apply_assignment(c, assignment);
    }

    /// The member's callbacks run for `assignment` (in its poll()): it revokes, commits
    /// first when auto-commit is on, takes what is new, and acknowledges at once.
    pub(super) fn apply_assignment(&mut self, c: usize, assignment: Vec<usize>) {
        let now = self.now;
        let owned = self.clients[c].owned.clone();
        let (revoked, added) = crate::timeline::differences(&owned, &assignment);
        let cl = &self.clients[c];
        if !cl.consuming && cl.cut_until <= now && cl.slow_until <= now {
            // back from a cut: it consumes what it still owns again
            self.clients[c].consuming = true;
            for &p in owned.iter().filter(|p| assignment.binary_search(p).is_ok()) {
                if self.ledger.owner(p).is_none() {
                    self.ledger.start(p, c, now, false);
                }
            }
        }
        let at = now;
        let acknowledge = !revoked.is_empty() || !added.is_empty();
        if !revoked.is_empty() {
            // commitSync before revoking (auto-commit), then onPartitionsRevoked
            let commit = matches!(self.s.client.commit, CommitPolicy::Auto { .. });
            for &p in &revoked {
                if commit {
                    self.ledger.commit(p, at);
                }
                let u = if commit { 0.0 } else { self.uncommitted(c, p) };
                self.ledger.end(p, at, u);
            }
            if self.tells_each_member() {
                self.happen(
                    Some(c),
                    "revoke",
                    format!(
                        "It commits and revokes {} partitions, then acknowledges at once.",
                        revoked.len()
                    ),
                );
            }
        }
        let again: f64 = added.iter().map(|&p| self.ledger.rereads(p)).sum();
        for &p in &added {
            self.ledger.start(p, c, at, true);
        }
        if !added.is_empty() && self.tells_each_member() {
            // its member epoch, as the coordinator holds it
            let epoch = self.clients[c]
                .member
                .and_then(|id| Some(self.members.get(&id)?.epoch))
                .unwrap_or(0);
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
        cl.owned = assignment;
        if !added.is_empty() {
            cl.auto_anchor = at;
        }
        let commit_wait =
            if !revoked.is_empty() && matches!(self.s.client.commit, CommitPolicy::Auto { .. }) {
                self.s.round_trip_ms
            } else {
                0
            };
        let next = if acknowledge {
            at + commit_wait
        } else {
            now + self.interval() - self.s.round_trip_ms
        };
        self.push_heartbeat(c, next.max(now), acknowledge);
    }

    pub(super) fn uncommitted(&self, c: usize, p: usize) -> f64 {
        let Some((start, committed)) = self.ledger.committed_at(p) else {
            return 0.0;
        };
        match self.s.client.commit {
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
            _ => 0.0,
        }
    }
}
