//! The classic protocol over time: the Java consumer's side (a model written from
//! `ConsumerCoordinator` and `AbstractCoordinator`, KAFKA-SEMANTICS.md sections 8 to 13)
//! around the coordinator of [`super::broker`], on one virtual clock.
//!
//! The clock: at equal times the coordinator's timers fire before the clients act (as
//! Kafka's tests sleep, then send), and the clients act in the order their events were
//! queued, heartbeat ticks first. A request reaches the coordinator when it is sent; its
//! response reaches the
//! client one round trip later.

use std::collections::HashMap;

use super::backlog::Backlog;
use super::queue::Queue;

use super::broker::{
    Api, ClassicCoordinator, ErrorCode, GroupLine, GroupState, JoinRequest, Response, TimerKey,
};
use super::broker_trace::{Line, Request};
use super::ledger::Ledger;
use super::story::{acts, Act};
use super::{CommitPolicy, Group, Happening, Run, Settings, Story, TimelineError};
use crate::assignor::{self, AssignorKind, GroupInput, MemberMeta, UNASSIGNED};
use crate::group::join_metadata;
use crate::protocol::{SubscriptionParts, TopicPartitions};

mod app_thread;
mod leader;
mod wire;

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
    /// Its client settings: the run's, as a script's `with` changed them.
    settings: super::ClientSettings,
    instance_id: Option<String>,
    /// Its subscription, shared with the leader's assignor input.
    topics: crate::assignor::TopicList,
    /// Its `partition.assignment.strategy`.
    strategy: Vec<String>,
    /// Whether its list makes it rebalance eagerly (revoking everything before it joins).
    eager: bool,
    /// What its StickyAssignor remembers (`onAssignment` when the group runs sticky): the
    /// partitions it was given and the generation, sent back as its user data.
    sticky_memory: Option<(Vec<usize>, i32)>,
    /// The protocol (assignor) the coordinator selected, from its last JoinGroup response.
    group_protocol: String,
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
    /// What it has still to process.
    backlog: Backlog,
    slow_until: i64,
    cut_until: i64,
    /// Back from a network cut, the coordinator has not answered it yet: it consumes again
    /// once it does.
    reconnecting: bool,
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
    queue: Queue<Ev>,
    now: i64,
    ledger: Ledger,
    /// Global partition index to (topic index, partition).
    partitions: Vec<(usize, u32)>,
    topic_base: Vec<usize>,
    member_client: HashMap<String, usize>,
    happenings: Vec<Happening>,
    wire: Vec<Line>,
    last_line: Option<GroupLine>,
    seen_revision: Option<u64>,
    seen_state: Option<GroupState>,
    seen_members: usize,
    client_index: HashMap<String, usize>,
    rebalance_times: Vec<i64>,
    downtime: Vec<Vec<(i64, i64)>>,
    record_wire: bool,
    /// Queued events other than heartbeat ticks: while any is queued the run goes on.
    busy: usize,
    notes: Vec<String>,
    /// Events and timers handled so far (a run stops at [`Settings::max_events`](super::Settings::max_events)).
    handled: u64,
    /// The leader's assignments computed so far.
    assignments: u64,
    /// Requests refused for good (the Java consumer throws).
    fatal_errors: u32,
    /// Each assignor the coordinator's vote picked, in order: the last one at the last
    /// completed join phase.
    votes: Vec<AssignorKind>,
    /// The settings a script's `with` starts processes with.
    configs: Vec<super::script::Config>,
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
    super::check(group, s)?;
    let lists: Vec<Vec<String>> = (0..group.members.len())
        .map(|m| group.strategy(s.protocol, m))
        .collect();
    let super::script::Acts {
        timed: acts,
        added,
        configs,
        initial,
    } = acts(story, &group.member_names(), &s.client, &lists).map_err(TimelineError::Story)?;
    if (0..group.members.len()).any(|m| initial.iter().all(|(i, _)| *i != m)) {
        // (some member's first process starts with the run's settings)
        super::check_classic_session(s)?;
    }
    let mut clients: Vec<Client> = Vec::new();
    for (m, (name, topics)) in super::members_with(group, added).into_iter().enumerate() {
        let topics = std::rc::Rc::new(topics);
        // (the scenario's members' lists were made for the story; a member it adds lists
        // what the group gives it)
        let strategy = lists
            .get(m)
            .cloned()
            .unwrap_or_else(|| group.strategy(s.protocol, m));
        clients.push(Client {
            settings: s.client,
            eager: super::strategy::rebalances_eagerly(&strategy),
            strategy,
            sticky_memory: None,
            group_protocol: String::new(),
            instance_id: group.instance_id(s, m, &name),
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
            backlog: Backlog::default(),
            slow_until: 0,
            cut_until: 0,
            reconnecting: false,
            awaiting: Vec::new(),
            fatal: false,
            quiet: None,
        });
    }
    let (partitions, topic_base) = super::partition_layout(group);
    let (_, note) = group.assignor_under(s.protocol);
    let mut notes: Vec<String> = note.into_iter().collect();
    if group.lists_its_own() && s.protocol != super::Protocol::Listed {
        notes.push(format!(
            "The scenario's members list partition.assignment.strategy of their own; this run has every member list [{}]. Run \"{}\" to have each list its own.",
            lists.first().map_or(String::new(), |l| l.join(", ")),
            super::Protocol::Listed.label()
        ));
    }
    let mut sim = Sim {
        s,
        group,
        broker: ClassicCoordinator::new(GROUP_ID, s.broker),
        downtime: vec![Vec::new(); clients.len()],
        clients,
        queue: Queue::default(),
        now: 0,
        ledger: Ledger::new(
            s.records_per_second,
            super::subscribed_partitions(group, false),
            s.keep_tenures,
        ),
        partitions,
        topic_base,
        member_client: HashMap::new(),
        happenings: Vec::new(),
        wire: Vec::new(),
        last_line: None,
        seen_revision: None,
        seen_state: None,
        seen_members: 0,
        client_index: HashMap::new(),
        rebalance_times: Vec::new(),
        record_wire,
        busy: 0,
        notes,
        handled: 0,
        assignments: 0,
        fatal_errors: 0,
        votes: Vec::new(),
        configs,
        firing_timer: false,
    };
    sim.client_index = sim
        .clients
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.clone(), i))
        .collect();
    let (start, end) = super::drive(&mut sim, group.members.len(), &initial, acts);
    if sim.fatal_errors > FATAL_ERRORS_SAID {
        let more = sim.fatal_errors - FATAL_ERRORS_SAID;
        sim.notes.push(format!(
            "{more} more requests are refused for good, as the events say."
        ));
    }
    Ok(super::Finished {
        ledger: sim.ledger,
        members: sim.clients.into_iter().map(|c| c.name).collect(),
        happenings: sim.happenings,
        rebalance_times: sim.rebalance_times,
        downtime: sim.downtime,
        wire: sim.wire,
        notes: sim.notes,
        events: sim.handled,
        assignments: sim.assignments,
        votes: sim.votes,
    }
    .into_run(group, s, start, end))
}

