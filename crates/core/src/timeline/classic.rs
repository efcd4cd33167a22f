//! The classic protocol over time: the Java consumer's side (a model written from
//! `ConsumerCoordinator` and `AbstractCoordinator`, KAFKA-SEMANTICS.md sections 8 to 13)
//! around the coordinator of [`super::broker`], on one virtual clock.
//!
//! The clock: at equal times the coordinator's timers fire before the clients act (as
//! Kafka's tests sleep, then send), and the clients act in the order their events were
//! queued, heartbeat ticks first. A request reaches the coordinator when it is sent; its
//! response reaches the
//! client one round trip later.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use super::broker::{
    Api, ClassicCoordinator, ErrorCode, GroupLine, GroupState, JoinRequest, Response, TimerKey,
};
use super::broker_trace::{Line, Request};
use super::ledger::{Closed, Ledger};
use super::story::{acts, story_start, Act, STORY_START_MS};
use super::{CommitPolicy, Group, Happening, Protocol, Run, Settings, Story, TimelineError};
use crate::assignor::{self, GroupInput, MemberMeta, TopicMeta, UNASSIGNED};
use crate::group::join_metadata;
use crate::protocol::{Subscription, TopicPartitions};

/// The longest a run goes on after its last act before it stops (virtual ms).
const RUN_LIMIT_AFTER_ACTS_MS: i64 = 4 * 3_600_000;
/// How long the run goes on once the group is settled, so the timeline shows it.
const TAIL_MS: i64 = 5_000;
/// The group's id in the coordinator's keys.
pub const GROUP_ID: &str = "g";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Down,
    Unjoined,
    Joining,
    Syncing,
    Stable,
}

#[derive(Debug, Clone)]
enum Ev {
    Act(usize, Act),
    Deliver(usize, Response),
    Tick(usize, u64),
    Poll(usize, u32),
    SendJoin(usize, u32),
    SendLeave(usize, String),
    PollTimeout(usize, u32),
    CutEnd(usize, u32),
}

#[derive(Debug, Clone)]
struct Client {
    name: String,
    instance_id: Option<String>,
    /// Its subscription, shared with the leader's assignor input.
    topics: crate::assignor::TopicList,
    up: bool,
    incarnation: u32,
    member_id: String,
    generation: i32,
    phase: Phase,
    rejoin_needed: bool,
    poll_scheduled: bool,
    /// Partitions it was given (global indices, ascending).
    owned: Vec<usize>,
    /// Of `owned`, whether it consumes them now (not during a network cut).
    consuming: bool,
    owned_generation: i32,
    /// What its last JoinGroup said it owned, and at which generation.
    joined_with: (Vec<usize>, i32),
    heartbeat_epoch: u64,
    /// `nextAutoCommitTimer` starts here (reset at each assignment).
    auto_anchor: i64,
    behind_until: i64,
    batch_anchor: i64,
    slow_until: i64,
    cut_until: i64,
    /// The requests it awaits an answer to, with the incarnation that sent them.
    awaiting: Vec<(Api, u32)>,
    /// Heartbeating quietly since this heartbeat: in a Stable group a heartbeat changes
    /// nothing but the member's deadline, so the next ones (every interval from here) are
    /// sent only when something may depend on them ([`Sim::wake`]).
    quiet: Option<i64>,
    fatal: bool,
}

struct Sim<'a> {
    s: &'a Settings,
    group: &'a Group,
    broker: ClassicCoordinator,
    clients: Vec<Client>,
    /// (time, 0 for a heartbeat tick and 1 for anything else, order queued).
    queue: BinaryHeap<Reverse<(i64, u8, u64)>>,
    events: BTreeMap<u64, Ev>,
    seq: u64,
    now: i64,
    ledger: Ledger,
    /// Global partition index to (topic index, partition).
    partitions: Vec<(usize, u32)>,
    topic_base: Vec<usize>,
    member_client: BTreeMap<String, usize>,
    happenings: Vec<Happening>,
    wire: Vec<Line>,
    last_line: Option<GroupLine>,
    seen_revision: Option<u64>,
    seen_state: Option<GroupState>,
    seen_members: usize,
    client_index: BTreeMap<String, usize>,
    rebalance_times: Vec<i64>,
    downtime: Vec<Vec<(i64, i64)>>,
    record_wire: bool,
    /// Queued events other than heartbeat ticks: while any is queued the run goes on.
    busy: usize,
    notes: Vec<String>,
    /// Events and timers handled so far (a run stops at [`Settings::max_events`](super::Settings::max_events)).
    handled: u64,
    /// A coordinator timer is firing: the heartbeat ticks due now have not happened yet.
    firing_timer: bool,
}

