//! The consumer protocol's coordinator (KIP-848), as `GroupMetadataManager` at 1eb7644 answers
//! a ConsumerGroupHeartbeat: the member found or made (`getOrMaybeSubscribe*Member`), the group
//! epoch bumped for a new subscription, the target assignment recomputed in the heartbeat that
//! finds it stale (`updateTargetAssignment`), the member reconciled toward it
//! (`CurrentAssignmentBuilder`), its rebalance and session timers, and leaves with epoch -1
//! and -2. Checked against Kafka's own coordinator on a virtual clock
//! (`tests/timeline_consumer_oracle.rs`).

use super::trace::{HeartbeatError, HeartbeatRequest, HeartbeatResponse};
use super::*;

/// `GroupMetadataManager`'s consumer-group timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Timer {
    /// `session-timeout-{group}-{member}`: no heartbeat for the session timeout.
    Session,
    /// `rebalance-timeout-{group}-{member}`: a revocation not acknowledged in time.
    Rebalance,
}

impl<'a> Sim<'a> {
    /// A member id as the lab writes it: the client's name and a number. At 1eb7644 the Java
    /// consumer joins with an empty member id and the coordinator makes a random UUID; the
    /// lab's ids stand for those (the consumer oracle sends them, so Kafka's `HashMap`
    /// orders over them are the ones the lab reproduces).
    pub(super) fn member_name(&self, id: u64) -> String {
        let c = self.member_client.get(&id).copied().unwrap_or(0);
        format!("{}-{id}", self.names[c])
    }

    fn timer_key(&self, id: u64, timer: Timer) -> String {
        let kind = match timer {
            Timer::Session => "session-timeout",
            Timer::Rebalance => "rebalance-timeout",
        };
        format!(
            "{kind}-{}-{}",
            super::super::classic::GROUP_ID,
            self.member_name(id)
        )
    }

    /// `timer.schedule`: replaces the member's timer of that kind.
    fn schedule_timer(&mut self, id: u64, timer: Timer, delay: i64, epoch: i32) {
        self.set_timer(id, timer, self.now + delay, epoch);
    }

    /// Sets the member's timer of that kind to `deadline`. A timer moved later keeps the
    /// event it has queued, which queues itself again when it comes ([`Sim::timer_fires`]):
    /// a heartbeat moves its session's deadline on without queuing an event.
    pub(super) fn set_timer(&mut self, id: u64, timer: Timer, deadline: i64, epoch: i32) {
        let queued = match self.timers.get(id, timer) {
            Some(t) if t.queued <= deadline => t.queued,
            _ => {
                self.push(deadline, Ev::Timer(id, timer, deadline));
                deadline
            }
        };
        let entry = TimerEntry {
            deadline,
            epoch,
            queued,
        };
        self.timers.insert(id, timer, entry);
    }

    fn cancel_timers(&mut self, id: u64) {
        self.timers.remove(id, Timer::Session);
        self.timers.remove(id, Timer::Rebalance);
    }

    /// A timer's event came due at `at`: the timer fires if its deadline is now, its event
    /// waits again if the deadline moved on, and an event the timer no longer waits on
    /// (it was cancelled, or set earlier since) does nothing.
    pub(super) fn timer_fires(&mut self, id: u64, timer: Timer, at: i64) {
        let Some(t) = self.timers.get(id, timer) else {
            return;
        };
        if t.queued != at {
            return;
        }
        if t.deadline > at {
            self.push(t.deadline, Ev::Timer(id, timer, t.deadline));
            let entry = TimerEntry {
                queued: t.deadline,
                ..t
            };
            self.timers.insert(id, timer, entry);
            return;
        }
        self.timers.remove(id, timer);
        if self.trace.requests() {
            let key = self.timer_key(id, timer);
            self.wire.push(Line::TimerFired { t: self.now, key });
        }
        match timer {
            Timer::Session => {
                if let Some(c) = self.members.get(&id).map(|m| m.client) {
                    self.happen(
                        Some(c),
                        "expired",
                        format!(
                            "No heartbeat for group.consumer.session.timeout.ms ({} s): the coordinator fences the member and frees its partitions.",
                            secs(self.s.consumer_group.session_timeout_ms)
                        ),
                    );
                    self.fence(id);
                }
            }
            Timer::Rebalance => {
                if let Some(m) = self.members.get(&id).filter(|m| m.epoch == t.epoch) {
                    let c = m.client;
                    self.happen(Some(c), "fenced", "It did not revoke within its rebalance timeout (max.poll.interval.ms): fenced.".into());
                    self.fence(id);
                }
            }
        }
    }

