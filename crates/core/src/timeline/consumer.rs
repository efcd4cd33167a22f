//! The consumer protocol (KIP-848, `group.protocol=consumer`) over time: the broker's group
//! epoch, target assignment and per-member reconciliation (`GroupMetadataManager`'s
//! consumer-group heartbeat and `CurrentAssignmentBuilder`, KAFKA-SEMANTICS.md sections 14
//! to 16), and the Java client's heartbeats (`AbstractHeartbeatRequestManager`,
//! `AbstractMembershipManager`).
//!
//! Unlike the classic coordinator, this broker side is written from the rules, not checked
//! against Kafka's code on a clock: the oracle tool drives classic groups only.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use super::classic::secs;
use super::ledger::{Closed, Ledger};
use super::story::{acts, story_start, Act, STORY_START_MS};
use super::{CommitPolicy, Group, Happening, Run, Settings, Story, TimelineError};
use crate::assignor::{self, AssignorKind, GroupInput, MemberMeta, TopicMeta, UNASSIGNED};

const TAIL_MS: i64 = 5_000;
const RUN_LIMIT_AFTER_ACTS_MS: i64 = 4 * 3_600_000;

#[derive(Debug, Clone)]
enum Ev {
    Act(usize, Act),
    /// The client heartbeats (regular when `false`, at once when `true`); a heartbeat
    /// scheduled before the client's last one was sent is dropped (its token is stale).
    Heartbeat(usize, u32, bool, u64),
    /// A batch's callbacks run: the assignment a heartbeat brought while the member was
    /// inside a batch is reconciled at its next poll().
    Reconcile(usize, u32, u64, Vec<usize>),
    /// A slow batch is done.
    SlowEnd(usize, u32),
    /// A heartbeat's response reaches the client.
    Reply(usize, u32, Reply),
    /// The session timer of a member (by broker id) fires.
    Session(u64, i64),
    /// The revocation timer of a member fires (its epoch then).
    Revocation(u64, i32),
    CutEnd(usize, u32),
    PollTimeout(usize, u32),
}

/// What a heartbeat's response says.
#[derive(Debug, Clone)]
enum Reply {
    /// UNKNOWN_MEMBER_ID or FENCED_MEMBER_EPOCH: the member is no longer in the group.
    Fenced,
    /// No assignment in the response: the member already has it.
    Unchanged,
    /// The member's assignment now.
    Assigned(Vec<usize>),
}

#[derive(Debug, Clone)]
struct BrokerMember {
    client: usize,
    epoch: i32,
    /// What the broker counts as its: partitions it owns or must still revoke.
    current: Vec<usize>,
    /// Partitions it must give up before it can move on.
    revoking: Vec<usize>,
    instance_id: Option<String>,
    /// Left with epoch -2: held for its return.
    away: bool,
    session_deadline: i64,
}

#[derive(Debug, Clone)]
struct Client {
    up: bool,
    incarnation: u32,
    /// The broker's id of this member, while it is one.
    member: Option<u64>,
    owned: Vec<usize>,
    consuming: bool,
    fenced: bool,
    slow_until: i64,
    cut_until: i64,
    auto_anchor: i64,
    /// The token of the heartbeat scheduled last.
    heartbeat_token: u64,
}

struct Sim<'a> {
    s: &'a Settings,
    group: &'a Group,
    names: Vec<String>,
    topics: Vec<Vec<String>>,
    clients: Vec<Client>,
    members: BTreeMap<u64, BrokerMember>,
    next_member: u64,
    group_epoch: i32,
    assignment_epoch: i32,
    target: BTreeMap<u64, Vec<usize>>,
    /// Which member the broker counts each partition as owned by.
    partition_owner: Vec<Option<u64>>,
    partitions: Vec<(usize, u32)>,
    topic_base: Vec<usize>,
    queue: BinaryHeap<Reverse<(i64, u64)>>,
    events: BTreeMap<u64, Ev>,
    seq: u64,
    now: i64,
    ledger: Ledger,
    happenings: Vec<Happening>,
    rebalance_times: Vec<i64>,
    downtime: Vec<Vec<(i64, i64)>>,
    /// Queued events other than regular heartbeats and session timers.
    busy: usize,
    notes: Vec<String>,
    /// The uniform assignor refused this group once: the run goes on with range.
    uniform_refused: bool,
    /// Events handled so far (a run stops at [`Settings::max_events`](super::Settings::max_events)).
    handled: u64,
}

