//! The group protocol on the wire: each client's JoinGroup, SyncGroup, Heartbeat and
//! LeaveGroup requests to the coordinator, and what it does with each response.

use super::*;

impl<'a> Sim<'a> {
    // ------------------------------------------------------------------ requests

    pub(super) fn protocols(&self, c: usize) -> Vec<(String, Vec<u8>)> {
        let cl = &self.clients[c];
        // an eager client sends no owned partitions (it revoked them before joining); its
        // StickyAssignor sends what it remembers as user data
        let (owned, generation) = match (&cl.sticky_memory, cl.eager) {
            (Some((memory, generation)), true) => (self.topic_partitions(memory), *generation),
            _ => (self.topic_partitions(&cl.owned), cl.owned_generation),
        };
        let sub = SubscriptionParts {
            topics: &cl.topics,
            user_data: None,
            owned_partitions: &owned,
            generation_id: generation,
            rack_id: None,
        };
        let metadata = join_metadata(sub, &cl.strategy, None, 3);
        cl.strategy.iter().cloned().zip(metadata).collect()
    }

    /// Partitions by their global index (ascending, so grouped by topic), as Kafka lists them.
    pub(super) fn topic_partitions(&self, owned: &[usize]) -> Vec<TopicPartitions> {
        self.by_topic(owned)
            .into_iter()
            .map(|(topic, partitions)| TopicPartitions { topic, partitions })
            .collect()
    }

    /// [`Sim::topic_partitions`] as (topic, partitions), as the assignors take them.
    pub(super) fn by_topic(&self, owned: &[usize]) -> Vec<(String, Vec<i32>)> {
        let mut out: Vec<(String, Vec<i32>)> = Vec::new();
        let mut rest = owned;
        while let Some(&first) = rest.first() {
            let ti = self.partitions[first].0;
            let n = rest.partition_point(|&p| self.partitions[p].0 == ti);
            let partitions = rest[..n]
                .iter()
                .map(|&p| self.partitions[p].1 as i32)
                .collect();
            out.push((self.group.topics[ti].0.clone(), partitions));
            rest = &rest[n..];
        }
        out
    }

    pub(super) fn send_join(&mut self, c: usize) {
        let now = self.now;
        if self.clients[c].cut_until > now {
            let inc = self.clients[c].incarnation;
            let at = self.clients[c].cut_until;
            self.push(at, Ev::SendJoin(c, inc));
            return;
        }
        let protocols = self.protocols(c);
        let cl = &mut self.clients[c];
        cl.phase = Phase::Joining;
        cl.heartbeat_epoch += 1;
        cl.joined_with = (cl.owned.clone(), cl.owned_generation);
        cl.awaiting.push((Api::JoinGroup, cl.incarnation));
        let req = JoinRequest {
            member_id: cl.member_id.clone(),
            instance_id: cl.instance_id.clone(),
            session_timeout_ms: cl.settings.session_timeout_ms,
            rebalance_timeout_ms: cl.settings.max_poll_interval_ms,
            protocols,
        };
        if self.record_wire {
            let request = Request {
                client: cl.name.clone(),
                api: Api::JoinGroup,
                new_member: req.member_id.is_empty(),
                protocols: req.protocols.clone(),
                assignments: Vec::new(),
                generation: -1,
                timeouts: Some((req.session_timeout_ms, req.rebalance_timeout_ms)),
            };
            self.wire.push(Line::Request { t: now, request });
        }
        self.broker.advance_to(now);
        self.broker.join(&self.clients[c].name, req);
        self.after_broker();
    }

    pub(super) fn send_sync(&mut self, c: usize, assignments: Vec<(String, Vec<u8>)>) {
        let now = self.now;
        let cl = &mut self.clients[c];
        cl.awaiting.push((Api::SyncGroup, cl.incarnation));
        let generation = cl.generation;
        if self.record_wire {
            let by_alias = assignments
                .iter()
                .map(|(id, a)| {
                    let alias = self
                        .member_client
                        .get(id)
                        .map_or(id.clone(), |&i| self.clients[i].name.clone());
                    (alias, a.clone())
                })
                .collect();
            let request = Request {
                client: self.clients[c].name.clone(),
                api: Api::SyncGroup,
                new_member: false,
                protocols: Vec::new(),
                assignments: by_alias,
                generation,
                timeouts: None,
            };
            self.wire.push(Line::Request { t: now, request });
        }
        self.broker.advance_to(now);
        let cl = &self.clients[c];
        self.broker.sync(
            &cl.name,
            &cl.member_id,
            cl.instance_id.as_deref(),
            generation,
            &assignments,
        );
        self.after_broker();
    }