    /// Replaces a member's state, keeping which member each partition is held by
    /// (`ConsumerGroup.updateMember`'s partition epochs: assigned or pending revocation).
    fn put_member(&mut self, id: u64, m: BrokerMember) {
        let same = self
            .members
            .get(&id)
            .is_some_and(|old| old.assigned == m.assigned && old.revoking == m.revoking);
        self.replace_member(id, m, !same);
    }

    /// [`Sim::put_member`] when the caller knows whether the member's assigned or revoking
    /// partitions changed.
    fn replace_member(&mut self, id: u64, m: BrokerMember, partitions_changed: bool) {
        if !partitions_changed {
            if let Some(old) = self.members.get_mut(&id) {
                // it holds the same partitions
                *old = m;
                return;
            }
        }
        if let Some(old) = self.members.remove(&id) {
            for p in old.assigned.iter().chain(&old.revoking) {
                if self.partition_owner[*p] == Some(id) {
                    self.partition_owner[*p] = None;
                }
            }
        }
        for p in m.assigned.iter().chain(&m.revoking) {
            self.partition_owner[*p] = Some(id);
        }
        self.members.insert(id, m);
    }

    fn remove_member(&mut self, id: u64) -> Option<BrokerMember> {
        let m = self.members.remove(&id)?;
        for p in m.assigned.iter().chain(&m.revoking) {
            if self.partition_owner[*p] == Some(id) {
                self.partition_owner[*p] = None;
            }
        }
        self.target.remove(&id);
        Some(m)
    }

    /// `consumerGroupFenceMember`: the member goes, its partitions are free, its timers are
    /// cancelled and the group epoch rises.
    pub(super) fn fence(&mut self, id: u64) {
        if self.remove_member(id).is_none() {
            return;
        }
        self.cancel_timers(id);
        self.bump();
    }

    pub(super) fn bump(&mut self) {
        self.group_epoch += 1;
        self.rebalance_times.push(self.now);
        self.happen(
            None,
            "epoch",
            format!(
                "Group epoch {}: the target assignment is computed at the next heartbeat.",
                self.group_epoch
            ),
        );
    }

