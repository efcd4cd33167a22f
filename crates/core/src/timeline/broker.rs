//! The classic group's coordinator on a virtual clock: Kafka's `GroupMetadataManager` for
//! classic groups (with `ClassicGroup` and `ClassicGroupMember`) at the vectors' commit,
//! ported request by request and timer by timer. Each method names the Java method it
//! follows; the rules, with line numbers, are in KAFKA-SEMANTICS.md ("Rebalance timing as
//! the code decides it", sections 1 to 7).
//!
//! What is left out, because the simulator's clients never ask for it: protocol types other
//! than `consumer` (INCONSISTENT_GROUP_PROTOCOL), `group.max.size`, the Dead state, offset
//! commits and admin removals. Appends complete at once (Kafka's tests do the same with
//! `appendFuture.complete(null)`).
//!
//! Two choices Kafka leaves to a `HashMap` over random member ids (a new leader when the
//! leader leaves, or when it has not rejoined by the end of the join phase) take the first
//! candidate by member id, and say so ([`GroupLine::leader_candidates`]).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet};
use std::rc::Rc;

/// `group.initial.rebalance.delay.ms` and the other broker settings a classic group reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BrokerSettings {
    /// `group.initial.rebalance.delay.ms` (3,000).
    pub initial_rebalance_delay_ms: i64,
    /// `group.min.session.timeout.ms` (6,000).
    pub min_session_timeout_ms: i64,
    /// `group.max.session.timeout.ms` (1,800,000).
    pub max_session_timeout_ms: i64,
    /// `CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS`, a constant (300,000).
    pub new_member_join_timeout_ms: i64,
}

impl Default for BrokerSettings {
    fn default() -> Self {
        BrokerSettings {
            initial_rebalance_delay_ms: 3_000,
            min_session_timeout_ms: 6_000,
            max_session_timeout_ms: 1_800_000,
            new_member_join_timeout_ms: 300_000,
        }
    }
}

/// `ClassicGroupState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum GroupState {
    /// No members.
    Empty,
    /// A join phase is running: members must (re)send JoinGroup.
    PreparingRebalance,
    /// Joins are answered; the leader's SyncGroup is awaited.
    CompletingRebalance,
    /// Every member has its assignment.
    Stable,
}

impl GroupState {
    /// Kafka's name for the state.
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
        }
    }
}

/// The error code of a response (`Errors`), as far as a classic group answers these clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// NONE.
    None,
    /// MEMBER_ID_REQUIRED: a dynamic member's first JoinGroup (v4 and later).
    MemberIdRequired,
    /// UNKNOWN_MEMBER_ID.
    UnknownMemberId,
    /// ILLEGAL_GENERATION.
    IllegalGeneration,
    /// REBALANCE_IN_PROGRESS.
    RebalanceInProgress,
    /// FENCED_INSTANCE_ID.
    FencedInstanceId,
    /// INVALID_SESSION_TIMEOUT.
    InvalidSessionTimeout,
    /// INCONSISTENT_GROUP_PROTOCOL: the joiner lists no protocol every member lists.
    InconsistentGroupProtocol,
}

impl ErrorCode {
    /// Kafka's name for the error.
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::None => "NONE",
            ErrorCode::MemberIdRequired => "MEMBER_ID_REQUIRED",
            ErrorCode::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            ErrorCode::IllegalGeneration => "ILLEGAL_GENERATION",
            ErrorCode::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
            ErrorCode::FencedInstanceId => "FENCED_INSTANCE_ID",
            ErrorCode::InvalidSessionTimeout => "INVALID_SESSION_TIMEOUT",
            ErrorCode::InconsistentGroupProtocol => "INCONSISTENT_GROUP_PROTOCOL",
        }
    }
}

/// A JoinGroup as the broker reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinRequest {
    /// Member id; empty for a new member.
    pub member_id: String,
    /// `group.instance.id`.
    pub instance_id: Option<String>,
    /// `session.timeout.ms`.
    pub session_timeout_ms: i64,
    /// `max.poll.interval.ms`, the rebalance timeout.
    pub rebalance_timeout_ms: i64,
    /// The protocols, in preference order, each with its metadata (the subscription bytes).
    pub protocols: Vec<(String, Vec<u8>)>,
}

/// Which request a response answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// JoinGroup.
    JoinGroup,
    /// SyncGroup.
    SyncGroup,
    /// Heartbeat.
    Heartbeat,
    /// LeaveGroup.
    LeaveGroup,
}

impl Api {
    /// Kafka's name for the API.
    pub fn name(self) -> &'static str {
        match self {
            Api::JoinGroup => "JoinGroup",
            Api::SyncGroup => "SyncGroup",
            Api::Heartbeat => "Heartbeat",
            Api::LeaveGroup => "LeaveGroup",
        }
    }
}

/// A response the broker sends (at once, or later for a parked JoinGroup or SyncGroup).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The client it goes to.
    pub client: String,
    /// The request it answers.
    pub api: Api,
    /// Its error.
    pub error: ErrorCode,
    /// JoinGroup: the generation (-1 on an error).
    pub generation: i32,
    /// JoinGroup: the member id given (empty when none).
    pub member_id: String,
    /// JoinGroup: the leader's member id (empty when none).
    pub leader: String,
    /// JoinGroup and SyncGroup: the chosen protocol.
    pub protocol: Option<String>,
    /// JoinGroup: a static leader that rejoined without a rebalance computes nothing.
    pub skip_assignment: bool,
    /// JoinGroup, for the leader: every member with its instance id and metadata.
    pub members: Vec<(String, Option<String>, Vec<u8>)>,
    /// SyncGroup: the member's assignment bytes.
    pub assignment: Option<Vec<u8>>,
}