/// A heartbeat and its answer: a settled group goes on sending them.
fn routine(ev: &Ev) -> bool {
    match ev {
        Ev::Tick(..) => true,
        Ev::Deliver(_, r) => r.api == Api::Heartbeat,
        _ => false,
    }
}

/// Runs a story under the classic protocol.
pub fn run(group: &Group, s: &Settings, story: &Story) -> Result<Run, TimelineError> {
    run_traced(group, s, story, false)
}

/// [`run`], keeping the requests and the coordinator's decisions in [`Run::wire`] when
/// `record_wire` (the oracle's cases compare them with Kafka's).
pub fn run_traced(
    group: &Group,
    s: &Settings,
    story: &Story,
    record_wire: bool,
) -> Result<Run, TimelineError> {
    let (acts, added) = acts(story, group.members.len()).map_err(TimelineError::Story)?;
    let mut clients: Vec<Client> = Vec::new();
    for (name, topics) in super::members_with(group, added) {
        let topics = std::rc::Rc::new(topics);
        clients.push(Client {
            instance_id: s
                .client
                .static_membership
                .then(|| format!("{name}-instance")),
            name,
            topics,
            up: false,
            incarnation: 0,
            member_id: String::new(),
            generation: -1,
            phase: Phase::Down,
            rejoin_needed: false,
            poll_scheduled: false,
            owned: Vec::new(),
            consuming: true,
            owned_generation: -1,
            joined_with: (Vec::new(), -1),
            heartbeat_epoch: 0,
            auto_anchor: 0,
            behind_until: 0,
            batch_anchor: 0,
            slow_until: 0,
            cut_until: 0,
            awaiting: Vec::new(),
            fatal: false,
            quiet: None,
        });
    }
    let (partitions, topic_base) = super::partition_layout(group);
    let mut sim = Sim {
        s,
        group,
        broker: ClassicCoordinator::new(GROUP_ID, s.broker),
        downtime: vec![Vec::new(); clients.len()],
        clients,
        queue: BinaryHeap::new(),
        events: BTreeMap::new(),
        seq: 0,
        now: 0,
        ledger: Ledger::new(
            partitions.len(),
            s.records_per_second,
            STORY_START_MS,
            s.keep_tenures,
        ),
        partitions,
        topic_base,
        member_client: BTreeMap::new(),
        happenings: Vec::new(),
        wire: Vec::new(),
        last_line: None,
        seen_revision: None,
        seen_state: None,
        seen_members: 0,
        client_index: BTreeMap::new(),
        rebalance_times: Vec::new(),
        record_wire,
        busy: 0,
        notes: Vec::new(),
        handled: 0,
        firing_timer: false,
    };
    sim.client_index = sim
        .clients
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.clone(), i))
        .collect();
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
        members: sim.clients.iter().map(|c| c.name.clone()).collect(),
        topics: group.topics.clone(),
        start_ms: start,
        end_ms: end,
        happenings: sim.happenings,
        tenures,
        lanes,
        downtime: sim.downtime,
        rebalance_times: sim.rebalance_times,
        costs,
        wire: sim.wire,
        notes: sim.notes,
        overlaps,
    })
}

impl<'a> Sim<'a> {
    fn push(&mut self, t: i64, ev: Ev) {
        self.seq += 1;
        let tick = matches!(ev, Ev::Tick(..));
        if !routine(&ev) {
            self.busy += 1;
        }
        self.events.insert(self.seq, ev);
        self.queue.push(Reverse((t, u8::from(!tick), self.seq)));
    }

    /// Whether routine events of each member (its assignment, its revocations, its notice
    /// of a rebalance) are kept: up to [`super::MEMBERS_TOLD_EACH`] members.
    fn tells_each_member(&self) -> bool {
        self.clients.len() <= super::MEMBERS_TOLD_EACH
    }

    fn happen(&mut self, member: Option<usize>, kind: &'static str, detail: String) {
        let member = member.map(|m| self.clients[m].name.clone());
        self.happenings.push(Happening {
            time_ms: self.now,
            member,
            kind,
            detail,
        });
    }