    /// `consumerGroupHeartbeat`: a ConsumerGroupHeartbeat reaches the coordinator.
    pub(super) fn consumer_group_heartbeat(
        &mut self,
        c: usize,
        req: &HeartbeatRequest,
        id: u64,
    ) -> HeartbeatResponse {
        let answer = |error, member_epoch, assignment| HeartbeatResponse {
            client: req.client.clone(),
            error,
            member_epoch,
            assignment,
        };
        if req.member_epoch < 0 {
            return match self.leave(req, id) {
                Ok(epoch) => answer(HeartbeatError::None, epoch, None),
                Err(e) => answer(e, 0, None),
            };
        }
        let (mut member, replaced, new) = match self.member_for(c, req, id) {
            Ok(found) => found,
            Err(e) => return answer(e, 0, None),
        };
        let mut changed = new || replaced.is_some();
        if let Some(ms) = req
            .rebalance_timeout_ms
            .filter(|ms| *ms != member.rebalance_timeout_ms)
        {
            member.rebalance_timeout_ms = ms;
            changed = true;
        }
        if let Some(old) = replaced {
            // replaceMember: the old member's records go, its target moves to the new id
            // (its timers stay: they find no member when they fire)
            let target = self.target.remove(&old);
            self.remove_member(old);
            if let Some(t) = target {
                self.target.insert(id, t);
            }
            if self.tells_each_member() {
                self.happen(Some(c), "rejoin", "A static member back within the session timeout: it takes its old self's place and assignment, with no new group epoch.".into());
            }
        }
        if new {
            // hasMemberSubscriptionChanged: a new member's subscription is new
            self.happen(
                Some(c),
                "join",
                "Heartbeat with epoch 0: the member joins and the group epoch rises.".into(),
            );
            self.bump();
        }
        if changed {
            self.put_member(id, member.clone());
        }
        if self.group_epoch > self.assignment_epoch {
            self.compute_target();
        }
        let mut assignment_changed = false;
        if let Some(Next {
            member: next,
            assigned_changed,
            revoking_changed,
        }) = self.reconcile(id, &member, req.owned.as_deref())
        {
            assignment_changed = assigned_changed;
            if next.state == MemberState::UnrevokedPartitions {
                self.schedule_timer(id, Timer::Rebalance, next.rebalance_timeout_ms, next.epoch);
                if self.tells_each_member() {
                    let n = next.revoking.len();
                    self.happen(Some(c), "revoke", format!("The coordinator asks it to revoke {n} partitions before it gets anything new."));
                }
            } else {
                self.timers.remove(id, Timer::Rebalance);
            }
            member = next;
            self.replace_member(id, member.clone(), assigned_changed || revoking_changed);
        }
        self.schedule_timer(
            id,
            Timer::Session,
            self.s.consumer_group.session_timeout_ms,
            0,
        );
        let full = req.member_epoch == 0
            || (req.rebalance_timeout_ms.is_some()
                && req.subscribed.is_some()
                && req.owned.is_some());
        let assignment = (full || assignment_changed).then(|| member.assigned.clone());
        answer(HeartbeatError::None, member.epoch, assignment)
    }

    /// `getOrMaybeSubscribe{Dynamic,Static}ConsumerGroupMember`: the member the heartbeat is
    /// for, the static member it replaces, and whether it is new.
    #[allow(clippy::type_complexity)]
    fn member_for(
        &self,
        c: usize,
        req: &HeartbeatRequest,
        id: u64,
    ) -> Result<(BrokerMember, Option<u64>, bool), HeartbeatError> {
        let fresh = || BrokerMember {
            client: c,
            epoch: 0,
            previous_epoch: -1,
            state: MemberState::Stable,
            assigned: Vec::new(),
            revoking: Vec::new(),
            instance_id: req.instance_id.clone(),
            rebalance_timeout_ms: req.rebalance_timeout_ms.unwrap_or(0),
        };
        let Some(instance) = &req.instance_id else {
            return match self.members.get(&id) {
                None if req.member_epoch == 0 => Ok((fresh(), None, true)),
                None => Err(HeartbeatError::UnknownMemberId),
                Some(m) => {
                    epoch_is_valid(m, req)?;
                    Ok((m.clone(), None, false))
                }
            };
        };
        let held = self
            .members
            .iter()
            .find(|(_, m)| m.instance_id.as_ref() == Some(instance))
            .map(|(held, m)| (*held, m));
        if req.member_epoch == 0 {
            return match held {
                None => Ok((fresh(), None, true)),
                Some((_, m)) if m.epoch != LEAVE_STATIC => {
                    Err(HeartbeatError::UnreleasedInstanceId)
                }
                Some((old, m)) => {
                    // a copy of the old member under the new id, at epoch 0
                    let mut copy = m.clone();
                    copy.client = c;
                    copy.epoch = 0;
                    copy.previous_epoch = 0;
                    Ok((copy, (old != id).then_some(old), false))
                }
            };
        }
        match held {
            None => Err(HeartbeatError::UnknownMemberId),
            Some((held, _)) if held != id => Err(HeartbeatError::FencedInstanceId),
            Some((_, m)) => {
                epoch_is_valid(m, req)?;
                Ok((m.clone(), None, false))
            }
        }
    }