impl Response {
    /// A response with only its error set.
    pub fn new(client: &str, api: Api, error: ErrorCode) -> Self {
        Response {
            client: client.to_string(),
            api,
            error,
            generation: -1,
            member_id: String::new(),
            leader: String::new(),
            protocol: None,
            skip_assignment: false,
            members: Vec::new(),
            assignment: None,
        }
    }
}

/// A coordinator timer (`heartbeat-<group>-<member>`, `join-<group>`, `sync-<group>`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TimerKey {
    /// A member's (or a pending member's) heartbeat deadline.
    Heartbeat(Rc<str>),
    /// The join phase (and the initial delay).
    Join,
    /// The sync phase.
    Sync,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum TimerTask {
    ExpireHeartbeat(Rc<str>),
    CompleteJoin,
    InitialDelay { delay_ms: i64, remaining_ms: i64 },
    ExpireSync { generation: i32 },
}

#[derive(Debug, Clone)]
struct Timer {
    deadline: i64,
    seq: u64,
    task: TimerTask,
}

#[derive(Debug, Clone)]
struct Member {
    id: String,
    client: String,
    instance_id: Option<String>,
    session_timeout_ms: i64,
    rebalance_timeout_ms: i64,
    protocols: Vec<(String, Vec<u8>)>,
    assignment: Vec<u8>,
    awaiting_join: bool,
    awaiting_sync: bool,
    is_new: bool,
}

impl Member {
    /// `ClassicGroupMember.hasSatisfiedHeartbeat`.
    fn has_satisfied_heartbeat(&self) -> bool {
        !self.is_new && (self.awaiting_join || self.awaiting_sync)
    }
    /// `ClassicGroupMember.vote`: its first protocol every member supports.
    fn vote<'a>(&'a self, candidates: &BTreeSet<&str>) -> &'a str {
        self.protocols
            .iter()
            .find(|(name, _)| candidates.contains(name.as_str()))
            .map_or("", |(name, _)| name.as_str())
    }
}

/// Counts `protocols` in (or out of) `supported` (`supportedProtocols`), as a member listing
/// them is added (or removed).
fn count_protocols(
    supported: &mut HashMap<String, usize>,
    protocols: &[(String, Vec<u8>)],
    add: bool,
) {
    for (name, _) in protocols {
        match (supported.get_mut(name), add) {
            (Some(n), true) => *n += 1,
            (Some(n), false) => *n = n.saturating_sub(1),
            (None, true) => {
                supported.insert(name.clone(), 1);
            }
            (None, false) => {}
        }
    }
}

/// `id` as the one copy `ids` keeps of it (made the first time).
fn intern(ids: &mut HashMap<String, Rc<str>>, id: &str) -> Rc<str> {
    if let Some(rc) = ids.get(id) {
        return rc.clone();
    }
    let rc: Rc<str> = Rc::from(id);
    ids.insert(id.to_string(), rc.clone());
    rc
}

/// What the group looks like after a step, in the oracle's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupLine {
    /// The state.
    pub state: GroupState,
    /// The generation.
    pub generation: i32,
    /// The chosen protocol.
    pub protocol: Option<String>,
    /// The leader.
    pub leader: Option<String>,
    /// Where Kafka's choice of leader depends on a `HashMap` over random ids: every member it
    /// could have chosen (empty when the leader is determined).
    pub leader_candidates: Vec<String>,
    /// The members' ids, sorted.
    pub members: Vec<String>,
    /// Members that were given an id but have not joined with it yet.
    pub pending: usize,
}

/// The classic group's coordinator for one group.
#[derive(Debug, Clone)]
pub struct ClassicCoordinator {
    group_id: String,
    settings: BrokerSettings,
    state: GroupState,
    previous_state: GroupState,
    generation: i32,
    protocol: Option<String>,
    leader: Option<String>,
    leader_candidates: Vec<String>,
    /// By member id (Kafka's is a `HashMap` over random ids; see the module's doc).
    members: BTreeMap<String, Member>,
    /// Per protocol name, how many members list it (`supportedProtocols`).
    supported: HashMap<String, usize>,
    /// How many members await a JoinGroup response (`numMembersAwaitingJoinResponse`).
    awaiting_join: usize,
    /// Rises whenever what [`ClassicCoordinator::line`] shows may have changed.
    revision: u64,
    // (the maps only looked up are hashed; those the coordinator walks are ordered)
    pending: HashSet<String>,
    pending_sync: BTreeSet<Rc<str>>,
    statics: HashMap<String, String>,
    new_member_added: bool,
    timers: HashMap<TimerKey, Timer>,
    /// Each member id once, shared by its heartbeat timer's key and task and the members
    /// awaiting a SyncGroup.
    ids: HashMap<String, Rc<str>>,
    /// The timers by deadline; an entry whose key was re-armed or cancelled since is stale.
    timer_queue: BinaryHeap<Reverse<(i64, u64, TimerKey)>>,
    /// The queue's first entry is known to be live: no timer was set, cancelled or fired
    /// since [`ClassicCoordinator::next_deadline`] last looked.
    first_timer_live: bool,
    timer_seq: u64,
    ids_given: HashMap<String, u32>,
    now: i64,
    replies: std::collections::VecDeque<Response>,
}