    /// Runs until every act is done and the group is settled, then a short tail; returns
    /// the end time.
    fn run_until_settled(&mut self, last_act: i64, tail: i64) -> i64 {
        let limit = last_act + RUN_LIMIT_AFTER_ACTS_MS;
        loop {
            self.handled += 1;
            if self.handled > self.s.max_events {
                self.over_budget();
                return self.now;
            }
            let next_client = self.queue.peek().map(|Reverse((t, _, _))| *t);
            let next_timer = self.broker.next_timer().map(|(t, _)| t);
            let t = match (next_client, next_timer) {
                (None, None) => break,
                (Some(c), None) => c,
                (None, Some(b)) => b,
                (Some(c), Some(b)) => c.min(b),
            };
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
            self.now = t;
            if next_timer == Some(t) {
                self.broker.advance_to(t);
                if self.heartbeat_is_assumed() {
                    continue;
                }
                // (a coordinator timer fires before the ticks due at its time)
                self.firing_timer = true;
                if let Some((_, key)) = self.broker.fire_next_timer() {
                    if self.record_wire {
                        let key = self.broker.timer_name(&key);
                        self.wire.push(Line::TimerFired { t, key });
                    }
                    self.after_broker();
                }
                self.firing_timer = false;
                continue;
            }
            let Some(Reverse((_, _, seq))) = self.queue.pop() else {
                break;
            };
            if let Some(ev) = self.events.remove(&seq) {
                if !routine(&ev) {
                    self.busy -= 1;
                }
                self.handle(ev);
            }
        }
        self.now + tail
    }

    fn over_budget(&mut self) {
        let note = format!(
            "The run stopped after {} events (requests, timers, heartbeats): the story is cut short at {} s.",
            self.s.max_events,
            self.now / 1000
        );
        self.notes.push(note);
    }

    /// Nothing is on its way, every running client is Stable with nothing left to do, and
    /// the group is Stable with exactly those members.
    fn settled(&self) -> bool {
        if self.busy > 0 {
            return false;
        }
        let running: Vec<&Client> = self.clients.iter().filter(|c| c.up && !c.fatal).collect();
        let (members, pending) = self.broker.counts();
        if members != running.len() || pending > 0 {
            return false;
        }
        let group_ok = match self.broker.state() {
            GroupState::Stable => true,
            GroupState::Empty => running.is_empty(),
            _ => false,
        };
        group_ok
            && running.iter().all(|c| {
                c.phase == Phase::Stable
                    && !c.rejoin_needed
                    && c.consuming
                    && c.slow_until <= self.now
                    && c.awaiting.iter().all(|(api, _)| *api == Api::Heartbeat)
            })
    }

    fn handle(&mut self, ev: Ev) {
        // anything that happens to a quiet member wakes it first
        match &ev {
            Ev::Act(c, _)
            | Ev::Poll(c, _)
            | Ev::SendJoin(c, _)
            | Ev::SendLeave(c, _)
            | Ev::PollTimeout(c, _)
            | Ev::CutEnd(c, _) => self.wake(*c),
            Ev::Deliver(c, r) if r.api != Api::Heartbeat => self.wake(*c),
            _ => {}
        }
        match ev {
            Ev::Act(c, act) => self.act(c, act),
            Ev::Deliver(c, r) => self.deliver(c, r),
            Ev::Tick(c, epoch) => self.tick(c, epoch),
            Ev::Poll(c, inc) => {
                if self.clients[c].incarnation == inc {
                    self.clients[c].poll_scheduled = false;
                    self.poll(c);
                }
            }
            Ev::SendJoin(c, inc) => {
                if self.clients[c].incarnation == inc && self.clients[c].up {
                    self.send_join(c);
                }
            }
            Ev::SendLeave(c, member_id) => self.send_leave(c, member_id),
            Ev::PollTimeout(c, inc) => self.poll_timeout(c, inc),
            Ev::CutEnd(c, inc) => {
                if self.clients[c].incarnation == inc && self.clients[c].up {
                    self.happen(
                        Some(c),
                        "reconnect",
                        "The network is back: the member heartbeats again.".into(),
                    );
                    self.tick_now(c);
                }
            }
        }
    }

    // ------------------------------------------------------------------ acts