fn recurring(ev: &Ev) -> bool {
    // (the session and revocation timers are the coordinator's checks: a settled group does
    // not wait for them)
    matches!(
        ev,
        Ev::Heartbeat(_, _, false, _) | Ev::Session(..) | Ev::Revocation(..)
    )
}

/// Runs a story under the consumer protocol.
pub fn run(group: &Group, s: &Settings, story: &Story) -> Result<Run, TimelineError> {
    let (acts, added) = acts(story, group.members.len()).map_err(TimelineError::Story)?;
    let (names, topics): (Vec<String>, Vec<Vec<String>>) =
        super::members_with(group, added).into_iter().unzip();
    let (partitions, topic_base) = super::partition_layout(group);
    let n = names.len();
    let mut sim = Sim {
        s,
        group,
        clients: vec![
            Client {
                up: false,
                incarnation: 0,
                member: None,
                owned: Vec::new(),
                consuming: true,
                fenced: false,
                slow_until: 0,
                cut_until: 0,
                auto_anchor: 0,
                heartbeat_token: 0,
            };
            n
        ],
        names,
        topics,
        members: BTreeMap::new(),
        next_member: 0,
        group_epoch: 0,
        assignment_epoch: 0,
        target: BTreeMap::new(),
        partition_owner: vec![None; partitions.len()],
        ledger: Ledger::new(
            partitions.len(),
            s.records_per_second,
            STORY_START_MS,
            s.keep_tenures,
        ),
        partitions,
        topic_base,
        queue: BinaryHeap::new(),
        events: BTreeMap::new(),
        seq: 0,
        now: 0,
        happenings: Vec::new(),
        rebalance_times: Vec::new(),
        downtime: vec![Vec::new(); n],
        busy: 0,
        notes: Vec::new(),
        uniform_refused: false,
        handled: 0,
    };
    for i in 0..group.members.len() {
        sim.push(0, Ev::Act(i, Act::Start));
    }
    // the group forms first; the story starts once it has
    let formed = sim.run_until_settled(0, 0);
    let start = story_start(formed);
    sim.ledger.count_from(start);
    let shift = start - STORY_START_MS;
    let last_act = acts.iter().map(|a| a.0 + shift).max().unwrap_or(start);
    for (t, m, act) in acts {
        sim.push(t + shift, Ev::Act(m, act));
    }
    let end = sim.run_until_settled(last_act, TAIL_MS);
    let (
        Closed {
            tenures,
            lanes,
            costs,
        },
        overlaps,
    ) = super::end_run(
        sim.ledger,
        &sim.rebalance_times,
        &mut sim.downtime,
        start,
        end,
    );
    Ok(Run {
        protocol: s.protocol,
        static_membership: s.client.static_membership,
        members: sim.names,
        topics: group.topics.clone(),
        start_ms: start,
        end_ms: end,
        happenings: sim.happenings,
        tenures,
        lanes,
        downtime: sim.downtime,
        rebalance_times: sim.rebalance_times,
        costs,
        wire: Vec::new(),
        notes: sim.notes,
        overlaps,
    })
}

impl<'a> Sim<'a> {
    fn push(&mut self, t: i64, ev: Ev) {
        self.seq += 1;
        if !recurring(&ev) {
            self.busy += 1;
        }
        self.events.insert(self.seq, ev);
        self.queue.push(Reverse((t, self.seq)));
    }

    /// Whether routine events of each member (its assignment, its revocations, its notice
    /// of a rebalance) are kept: up to [`super::MEMBERS_TOLD_EACH`] members.
    fn tells_each_member(&self) -> bool {
        self.names.len() <= super::MEMBERS_TOLD_EACH
    }