impl ClassicCoordinator {
    /// An Empty group.
    pub fn new(group_id: &str, settings: BrokerSettings) -> Self {
        ClassicCoordinator {
            group_id: group_id.to_string(),
            settings,
            state: GroupState::Empty,
            previous_state: GroupState::Empty,
            generation: 0,
            protocol: None,
            leader: None,
            leader_candidates: Vec::new(),
            members: BTreeMap::new(),
            supported: HashMap::new(),
            awaiting_join: 0,
            revision: 0,
            pending: HashSet::new(),
            pending_sync: BTreeSet::new(),
            statics: HashMap::new(),
            new_member_added: false,
            timers: HashMap::new(),
            ids: HashMap::new(),
            timer_queue: BinaryHeap::new(),
            first_timer_live: false,
            timer_seq: 0,
            ids_given: HashMap::new(),
            now: 0,
            replies: std::collections::VecDeque::new(),
        }
    }

    /// The group as the oracle prints it.
    pub fn line(&self) -> GroupLine {
        let members: Vec<String> = self.members.keys().cloned().collect();
        GroupLine {
            state: self.state,
            generation: self.generation,
            protocol: self.protocol.clone(),
            leader: self.leader.clone(),
            leader_candidates: self.leader_candidates.clone(),
            members,
            pending: self.pending.len(),
        }
    }

    /// The state.
    pub fn state(&self) -> GroupState {
        self.state
    }

    /// A number that rises whenever [`ClassicCoordinator::line`] may have changed.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// How many members the group has, and how many were given an id but have not joined.
    pub fn counts(&self) -> (usize, usize) {
        (self.members.len(), self.pending.len())
    }

    /// The protocol (assignor) the last join phase selected.
    pub fn protocol(&self) -> Option<&str> {
        self.protocol.as_deref()
    }

    /// The leader's member id.
    pub fn leader(&self) -> Option<&str> {
        self.leader.as_deref()
    }

    /// Where Kafka's choice of leader depends on a `HashMap` over random ids: every member it
    /// could have chosen (empty when the leader is determined).
    pub fn leader_candidates(&self) -> &[String] {
        &self.leader_candidates
    }

    /// The generation.
    pub fn generation(&self) -> i32 {
        self.generation
    }

    /// The next response produced and not yet taken, in the order Kafka completes them.
    pub fn next_reply(&mut self) -> Option<Response> {
        self.replies.pop_front()
    }

    /// The earliest pending timer: its deadline and key (equal deadlines in the order they
    /// were set, as Kafka's test timer fires them).
    pub fn next_timer(&mut self) -> Option<(i64, TimerKey)> {
        self.next_deadline()?;
        self.timer_queue
            .peek()
            .map(|Reverse((deadline, _, key))| (*deadline, key.clone()))
    }

    /// When the earliest pending timer is due (the queue's cancelled and replaced timers
    /// dropped on the way).
    pub fn next_deadline(&mut self) -> Option<i64> {
        while let Some(Reverse((deadline, seq, key))) = self.timer_queue.peek() {
            if self.first_timer_live || self.timers.get(key).is_some_and(|t| t.seq == *seq) {
                self.first_timer_live = true;
                return Some(*deadline);
            }
            self.timer_queue.pop();
        }
        None
    }

    /// The key as Kafka writes it (`heartbeat-g-A#1`).
    pub fn timer_name(&self, key: &TimerKey) -> String {
        match key {
            TimerKey::Heartbeat(m) => format!("heartbeat-{}-{m}", self.group_id),
            TimerKey::Join => format!("join-{}", self.group_id),
            TimerKey::Sync => format!("sync-{}", self.group_id),
        }
    }

    /// Fires the earliest timer (the clock moves to its deadline).
    pub fn fire_next_timer(&mut self) -> Option<(i64, TimerKey)> {
        let (deadline, key) = self.next_timer()?;
        let timer = self.timers.remove(&key)?;
        self.first_timer_live = false;
        self.now = self.now.max(deadline);
        match timer.task {
            TimerTask::ExpireHeartbeat(m) => self.expire_heartbeat(&m),
            TimerTask::CompleteJoin => self.complete_join(),
            TimerTask::InitialDelay {
                delay_ms,
                remaining_ms,
            } => self.try_complete_initial_rebalance(delay_ms, remaining_ms),
            TimerTask::ExpireSync { generation } => self.expire_pending_sync(generation),
        }
        Some((deadline, key))
    }

    /// Moves the clock (requests arrive at `now`).
    pub fn advance_to(&mut self, now: i64) {
        self.now = self.now.max(now);
    }

    fn schedule(&mut self, key: TimerKey, delay_ms: i64, task: TimerTask) {
        self.timer_seq += 1;
        let timer = Timer {
            deadline: self.now + delay_ms,
            seq: self.timer_seq,
            task,
        };
        self.timer_queue
            .push(Reverse((timer.deadline, timer.seq, key.clone())));
        self.timers.insert(key, timer);
        self.first_timer_live = false;
    }

    fn cancel(&mut self, key: &TimerKey) {
        self.timers.remove(key);
        self.first_timer_live = false;
    }

    /// Member `id`'s heartbeat deadline, `delay_ms` from now (its key and task share one
    /// copy of the id, made once per member id).
    fn schedule_heartbeat(&mut self, id: &str, delay_ms: i64) {
        let id = intern(&mut self.ids, id);
        self.schedule(
            TimerKey::Heartbeat(id.clone()),
            delay_ms,
            TimerTask::ExpireHeartbeat(id),
        );
    }

