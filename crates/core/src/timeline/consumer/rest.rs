//! A group at rest between the story's acts. A member at its target's epoch, with nothing to
//! revoke, take or say, heartbeats every interval, and each heartbeat only moves its
//! session's deadline on: the answer (NONE, the same epoch, no assignment) changes nothing
//! on either side. While every running member is so and nothing else is on its way, those
//! heartbeats are not sent one by one: each member's are counted up to the next thing that
//! can change the group (the story's next act, or a timer no heartbeat moves on), and what
//! they leave behind is set at once: the session's deadline from the last of them, and the
//! next heartbeat. The run is the same as with every heartbeat sent
//! (`tests/timeline.rs`, `skipped_heartbeats_change_nothing`).

use super::*;

impl Sim<'_> {
    /// Skips the heartbeats of a group at rest, when it is: called between two instants,
    /// with only the story's acts queued besides the heartbeats and the coordinator's timers.
    pub(super) fn skip_quiet_heartbeats(&mut self, limit: i64) {
        let rtt = self.s.round_trip_ms;
        let session = self.s.consumer_group.session_timeout_ms;
        // (a member heartbeats again an interval after it sent, or once answered if the
        // round trip is longer)
        let period = self.interval().max(rtt);
        // a group not at rest is looked at again once every member has heartbeated
        self.rest_check_at = self.now + period;
        if period <= 2 * rtt || period >= session || self.group_epoch != self.assignment_epoch {
            // (a heartbeat skipped must be answered before the next is due, and must keep
            // the session alive)
            return;
        }
        let mut due = Vec::new();
        for c in 0..self.clients.len() {
            if self.clients[c].up {
                let Some((at, order)) = self.at_rest(c) else {
                    return;
                };
                due.push((at, order, c));
            }
        }
        let until = self.next_change().min(limit.saturating_add(1));
        if until == i64::MAX {
            return;
        }
        self.rest_check_at = until;
        // the members' heartbeats due at one time keep their order: the order they were
        // scheduled in (each member's heartbeats are a period apart, so that order holds
        // from one period to the next)
        due.sort_unstable();
        for (at, _, c) in due {
            // each heartbeat answered before `until`: at + k * period + rtt < until
            let last_start = until - rtt;
            if at >= last_start {
                continue;
            }
            let skipped = (last_start - at + period - 1) / period;
            let next = at + skipped * period;
            let id = self.clients[c].member_id;
            let deadline = next - period + session;
            self.set_timer(id, Timer::Session, deadline, 0);
            self.push_heartbeat(c, next, false);
        }
    }

    /// The running client's next regular heartbeat (when, and its order among those due
    /// then) when the member is at rest: its heartbeat would carry no field but its epoch,
    /// the coordinator would answer NONE with that epoch and no assignment and change
    /// nothing but the session's deadline, and the answer would change nothing for it.
    fn at_rest(&self, c: usize) -> Option<(i64, u64)> {
        let cl = &self.clients[c];
        let (at, order) = cl.next_heartbeat?;
        let client = at > self.now
            && !cl.stale
            && !cl.joining
            && !cl.full_next
            && cl.consuming
            && cl.reconciled
            && !cl.reconciling
            && !cl.reconnecting
            && cl.cut_until <= self.now
            && cl.slow_until <= self.now
            && cl.sent_local == Some(cl.local_epoch);
        let m = self.members.get(&cl.member_id)?;
        let member = m.state == MemberState::Stable
            && m.epoch == self.assignment_epoch
            && cl.epoch == m.epoch;
        (client && member).then_some((at, order))
    }

    /// When the group can next change, every running member being at rest: the story's
    /// next act, or the first deadline of a timer that no running member's heartbeat moves
    /// on (a crashed member's session, a static member held for its return).
    fn next_change(&self) -> i64 {
        let mut until = self.act_times.peek().map_or(i64::MAX, |t| t.0);
        for (id, timer, t) in self.timers.iter() {
            let renewed = timer == Timer::Session
                && self
                    .member_client
                    .get(&id)
                    .is_some_and(|&c| self.clients[c].up && self.clients[c].member_id == id);
            if !renewed {
                until = until.min(t.deadline);
            }
        }
        until
    }
}