    /// `consumerGroupLeave`: epoch -1 fences the member; a static member's -2 keeps it,
    /// with what it was assigned, for its return. Returns the epoch answered.
    fn leave(&mut self, req: &HeartbeatRequest, id: u64) -> Result<i32, HeartbeatError> {
        let Some(instance) = &req.instance_id else {
            if !self.members.contains_key(&id) {
                return Err(HeartbeatError::UnknownMemberId);
            }
            self.fence(id);
            return Ok(req.member_epoch);
        };
        let held = self
            .members
            .iter()
            .find(|(_, m)| m.instance_id.as_ref() == Some(instance))
            .map(|(held, _)| *held);
        match held {
            None => Err(HeartbeatError::UnknownMemberId),
            Some(held) if held != id => Err(HeartbeatError::FencedInstanceId),
            Some(_) if req.member_epoch == LEAVE_STATIC => {
                // consumerGroupStaticMemberGroupLeave
                let mut m = self.members[&id].clone();
                m.epoch = LEAVE_STATIC;
                m.revoking.clear();
                self.put_member(id, m);
                Ok(LEAVE_STATIC)
            }
            Some(_) => {
                self.fence(id);
                Ok(req.member_epoch)
            }
        }
    }

    /// `maybeReconcile` with `CurrentAssignmentBuilder.build`: the member's next state toward
    /// the target, given what the heartbeat says it owns (`None`: not sent); `None` when it
    /// does not change.
    fn reconcile(&self, id: u64, m: &BrokerMember, owned: Option<&[usize]>) -> Option<Next> {
        let owns_any = |ps: &[usize]| match owned {
            None => true,
            Some(owned) => owned.iter().any(|p| ps.binary_search(p).is_ok()),
        };
        let next = match m.state {
            MemberState::Stable if m.epoch == self.assignment_epoch => return None,
            MemberState::Stable | MemberState::UnreleasedPartitions => {
                self.next_assignment(id, m, m.epoch, owns_any)
            }
            MemberState::UnrevokedPartitions => {
                if owns_any(&m.revoking) {
                    return None;
                }
                self.next_assignment(id, m, m.epoch + 1, owns_any)
            }
        };
        let n = &next.member;
        let changed = next.assigned_changed
            || next.revoking_changed
            || (n.state, n.epoch, n.previous_epoch) != (m.state, m.epoch, m.previous_epoch);
        changed.then_some(next)
    }

    /// `CurrentAssignmentBuilder.computeNextAssignment`: keep what is still the member's,
    /// revoke first what is not (when it still owns it), else take what is free.
    fn next_assignment(
        &self,
        id: u64,
        m: &BrokerMember,
        member_epoch: i32,
        owns_any: impl Fn(&[usize]) -> bool,
    ) -> Next {
        let empty = Vec::new();
        let target = self.target.get(&id).unwrap_or(&empty);
        // one pass over the two sorted lists: kept (both), to revoke (assigned only), to
        // take (target only, free or still held by another member)
        let (mut kept, mut revoke, mut free) = (Vec::new(), Vec::new(), Vec::new());
        let mut unreleased = false;
        let mut take = |p: usize, free: &mut Vec<usize>| {
            if self.partition_owner[p].is_some() {
                unreleased = true;
            } else {
                free.push(p);
            }
        };
        let (a, t) = (&m.assigned, target);
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < t.len() {
            match (a.get(i), t.get(j)) {
                (Some(&x), Some(&y)) if x == y => {
                    kept.push(x);
                    i += 1;
                    j += 1;
                }
                (Some(&x), Some(&y)) if x < y => {
                    revoke.push(x);
                    i += 1;
                }
                (Some(&x), None) => {
                    revoke.push(x);
                    i += 1;
                }
                (_, Some(&y)) => {
                    take(y, &mut free);
                    j += 1;
                }
                (None, None) => break,
            }
        }
        // (what it keeps is what it had, less what it revokes: the same when as long)
        let mut next = m.clone();
        next.previous_epoch = m.epoch;
        if !revoke.is_empty() && owns_any(&revoke) {
            next.state = MemberState::UnrevokedPartitions;
            next.epoch = member_epoch;
            let revoking_changed = revoke != m.revoking;
            next.assigned = kept;
            next.revoking = revoke;
            return Next {
                member: next,
                assigned_changed: true,
                revoking_changed,
            };
        }
        let assigned_changed = !free.is_empty() || kept.len() != m.assigned.len();
        if !free.is_empty() {
            kept.extend(free);
            kept.sort_unstable();
        }
        next.state = if unreleased {
            MemberState::UnreleasedPartitions
        } else {
            MemberState::Stable
        };
        next.epoch = self.assignment_epoch;
        next.assigned = kept;
        next.revoking = Vec::new();
        Next {
            member: next,
            assigned_changed,
            revoking_changed: !m.revoking.is_empty(),
        }
    }