    fn cancel_heartbeat(&mut self, id: &str) {
        // (every heartbeat timer's id went through `ids`)
        if let Some(id) = self.ids.get(id).cloned() {
            self.timers.remove(&TimerKey::Heartbeat(id));
            self.first_timer_live = false;
        }
    }

    fn member_mut(&mut self, id: &str) -> Option<&mut Member> {
        self.members.get_mut(id)
    }

    fn member(&self, id: &str) -> Option<&Member> {
        self.members.get(id)
    }

    fn has_member(&self, id: &str) -> bool {
        self.members.contains_key(id)
    }

    /// Parks (or answers) a member's JoinGroup, keeping the count of those parked.
    fn set_awaiting_join(&mut self, id: &str, awaiting: bool) {
        if let Some(m) = self.members.get_mut(id) {
            if m.awaiting_join != awaiting {
                m.awaiting_join = awaiting;
                if awaiting {
                    self.awaiting_join += 1;
                } else {
                    self.awaiting_join -= 1;
                }
            }
        }
    }

    /// `ClassicGroup.rebalanceTimeoutMs`: the largest over the members.
    fn rebalance_timeout_ms(&self) -> i64 {
        self.members
            .values()
            .map(|m| m.rebalance_timeout_ms)
            .max()
            .unwrap_or(0)
    }

    /// `ClassicGroup.hasAllMembersJoined`.
    fn has_all_members_joined(&self) -> bool {
        self.members.len() == self.awaiting_join && self.pending.is_empty()
    }

    fn transition(&mut self, to: GroupState) {
        self.previous_state = self.state;
        self.state = to;
        self.revision += 1;
    }

    /// `ClassicGroup.generateMemberId`, labelled as the oracle labels it: the client's
    /// alias and how many ids the broker has given it.
    fn new_member_id(&mut self, client: &str) -> String {
        let n = self.ids_given.entry(client.to_string()).or_insert(0);
        *n += 1;
        format!("{client}#{n}")
    }

    /// `ClassicGroup.validateMember`.
    fn validate_member(&self, member_id: &str, instance_id: Option<&str>) -> Result<(), ErrorCode> {
        if let Some(instance) = instance_id {
            match self.statics.get(instance) {
                None => return Err(ErrorCode::UnknownMemberId),
                Some(existing) if existing != member_id => return Err(ErrorCode::FencedInstanceId),
                Some(_) => {}
            }
        }
        if !self.has_member(member_id) {
            return Err(ErrorCode::UnknownMemberId);
        }
        Ok(())
    }

    // ------------------------------------------------------------------ JoinGroup

    /// `GroupCoordinatorService.joinGroup` then `classicGroupJoinToClassicGroup`, for a
    /// JoinGroup at version 9 (so a new dynamic member must first get its id).
    pub fn join(&mut self, client: &str, req: JoinRequest) {
        if req.session_timeout_ms < self.settings.min_session_timeout_ms
            || req.session_timeout_ms > self.settings.max_session_timeout_ms
        {
            let mut r = Response::new(client, Api::JoinGroup, ErrorCode::InvalidSessionTimeout);
            r.member_id = req.member_id.clone();
            self.replies.push_back(r);
            return;
        }
        if !self.supports_protocols(&req.protocols) {
            // classicGroupJoinNewMember / ExistingMember: refused, the group unchanged
            let mut r = Response::new(client, Api::JoinGroup, ErrorCode::InconsistentGroupProtocol);
            r.member_id = req.member_id.clone();
            self.replies.push_back(r);
            return;
        }
        if req.member_id.is_empty() {
            let new_id = self.new_member_id(client);
            match &req.instance_id {
                Some(instance) => match self.statics.get(instance).cloned() {
                    Some(old) => self.update_static_member(client, req, &old, new_id),
                    None => self.add_member(client, req, new_id),
                },
                None => {
                    // classicGroupJoinNewDynamicMember: MEMBER_ID_REQUIRED, no rebalance
                    self.pending.insert(new_id.clone());
                    self.revision += 1;
                    self.schedule_heartbeat(&new_id, req.session_timeout_ms);
                    let mut r = Response::new(client, Api::JoinGroup, ErrorCode::MemberIdRequired);
                    r.member_id = new_id;
                    self.replies.push_back(r);
                }
            }
            return;
        }
        self.join_existing(client, req);
    }

    /// `classicGroupJoinExistingMember`.
    fn join_existing(&mut self, client: &str, req: JoinRequest) {
        let member_id = req.member_id.clone();
        if self.pending.contains(&member_id) {
            self.add_member(client, req, member_id);
            return;
        }
        if let Err(e) = self.validate_member(&member_id, req.instance_id.as_deref()) {
            let mut r = Response::new(client, Api::JoinGroup, e);
            r.member_id = member_id;
            self.replies.push_back(r);
            return;
        }
        // (compared only where the state asks: a subscription is hundreds of bytes)
        let same = |group: &Self| {
            group
                .member(&member_id)
                .is_some_and(|m| m.protocols == req.protocols)
        };
        match self.state {
            GroupState::PreparingRebalance => self.update_member_then_rebalance(req),
            GroupState::CompletingRebalance if same(self) => {
                let leader = self.is_leader(&member_id);
                let r = self.join_reply(&member_id, leader, false);
                self.replies.push_back(r);
            }
            GroupState::CompletingRebalance => self.update_member_then_rebalance(req),
            GroupState::Stable if self.is_leader(&member_id) || !same(self) => {
                self.update_member_then_rebalance(req)
            }
            GroupState::Stable => {
                let r = self.join_reply(&member_id, false, false);
                self.replies.push_back(r);
            }
            GroupState::Empty => {
                let mut r = Response::new(client, Api::JoinGroup, ErrorCode::UnknownMemberId);
                r.member_id = member_id;
                self.replies.push_back(r);
            }
        }
    }

