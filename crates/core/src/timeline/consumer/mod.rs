//! The consumer protocol (KIP-848, `group.protocol=consumer`) over time: the broker's group
//! epoch, target assignment and per-member reconciliation (`GroupMetadataManager`'s
//! consumer-group heartbeat and `CurrentAssignmentBuilder`, KAFKA-SEMANTICS.md sections 14
//! to 16), and the Java client's heartbeats (`ConsumerHeartbeatRequestManager`,
//! `AbstractMembershipManager`).
//!
//! The broker's side is checked against Kafka's own coordinator on a virtual clock, request
//! by request (`tests/timeline_consumer_oracle.rs`); the client's side is a model.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::backlog::Backlog;
use super::broker_trace::Line;
use super::classic::secs;
use super::ledger::Ledger;
use super::queue::Queue;
use super::story::{acts, Act};
use super::{CommitPolicy, Group, Happening, Run, Settings, Story, TimelineError};
use crate::assignor::{self, AssignorKind, GroupInput, MemberMeta, UNASSIGNED};
use coordinator::Timer;
use id_map::IdMap;
use trace::{GroupLine, HeartbeatResponse, MemberLine};

mod client;
mod coordinator;
mod id_map;
mod rest;
pub mod trace;

/// A static member's leave epoch (`LEAVE_GROUP_STATIC_MEMBER_EPOCH`).
const LEAVE_STATIC: i32 = -2;

#[derive(Debug, Clone)]
enum Ev {
    Act(usize, Act),
    /// The client heartbeats (regular when `false`, at once when `true`); only the heartbeat
    /// scheduled last is sent (each scheduling takes a new token).
    Heartbeat(usize, u32, bool, u64),
    /// A slow batch is done.
    SlowEnd(usize, u32),
    /// A heartbeat's response reaches the client.
    Reply(usize, u32, HeartbeatResponse),
    /// The commit before a reconciliation is answered: the callbacks run for that target.
    Callbacks(usize, u32, Vec<usize>),
    /// A batch is over: the member's callbacks run for the assignment a heartbeat brought
    /// while it was inside the batch.
    Reconcile(usize, u32),
    /// A coordinator timer's event (member id, which timer, when it was due).
    Timer(u64, Timer, i64),
    CutEnd(usize, u32),
    PollTimeout(usize, u32),
    /// The supervisor starts again a consumer that failed for good, unless it was started
    /// since (its incarnation when it failed).
    Restart(usize, u32),
}

/// A coordinator timer: when it fires, the member epoch it was set at, and when the event
/// it waits on is due (an earlier deadline's: the event queues itself again).
#[derive(Debug, Clone, Copy)]
struct TimerEntry {
    deadline: i64,
    epoch: i32,
    queued: i64,
}

/// The coordinator's timers, by member id and kind.
#[derive(Debug, Clone, Default)]
struct Timers {
    by_member: IdMap<[Option<TimerEntry>; 2]>,
}

impl Timers {
    fn slot(timer: Timer) -> usize {
        usize::from(timer == Timer::Rebalance)
    }

    fn get(&self, id: u64, timer: Timer) -> Option<TimerEntry> {
        self.by_member.get(&id)?[Self::slot(timer)]
    }

    fn insert(&mut self, id: u64, timer: Timer, entry: TimerEntry) {
        match self.by_member.get_mut(&id) {
            Some(slots) => slots[Self::slot(timer)] = Some(entry),
            None => {
                let mut slots = [None; 2];
                slots[Self::slot(timer)] = Some(entry);
                self.by_member.insert(id, slots);
            }
        }
    }

    fn remove(&mut self, id: u64, timer: Timer) {
        if let Some(slots) = self.by_member.get_mut(&id) {
            slots[Self::slot(timer)] = None;
        }
    }