    fn act(&mut self, c: usize, act: Act) {
        match act {
            Act::Start => self.start(c),
            Act::Close => self.close(c),
            Act::Crash => self.crash(c),
            Act::SlowBatch(ms) => {
                if !self.clients[c].up {
                    return;
                }
                let until = self.now + ms;
                self.clients[c].slow_until = until;
                // stuck in the batch, it consumes nothing more until the batch ends
                self.suspend(c);
                let p = self.s.client.max_poll_interval_ms;
                self.happen(
                    Some(c),
                    "slow batch",
                    format!(
                        "One batch takes {} s (max.poll.interval.ms is {} s).",
                        secs(ms),
                        secs(p)
                    ),
                );
                let inc = self.clients[c].incarnation;
                if ms > p {
                    self.push(self.now + p, Ev::PollTimeout(c, inc));
                }
                self.push(until, Ev::Poll(c, inc));
            }
            Act::Cut(ms) => {
                if !self.clients[c].up {
                    return;
                }
                self.clients[c].cut_until = self.now + ms;
                self.happen(
                    Some(c),
                    "network cut",
                    format!(
                        "The member cannot reach the cluster for {} s: no heartbeat, no fetch.",
                        secs(ms)
                    ),
                );
                self.suspend(c);
                let inc = self.clients[c].incarnation;
                self.push(self.now + ms, Ev::CutEnd(c, inc));
            }
        }
    }

    fn start(&mut self, c: usize) {
        let now = self.now;
        if let Some(last) = self.downtime[c].last_mut() {
            if last.1 == i64::MAX {
                last.1 = now;
            }
        }
        let cl = &mut self.clients[c];
        cl.up = true;
        cl.fatal = false;
        cl.incarnation += 1;
        cl.member_id.clear();
        cl.generation = -1;
        cl.owned.clear();
        cl.consuming = true;
        cl.owned_generation = -1;
        cl.rejoin_needed = false;
        cl.slow_until = 0;
        cl.cut_until = 0;
        cl.behind_until = 0;
        cl.heartbeat_epoch += 1;
        let what = if self.downtime[c].is_empty() {
            "The member starts and joins."
        } else {
            "The member starts again and joins."
        };
        self.happen(Some(c), "start", what.into());
        self.send_join(c);
    }

    fn close(&mut self, c: usize) {
        if !self.clients[c].up {
            return;
        }
        let now = self.now;
        // close(): commitSync, then onLeavePrepare, then LeaveGroup (dynamic members only)
        let owned = std::mem::take(&mut self.clients[c].owned);
        if self.clients[c].consuming {
            for &p in &owned {
                self.ledger.commit(p, now);
                self.ledger.end(p, now, 0.0);
            }
        }
        let cl = &mut self.clients[c];
        let leaves =
            self.s.client.leave_on_close && cl.instance_id.is_none() && !cl.member_id.is_empty();
        let member_id = std::mem::take(&mut cl.member_id);
        cl.up = false;
        cl.phase = Phase::Down;
        cl.generation = -1;
        cl.heartbeat_epoch += 1;
        cl.incarnation += 1;
        self.downtime[c].push((now, i64::MAX));
        let why = if leaves {
            "The member closes: it commits, then sends LeaveGroup."
        } else if self.clients[c].instance_id.is_some() {
            "The member closes: it commits; a static member sends no LeaveGroup."
        } else {
            "The member closes: it commits and sends no LeaveGroup (as Kafka Streams closes)."
        };
        self.happen(
            Some(c),
            "close",
            format!("{why} It stops {} partitions.", owned.len()),
        );
        if leaves {
            self.push(now + self.s.round_trip_ms, Ev::SendLeave(c, member_id));
        }
    }

    fn crash(&mut self, c: usize) {
        if !self.clients[c].up {
            return;
        }
        let now = self.now;
        let owned = std::mem::take(&mut self.clients[c].owned);
        let mut reread = 0.0;
        if self.clients[c].consuming {
            for &p in &owned {
                let u = self.uncommitted(c, p, owned.len());
                reread += u;
                self.ledger.end(p, now, u);
            }
            let missed = self.batch_unprocessed(c);
            if matches!(self.s.client.commit, CommitPolicy::BeforeProcessing) {
                self.ledger.miss(missed);
            }
        }
        let cl = &mut self.clients[c];
        cl.up = false;
        cl.phase = Phase::Down;
        cl.heartbeat_epoch += 1;
        cl.incarnation += 1;
        self.downtime[c].push((now, i64::MAX));
        self.happen(
            Some(c),
            "crash",
            format!(
                "The member dies without a word: no commit, no LeaveGroup. It stops {} partitions; about {} records it processed were not committed.",
                owned.len(),
                reread.round()
            ),
        );
    }

    // ------------------------------------------------------------------ requests