    /// `ClassicGroup.supportsProtocols`: an Empty group takes any list; otherwise one of
    /// `protocols` must be listed by every member.
    fn supports_protocols(&self, protocols: &[(String, Vec<u8>)]) -> bool {
        if self.state == GroupState::Empty {
            return !protocols.is_empty();
        }
        let all = self.members.len();
        protocols
            .iter()
            .any(|(name, _)| self.supported.get(name).copied().unwrap_or(0) == all)
    }

    /// Member `id` now lists `protocols`: counted again when the names changed.
    fn recount_protocols(&mut self, id: &str, protocols: &[(String, Vec<u8>)]) {
        let Some(m) = self.members.get(id) else {
            return;
        };
        if m.protocols.len() == protocols.len()
            && m.protocols.iter().zip(protocols).all(|(a, b)| a.0 == b.0)
        {
            return;
        }
        count_protocols(&mut self.supported, &m.protocols, false);
        count_protocols(&mut self.supported, protocols, true);
    }

    fn is_leader(&self, id: &str) -> bool {
        self.leader.as_deref() == Some(id)
    }

    /// A successful JoinGroup response for the current generation.
    fn join_reply(&self, member_id: &str, with_members: bool, skip_assignment: bool) -> Response {
        let client = self
            .member(member_id)
            .map(|m| m.client.clone())
            .unwrap_or_default();
        let mut r = Response::new(&client, Api::JoinGroup, ErrorCode::None);
        r.generation = self.generation;
        r.member_id = member_id.to_string();
        r.leader = self.leader.clone().unwrap_or_default();
        r.protocol = self.protocol.clone();
        r.skip_assignment = skip_assignment;
        if with_members {
            r.members = self.current_members();
        }
        r
    }

    /// `ClassicGroup.currentClassicGroupMembers`.
    fn current_members(&self) -> Vec<(String, Option<String>, Vec<u8>)> {
        let protocol = self.protocol.clone().unwrap_or_default();
        self.members
            .values()
            .map(|m| {
                let metadata = m
                    .protocols
                    .iter()
                    .find(|(name, _)| *name == protocol)
                    .map(|(_, bytes)| bytes.clone())
                    .unwrap_or_default();
                (m.id.clone(), m.instance_id.clone(), metadata)
            })
            .collect()
    }

    /// `updateMemberThenRebalanceOrCompleteJoin`.
    fn update_member_then_rebalance(&mut self, req: JoinRequest) {
        self.recount_protocols(&req.member_id, &req.protocols);
        if let Some(m) = self.member_mut(&req.member_id) {
            m.protocols = req.protocols;
            m.rebalance_timeout_ms = req.rebalance_timeout_ms;
            m.session_timeout_ms = req.session_timeout_ms;
        }
        self.set_awaiting_join(&req.member_id, true);
        self.maybe_prepare_rebalance_or_complete_join();
    }

    /// `addMemberThenRebalanceOrCompleteJoin`.
    fn add_member(&mut self, client: &str, req: JoinRequest, member_id: String) {
        if self.state == GroupState::PreparingRebalance && self.previous_state == GroupState::Empty
        {
            self.new_member_added = true;
        }
        if let Some(instance) = &req.instance_id {
            self.statics.insert(instance.clone(), member_id.clone());
        }
        if self.leader.is_none() {
            self.leader = Some(member_id.clone());
            self.leader_candidates.clear();
            self.revision += 1;
        }
        let member = Member {
            id: member_id.clone(),
            client: client.to_string(),
            instance_id: req.instance_id,
            session_timeout_ms: req.session_timeout_ms,
            rebalance_timeout_ms: req.rebalance_timeout_ms,
            protocols: req.protocols,
            assignment: Vec::new(),
            awaiting_join: false,
            is_new: true,
            awaiting_sync: false,
        };
        count_protocols(&mut self.supported, &member.protocols, true);
        self.members.insert(member_id.clone(), member);
        self.set_awaiting_join(&member_id, true);
        self.pending.remove(&member_id);
        self.revision += 1;
        let timeout = self.settings.new_member_join_timeout_ms;
        self.schedule_heartbeat(&member_id, timeout);
        self.maybe_prepare_rebalance_or_complete_join();
    }

