//! The consumer protocol's coordinator (KIP-848): ConsumerGroupHeartbeat answered with the
//! group epoch and each member's target from the uniform assignor, the revocation and
//! session timers, and members leaving with epoch -1 or -2.

use super::*;

impl<'a> Sim<'a> {
    // ------------------------------------------------------------------ the broker

    /// `consumerGroupStaticMemberGroupLeave` (epoch -2): the member is kept with what it
    /// owns, for its return; what it was revoking is free.
    pub(super) fn leave_static(&mut self, id: u64) {
        let Some(m) = self.members.get_mut(&id) else {
            return;
        };
        m.away = true;
        let revoking = std::mem::take(&mut m.revoking);
        for p in revoking {
            if self.partition_owner[p] == Some(id) {
                self.partition_owner[p] = None;
            }
        }
    }

    /// `consumerGroupFenceMember`: the member goes, its partitions are free, the epoch rises.
    pub(super) fn fence(&mut self, id: u64) {
        let Some(m) = self.members.remove(&id) else {
            return;
        };
        for p in m.current.iter().chain(&m.revoking) {
            if self.partition_owner[*p] == Some(id) {
                self.partition_owner[*p] = None;
            }
        }
        self.target.remove(&id);
        self.bump();
        let c = m.client;
        if self.clients[c].member == Some(id) {
            // the client learns at its next heartbeat (UNKNOWN_MEMBER_ID / FENCED_MEMBER_EPOCH)
            self.clients[c].fenced = true;
        }
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

    /// The target assignment for the current epoch (the broker's uniform assignor, each
    /// member's current target as what it owns).
    pub(super) fn compute_target(&mut self) {
        let topics = self.group.topic_metas();
        let ids: Vec<u64> = self.members.keys().copied().collect();
        let metas: Vec<MemberMeta> = ids
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
                    id: format!("{}-{id}", self.names[m.client]),
                    instance_id: m.instance_id.clone(),
                    rack: None,
                    topics: std::rc::Rc::new(self.topics[m.client].clone()),
                    owned,
                    generation: None,
                }
            })
            .collect();
        let input = GroupInput {
            topics,
            members: metas,
            topic_ids: Vec::new(),
        };
        let mut target: BTreeMap<u64, Vec<usize>> =
            ids.iter().map(|id| (*id, Vec::new())).collect();
        let homogeneous = ids.windows(2).all(|w| {
            self.topics[self.members[&w[0]].client] == self.topics[self.members[&w[1]].client]
        });
        if !self.uniform_refused {
            match assignor::try_assign(AssignorKind::Uniform, &input) {
                Ok(a) => {
                    for t in &a.topics {
                        let Some(ti) = self.group.topics.iter().position(|(n, _)| *n == t.topic)
                        else {
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
        if self.uniform_refused {
            if homogeneous {
                self.keep_up_to_quota(&ids, &mut target);
            } else if let Some(a) = assignor::assign(AssignorKind::ServerRange, &input) {
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
        }
        for list in target.values_mut() {
            list.sort_unstable();
        }
        self.tell_target(&target);
        self.target = target;
        self.assignment_epoch = self.group_epoch;
    }

    /// Says the new target: how many partitions change member, and (in a group small
    /// enough to tell each member) each member's target whose partitions changed.
    fn tell_target(&mut self, target: &BTreeMap<u64, Vec<usize>>) {
        let mut moved = 0;
        let mut told: Vec<(usize, usize, usize, usize)> = Vec::new();
        for (id, now) in target {
            let before = self.target.get(id).map(Vec::as_slice).unwrap_or(&[]);
            let (gives_up, gains) = crate::timeline::differences(before, now);
            moved += gains.len();
            if !gains.is_empty() || !gives_up.is_empty() {
                if let Some(m) = self.members.get(id) {
                    told.push((m.client, now.len(), gains.len(), gives_up.len()));
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
    pub(super) fn keep_up_to_quota(&self, ids: &[u64], target: &mut BTreeMap<u64, Vec<usize>>) {
        let Some(first) = ids.first() else {
            return;
        };
        let topics = &self.topics[self.members[first].client];
        let subscribed: Vec<bool> = self
            .group
            .topics
            .iter()
            .map(|(name, _)| topics.contains(name))
            .collect();
        let all: Vec<usize> = (0..self.partitions.len())
            .filter(|p| subscribed[self.partitions[*p].0])
            .collect();
        let (base, extra) = (all.len() / ids.len(), all.len() % ids.len());
        let mut kept = vec![false; self.partitions.len()];
        for (k, id) in ids.iter().enumerate() {
            let quota = base + usize::from(k < extra);
            let list = target.get_mut(id).expect("every member has a list");
            for &p in self.target.get(id).map(Vec::as_slice).unwrap_or(&[]) {
                if list.len() < quota && subscribed[self.partitions[p].0] && !kept[p] {
                    kept[p] = true;
                    list.push(p);
                }
            }
        }
        let mut free = all.into_iter().filter(|p| !kept[*p]);
        for (k, id) in ids.iter().enumerate() {
            let quota = base + usize::from(k < extra);
            let list = target.get_mut(id).expect("every member has a list");
            while list.len() < quota {
                match free.next() {
                    Some(p) => list.push(p),
                    None => break,
                }
            }
        }
    }

    /// A heartbeat reaches the coordinator: join, reconcile, or answer the fenced.
    pub(super) fn heartbeat(&mut self, c: usize, _at_once: bool) {
        let cl = &self.clients[c];
        if cl.cut_until > self.now || cl.slow_until > self.now && cl.member.is_none() {
            return;
        }
        let inc = cl.incarnation;
        let reply_at = self.now + self.s.round_trip_ms;
        if cl.fenced || (cl.member.is_some() && !self.members.contains_key(&cl.member.unwrap_or(0)))
        {
            self.push(reply_at, Ev::Reply(c, inc, Reply::Fenced));
            return;
        }
        let id = match cl.member {
            Some(id) => id,
            None => match self.join(c) {
                Some(id) => id,
                None => {
                    self.down(c);
                    let again = crate::timeline::RESTART_AFTER_FATAL_MS;
                    self.happen(
                        Some(c),
                        "fatal",
                        format!("Heartbeat: UNRELEASED_INSTANCE_ID: its old self still holds the group.instance.id (it left no -2). The Java consumer throws; its supervisor starts it again {} s later.", again / 1000),
                    );
                    self.push(self.now + again, Ev::Act(c, Act::Start));
                    return;
                }
            },
        };
        // the session timer re-arms on each heartbeat
        let deadline = self.now + self.s.consumer_group.session_timeout_ms;
        if let Some(m) = self.members.get_mut(&id) {
            m.session_deadline = deadline;
        }
        self.push(deadline, Ev::Session(id, deadline));
        if self.group_epoch > self.assignment_epoch {
            self.compute_target();
        }
        // what the client says it owns now: revoked partitions it no longer holds are free
        let owned = std::mem::take(&mut self.clients[c].owned);
        self.reconcile(id, &owned);
        let cl = &mut self.clients[c];
        cl.owned = owned;
        let reply = match self.members.get(&id) {
            Some(m) if m.current == cl.owned && cl.consuming => Reply::Unchanged,
            Some(m) => Reply::Assigned(m.current.clone()),
            None => Reply::Fenced,
        };
        self.push(reply_at, Ev::Reply(c, inc, reply));
    }

    /// A new member (epoch 0), or a static member's return; `None` when the instance id is
    /// still held by a member that did not leave (UNRELEASED_INSTANCE_ID).
    pub(super) fn join(&mut self, c: usize) -> Option<u64> {
        let instance = self
            .s
            .client
            .static_membership
            .then(|| format!("{}-instance", self.names[c]));
        if let Some(instance) = &instance {
            let held = self
                .members
                .iter()
                .find(|(_, m)| m.instance_id.as_ref() == Some(instance))
                .map(|(id, _)| *id);
            if let Some(old) = held {
                if self.members[&old].away {
                    // replaceMember: same assignment under a new id, no epoch bump
                    let mut m = self.members.remove(&old).expect("held");
                    m.client = c;
                    m.away = false;
                    self.next_member += 1;
                    let id = self.next_member;
                    for p in m.current.iter().chain(&m.revoking) {
                        if self.partition_owner[*p] == Some(old) {
                            self.partition_owner[*p] = Some(id);
                        }
                    }
                    if let Some(t) = self.target.remove(&old) {
                        self.target.insert(id, t);
                    }
                    self.members.insert(id, m);
                    self.clients[c].member = Some(id);
                    if self.tells_each_member() {
                        self.happen(Some(c), "rejoin", "A static member back within the session timeout: the coordinator gives it its partitions again, with no new epoch.".into());
                    }
                    return Some(id);
                }
                return None;
            }
        }
        self.next_member += 1;
        let id = self.next_member;
        self.members.insert(
            id,
            BrokerMember {
                client: c,
                epoch: 0,
                current: Vec::new(),
                revoking: Vec::new(),
                instance_id: instance,
                away: false,
                session_deadline: 0,
            },
        );
        self.clients[c].member = Some(id);
        self.happen(
            Some(c),
            "join",
            "Heartbeat with epoch 0: the member joins and the group epoch rises.".into(),
        );
        self.bump();
        Some(id)
    }

    /// `CurrentAssignmentBuilder`: revoke first, then take what others have released.
    pub(super) fn reconcile(&mut self, id: u64, client_owned: &[usize]) {
        let group_epoch = self.assignment_epoch;
        let target_len = self.target.get(&id).map_or(0, Vec::len);
        let Some(mut m) = self.members.remove(&id) else {
            return;
        };
        // at the group's epoch with its whole target (what it holds is always in its target)
        if m.revoking.is_empty() && m.epoch == group_epoch && m.current.len() == target_len {
            self.members.insert(id, m);
            return;
        }
        let target = self.target.get(&id).cloned().unwrap_or_default();
        if !m.revoking.is_empty() {
            // UNREVOKED_PARTITIONS: it moves on once its owned list drops them
            if m.revoking
                .iter()
                .any(|p| client_owned.binary_search(p).is_ok())
            {
                self.members.insert(id, m);
                return;
            }
            for p in &m.revoking {
                if self.partition_owner[*p] == Some(id) {
                    self.partition_owner[*p] = None;
                }
            }
            m.revoking.clear();
        }
        if m.epoch < group_epoch || m.current != target {
            let revoke: Vec<usize> = m
                .current
                .iter()
                .copied()
                .filter(|p| target.binary_search(p).is_err())
                .collect();
            if !revoke.is_empty() {
                m.current.retain(|p| target.binary_search(p).is_ok());
                m.revoking = revoke;
                let (c, epoch) = (m.client, m.epoch);
                self.members.insert(id, m);
                self.push(
                    self.now + self.s.client.max_poll_interval_ms,
                    Ev::Revocation(id, epoch),
                );
                let n = self.members[&id].revoking.len();
                if self.tells_each_member() {
                    self.happen(Some(c), "revoke", format!("The coordinator asks it to revoke {n} partitions before it gets anything new."));
                }
                return;
            }
            m.epoch = group_epoch;
            // what it takes: its target, less what it has and what others still own
            let taken: Vec<usize> = target
                .iter()
                .copied()
                .filter(|p| {
                    m.current.binary_search(p).is_err()
                        && self.partition_owner[*p].is_none_or(|o| o == id)
                })
                .collect();
            for &p in &taken {
                self.partition_owner[p] = Some(id);
            }
            m.current.extend(taken);
            m.current.sort_unstable();
        }
        self.members.insert(id, m);
    }
}