    fn happen(&mut self, c: Option<usize>, kind: &'static str, detail: String) {
        let member = c.map(|c| self.names[c].clone());
        self.happenings.push(Happening {
            time_ms: self.now,
            member,
            kind,
            detail,
        });
    }

    /// Schedules the client's next heartbeat, which replaces any scheduled before.
    fn push_heartbeat(&mut self, c: usize, at: i64, at_once: bool) {
        let cl = &mut self.clients[c];
        cl.heartbeat_token += 1;
        let (inc, token) = (cl.incarnation, cl.heartbeat_token);
        self.push(at, Ev::Heartbeat(c, inc, at_once, token));
    }

    fn interval(&self) -> i64 {
        self.s.consumer_group.heartbeat_interval_ms
    }

    fn run_until_settled(&mut self, last_act: i64, tail: i64) -> i64 {
        let limit = last_act + RUN_LIMIT_AFTER_ACTS_MS;
        while let Some(&Reverse((t, _))) = self.queue.peek() {
            self.handled += 1;
            if self.handled > self.s.max_events {
                self.notes.push(format!(
                    "The run stopped after {} events (heartbeats, timers): the story is cut short at {} s.",
                    self.s.max_events,
                    self.now / 1000
                ));
                return self.now;
            }
            if t > limit {
                self.now = limit;
                self.happen(
                    None,
                    "limit",
                    "The run stops four hours after the story's last event.".into(),
                );
                return limit;
            }
            if t > last_act && self.settled() {
                return self.now.max(last_act) + tail;
            }
            let Some(Reverse((_, seq))) = self.queue.pop() else {
                break;
            };
            self.now = t;
            if let Some(ev) = self.events.remove(&seq) {
                if !recurring(&ev) {
                    self.busy -= 1;
                }
                self.handle(ev);
            }
        }
        self.now + tail
    }

    /// Every member is at the group's epoch with its target in hand, and every running
    /// client consumes.
    fn settled(&self) -> bool {
        self.busy == 0
            && self.assignment_epoch == self.group_epoch
            && self.members.iter().all(|(id, m)| {
                !m.away
                    && (m.epoch == self.group_epoch
                        && m.revoking.is_empty()
                        && self.target.get(id).is_none_or(|t| *t == m.current))
            })
            && self.clients.iter().all(|c| {
                !c.up
                    || c.fenced
                    || (c.member.is_some()
                        && c.consuming
                        && c.slow_until <= self.now
                        && c.member
                            .and_then(|id| self.members.get(&id))
                            .is_some_and(|m| m.current == c.owned))
            })
    }

    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::Act(c, act) => self.act(c, act),
            Ev::Heartbeat(c, inc, now, token) => {
                let cl = &self.clients[c];
                if cl.incarnation == inc && cl.up && cl.heartbeat_token == token {
                    self.heartbeat(c, now);
                }
            }
            Ev::Reconcile(c, inc, member, assignment) => {
                // (only for the member it was given to: not after a leave or a fence)
                let cl = &self.clients[c];
                if cl.incarnation == inc && cl.up && cl.member == Some(member) && !cl.fenced {
                    self.apply_assignment(c, assignment);
                }
            }
            Ev::SlowEnd(c, inc) => self.slow_end(c, inc),
            Ev::Reply(c, inc, assignment) => {
                if self.clients[c].incarnation == inc && self.clients[c].up {
                    self.on_reply(c, assignment);
                }
            }
            Ev::Session(id, deadline) => {
                if self
                    .members
                    .get(&id)
                    .is_some_and(|m| m.session_deadline == deadline)
                {
                    let c = self.members[&id].client;
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
            Ev::Revocation(id, epoch) => {
                if self
                    .members
                    .get(&id)
                    .is_some_and(|m| m.epoch == epoch && !m.revoking.is_empty())
                {
                    let c = self.members[&id].client;
                    self.happen(Some(c), "fenced", "It did not revoke within its rebalance timeout (max.poll.interval.ms): fenced.".into());
                    self.fence(id);
                }
            }
            Ev::CutEnd(c, inc) => {
                if self.clients[c].incarnation == inc && self.clients[c].up {
                    self.happen(
                        Some(c),
                        "reconnect",
                        "The network is back: the member heartbeats at once.".into(),
                    );
                    self.heartbeat(c, true);
                }
            }
            Ev::PollTimeout(c, inc) => self.poll_timeout(c, inc),
        }
    }