    /// `updateStaticMemberThenRebalanceOrCompleteJoin`.
    fn update_static_member(&mut self, client: &str, req: JoinRequest, old: &str, new_id: String) {
        // ClassicGroup.replaceStaticMember: the old id's parked requests are fenced
        let Some(old_member) = self.members.get(old).cloned() else {
            return;
        };
        if old_member.awaiting_join {
            let mut r = Response::new(
                &old_member.client,
                Api::JoinGroup,
                ErrorCode::FencedInstanceId,
            );
            r.member_id = old.to_string();
            self.replies.push_back(r);
        }
        if old_member.awaiting_sync {
            let mut r = Response::new(
                &old_member.client,
                Api::SyncGroup,
                ErrorCode::FencedInstanceId,
            );
            r.assignment = Some(Vec::new());
            self.replies.push_back(r);
        }
        self.set_awaiting_join(old, false);
        let mut member = old_member;
        member.id = new_id.clone();
        member.client = client.to_string();
        member.awaiting_join = false;
        member.awaiting_sync = false;
        self.members.remove(old);
        self.members.insert(new_id.clone(), member);
        self.revision += 1;
        if self.is_leader(old) {
            self.leader = Some(new_id.clone());
        }
        if let Some(instance) = &req.instance_id {
            self.statics.insert(instance.clone(), new_id.clone());
        }
        let session = self.member(&new_id).map_or(0, |m| m.session_timeout_ms);
        self.schedule_heartbeat(&new_id, session);
        self.recount_protocols(&new_id, &req.protocols);
        if let Some(m) = self.member_mut(&new_id) {
            m.protocols = req.protocols;
            m.rebalance_timeout_ms = req.rebalance_timeout_ms;
            m.session_timeout_ms = req.session_timeout_ms;
        }
        self.set_awaiting_join(&new_id, true);
        match self.state {
            GroupState::Stable => {
                if self.protocol.clone().unwrap_or_default() == self.select_protocol() {
                    // no rebalance: the stored assignment stays; the reply follows the append
                    let leader = self.is_leader(&new_id);
                    let r = self.join_reply(&new_id, leader, leader);
                    self.set_awaiting_join(&new_id, false);
                    self.replies.push_back(r);
                } else {
                    self.maybe_prepare_rebalance_or_complete_join();
                }
            }
            GroupState::CompletingRebalance => self.prepare_rebalance(),
            _ => self.maybe_complete_join_phase(),
        }
    }

    /// `ClassicGroup.selectProtocol`: each member votes for its first protocol that every
    /// member supports; the most votes win, a tie going to the name first in the votes
    /// `HashMap`'s iteration order ([`crate::group::tally`]). Members vote here in member-id
    /// order, not the members `HashMap`'s: that order only matters to tied names in one
    /// bucket of the tally, which the four assignor names a run lists never are.
    fn select_protocol(&self) -> String {
        // the protocols every member lists
        let mut members = self.members.values();
        let mut candidates: BTreeSet<&str> = members
            .next()
            .map(|m| m.protocols.iter().map(|(n, _)| n.as_str()).collect())
            .unwrap_or_default();
        for m in members {
            candidates.retain(|c| m.protocols.iter().any(|(n, _)| n == c));
        }
        let mut votes = self.members.values().map(|m| m.vote(&candidates));
        let first = votes.next().unwrap_or_default();
        if votes.all(|v| v == first) {
            // one name: no tally to break a tie in
            return first.to_string();
        }
        crate::group::tally(self.members.values().map(|m| m.vote(&candidates)))
            .winner
            .unwrap_or_default()
    }

    /// `maybePrepareRebalanceOrCompleteJoin`.
    fn maybe_prepare_rebalance_or_complete_join(&mut self) {
        if matches!(
            self.state,
            GroupState::Empty | GroupState::Stable | GroupState::CompletingRebalance
        ) {
            self.prepare_rebalance();
        } else {
            self.maybe_complete_join_phase();
        }
    }

    /// `maybeCompleteJoinPhase`.
    fn maybe_complete_join_phase(&mut self) {
        if self.state == GroupState::PreparingRebalance
            && self.previous_state != GroupState::Empty
            && self.has_all_members_joined()
        {
            self.complete_join();
        }
    }

    /// `prepareRebalance`.
    fn prepare_rebalance(&mut self) {
        if self.state == GroupState::CompletingRebalance {
            // resetAndPropagateAssignmentWithError(REBALANCE_IN_PROGRESS)
            for m in self.members.values_mut() {
                m.assignment.clear();
            }
            self.propagate_assignment(ErrorCode::RebalanceInProgress);
        }
        self.pending_sync.clear();
        self.cancel(&TimerKey::Sync);
        let initial = self.state == GroupState::Empty;
        if initial {
            let delay = self.settings.initial_rebalance_delay_ms;
            let remaining = (self.rebalance_timeout_ms() - delay).max(0);
            self.schedule(
                TimerKey::Join,
                delay,
                TimerTask::InitialDelay {
                    delay_ms: delay,
                    remaining_ms: remaining,
                },
            );
        }
        self.transition(GroupState::PreparingRebalance);
        if !initial {
            if self.has_all_members_joined() {
                self.complete_join();
            } else {
                let timeout = self.rebalance_timeout_ms();
                self.schedule(TimerKey::Join, timeout, TimerTask::CompleteJoin);
            }
        }
    }

    /// `tryCompleteInitialRebalanceElseSchedule`.
    fn try_complete_initial_rebalance(&mut self, delay_ms: i64, remaining_ms: i64) {
        if self.new_member_added && remaining_ms != 0 {
            self.new_member_added = false;
            let new_delay = self.settings.initial_rebalance_delay_ms.min(remaining_ms);
            let new_remaining = (remaining_ms - delay_ms).max(0);
            self.schedule(
                TimerKey::Join,
                new_delay,
                TimerTask::InitialDelay {
                    delay_ms: new_delay,
                    remaining_ms: new_remaining,
                },
            );
        } else {
            self.complete_join();
        }
    }