    /// Every timer set: (member id, kind, entry).
    fn iter(&self) -> impl Iterator<Item = (u64, Timer, TimerEntry)> + '_ {
        self.by_member.iter().flat_map(|(&id, slots)| {
            [Timer::Session, Timer::Rebalance]
                .into_iter()
                .filter_map(move |timer| Some((id, timer, slots[Self::slot(timer)]?)))
        })
    }
}

/// `MemberState` of a consumer-group member, as the coordinator holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MemberState {
    /// At its target's epoch (or about to be moved to it).
    Stable,
    /// It must revoke partitions before it gets anything new.
    UnrevokedPartitions,
    /// Part of its target is still held by other members.
    UnreleasedPartitions,
}

impl MemberState {
    fn name(self) -> &'static str {
        match self {
            MemberState::Stable => "STABLE",
            MemberState::UnrevokedPartitions => "UNREVOKED_PARTITIONS",
            MemberState::UnreleasedPartitions => "UNRELEASED_PARTITIONS",
        }
    }
}

/// `ConsumerGroupMember`, as far as a run needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BrokerMember {
    client: usize,
    epoch: i32,
    previous_epoch: i32,
    state: MemberState,
    /// Its assigned partitions (sorted).
    assigned: Vec<usize>,
    /// Partitions it must revoke (sorted).
    revoking: Vec<usize>,
    instance_id: Option<String>,
    rebalance_timeout_ms: i64,
}

#[derive(Debug, Clone)]
struct Client {
    /// Its client settings: the run's, as a script's `with` changed them.
    settings: super::ClientSettings,
    up: bool,
    incarnation: u32,
    /// Its member id (one per incarnation, kept when it is fenced and joins again).
    member_id: u64,
    /// The member epoch of its last answer (0 while it joins).
    epoch: i32,
    /// It joins: its next heartbeat sends every field, with epoch 0.
    joining: bool,
    /// A heartbeat of its failed (it fell due during a network cut): the next one sends
    /// every field again (`AbstractHeartbeatRequestManager` resets what it sent).
    full_next: bool,
    /// Out of the group after a poll timeout, until its next poll().
    stale: bool,
    /// What it owns.
    owned: Vec<usize>,
    /// The last assignment the coordinator sent it, and whether its callbacks have run for
    /// it (`currentTargetAssignment` against `currentAssignment`).
    target: Option<Vec<usize>>,
    reconciled: bool,
    /// A reconciliation is under way (its auto-commit awaits its answer).
    reconciling: bool,
    /// Its local assignment's epoch (one more for each reconciliation done) and the one its
    /// owned partitions were last sent with.
    local_epoch: u64,
    sent_local: Option<u64>,
    consuming: bool,
    /// What it has still to process.
    backlog: Backlog,
    slow_until: i64,
    cut_until: i64,
    /// Back from a network cut, the coordinator has not answered it yet: it consumes again
    /// once it does.
    reconnecting: bool,
    auto_anchor: i64,
    /// The token of the heartbeat scheduled last.
    heartbeat_token: u64,
    /// The regular heartbeat scheduled last, while it is the next one: when it is due and
    /// the run's count of regular heartbeats when it was scheduled (the order of the
    /// members' heartbeats due at one time).
    next_heartbeat: Option<(i64, u64)>,
}

/// What a run keeps of what crossed the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trace {
    /// Nothing.
    Off,
    /// Each heartbeat, its answer and each coordinator timer that fires.
    Requests,
    /// Those and the group after each step that changed it (for the oracle).
    RequestsAndGroup,
}

impl Trace {
    fn requests(self) -> bool {
        self != Trace::Off
    }
}