    fn act(&mut self, c: usize, act: Act) {
        match act {
            Act::Start => {
                if let Some(last) = self.downtime[c].last_mut() {
                    if last.1 == i64::MAX {
                        last.1 = self.now;
                    }
                }
                let cl = &mut self.clients[c];
                cl.up = true;
                cl.incarnation += 1;
                cl.member = None;
                cl.owned.clear();
                cl.consuming = true;
                cl.fenced = false;
                cl.slow_until = 0;
                cl.cut_until = 0;
                let what = if self.downtime[c].is_empty() {
                    "The member starts and joins."
                } else {
                    "The member starts again and joins."
                };
                self.happen(Some(c), "start", what.into());
                self.heartbeat(c, true);
            }
            Act::Close => self.close(c),
            Act::Crash => {
                if !self.clients[c].up {
                    return;
                }
                let lost = self.lose_owned(c);
                self.down(c);
                self.happen(Some(c), "crash", format!("The member dies without a word: no commit, no leave heartbeat. It stops {lost} partitions."));
            }
            Act::SlowBatch(ms) => {
                if !self.clients[c].up {
                    return;
                }
                let until = self.now + ms;
                self.clients[c].slow_until = until;
                let p = self.s.client.max_poll_interval_ms;
                self.suspend(c);
                let inc = self.clients[c].incarnation;
                self.push(until, Ev::SlowEnd(c, inc));
                self.happen(
                    Some(c),
                    "slow batch",
                    format!(
                        "One batch takes {} s (max.poll.interval.ms is {} s).",
                        secs(ms),
                        secs(p)
                    ),
                );
                if ms > p {
                    let inc = self.clients[c].incarnation;
                    self.push(self.now + p, Ev::PollTimeout(c, inc));
                }
            }
            Act::Cut(ms) => {
                if !self.clients[c].up {
                    return;
                }
                self.clients[c].cut_until = self.now + ms;
                self.suspend(c);
                self.happen(
                    Some(c),
                    "network cut",
                    format!(
                        "The member cannot reach the cluster for {} s: no heartbeat, no fetch.",
                        secs(ms)
                    ),
                );
                let inc = self.clients[c].incarnation;
                self.push(self.now + ms, Ev::CutEnd(c, inc));
            }
        }
    }

    /// A network cut or a batch that does not end: it keeps its partitions but consumes
    /// none.
    fn suspend(&mut self, c: usize) {
        self.stop_consuming(c);
        self.clients[c].consuming = false;
    }

    /// Its partitions stop being consumed now, with no commit: the next owner reads again
    /// what it processed since its last one.
    fn stop_consuming(&mut self, c: usize) {
        if self.clients[c].consuming {
            for p in self.clients[c].owned.clone() {
                let u = self.uncommitted(c, p);
                self.ledger.end(p, self.now, u);
            }
        }
    }

    /// It loses what it owns, with no commit (a crash, a poll timeout, a fence); returns
    /// how many partitions.
    fn lose_owned(&mut self, c: usize) -> usize {
        self.stop_consuming(c);
        std::mem::take(&mut self.clients[c].owned).len()
    }

    /// It consumes what it still owns again.
    fn resume(&mut self, c: usize) {
        let owned = self.clients[c].owned.clone();
        for &p in &owned {
            if self.ledger.owner(p).is_none() {
                self.ledger.start(p, c, self.now, false);
            }
        }
        self.clients[c].consuming = true;
    }

    /// The slow batch is done: a member still in the group consumes again.
    fn slow_end(&mut self, c: usize, inc: u32) {
        let cl = &self.clients[c];
        if cl.incarnation != inc || !cl.up || cl.consuming || cl.cut_until > self.now {
            return;
        }
        if cl.member.is_some() && !cl.fenced {
            self.resume(c);
            if self.tells_each_member() {
                let n = self.clients[c].owned.len();
                self.happen(
                    Some(c),
                    "resume",
                    format!("The slow batch is done: it consumes its {n} partitions again."),
                );
            }
        }
    }