    /// `completeClassicGroupJoin`.
    fn complete_join(&mut self) {
        self.cancel(&TimerKey::Join);
        let failed: Vec<String> = self
            .members
            .values()
            .filter(|m| !m.awaiting_join && m.instance_id.is_none())
            .map(|m| m.id.clone())
            .collect();
        for id in failed {
            self.remove(&id);
            self.cancel_heartbeat(&id);
        }
        if !self.maybe_elect_new_joined_leader() && !self.members.is_empty() {
            let timeout = self.rebalance_timeout_ms();
            self.schedule(TimerKey::Join, timeout, TimerTask::CompleteJoin);
            return;
        }
        // ClassicGroup.initNextGeneration
        self.generation += 1;
        self.revision += 1;
        if self.members.is_empty() {
            self.protocol = None;
            self.transition(GroupState::Empty);
            self.pending_sync.clear();
            return;
        }
        self.protocol = Some(self.select_protocol());
        self.transition(GroupState::CompletingRebalance);
        self.pending_sync.clear();
        let ids: Vec<Rc<str>> = {
            let interned = &mut self.ids;
            self.members.keys().map(|id| intern(interned, id)).collect()
        };
        for id in ids {
            let leader = self.is_leader(&id);
            let parked = self.member(&id).is_some_and(|m| m.awaiting_join);
            if parked {
                let reply = self.join_reply(&id, leader, false);
                self.replies.push_back(reply);
            }
            self.set_awaiting_join(&id, false);
            let Some(m) = self.member_mut(&id) else {
                continue;
            };
            m.is_new = false;
            let timeout = m.session_timeout_ms;
            self.schedule_heartbeat(&id, timeout);
            self.pending_sync.insert(id);
        }
        let timeout = self.rebalance_timeout_ms();
        let generation = self.generation;
        self.schedule(
            TimerKey::Sync,
            timeout,
            TimerTask::ExpireSync { generation },
        );
    }

    /// `ClassicGroup.maybeElectNewJoinedLeader`.
    fn maybe_elect_new_joined_leader(&mut self) -> bool {
        let Some(leader) = self.leader.clone() else {
            return false;
        };
        if self.member(&leader).is_some_and(|m| m.awaiting_join) {
            return true;
        }
        let joined: Vec<String> = self
            .members
            .values()
            .filter(|m| m.awaiting_join)
            .map(|m| m.id.clone())
            .collect();
        match joined.first() {
            Some(first) => {
                self.leader = Some(first.clone());
                self.revision += 1;
                self.leader_candidates = if joined.len() > 1 {
                    joined.clone()
                } else {
                    Vec::new()
                };
                true
            }
            None => false,
        }
    }

    /// `ClassicGroup.remove`.
    fn remove(&mut self, id: &str) {
        self.set_awaiting_join(id, false);
        if let Some(m) = self.members.remove(id) {
            if let Some(instance) = &m.instance_id {
                self.statics.remove(instance);
            }
            count_protocols(&mut self.supported, &m.protocols, false);
        }
        if self.is_leader(id) {
            self.leader = self.members.keys().next().cloned();
            self.leader_candidates = if self.members.len() > 1 {
                self.members.keys().cloned().collect()
            } else {
                Vec::new()
            };
        }
        self.pending.remove(id);
        self.pending_sync.remove(id);
        self.revision += 1;
    }

    // ------------------------------------------------------------------ timers

    /// `expireClassicGroupMemberHeartbeat`.
    fn expire_heartbeat(&mut self, id: &str) {
        if self.pending.contains(id) {
            // removePendingMemberAndUpdateClassicGroup
            self.remove(id);
            if self.state == GroupState::PreparingRebalance && self.has_all_members_joined() {
                self.complete_join();
            }
            return;
        }
        let Some(member) = self.member(id).cloned() else {
            return;
        };
        if member.has_satisfied_heartbeat() {
            return;
        }
        // removeMemberAndUpdateClassicGroup
        if member.awaiting_join {
            let mut r = Response::new(&member.client, Api::JoinGroup, ErrorCode::UnknownMemberId);
            r.member_id = String::new();
            self.replies.push_back(r);
        }
        self.remove(id);
        match self.state {
            GroupState::Stable | GroupState::CompletingRebalance => {
                self.maybe_prepare_rebalance_or_complete_join()
            }
            GroupState::PreparingRebalance if self.has_all_members_joined() => self.complete_join(),
            _ => {}
        }
    }

    /// `expirePendingSync`.
    fn expire_pending_sync(&mut self, generation: i32) {
        if generation != self.generation {
            return;
        }
        if matches!(
            self.state,
            GroupState::CompletingRebalance | GroupState::Stable
        ) && !self.pending_sync.is_empty()
        {
            let missing: Vec<Rc<str>> = self.pending_sync.iter().cloned().collect();
            for id in missing {
                self.remove(&id);
                self.cancel_heartbeat(&id);
            }
            self.prepare_rebalance();
        }
    }

    // ------------------------------------------------------------------ SyncGroup