    pub(super) fn send_heartbeat(&mut self, c: usize) {
        let now = self.now;
        let cl = &mut self.clients[c];
        cl.awaiting.push((Api::Heartbeat, cl.incarnation));
        if self.record_wire {
            let alias = self.clients[c].name.clone();
            self.wire_request(now, &alias, Api::Heartbeat);
        }
        self.broker.advance_to(now);
        let cl = &self.clients[c];
        self.broker.heartbeat(
            &cl.name,
            &cl.member_id,
            cl.instance_id.as_deref(),
            cl.generation,
        );
        self.after_broker();
    }

    pub(super) fn send_leave(&mut self, c: usize, member_id: String) {
        let now = self.now;
        let alias = self.clients[c].name.clone();
        let instance = self.clients[c].instance_id.clone();
        let inc = self.clients[c].incarnation;
        self.clients[c].awaiting.push((Api::LeaveGroup, inc));
        self.wire_request(now, &alias, Api::LeaveGroup);
        self.broker.advance_to(now);
        self.broker.leave(&alias, &member_id, instance.as_deref());
        self.after_broker();
    }

    pub(super) fn wire_request(&mut self, t: i64, alias: &str, api: Api) {
        if self.record_wire {
            let request = Request {
                client: alias.to_string(),
                api,
                new_member: false,
                protocols: Vec::new(),
                assignments: Vec::new(),
                generation: -1,
                timeouts: None,
            };
            self.wire.push(Line::Request { t, request });
        }
    }

    /// Sends the coordinator's responses on their way and notes what changed in the group.
    pub(super) fn after_broker(&mut self) {
        let now = self.now;
        while let Some(r) = self.broker.next_reply() {
            if self.record_wire {
                self.wire.push(Line::Response {
                    t: now,
                    response: r.clone(),
                });
            }
            if let Some(&c) = self.client_index.get(&r.client) {
                // whose member id this is: what the leader reads from each member's metadata
                // (an id is given to one client only, so it is noted once)
                if r.api == Api::JoinGroup
                    && !r.member_id.is_empty()
                    && !self.member_client.contains_key(&r.member_id)
                {
                    self.member_client.insert(r.member_id.clone(), c);
                }
                self.push(now + self.s.round_trip_ms, Ev::Deliver(c, r));
            }
        }
        // the group's line is built only when it may have changed
        let revision = self.broker.revision();
        if self.seen_revision == Some(revision) {
            return;
        }
        self.seen_revision = Some(revision);
        let state = self.broker.state();
        let (members, _) = self.broker.counts();
        let before = self.seen_state;
        if before != Some(state) && before == Some(GroupState::Stable) {
            // heartbeats now answer REBALANCE_IN_PROGRESS: every quiet member heartbeats again
            for c in 0..self.clients.len() {
                self.wake(c);
            }
        }
        if before != Some(state) {
            self.group_changed(before);
        } else if members < self.seen_members {
            self.happen(
                None,
                "member removed",
                format!("The coordinator now has {members} members."),
            );
        }
        self.seen_state = Some(state);
        self.seen_members = members;
        if self.record_wire {
            let line = self.broker.line();
            if self.last_line.as_ref() != Some(&line) {
                self.wire.push(Line::Group {
                    t: now,
                    group: line.clone(),
                });
                self.last_line = Some(line);
            }
        }
    }

    pub(super) fn group_changed(&mut self, before: Option<GroupState>) {
        match self.broker.state() {
            GroupState::PreparingRebalance => {
                self.rebalance_times.push(self.now);
                let why = if before == Some(GroupState::Empty) {
                    format!(
                        "The group forms: the coordinator waits group.initial.rebalance.delay.ms ({} s) for more members.",
                        secs(self.s.broker.initial_rebalance_delay_ms)
                    )
                } else {
                    "A rebalance begins: every member must send JoinGroup again, within max.poll.interval.ms.".to_string()
                };
                self.happen(None, "rebalance", why);
            }
            GroupState::CompletingRebalance => {
                let leader = self.alias_of(self.broker.leader().unwrap_or_default());
                let mut detail = format!(
                    "Generation {}: the coordinator answers the JoinGroups of {} members; the leader ({leader}) computes the assignment.",
                    self.broker.generation(),
                    self.broker.counts().0,
                );
                let candidates = self.broker.leader_candidates();
                if !candidates.is_empty() {
                    let names: Vec<String> = candidates.iter().map(|m| self.alias_of(m)).collect();
                    detail += &format!(
                        " Kafka picks this leader from a HashMap over random member ids, so any of {} could lead; this run takes the first.",
                        names.join(", ")
                    );
                }
                self.happen(None, "generation", detail);
                self.note_vote();
            }
            GroupState::Stable => self.happen(
                None,
                "stable",
                format!("Generation {} is Stable: the leader's SyncGroup gave every member its partitions.", self.broker.generation()),
            ),
            GroupState::Empty => self.happen(None, "empty", "The group is Empty.".into()),
        }
    }