struct Sim<'a> {
    s: &'a Settings,
    group: &'a Group,
    names: Vec<String>,
    /// Each client's `group.instance.id` (static members have one).
    instance_ids: Vec<Option<String>>,
    topics: Vec<Vec<String>>,
    clients: Vec<Client>,
    members: IdMap<BrokerMember>,
    /// Which client made each member id.
    member_client: IdMap<usize>,
    next_member: u64,
    group_epoch: i32,
    assignment_epoch: i32,
    target: IdMap<Vec<usize>>,
    /// Which member holds each partition (assigned or pending revocation): Kafka's
    /// partition epochs.
    partition_owner: Vec<Option<u64>>,
    partitions: Vec<(usize, u32)>,
    topic_base: Vec<usize>,
    /// The coordinator's timers by member and kind.
    timers: Timers,
    /// Events by time, coordinator timers first at one time.
    queue: Queue<Ev>,
    now: i64,
    ledger: Ledger,
    happenings: Vec<Happening>,
    rebalance_times: Vec<i64>,
    downtime: Vec<Vec<(i64, i64)>>,
    /// Queued events other than regular heartbeats and coordinator timers.
    busy: usize,
    /// When the story's queued acts are due.
    act_times: BinaryHeap<Reverse<i64>>,
    /// Regular heartbeats scheduled so far.
    heartbeats_scheduled: u64,
    /// The group at rest is looked for again from this time on ([`Sim::skip_quiet_heartbeats`]).
    rest_check_at: i64,
    /// The settings a script's `with` starts processes with.
    configs: Vec<super::script::Config>,
    notes: Vec<String>,
    /// The uniform assignor refused this group once: the run goes on with range.
    uniform_refused: bool,
    /// The group runs the broker's range assignor (`group.remote.assignor=range`), not
    /// uniform.
    server_range: bool,
    /// Events handled so far (a run stops at [`Settings::max_events`](super::Settings::max_events)).
    handled: u64,
    /// Target assignments computed so far.
    assignments: u64,
    trace: Trace,
    wire: Vec<Line>,
    last_group: Option<GroupLine>,
}

fn recurring(ev: &Ev) -> bool {
    // (the coordinator's timers are its checks: a settled group does not wait for them)
    matches!(ev, Ev::Heartbeat(_, _, false, _) | Ev::Timer(..))
}

/// Runs a story under the consumer protocol.
pub fn run(group: &Group, s: &Settings, story: &Story) -> Result<Run, TimelineError> {
    run_traced(group, s, story, Trace::Off)
}