    fn protocols(&self, c: usize) -> Vec<(String, Vec<u8>)> {
        let names: Vec<String> = match self.s.protocol {
            Protocol::Cooperative => vec!["cooperative-sticky".into()],
            _ => vec!["range".into(), "cooperative-sticky".into()],
        };
        let cl = &self.clients[c];
        let sub = Subscription {
            topics: cl.topics.to_vec(),
            user_data: None,
            owned_partitions: self.topic_partitions(&cl.owned),
            generation_id: cl.owned_generation,
            rack_id: None,
        };
        let metadata = join_metadata(&sub, &names, None, 3);
        names.into_iter().zip(metadata).collect()
    }

    /// Partitions by their global index (ascending, so grouped by topic), as Kafka lists them.
    fn topic_partitions(&self, owned: &[usize]) -> Vec<TopicPartitions> {
        let mut out: Vec<TopicPartitions> = Vec::new();
        let mut rest = owned;
        while let Some(&first) = rest.first() {
            let ti = self.partitions[first].0;
            let n = rest.partition_point(|&p| self.partitions[p].0 == ti);
            out.push(TopicPartitions {
                topic: self.group.topics[ti].0.clone(),
                partitions: rest[..n]
                    .iter()
                    .map(|&p| self.partitions[p].1 as i32)
                    .collect(),
            });
            rest = &rest[n..];
        }
        out
    }