    /// The target assignment for the current epoch (the broker's uniform assignor, or its
    /// range; each member's current target as what it owns).
    pub(super) fn compute_target(&mut self) {
        self.assignments += 1;
        let ids: Vec<u64> = self.members.keys().copied().collect();
        // (room for a member's share of every partition, and one more)
        let share = self.partitions.len() / ids.len().max(1) + 1;
        let mut target: IdMap<Vec<usize>> = ids
            .iter()
            .map(|id| (*id, Vec::with_capacity(share)))
            .collect();
        let homogeneous = ids.windows(2).all(|w| {
            self.topics[self.members[&w[0]].client] == self.topics[self.members[&w[1]].client]
        });
        if self.server_range {
            if let Some(a) = assignor::assign(AssignorKind::ServerRange, &self.assignor_input(&ids))
            {
                self.take_owners(&a, &ids, &mut target);
            }
        } else if !self.uniform_refused {
            match assignor::try_assign(AssignorKind::Uniform, &self.assignor_input(&ids)) {
                Ok(a) => self.take_owners(&a, &ids, &mut target),
                Err(e) => {
                    self.notes.push(if homogeneous {
                        format!(
                            "From group epoch {} on, which partitions the uniform assignor moves depends on Java's HashSet order, which this group reaches and the lab does not reproduce ({e}). The run follows the assignor's rule in member id order instead: each member keeps what it owns up to its quota and the rest is handed out. How many partitions move is the same, up to which members Kafka's random member ids put first.",
                            self.group_epoch
                        )
                    } else {
                        format!(
                            "From group epoch {} on, this run uses the broker's range assignor: the uniform assignor is not reproduced exactly for this group ({e}).",
                            self.group_epoch
                        )
                    });
                    self.uniform_refused = true;
                }
            }
        }
        if self.uniform_refused && !self.server_range {
            if homogeneous {
                self.keep_up_to_quota(&ids, &mut target);
            } else if let Some(a) =
                assignor::assign(AssignorKind::ServerRange, &self.assignor_input(&ids))
            {
                self.take_owners(&a, &ids, &mut target);
            }
        }
        for list in target.values_mut() {
            // (often already in order: what a member keeps, and nothing new)
            if !list.is_sorted() {
                list.sort_unstable();
            }
        }
        self.tell_target(&target);
        self.target = target;
        self.assignment_epoch = self.group_epoch;
    }

    /// The assignor's input: the members `ids`, each with its current target as what it
    /// owns.
    fn assignor_input(&self, ids: &[u64]) -> GroupInput {
        let members = ids
            .iter()
            .map(|id| {
                let m = &self.members[id];
                let mut owned: Vec<(String, Vec<i32>)> = Vec::new();
                for &p in self.target.get(id).map(Vec::as_slice).unwrap_or(&[]) {
                    let (ti, part) = self.partitions[p];
                    let topic = &self.group.topics[ti].0;
                    match owned.last_mut() {
                        Some((t, ps)) if t == topic => ps.push(part as i32),
                        _ => owned.push((topic.clone(), vec![part as i32])),
                    }
                }
                MemberMeta {
                    id: self.member_name(*id),
                    instance_id: m.instance_id.clone(),
                    rack: None,
                    topics: std::rc::Rc::new(self.topics[m.client].clone()),
                    owned,
                    generation: None,
                }
            })
            .collect();
        GroupInput {
            topics: self.group.topic_metas(),
            members,
            topic_ids: Vec::new(),
        }
    }

