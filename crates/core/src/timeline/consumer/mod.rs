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
use super::ledger::Ledger;
use super::story::{acts, Act, STORY_START_MS};
use super::{CommitPolicy, Group, Happening, Run, Settings, Story, TimelineError};
use crate::assignor::{self, AssignorKind, GroupInput, MemberMeta, UNASSIGNED};

mod client;
mod coordinator;

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
    let (start, end) = super::drive(&mut sim, group.members.len(), acts);
    Ok(super::Finished {
        ledger: sim.ledger,
        members: sim.names,
        happenings: sim.happenings,
        rebalance_times: sim.rebalance_times,
        downtime: sim.downtime,
        wire: Vec::new(),
        notes: sim.notes,
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
        let limit = last_act + super::RUN_LIMIT_AFTER_ACTS_MS;
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
}