/// Runs a story under the consumer protocol, keeping what `trace` asks for in the run's
/// `wire`.
pub fn run_traced(
    group: &Group,
    s: &Settings,
    story: &Story,
    trace: Trace,
) -> Result<Run, TimelineError> {
    super::check(group, s)?;
    let super::script::Acts {
        timed: acts,
        added,
        configs,
        initial,
    } = acts(story, &group.member_names(), &s.client, &[]).map_err(TimelineError::Story)?;
    let (assignor, note) = group.assignor_under(s.protocol);
    let mut notes: Vec<String> = note.into_iter().collect();
    if configs.iter().any(|c| {
        c.strategy.is_some()
            || c.session_timeout_ms.is_some()
            || c.heartbeat_interval_ms.is_some()
            || c.leave_on_close == Some(false)
    }) {
        notes.push("Under the consumer protocol the broker sets the session and the heartbeat interval (group.consumer.*) and assigns, and a closing consumer always leaves: a script's session.timeout.ms, heartbeat.interval.ms, partition.assignment.strategy and internal.leave.group.on.close play no part (the Java consumer refuses the first three with group.protocol=consumer).".to_string());
    }
    if story.kind == super::StoryKind::ToCooperative {
        notes.push("Under the consumer protocol the broker assigns, and the Java consumer refuses partition.assignment.strategy (a classic-only setting): the move to cooperative-sticky is a classic group's. This run restarts each member once, without it: a rolling restart.".to_string());
    }
    if !s.client.leave_on_close {
        notes.push("Under the consumer protocol the Java consumer leaves the group whenever it closes (AsyncKafkaConsumer.close sends its leave heartbeat): not leaving on close, as Kafka Streams does, is the classic consumer's setting, so this run leaves.".to_string());
    }
    let (names, topics): (Vec<String>, Vec<Vec<String>>) =
        super::members_with(group, added).into_iter().unzip();
    let instance_ids: Vec<Option<String>> = names
        .iter()
        .enumerate()
        .map(|(m, name)| group.instance_id(s, m, name))
        .collect();
    if assignor == AssignorKind::ServerRange && instance_ids.iter().any(Option::is_none) {
        notes.push("The broker's range assignor orders dynamic members by member id, which Kafka makes at random for each member that joins: a restarted member may land anywhere in that order and move the others' ranges. The lab's ids keep each member's place, so a member back takes its old range (static members are ordered by group.instance.id, as here).".to_string());
    }
    let (partitions, topic_base) = super::partition_layout(group);
    let n = names.len();
    let mut sim = Sim {
        s,
        group,
        clients: vec![
            Client {
                settings: s.client,
                up: false,
                incarnation: 0,
                member_id: 0,
                epoch: 0,
                joining: false,
                full_next: false,
                stale: false,
                owned: Vec::new(),
                target: None,
                reconciled: true,
                reconciling: false,
                local_epoch: 0,
                sent_local: None,
                consuming: true,
                backlog: Backlog::default(),
                slow_until: 0,
                cut_until: 0,
                reconnecting: false,
                auto_anchor: 0,
                heartbeat_token: 0,
                next_heartbeat: None,
            };
            n
        ],
        names,
        instance_ids,
        topics,
        members: IdMap::default(),
        member_client: IdMap::default(),
        next_member: 0,
        group_epoch: 0,
        assignment_epoch: 0,
        target: IdMap::default(),
        partition_owner: vec![None; partitions.len()],
        ledger: Ledger::new(
            s.records_per_second,
            super::subscribed_partitions(group, false),
            s.keep_tenures,
        ),
        partitions,
        topic_base,
        timers: Timers::default(),
        queue: Queue::default(),
        now: 0,
        happenings: Vec::new(),
        rebalance_times: Vec::new(),
        downtime: vec![Vec::new(); n],
        busy: 0,
        act_times: BinaryHeap::new(),
        heartbeats_scheduled: 0,
        rest_check_at: i64::MIN,
        configs,
        notes,
        uniform_refused: false,
        server_range: assignor == AssignorKind::ServerRange,
        handled: 0,
        assignments: 0,
        trace,
        wire: Vec::new(),
        last_group: None,
    };
    let (start, end) = super::drive(&mut sim, group.members.len(), &initial, acts);
    Ok(super::Finished {
        ledger: sim.ledger,
        members: sim.names,
        happenings: sim.happenings,
        rebalance_times: sim.rebalance_times,
        downtime: sim.downtime,
        wire: sim.wire,
        notes: sim.notes,
        events: sim.handled,
        assignments: sim.assignments,
        votes: Vec::new(),
    }
    .into_run(group, s, start, end))
}

impl super::Simulator for Sim<'_> {
    fn act_at(&mut self, t: i64, m: usize, act: Act) {
        self.act_times.push(Reverse(t));
        self.push(t, Ev::Act(m, act));
    }
    fn run_until_settled(&mut self, last_act: i64, tail: i64) -> i64 {
        Sim::run_until_settled(self, last_act, tail)
    }
    fn ledger(&mut self) -> &mut Ledger {
        &mut self.ledger
    }
}

impl<'a> Sim<'a> {
    fn push(&mut self, t: i64, ev: Ev) {
        if !recurring(&ev) {
            self.busy += 1;
        }
        // at one instant the coordinator's due timers fire before requests, as a broker
        // expires its timers before it reads the next request; timers due at one instant
        // fire by member and kind, however often their events were queued again
        if let Ev::Timer(id, timer, _) = ev {
            let order = id * 2 + u64::from(timer == Timer::Rebalance);
            self.queue.push_in_order(t, 0, order, ev);
        } else {
            self.queue.push(t, 1, ev);
        }
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
        cl.next_heartbeat = if at_once {
            None
        } else {
            self.heartbeats_scheduled += 1;
            Some((at, self.heartbeats_scheduled))
        };
        self.push(at, Ev::Heartbeat(c, inc, at_once, token));
    }