    /// An assignor's answer as each member's partitions (indices into the run's partitions).
    fn take_owners(&self, a: &assignor::Assignment, ids: &[u64], target: &mut IdMap<Vec<usize>>) {
        for t in &a.topics {
            let Some(ti) = self.group.topics.iter().position(|(n, _)| *n == t.topic) else {
                continue;
            };
            for (p, owner) in t.owners.iter().enumerate() {
                if *owner != UNASSIGNED {
                    if let Some(list) = target.get_mut(&ids[*owner as usize]) {
                        list.push(self.topic_base[ti] + p);
                    }
                }
            }
        }
    }

    /// Says the new target: how many partitions change member, and (in a group small
    /// enough to tell each member) each member's target whose partitions changed.
    fn tell_target(&mut self, target: &IdMap<Vec<usize>>) {
        let mut moved = 0;
        let mut told: Vec<(usize, usize, usize, usize)> = Vec::new();
        for (id, now) in target {
            let before = self.target.get(id).map(Vec::as_slice).unwrap_or(&[]);
            let (gives_up, gains) = crate::timeline::difference_counts(before, now);
            moved += gains;
            if gains > 0 || gives_up > 0 {
                if let Some(m) = self.members.get(id) {
                    told.push((m.client, now.len(), gains, gives_up));
                }
            }
        }
        let epoch = self.group_epoch;
        self.happen(
            None,
            "target",
            format!(
                "Target of group epoch {epoch}: {moved} partition{} change member; each member reconciles to it heartbeat by heartbeat.",
                if moved == 1 { "" } else { "s" }
            ),
        );
        if self.tells_each_member() {
            for (c, n, gains, gives_up) in told {
                self.happen(
                    Some(c),
                    "target",
                    format!("Its target for group epoch {epoch}: {n} partitions (gains {gains}, gives up {gives_up})."),
                );
            }
        }
    }

    /// The uniform assignor's rule for members that all name the same topics
    /// (`UniformHomogeneousAssignmentBuilder`), in member id order where Kafka's follows a
    /// `HashMap` over random ids: quotas of total / members, one more for the first
    /// total % members; each member keeps its current target up to its quota; partitions
    /// nobody keeps, ascending, go to the members below quota in turn.
    pub(super) fn keep_up_to_quota(&self, ids: &[u64], target: &mut IdMap<Vec<usize>>) {
        let Some(first) = ids.first() else {
            return;
        };
        let topics = &self.topics[self.members[first].client];
        // each partition: not subscribed, free, or kept by a member
        const OTHER: u8 = 0;
        const FREE: u8 = 1;
        const KEPT: u8 = 2;
        let mut state = vec![OTHER; self.partitions.len()];
        for (ti, (name, n)) in self.group.topics.iter().enumerate() {
            if topics.contains(name) {
                let base = self.topic_base[ti];
                state[base..base + *n as usize].fill(FREE);
            }
        }
        let total = state.iter().filter(|s| **s == FREE).count();
        let (base, extra) = (total / ids.len(), total % ids.len());
        let quota = |k: usize| base + usize::from(k < extra);
        for (k, id) in ids.iter().enumerate() {
            let list = target.get_mut(id).expect("every member has a list");
            for &p in self.target.get(id).map(Vec::as_slice).unwrap_or(&[]) {
                if list.len() == quota(k) {
                    break;
                }
                if state[p] == FREE {
                    state[p] = KEPT;
                    list.push(p);
                }
            }
        }
        let mut free = (0..state.len()).filter(|p| state[*p] == FREE);
        for (k, id) in ids.iter().enumerate() {
            let list = target.get_mut(id).expect("every member has a list");
            let kept = list.len();
            while list.len() < quota(k) {
                match free.next() {
                    Some(p) => list.push(p),
                    None => break,
                }
            }
            // what it keeps and what it is given are each in order: one merge orders both
            if kept > 0 && kept < list.len() {
                *list = merged(&list[..kept], &list[kept..]);
            }
        }
    }