impl super::Simulator for Sim<'_> {
    fn act_at(&mut self, t: i64, m: usize, act: Act) {
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
        let tick = matches!(ev, Ev::Tick(..));
        if !routine(&ev) {
            self.busy += 1;
        }
        self.queue.push(t, u8::from(!tick), ev);
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
        let limit = last_act + super::RUN_LIMIT_AFTER_ACTS_MS;
        loop {
            self.handled += 1;
            if self.handled > self.s.max_events {
                self.over_budget();
                return self.now;
            }
            let next_client = self.queue.next_time();
            let next_timer = self.broker.next_deadline();
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
            let Some((_, ev)) = self.queue.pop() else {
                break;
            };
            if !routine(&ev) {
                self.busy -= 1;
            }
            self.handle(ev);
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
                    if self.clients[c].rejoin_needed {
                        self.schedule_poll(c);
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ acts

    fn act(&mut self, c: usize, act: Act) {
        match act {
            Act::Start => self.start(c),
            Act::StartListing(listing) => {
                if self.clients[c].up {
                    return;
                }
                let cl = &mut self.clients[c];
                cl.strategy = listing.apply(&cl.strategy);
                cl.eager = super::strategy::rebalances_eagerly(&cl.strategy);
                let detail = format!(
                    "Its partition.assignment.strategy is now {}.",
                    super::strategy::describe(&cl.strategy)
                );
                self.happen(Some(c), "config", detail);
                self.start(c);
            }
            Act::StartWith(i) => {
                let Some(config) = self.configs.get(i as usize) else {
                    return;
                };
                if self.clients[c].up {
                    return;
                }
                let cl = &mut self.clients[c];
                config.apply(&mut cl.settings);
                if let Some(list) = &config.strategy {
                    cl.strategy = list.clone();
                    cl.eager = super::strategy::rebalances_eagerly(list);
                }
                let detail = format!("It starts with {}.", config.describe());
                self.happen(Some(c), "config", detail);
                self.start(c);
            }
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
                let p = self.clients[c].settings.max_poll_interval_ms;
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
                self.clients[c].reconnecting = true;
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
        if self.clients[c].up {
            return;
        }
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
        cl.sticky_memory = None;
        cl.rejoin_needed = false;
        // (a poll the last process had queued never comes: its event is that process's)
        cl.poll_scheduled = false;
        cl.quiet = None;
        cl.slow_until = 0;
        cl.cut_until = 0;
        cl.reconnecting = false;
        cl.backlog = Backlog::default();
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
            let behind = self.hand_over(c, owned.len(), owned.len());
            for &p in &owned {
                self.ledger.commit(p, c, now);
                self.ledger.end(p, c, now, 0.0, behind);
            }
        }
        let cl = &mut self.clients[c];
        let leaves =
            cl.settings.leave_on_close && cl.instance_id.is_none() && !cl.member_id.is_empty();
        let member_id = std::mem::take(&mut cl.member_id);
        cl.up = false;
        cl.phase = Phase::Down;
        cl.generation = -1;
        cl.heartbeat_epoch += 1;
        cl.incarnation += 1;
        self.downtime[c].push((now, i64::MAX));
        let why = if leaves {
            "The member closes: it commits, then sends LeaveGroup."
        } else if member_id.is_empty() {
            "The member closes: it is not in the group, so it has no group to leave."
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
            let uncommitted: Vec<f64> = owned
                .iter()
                .map(|&p| self.uncommitted(c, p, owned.len()))
                .collect();
            // committed before processing: the batch in hand is never processed, and the
            // next owner starts after it
            let missed = if matches!(
                self.clients[c].settings.commit,
                CommitPolicy::BeforeProcessing
            ) {
                self.batch_unprocessed(c)
            } else {
                0.0
            };
            self.ledger.miss(missed);
            let behind =
                self.hand_over(c, owned.len(), owned.len()) - missed / owned.len().max(1) as f64;
            for (&p, u) in owned.iter().zip(uncommitted) {
                reread += u;
                self.ledger.end(p, c, now, u, behind);
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
    let mut out: Vec<usize> = Vec::with_capacity(bytes.len() / 4);
    out.extend(
        bytes
            .chunks_exact(4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .filter(|p| *p < limit),
    );
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

/// How many requests refused for good a run's notes say one by one (then how many more).
const FATAL_ERRORS_SAID: u32 = 5;

/// Milliseconds as seconds for a sentence ("3", "2.5").
pub fn secs(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{}", ms / 1000)
    } else {
        format!("{:.1}", ms as f64 / 1000.0)
    }
}