    /// Says when the coordinator's vote, as a join phase completes, picks another assignor
    /// than the last one (the members' lists differ, and who is in the group changed).
    fn note_vote(&mut self) {
        // (the classic timeline's members list only the client's assignors: strategy::check)
        let Some(picked) = self.broker.protocol().and_then(AssignorKind::of_protocol) else {
            return;
        };
        let was = self.votes.last().copied();
        if was == Some(picked) {
            return;
        }
        self.votes.push(picked);
        if let Some(was) = was {
            let detail = format!(
                "The coordinator's vote now picks {}, not {}: each member votes for its first assignor every member lists, and the members in the group changed.",
                picked.name(),
                was.name()
            );
            self.happen(None, "vote", detail);
        }
    }

    pub(super) fn alias_of(&self, member_id: &str) -> String {
        self.member_client
            .get(member_id)
            .map_or_else(|| member_id.to_string(), |&c| self.clients[c].name.clone())
    }

    // ------------------------------------------------------------------ responses

    pub(super) fn deliver(&mut self, c: usize, r: Response) {
        // the request it answers, and whether this process sent it
        let Some(i) = self.clients[c]
            .awaiting
            .iter()
            .position(|(api, _)| *api == r.api)
        else {
            return;
        };
        let (_, inc) = self.clients[c].awaiting.remove(i);
        let cl = &self.clients[c];
        if !cl.up || cl.fatal || inc != cl.incarnation {
            return;
        }
        if cl.cut_until > self.now {
            // the connection is down: the answer never arrives and the request fails; the
            // member joins again once the network is back (heartbeats are not sent then)
            if matches!(r.api, Api::JoinGroup | Api::SyncGroup) {
                let cl = &mut self.clients[c];
                cl.phase = Phase::Unjoined;
                cl.rejoin_needed = true;
                let detail = format!(
                    "{} is answered while the network is cut: the answer is lost, and the member joins again once the network is back.",
                    r.api.name()
                );
                self.happen(Some(c), "lost answer", detail);
            }
            return;
        }
        self.clients[c].reconnecting = false;
        match r.api {
            Api::JoinGroup => self.on_join(c, r),
            Api::SyncGroup => self.on_sync(c, r),
            Api::Heartbeat => self.on_heartbeat(c, r),
            Api::LeaveGroup => {}
        }
    }

    pub(super) fn on_join(&mut self, c: usize, r: Response) {
        match r.error {
            ErrorCode::MemberIdRequired => {
                self.clients[c].member_id = r.member_id;
                self.send_join(c);
            }
            ErrorCode::None => {
                let cl = &mut self.clients[c];
                cl.member_id = r.member_id.clone();
                cl.generation = r.generation;
                cl.group_protocol = r.protocol.clone().unwrap_or_default();
                cl.phase = Phase::Syncing;
                cl.heartbeat_epoch += 1;
                let epoch = cl.heartbeat_epoch;
                self.push(
                    self.now + self.clients[c].settings.heartbeat_interval_ms,
                    Ev::Tick(c, epoch),
                );
                let leads = r.leader == r.member_id;
                if leads && !r.skip_assignment {
                    let plan = self.assign(c, &r.members);
                    if self.tells_each_member() {
                        self.happen(
                            Some(c),
                            "assign",
                            format!(
                                "As leader it runs {} over {} members and sends SyncGroup.",
                                self.clients[c].group_protocol,
                                r.members.len()
                            ),
                        );
                    }
                    self.send_sync(c, plan);
                } else {
                    if leads && self.tells_each_member() {
                        self.happen(Some(c), "rejoin", "A static leader back without a rebalance: the coordinator keeps the assignment (skipAssignment).".into());
                    }
                    self.send_sync(c, Vec::new());
                }
            }
            ErrorCode::UnknownMemberId => {
                let cl = &mut self.clients[c];
                cl.member_id.clear();
                cl.generation = -1;
                cl.phase = Phase::Unjoined;
                cl.rejoin_needed = true;
                self.happen(
                    Some(c),
                    "unknown member",
                    "JoinGroup: UNKNOWN_MEMBER_ID; the member joins again as a new member.".into(),
                );
                self.schedule_poll(c);
            }
            e => self.fatal(c, Api::JoinGroup, e),
        }
    }

    pub(super) fn fatal(&mut self, c: usize, api: Api, e: ErrorCode) {
        self.lose_all(c);
        let cl = &mut self.clients[c];
        cl.fatal = true;
        cl.phase = Phase::Down;
        cl.heartbeat_epoch += 1;
        self.happen(
            Some(c),
            "fatal",
            format!(
                "{}: {}. The Java consumer throws and stops consuming.",
                api.name(),
                e.name()
            ),
        );
        self.fatal_errors += 1;
        if self.fatal_errors <= FATAL_ERRORS_SAID {
            let note = format!(
                "At {} s {}'s {} is refused with {}: its Java consumer throws, and the member consumes nothing more until its process starts again.",
                secs(self.now),
                self.clients[c].name,
                api.name(),
                e.name()
            );
            self.notes.push(note);
        }
    }