    fn send_join(&mut self, c: usize) {
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
            session_timeout_ms: self.s.client.session_timeout_ms,
            rebalance_timeout_ms: self.s.client.max_poll_interval_ms,
            protocols: protocols.clone(),
        };
        let alias = cl.name.clone();
        if self.record_wire {
            let request = Request {
                client: alias.clone(),
                api: Api::JoinGroup,
                new_member: req.member_id.is_empty(),
                protocols,
                assignments: Vec::new(),
                generation: -1,
            };
            self.wire.push(Line::Request { t: now, request });
        }
        self.broker.advance_to(now);
        self.broker.join(&alias, req);
        self.after_broker();
    }

    fn send_sync(&mut self, c: usize, assignments: Vec<(String, Vec<u8>)>) {
        let now = self.now;
        let cl = &mut self.clients[c];
        cl.awaiting.push((Api::SyncGroup, cl.incarnation));
        let (alias, member_id, instance, generation) = (
            cl.name.clone(),
            cl.member_id.clone(),
            cl.instance_id.clone(),
            cl.generation,
        );
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
                client: alias.clone(),
                api: Api::SyncGroup,
                new_member: false,
                protocols: Vec::new(),
                assignments: by_alias,
                generation,
            };
            self.wire.push(Line::Request { t: now, request });
        }
        self.broker.advance_to(now);
        self.broker.sync(
            &alias,
            &member_id,
            instance.as_deref(),
            generation,
            &assignments,
        );
        self.after_broker();
    }

    fn send_heartbeat(&mut self, c: usize) {
        let now = self.now;
        let cl = &mut self.clients[c];
        cl.awaiting.push((Api::Heartbeat, cl.incarnation));
        let (alias, member_id, instance, generation) = (
            cl.name.clone(),
            cl.member_id.clone(),
            cl.instance_id.clone(),
            cl.generation,
        );
        self.wire_request(now, &alias, Api::Heartbeat);
        self.broker.advance_to(now);
        self.broker
            .heartbeat(&alias, &member_id, instance.as_deref(), generation);
        self.after_broker();
    }

    fn send_leave(&mut self, c: usize, member_id: String) {
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

    fn wire_request(&mut self, t: i64, alias: &str, api: Api) {
        if self.record_wire {
            let request = Request {
                client: alias.to_string(),
                api,
                new_member: false,
                protocols: Vec::new(),
                assignments: Vec::new(),
                generation: -1,
            };
            self.wire.push(Line::Request { t, request });
        }
    }

    /// Sends the coordinator's responses on their way and notes what changed in the group.
    fn after_broker(&mut self) {
        let now = self.now;
        for r in self.broker.take_replies() {
            if self.record_wire {
                self.wire.push(Line::Response {
                    t: now,
                    response: r.clone(),
                });
            }
            if let Some(&c) = self.client_index.get(&r.client) {
                // whose member id this is: what the leader reads from each member's metadata
                if r.api == Api::JoinGroup && !r.member_id.is_empty() {
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
            let line = self.broker.line();
            self.group_changed(before, &line);
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

    fn group_changed(&mut self, before: Option<GroupState>, line: &GroupLine) {
        match line.state {
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
                let leader = line.leader.clone().unwrap_or_default();
                let mut detail = format!(
                    "Generation {}: the coordinator answers the JoinGroups of {} members; the leader ({}) computes the assignment.",
                    line.generation,
                    line.members.len(),
                    self.alias_of(&leader)
                );
                if !line.leader_candidates.is_empty() {
                    let names: Vec<String> = line.leader_candidates.iter().map(|m| self.alias_of(m)).collect();
                    detail += &format!(
                        " Kafka picks this leader from a HashMap over random member ids, so any of {} could lead; this run takes the first.",
                        names.join(", ")
                    );
                }
                self.happen(None, "generation", detail);
            }
            GroupState::Stable => self.happen(
                None,
                "stable",
                format!("Generation {} is Stable: the leader's SyncGroup gave every member its partitions.", line.generation),
            ),
            GroupState::Empty => self.happen(None, "empty", "The group is Empty.".into()),
        }
    }

    fn alias_of(&self, member_id: &str) -> String {
        self.member_client
            .get(member_id)
            .map_or_else(|| member_id.to_string(), |&c| self.clients[c].name.clone())
    }

    // ------------------------------------------------------------------ responses

    fn deliver(&mut self, c: usize, r: Response) {
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
        match r.api {
            Api::JoinGroup => self.on_join(c, r),
            Api::SyncGroup => self.on_sync(c, r),
            Api::Heartbeat => self.on_heartbeat(c, r),
            Api::LeaveGroup => {}
        }
    }

    fn on_join(&mut self, c: usize, r: Response) {
        match r.error {
            ErrorCode::MemberIdRequired => {
                self.clients[c].member_id = r.member_id.clone();
                self.member_client.insert(r.member_id, c);
                self.send_join(c);
            }
            ErrorCode::None => {
                self.member_client.insert(r.member_id.clone(), c);
                let cl = &mut self.clients[c];
                cl.member_id = r.member_id.clone();
                cl.generation = r.generation;
                cl.phase = Phase::Syncing;
                cl.heartbeat_epoch += 1;
                let epoch = cl.heartbeat_epoch;
                self.push(
                    self.now + self.s.client.heartbeat_interval_ms,
                    Ev::Tick(c, epoch),
                );
                let leads = r.leader == r.member_id;
                if leads && !r.skip_assignment {
                    let plan = self.assign(&r.members);
                    if self.tells_each_member() {
                        self.happen(
                            Some(c),
                            "assign",
                            format!(
                                "As leader it runs {} over {} members and sends SyncGroup.",
                                self.s.protocol.assignor().name(),
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

    fn fatal(&mut self, c: usize, api: Api, e: ErrorCode) {
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
    }

    fn on_sync(&mut self, c: usize, r: Response) {
        match r.error {
            ErrorCode::None => {
                let now = self.now;
                let assigned = decode_partitions(
                    r.assignment.as_deref().unwrap_or(&[]),
                    self.partitions.len(),
                );
                let cooperative = self.s.protocol == Protocol::Cooperative;
                let owned = std::mem::take(&mut self.clients[c].owned);
                let (revoked, added) = super::differences(&owned, &assigned);
                for &p in &revoked {
                    // cooperative: revoked in onJoinComplete, with no commit of its own
                    let u = self.uncommitted(c, p, owned.len());
                    self.ledger.end(p, now, u);
                }
                // it starts from the committed offsets: what its last owners did not commit
                let again: f64 = added.iter().map(|&p| self.ledger.rereads(p)).sum();
                let mut waiting = 0.0;
                for &p in &added {
                    waiting += self.ledger.start(p, c, now, true);
                }
                let generation = self.clients[c].generation;
                let cl = &mut self.clients[c];
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
                self.reset(c, r.error);
                self.schedule_poll(c);
            }
            e => self.fatal(c, Api::SyncGroup, e),
        }
    }

    fn on_heartbeat(&mut self, c: usize, r: Response) {
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
    fn reset(&mut self, c: usize, e: ErrorCode) {
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

    // ------------------------------------------------------------------ the app thread

    fn tick(&mut self, c: usize, epoch: u64) {
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
            let next = self.now + self.s.client.heartbeat_interval_ms;
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
    fn quiet_heartbeats(&self, anchor: i64) -> (i64, i64) {
        let h = self.s.client.heartbeat_interval_ms;
        let by = if self.firing_timer {
            self.now - 1
        } else {
            self.now
        };
        let last = anchor + (by - anchor).max(0) / h * h;
        (last, last + h)
    }

    /// A quiet member heartbeats every interval again, as if it had all along.
    fn wake(&mut self, c: usize) {
        let Some(anchor) = self.clients[c].quiet.take() else {
            return;
        };
        let (last, next) = self.quiet_heartbeats(anchor);
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
    fn heartbeat_is_assumed(&mut self) -> bool {
        let Some((_, TimerKey::Heartbeat(member_id))) = self.broker.next_timer() else {
            return false;
        };
        let Some(&c) = self.member_client.get(&member_id) else {
            return false;
        };
        let cl = &self.clients[c];
        let Some(anchor) = cl.quiet else {
            return false;
        };
        if !cl.up || cl.member_id != member_id {
            return false;
        }
        // (a timer fires before the ticks due at its time)
        let h = self.s.client.heartbeat_interval_ms;
        let last = anchor + (self.now - 1 - anchor).max(0) / h * h;
        self.broker.assume_heartbeat(&member_id, last);
        true
    }

    /// After a network cut: a heartbeat at once, then every interval.
    fn tick_now(&mut self, c: usize) {
        self.clients[c].heartbeat_epoch += 1;
        let epoch = self.clients[c].heartbeat_epoch;
        self.push(self.now, Ev::Tick(c, epoch));
    }

    /// The app thread's next `poll()`: at once, or after the batch it is processing.
    fn schedule_poll(&mut self, c: usize) {
        if self.clients[c].poll_scheduled {
            return;
        }
        self.clients[c].poll_scheduled = true;
        let at = self.next_poll(c);
        let inc = self.clients[c].incarnation;
        self.push(at, Ev::Poll(c, inc));
    }

    fn next_poll(&self, c: usize) -> i64 {
        let cl = &self.clients[c];
        let now = self.now;
        if cl.slow_until > now {
            return cl.slow_until;
        }
        let batch = self.batch_ms();
        if now < cl.behind_until && batch > 0 {
            let since = now - cl.batch_anchor;
            return cl.batch_anchor + (since + batch - 1) / batch * batch;
        }
        now
    }

    fn batch_ms(&self) -> i64 {
        (f64::from(self.s.client.max_poll_records) * self.s.client.processing_ms_per_record).ceil()
            as i64
    }

    /// `poll()`: rejoins when a rebalance is needed (`onJoinPrepare`, then JoinGroup).
    fn poll(&mut self, c: usize) {
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
            if matches!(self.s.client.commit, CommitPolicy::Auto { .. }) {
                wait = self.s.round_trip_ms;
            }
            let owned = self.clients[c].owned.clone();
            if self.clients[c].consuming {
                for &p in &owned {
                    self.ledger.commit(p, now);
                }
            }
            if self.s.protocol != Protocol::Cooperative && !owned.is_empty() {
                if self.clients[c].consuming {
                    for &p in &owned {
                        self.ledger.end(p, now, 0.0);
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
    fn poll_timeout(&mut self, c: usize, inc: u32) {
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
    fn lose_all(&mut self, c: usize) {
        self.stop_consuming(c);
        self.clients[c].owned.clear();
        self.clients[c].consuming = true;
    }

    /// A network cut or a stalled batch: it keeps its partitions but consumes none.
    fn suspend(&mut self, c: usize) {
        self.stop_consuming(c);
        self.clients[c].consuming = false;
    }

    /// Its partitions stop being consumed now, with no commit: the next owner reads again
    /// what it processed since its last one.
    fn stop_consuming(&mut self, c: usize) {
        if self.clients[c].consuming {
            let owned = self.clients[c].owned.clone();
            for &p in &owned {
                let u = self.uncommitted(c, p, owned.len());
                self.ledger.end(p, self.now, u);
            }
        }
    }

    /// It consumes what it still owns again (`why`: what ended the pause).
    fn resume(&mut self, c: usize, why: &str) {
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
    fn catch_up(&mut self, c: usize, waiting: f64) {
        let per_ms_in = self.ledger.records_per_ms() * self.clients[c].owned.len() as f64;
        let p = self.s.client.processing_ms_per_record;
        let cl = &mut self.clients[c];
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
            self.now.saturating_add(ms as i64)
        };
        cl.behind_until = cl.behind_until.max(until);
        cl.batch_anchor = self.now;
    }

    /// Records of `p` its owner processed since its last commit (`n`: how many partitions
    /// the owner has).
    fn uncommitted(&self, c: usize, p: usize, n: usize) -> f64 {
        let now = self.now;
        let Some((start, committed)) = self.ledger.committed_at(p) else {
            return 0.0;
        };
        let rate = self.ledger.records_per_ms();
        match self.s.client.commit {
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
    fn batch_processed(&self, c: usize) -> f64 {
        let cl = &self.clients[c];
        let batch = self.batch_ms();
        if self.now >= cl.behind_until || batch <= 0 {
            return 0.0;
        }
        let into = (self.now - cl.batch_anchor) % batch;
        into as f64 / self.s.client.processing_ms_per_record
    }

    /// Records of the current batch not processed yet.
    fn batch_unprocessed(&self, c: usize) -> f64 {
        let cl = &self.clients[c];
        if self.now >= cl.behind_until || self.batch_ms() <= 0 {
            return 0.0;
        }
        (f64::from(self.s.client.max_poll_records) - self.batch_processed(c)).max(0.0)
    }

    // ------------------------------------------------------------------ the leader

    /// The leader's assignment over the members its JoinGroup response lists: each
    /// member's assignment bytes, by member id.
    fn assign(&mut self, members: &[(String, Option<String>, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
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
        let metas: Vec<MemberMeta> = members
            .iter()
            .map(|(id, instance, _)| {
                let c = self.member_client.get(id).copied();
                let (topics, owned, generation) = match c {
                    Some(c) => {
                        let cl = &self.clients[c];
                        let (owned, generation) = &cl.joined_with;
                        let owned = if self.s.protocol == Protocol::Cooperative {
                            self.topic_partitions(owned)
                                .into_iter()
                                .map(|tp| (tp.topic, tp.partitions))
                                .collect()
                        } else {
                            Vec::new()
                        };
                        (
                            cl.topics.clone(),
                            owned,
                            (*generation != -1).then_some(*generation),
                        )
                    }
                    None => (std::rc::Rc::new(Vec::new()), Vec::new(), None),
                };
                MemberMeta {
                    id: id.clone(),
                    instance_id: instance.clone(),
                    rack: None,
                    topics,
                    owned,
                    generation,
                }
            })
            .collect();
        let input = GroupInput {
            topics,
            members: metas,
            topic_ids: Vec::new(),
        };
        let result = match assignor::try_assign(self.s.protocol.assignor(), &input) {
            Ok(a) => Some(a),
            Err(e) => {
                // Java's leader would throw and the rebalance fail; the run goes on with range
                let note = format!(
                    "At {} s the leader's {} throws ({e}); that rebalance uses range instead.",
                    secs(self.now),
                    self.s.protocol.assignor().name()
                );
                self.notes.push(note);
                assignor::assign(assignor::AssignorKind::Range, &input)
            }
        };
        let mut per_member: Vec<Vec<usize>> = vec![Vec::new(); members.len()];
        if let Some(a) = result {
            for t in &a.topics {
                let Some(ti) = self.group.topics.iter().position(|(n, _)| *n == t.topic) else {
                    continue;
                };
                let base = self.topic_base[ti];
                for (p, owner) in t.owners.iter().enumerate() {
                    if *owner != UNASSIGNED {
                        per_member[*owner as usize].push(base + p);
                    }
                }
            }
        }
        members
            .iter()
            .zip(per_member)
            .map(|((id, _, _), mut ps)| {
                ps.sort_unstable();
                (id.clone(), encode_partitions(&ps))
            })
            .collect()
    }
}

/// A member's assignment as the simulator sends it through the coordinator (which stores
/// and returns it without reading it): its partitions' indices, 4 bytes each, big-endian.
pub fn encode_partitions(ps: &[usize]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ps.len() * 4);
    for &p in ps {
        out.extend_from_slice(&(p as u32).to_be_bytes());
    }
    out
}

/// Reads [`encode_partitions`], keeping indices below `limit`, ascending.
pub fn decode_partitions(bytes: &[u8], limit: usize) -> Vec<usize> {
    let mut out: Vec<usize> = bytes
        .chunks_exact(4)
        .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .filter(|p| *p < limit)
        .collect();
    // (written ascending: sorted only when the bytes came otherwise)
    if !out.is_sorted() {
        out.sort_unstable();
    }
    out.dedup();
    out
}

/// Where a new owner starts, for a sentence: from the committed offsets, and how many
/// records its partitions' last owners processed after them.
pub fn read_again(records: f64) -> String {
    if records >= 0.5 {
        format!(
            "; from the committed offsets, it reads about {} records again",
            records.round()
        )
    } else {
        String::new()
    }
}

/// Milliseconds as seconds for a sentence ("3", "2.5").
pub fn secs(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{}", ms / 1000)
    } else {
        format!("{:.1}", ms as f64 / 1000.0)
    }
}