    fn interval(&self) -> i64 {
        self.s.consumer_group.heartbeat_interval_ms
    }

    fn run_until_settled(&mut self, last_act: i64, tail: i64) -> i64 {
        let limit = last_act + super::RUN_LIMIT_AFTER_ACTS_MS;
        while let Some(t) = self.queue.next_time() {
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
            if t > self.now
                && t >= self.rest_check_at
                && self.trace == Trace::Off
                && self.busy == self.act_times.len()
            {
                self.skip_quiet_heartbeats(limit);
            }
            let Some((_, ev)) = self.queue.pop() else {
                break;
            };
            self.now = t;
            if !recurring(&ev) {
                self.busy -= 1;
            }
            if matches!(ev, Ev::Act(..)) {
                self.act_times.pop();
            }
            self.handle(ev);
            if self.trace == Trace::RequestsAndGroup {
                self.trace_group();
            }
        }
        self.now + tail
    }

    /// The group's line in the trace, when the step changed it.
    fn trace_group(&mut self) {
        if self.members.is_empty() && self.group_epoch == 0 {
            return;
        }
        let line = self.group_line();
        if self.last_group.as_ref() != Some(&line) {
            self.wire.push(Line::ConsumerGroup {
                t: self.now,
                group: line.clone(),
            });
            self.last_group = Some(line);
        }
    }