    /// The group as the coordinator holds it, for the trace.
    pub(super) fn group_line(&self) -> GroupLine {
        let state = if self.members.is_empty() {
            "Empty"
        } else if self.group_epoch > self.assignment_epoch {
            "Assigning"
        } else if self
            .members
            .values()
            .any(|m| m.state != MemberState::Stable || m.epoch != self.assignment_epoch)
        {
            "Reconciling"
        } else {
            "Stable"
        };
        let mut members: Vec<MemberLine> = self
            .members
            .iter()
            .map(|(id, m)| MemberLine {
                member_id: self.member_name(*id),
                epoch: m.epoch,
                state: m.state.name(),
                assigned: m.assigned.clone(),
                revoking: m.revoking.clone(),
            })
            .collect();
        members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
        let mut target: Vec<(String, Vec<usize>)> = self
            .target
            .iter()
            .map(|(id, t)| (self.member_name(*id), t.clone()))
            .collect();
        target.sort();
        GroupLine {
            state,
            group_epoch: self.group_epoch,
            assignment_epoch: self.assignment_epoch,
            members,
            target,
        }
    }
}

/// A member's next state toward its target, and whether its assigned or revoking partitions
/// changed.
struct Next {
    member: BrokerMember,
    assigned_changed: bool,
    revoking_changed: bool,
}

/// Two ascending lists as one.
fn merged(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// `throwIfConsumerGroupMemberEpochIsInvalid`: an epoch ahead of the coordinator's is fenced;
/// one behind is accepted only as the previous epoch with owned partitions it was assigned
/// (its last response was lost).
fn epoch_is_valid(m: &BrokerMember, req: &HeartbeatRequest) -> Result<(), HeartbeatError> {
    let e = req.member_epoch;
    if e > m.epoch {
        return Err(HeartbeatError::FencedMemberEpoch);
    }
    if e < m.epoch {
        let subset = req
            .owned
            .as_ref()
            .is_some_and(|o| o.iter().all(|p| m.assigned.binary_search(p).is_ok()));
        if e != m.previous_epoch || !subset {
            return Err(HeartbeatError::FencedMemberEpoch);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(epoch: i32, previous_epoch: i32, assigned: Vec<usize>) -> BrokerMember {
        BrokerMember {
            client: 0,
            epoch,
            previous_epoch,
            state: MemberState::Stable,
            assigned,
            revoking: Vec::new(),
            instance_id: None,
            rebalance_timeout_ms: 300_000,
        }
    }

    fn heartbeat(member_epoch: i32, owned: Option<Vec<usize>>) -> HeartbeatRequest {
        HeartbeatRequest {
            client: "c1".into(),
            member_id: "c1-1".into(),
            member_epoch,
            instance_id: None,
            rebalance_timeout_ms: None,
            subscribed: None,
            owned,
        }
    }

    /// `throwIfConsumerGroupMemberEpochIsInvalid` (GroupMetadataManager.java 1439-1457 at
    /// 1eb7644), which Kafka runs for an existing member at any epoch, 0 included.
    #[test]
    fn an_epoch_the_coordinator_does_not_hold_is_fenced() {
        let m = member(5, 4, vec![1, 2, 3]);
        let fenced = Err(HeartbeatError::FencedMemberEpoch);
        assert_eq!(epoch_is_valid(&m, &heartbeat(5, None)), Ok(()));
        assert_eq!(epoch_is_valid(&m, &heartbeat(6, None)), fenced);
        // one behind: its last answer was lost, accepted with a subset of what it has
        assert_eq!(epoch_is_valid(&m, &heartbeat(4, Some(vec![1, 3]))), Ok(()));
        assert_eq!(epoch_is_valid(&m, &heartbeat(4, Some(vec![1, 4]))), fenced);
        assert_eq!(epoch_is_valid(&m, &heartbeat(4, None)), fenced);
        assert_eq!(epoch_is_valid(&m, &heartbeat(3, Some(vec![]))), fenced);
        // a member that exists rejoining at epoch 0 is fenced, unless 0 was its previous
        // epoch (its first answer lost)
        assert_eq!(epoch_is_valid(&m, &heartbeat(0, Some(vec![]))), fenced);
        let first = member(1, 0, vec![1]);
        assert_eq!(epoch_is_valid(&first, &heartbeat(0, Some(vec![]))), Ok(()));
    }
}