    pub(super) fn on_sync(&mut self, c: usize, r: Response) {
        match r.error {
            ErrorCode::None => {
                let now = self.now;
                let assigned = decode_partitions(
                    r.assignment.as_deref().unwrap_or(&[]),
                    self.partitions.len(),
                );
                let cooperative = !self.clients[c].eager;
                let owned = std::mem::take(&mut self.clients[c].owned);
                let (revoked, added) = crate::timeline::differences(&owned, &assigned);
                // cooperative: revoked in onJoinComplete, with no commit of its own
                self.stop(c, &revoked, owned.len());
                // it starts from the committed offsets: what its last owners did not commit
                let again: f64 = added.iter().map(|&p| self.ledger.rereads(p)).sum();
                let mut waiting = 0.0;
                for &p in &added {
                    waiting += self.ledger.start(p, c, now, true);
                }
                let generation = self.clients[c].generation;
                let cl = &mut self.clients[c];
                if cl.group_protocol == "sticky" {
                    // StickyAssignor.onAssignment
                    cl.sticky_memory = Some((assigned.clone(), generation));
                }
                cl.owned = assigned;
                cl.owned_generation = generation;
                cl.phase = Phase::Stable;
                cl.consuming = true;
                cl.auto_anchor = now;
                self.catch_up(c, waiting);
                let detail = if !self.tells_each_member() {
                    String::new()
                } else if cooperative {
                    format!(
                        "SyncGroup: it owns {} partitions ({} new, {} revoked){}.",
                        self.clients[c].owned.len(),
                        added.len(),
                        revoked.len(),
                        read_again(again)
                    )
                } else {
                    format!(
                        "SyncGroup: it is given {} partitions and starts consuming them{}.",
                        self.clients[c].owned.len(),
                        read_again(again)
                    )
                };
                if self.tells_each_member() {
                    self.happen(Some(c), "assigned", detail);
                }
                if cooperative && !revoked.is_empty() {
                    self.clients[c].rejoin_needed = true;
                    if self.tells_each_member() {
                        self.happen(
                            Some(c),
                            "rejoin",
                            "It revoked partitions, so it joins again for the follow-up rebalance."
                                .into(),
                        );
                    }
                }
                if self.clients[c].rejoin_needed {
                    self.schedule_poll(c);
                }
            }
            ErrorCode::RebalanceInProgress => {
                self.clients[c].phase = Phase::Unjoined;
                self.clients[c].rejoin_needed = true;
                self.schedule_poll(c);
            }
            ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration => {
                // (the join's future fails: joinGroupIfNeeded joins again)
                self.clients[c].phase = Phase::Unjoined;
                self.reset(c, r.error);
                self.schedule_poll(c);
            }
            e => self.fatal(c, Api::SyncGroup, e),
        }
    }

    pub(super) fn on_heartbeat(&mut self, c: usize, r: Response) {
        match r.error {
            ErrorCode::None => {
                // back from a cut (not inside a slow batch: its heartbeat thread goes on)
                let cl = &self.clients[c];
                if !cl.consuming && cl.phase == Phase::Stable && cl.slow_until <= self.now {
                    self.resume(c, "Heartbeat answered");
                }
            }
            ErrorCode::RebalanceInProgress => {
                if self.clients[c].phase == Phase::Stable && !self.clients[c].rejoin_needed {
                    self.clients[c].rejoin_needed = true;
                    if self.tells_each_member() {
                        self.happen(
                            Some(c),
                            "notice",
                            "Heartbeat: REBALANCE_IN_PROGRESS; it joins again at its next poll()."
                                .into(),
                        );
                    }
                    self.schedule_poll(c);
                }
            }
            ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration => {
                self.reset(c, r.error);
                self.schedule_poll(c);
            }
            e => self.fatal(c, Api::Heartbeat, e),
        }
    }

    /// `resetStateAndGeneration`: UNKNOWN_MEMBER_ID also forgets the member id; what it
    /// owns is lost at its next poll.
    pub(super) fn reset(&mut self, c: usize, e: ErrorCode) {
        let cl = &mut self.clients[c];
        if e == ErrorCode::UnknownMemberId {
            cl.member_id.clear();
        }
        cl.generation = -1;
        cl.rejoin_needed = true;
        cl.heartbeat_epoch += 1;
        self.happen(
            Some(c),
            "reset",
            format!(
                "{}: the member is no longer in the group's generation; it joins again.",
                e.name()
            ),
        );
    }
}