    /// Every member is at the group's epoch with its target in hand, and every running
    /// client consumes it.
    fn settled(&self) -> bool {
        let running = || self.clients.iter().filter(|c| c.up);
        // the flags first: while the group is unsettled they say so without comparing lists
        // (a group with no member left computes no target for its last epoch)
        self.busy == 0
            && (self.assignment_epoch == self.group_epoch || self.members.is_empty())
            && self
                .members
                .values()
                .all(|m| m.state == MemberState::Stable && m.epoch == self.group_epoch)
            && running().all(|c| {
                !c.joining && !c.stale && c.consuming && c.reconciled && c.slow_until <= self.now
            })
            && self
                .members
                .iter()
                .all(|(id, m)| self.target.get(id).is_none_or(|t| *t == m.assigned))
            && running().all(|c| {
                self.members
                    .get(&c.member_id)
                    .is_some_and(|m| m.assigned == c.owned)
            })
    }

    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::Act(c, act) => self.act(c, act),
            Ev::Heartbeat(c, inc, _, token) => {
                let cl = &self.clients[c];
                if cl.incarnation == inc && cl.up && cl.heartbeat_token == token {
                    self.send_heartbeat(c);
                }
            }
            Ev::SlowEnd(c, inc) => self.slow_end(c, inc),
            Ev::Reply(c, inc, response) => {
                let cl = &mut self.clients[c];
                if cl.incarnation != inc || !cl.up {
                    return;
                }
                if cl.cut_until > self.now {
                    // the connection is down: the answer is lost, and the heartbeat failed
                    cl.full_next = true;
                    return;
                }
                cl.reconnecting = false;
                self.on_reply(c, response);
            }
            Ev::Reconcile(c, inc) => {
                let cl = &self.clients[c];
                if cl.incarnation == inc && cl.up && !cl.reconciled && cl.slow_until <= self.now {
                    self.apply_assignment(c);
                }
            }
            Ev::Callbacks(c, inc, target) => {
                let cl = &self.clients[c];
                if cl.incarnation == inc && cl.up && cl.reconciling {
                    self.run_callbacks(c, target);
                }
            }
            Ev::Timer(id, timer, at) => self.timer_fires(id, timer, at),
            Ev::CutEnd(c, inc) => {
                if self.clients[c].incarnation == inc && self.clients[c].up {
                    self.happen(
                        Some(c),
                        "reconnect",
                        "The network is back: the member heartbeats at once.".into(),
                    );
                    self.send_heartbeat(c);
                }
            }
            Ev::PollTimeout(c, inc) => self.poll_timeout(c, inc),
            Ev::Restart(c, inc) => {
                if self.clients[c].incarnation == inc {
                    self.act(c, Act::Start);
                }
            }
        }
    }

    fn act(&mut self, c: usize, act: Act) {
        match act {
            // (no assignor list under the consumer protocol: a start like any other)
            Act::Start | Act::StartListing(_) | Act::StartWith(_) => {
                if self.clients[c].up {
                    return;
                }
                if let Act::StartWith(i) = act {
                    if let Some(config) = self.configs.get(i as usize) {
                        config.apply(&mut self.clients[c].settings);
                        let detail = format!("It starts with {}.", config.describe());
                        self.happen(Some(c), "config", detail);
                    }
                }
                if let Some(last) = self.downtime[c].last_mut() {
                    if last.1 == i64::MAX {
                        last.1 = self.now;
                    }
                }
                self.next_member += 1;
                let id = self.next_member;
                self.member_client.insert(id, c);
                let cl = &mut self.clients[c];
                cl.up = true;
                cl.incarnation += 1;
                cl.member_id = id;
                cl.epoch = 0;
                cl.joining = true;
                cl.full_next = false;
                cl.stale = false;
                cl.owned.clear();
                cl.target = None;
                cl.reconciled = true;
                cl.reconciling = false;
                cl.sent_local = None;
                cl.consuming = true;
                cl.backlog = Backlog::default();
                cl.slow_until = 0;
                cl.cut_until = 0;
                cl.reconnecting = false;
                cl.next_heartbeat = None;
                let what = if self.downtime[c].is_empty() {
                    "The member starts and joins."
                } else {
                    "The member starts again and joins."
                };
                self.happen(Some(c), "start", what.into());
                self.send_heartbeat(c);
            }
            // stopping a member that is down (it failed and waits for its supervisor) stops
            // it for good: the supervisor's restart is dropped
            Act::Close | Act::Crash if !self.clients[c].up => {
                self.clients[c].incarnation += 1;
            }
            Act::Close => self.close(c),
            Act::Crash => {
                let mut missed = 0.0;
                if self.clients[c].consuming
                    && matches!(
                        self.clients[c].settings.commit,
                        CommitPolicy::BeforeProcessing
                    )
                {
                    // the batch it committed and had not processed yet
                    missed = self.clients[c]
                        .backlog
                        .unprocessed(self.now, &self.clients[c].settings);
                    self.ledger.miss(missed);
                }
                let lost = self.lose_owned(c, missed);
                self.down(c);
                self.happen(Some(c), "crash", format!("The member dies without a word: no commit, no leave heartbeat. It stops {lost} partitions."));
            }
            Act::SlowBatch(ms) => {
                if !self.clients[c].up {
                    return;
                }
                let until = self.now + ms;
                self.clients[c].slow_until = until;
                let p = self.clients[c].settings.max_poll_interval_ms;
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
                self.clients[c].reconnecting = true;
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
        self.stop_consuming(c, 0.0);
        self.clients[c].consuming = false;
    }

    /// Its partitions stop being consumed now, with no commit: the next owner reads again
    /// what it processed since its last one, and finds waiting what it had not processed
    /// yet, less `skipped` (committed and never processed).
    fn stop_consuming(&mut self, c: usize, skipped: f64) {
        if self.clients[c].consuming {
            let owned = self.clients[c].owned.clone();
            let uncommitted: Vec<f64> = owned.iter().map(|&p| self.uncommitted(c, p)).collect();
            let behind =
                self.hand_over(c, owned.len(), owned.len()) - skipped / owned.len().max(1) as f64;
            for (&p, u) in owned.iter().zip(uncommitted) {
                self.ledger.end(p, c, self.now, u, behind);
            }
        }
    }

    /// It stops consuming `stopping` of its `of` partitions now: the records it had not
    /// processed on them wait for their next owner (returned: per partition).
    fn hand_over(&mut self, c: usize, stopping: usize, of: usize) -> f64 {
        let (now, rate) = (self.now, self.ledger.records_per_ms());
        let cl = &mut self.clients[c];
        cl.backlog.hand_over(now, stopping, of, rate, &cl.settings)
    }

    /// It loses what it owns, with no commit (a crash, a poll timeout, a fence); returns
    /// how many partitions.
    fn lose_owned(&mut self, c: usize, skipped: f64) -> usize {
        self.stop_consuming(c, skipped);
        let cl = &mut self.clients[c];
        cl.target = None;
        cl.reconciled = true;
        cl.reconciling = false;
        std::mem::take(&mut cl.owned).len()
    }

    /// It consumes what it still owns again, working through what piled up.
    fn resume(&mut self, c: usize) {
        let owned = self.clients[c].owned.clone();
        let mut waiting = 0.0;
        for &p in &owned {
            if self.ledger.owner(p).is_none() {
                waiting += self.ledger.start(p, c, self.now, false);
            }
        }
        self.clients[c].consuming = true;
        self.catch_up(c, waiting);
    }

    /// A member given `waiting` records works through them in batches.
    fn catch_up(&mut self, c: usize, waiting: f64) {
        let per_ms_in = self.ledger.records_per_ms() * self.clients[c].owned.len() as f64;
        let now = self.now;
        let cl = &mut self.clients[c];
        cl.backlog.add(now, waiting, per_ms_in, &cl.settings);
    }

    /// The slow batch is done: a member still in the group consumes again, and runs the
    /// callbacks for what it was given meanwhile; one that went stale joins again.
    fn slow_end(&mut self, c: usize, inc: u32) {
        let cl = &self.clients[c];
        if cl.incarnation != inc
            || !cl.up
            || cl.consuming
            || cl.cut_until > self.now
            || cl.reconnecting
        {
            // (cut off, or back and not answered yet: its next answer resumes it)
            return;
        }
        if cl.stale {
            let cl = &mut self.clients[c];
            cl.stale = false;
            cl.consuming = true;
            self.send_heartbeat(c);
            return;
        }
        self.resume(c);
        if self.tells_each_member() {
            let n = self.clients[c].owned.len();
            self.happen(
                Some(c),
                "resume",
                format!("The slow batch is done: it consumes its {n} partitions again."),
            );
        }
        if !self.clients[c].reconciled {
            self.apply_assignment(c);
        }
    }

    fn down(&mut self, c: usize) {
        let cl = &mut self.clients[c];
        cl.up = false;
        cl.incarnation += 1;
        cl.next_heartbeat = None;
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
            let behind = self.hand_over(c, owned.len(), owned.len());
            for &p in &owned {
                self.ledger.commit(p, c, self.now);
                self.ledger.end(p, c, self.now, 0.0, behind);
            }
        }
        let in_group = !self.clients[c].joining && !self.clients[c].stale;
        if in_group {
            if self.instance_ids[c].is_some() {
                self.happen(Some(c), "close", format!("The member closes: it commits and sends a leave heartbeat with epoch -2; the coordinator holds its {} partitions for it.", owned.len()));
            } else {
                self.happen(Some(c), "close", format!("The member closes: it commits and sends a leave heartbeat with epoch -1; its {} partitions are freed.", owned.len()));
            }
            self.send_leave(c);
        }
        self.down(c);
    }

    fn poll_timeout(&mut self, c: usize, inc: u32) {
        let cl = &self.clients[c];
        if cl.incarnation != inc || !cl.up || cl.slow_until <= self.now || cl.stale {
            return;
        }
        self.lose_owned(c, 0.0);
        self.happen(Some(c), "poll timeout", "max.poll.interval.ms passed inside one batch: it sends a leave heartbeat, goes stale and loses its partitions; it joins again at its next poll().".into());
        if !self.clients[c].joining {
            self.send_leave(c);
        }
        let cl = &mut self.clients[c];
        cl.stale = true;
        cl.joining = true;
        cl.epoch = 0;
        cl.heartbeat_token += 1;
        cl.next_heartbeat = None;
    }
}