    /// `classicGroupSync` then `classicGroupSyncToClassicGroup`. `assignments`: what the
    /// leader sends, by member id.
    pub fn sync(
        &mut self,
        client: &str,
        member_id: &str,
        instance_id: Option<&str>,
        generation: i32,
        assignments: &[(String, Vec<u8>)],
    ) {
        let error = if self.members.is_empty() {
            Some(ErrorCode::UnknownMemberId)
        } else if let Err(e) = self.validate_member(member_id, instance_id) {
            Some(e)
        } else if generation != self.generation {
            Some(ErrorCode::IllegalGeneration)
        } else {
            None
        };
        if let Some(e) = error {
            self.replies
                .push_back(Response::new(client, Api::SyncGroup, e));
            return;
        }
        match self.state {
            GroupState::PreparingRebalance => self.replies.push_back(Response::new(
                client,
                Api::SyncGroup,
                ErrorCode::RebalanceInProgress,
            )),
            GroupState::CompletingRebalance => {
                if let Some(m) = self.member_mut(member_id) {
                    m.awaiting_sync = true;
                }
                self.remove_pending_sync_member(member_id);
                if self.is_leader(member_id) {
                    // the append completes at once: assignments go out and the group is Stable
                    let given: BTreeMap<&str, &Vec<u8>> =
                        assignments.iter().map(|(id, a)| (id.as_str(), a)).collect();
                    for m in self.members.values_mut() {
                        m.assignment = given
                            .get(m.id.as_str())
                            .map(|a| (*a).clone())
                            .unwrap_or_default();
                    }
                    self.propagate_assignment(ErrorCode::None);
                    self.transition(GroupState::Stable);
                }
            }
            GroupState::Stable => {
                self.remove_pending_sync_member(member_id);
                let assignment = self
                    .member(member_id)
                    .map(|m| m.assignment.clone())
                    .unwrap_or_default();
                let mut r = Response::new(client, Api::SyncGroup, ErrorCode::None);
                r.protocol = self.protocol.clone();
                r.assignment = Some(assignment);
                self.replies.push_back(r);
            }
            GroupState::Empty => {}
        }
    }

    /// `removePendingSyncMember`.
    fn remove_pending_sync_member(&mut self, id: &str) {
        self.pending_sync.remove(id);
        match self.state {
            GroupState::Empty | GroupState::PreparingRebalance => self.cancel(&TimerKey::Sync),
            _ if self.pending_sync.is_empty() => self.cancel(&TimerKey::Sync),
            _ => {}
        }
    }

    /// `propagateAssignment`: answers every parked SyncGroup, and re-arms its member's
    /// heartbeat deadline.
    fn propagate_assignment(&mut self, error: ErrorCode) {
        let protocol = if error == ErrorCode::None {
            self.protocol.clone()
        } else {
            None
        };
        let mut rearm = Vec::new();
        for m in self.members.values_mut() {
            if m.awaiting_sync {
                m.awaiting_sync = false;
                let mut r = Response::new(&m.client, Api::SyncGroup, error);
                r.protocol = protocol.clone();
                r.assignment = Some(m.assignment.clone());
                self.replies.push_back(r);
                rearm.push((m.id.clone(), m.session_timeout_ms));
            }
        }
        for (id, timeout) in rearm {
            self.schedule_heartbeat(&id, timeout);
        }
    }

    // ------------------------------------------------------------------ Heartbeat, LeaveGroup

    /// `classicGroupHeartbeat`.
    pub fn heartbeat(
        &mut self,
        client: &str,
        member_id: &str,
        instance_id: Option<&str>,
        generation: i32,
    ) {
        let error = match self.validate_member(member_id, instance_id) {
            Err(e) => e,
            Ok(()) if generation != self.generation => ErrorCode::IllegalGeneration,
            Ok(()) => match self.state {
                GroupState::Empty => ErrorCode::UnknownMemberId,
                GroupState::PreparingRebalance => {
                    self.rearm_heartbeat(member_id);
                    ErrorCode::RebalanceInProgress
                }
                GroupState::CompletingRebalance | GroupState::Stable => {
                    self.rearm_heartbeat(member_id);
                    ErrorCode::None
                }
            },
        };
        self.replies
            .push_back(Response::new(client, Api::Heartbeat, error));
    }

    fn rearm_heartbeat(&mut self, id: &str) {
        let timeout = self.member(id).map_or(0, |m| m.session_timeout_ms);
        self.schedule_heartbeat(id, timeout);
    }

    /// Re-arms `member_id`'s heartbeat deadline as its heartbeat at `at` would have (a
    /// member heartbeating in a Stable group changes nothing else): the simulator sends a
    /// quiet member's heartbeats only when something may depend on them.
    pub fn assume_heartbeat(&mut self, member_id: &str, at: i64) {
        let Some(session) = self.member(member_id).map(|m| m.session_timeout_ms) else {
            return;
        };
        let delay = at + session - self.now;
        self.schedule_heartbeat(member_id, delay);
    }

    /// `classicGroupLeave` for one member leaving by its member id (as a closing dynamic
    /// Java consumer does).
    pub fn leave(&mut self, client: &str, member_id: &str, instance_id: Option<&str>) {
        let mut error = ErrorCode::None;
        if self.pending.contains(member_id) {
            self.remove(member_id);
            self.cancel_heartbeat(member_id);
        } else {
            match self.validate_member(member_id, instance_id) {
                Ok(()) => {
                    // removeCurrentMemberFromClassicGroup
                    self.cancel_heartbeat(member_id);
                    if let Some(m) = self.member(member_id).cloned() {
                        if m.awaiting_join {
                            let r = Response::new(
                                &m.client,
                                Api::JoinGroup,
                                ErrorCode::UnknownMemberId,
                            );
                            self.replies.push_back(r);
                        }
                    }
                    self.remove(member_id);
                }
                Err(e) => error = e,
            }
        }
        if error == ErrorCode::None {
            match self.state {
                GroupState::Stable | GroupState::CompletingRebalance => {
                    self.maybe_prepare_rebalance_or_complete_join()
                }
                GroupState::PreparingRebalance => self.maybe_complete_join_phase(),
                GroupState::Empty => {}
            }
        }
        // the response goes out after what the leave completed
        self.replies
            .push_back(Response::new(client, Api::LeaveGroup, error));
    }
}