    fn down(&mut self, c: usize) {
        let cl = &mut self.clients[c];
        cl.up = false;
        cl.incarnation += 1;
        cl.member = None;
        self.downtime[c].push((self.now, i64::MAX));
    }

    /// `close()`: commit, revoke, then a leave heartbeat: epoch -1, or -2 for a static
    /// member, whose partitions the coordinator then holds for it.
    fn close(&mut self, c: usize) {
        if !self.clients[c].up {
            return;
        }
        let owned = std::mem::take(&mut self.clients[c].owned);
        if self.clients[c].consuming {
            for &p in &owned {
                self.ledger.commit(p, self.now);
                self.ledger.end(p, self.now, 0.0);
            }
        }
        let member = self.clients[c].member;
        let leave_at = self.now + self.s.round_trip_ms;
        self.down(c);
        match member {
            Some(id) if self.s.client.static_membership => {
                self.happen(Some(c), "close", format!("The member closes: it commits and sends a leave heartbeat with epoch -2; the coordinator holds its {} partitions for it.", owned.len()));
                self.leave_static(id);
            }
            Some(id) => {
                self.happen(Some(c), "close", format!("The member closes: it commits and sends a leave heartbeat with epoch -1; its {} partitions are freed.", owned.len()));
                self.now = leave_at;
                self.fence(id);
                self.now = leave_at - self.s.round_trip_ms;
            }
            None => {}
        }
    }

    fn poll_timeout(&mut self, c: usize, inc: u32) {
        let cl = &self.clients[c];
        if cl.incarnation != inc || !cl.up || cl.slow_until <= self.now {
            return;
        }
        self.lose_owned(c);
        self.happen(Some(c), "poll timeout", "max.poll.interval.ms passed inside one batch: it sends a leave heartbeat, goes stale and loses its partitions; it joins again at its next poll().".into());
        if let Some(id) = self.clients[c].member.take() {
            if self.s.client.static_membership {
                self.leave_static(id);
            } else {
                self.fence(id);
            }
        }
        let at = self.clients[c].slow_until;
        self.push_heartbeat(c, at, true);
    }

    // ------------------------------------------------------------------ the broker

    /// `consumerGroupStaticMemberGroupLeave` (epoch -2): the member is kept with what it
    /// owns, for its return; what it was revoking is free.
    fn leave_static(&mut self, id: u64) {
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
    fn fence(&mut self, id: u64) {
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

    fn bump(&mut self) {
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
    fn compute_target(&mut self) {
        let topics: Vec<TopicMeta> = self
            .group
            .topics
            .iter()
            .map(|(name, n)| TopicMeta {
                name: name.clone(),
                partitions: *n,
                racks: Vec::new(),
            })
            .collect();
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
        self.target = target;
        self.assignment_epoch = self.group_epoch;
    }

    /// The uniform assignor's rule for members that all name the same topics
    /// (`UniformHomogeneousAssignmentBuilder`), in member id order where Kafka's follows a
    /// `HashMap` over random ids: quotas of total / members, one more for the first
    /// total % members; each member keeps its current target up to its quota; partitions
    /// nobody keeps, ascending, go to the members below quota in turn.
    fn keep_up_to_quota(&self, ids: &[u64], target: &mut BTreeMap<u64, Vec<usize>>) {
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
    fn heartbeat(&mut self, c: usize, _at_once: bool) {
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
                    let again = super::RESTART_AFTER_FATAL_MS;
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
    fn join(&mut self, c: usize) -> Option<u64> {
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
    fn reconcile(&mut self, id: u64, client_owned: &[usize]) {
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

    // ------------------------------------------------------------------ the client

    fn on_reply(&mut self, c: usize, reply: Reply) {
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
    fn apply_assignment(&mut self, c: usize, assignment: Vec<usize>) {
        let now = self.now;
        let owned = self.clients[c].owned.clone();
        let (revoked, added) = super::differences(&owned, &assignment);
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
                    super::classic::read_again(again)
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

    fn uncommitted(&self, c: usize, p: usize) -> f64 {
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
