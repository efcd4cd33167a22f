//! The group over time: a deploy, a crash or a scale-out run on a virtual clock, request by
//! request, with what each member and partition does and what it costs.
//!
//! - [`broker`]: the classic group's coordinator, ported from Kafka's `GroupMetadataManager`
//!   and checked against it (the oracle cases in `crates/core/tests/timeline_oracle.rs`).
//! - [`classic`]: the Java consumer's side of the classic protocol (eager or cooperative), a
//!   model written from `ConsumerCoordinator` and `AbstractCoordinator`, and the clock that
//!   runs both.
//! - [`consumer`]: the consumer protocol (KIP-848): the broker's epochs and reconciliation,
//!   and the client's heartbeats.
//! - [`ledger`]: who consumed which partition when, and the cost: pauses, lag, records read
//!   twice or never.
//! - [`spec`]: a timeline as a person sets it up, its presets and its text in a link.
//! - [`story`]: the events a person asks for (rolling restart, crash, scale out or in, a slow
//!   batch, a network cut, the move to cooperative-sticky) as what each member does when.
//! - [`script`]: a story written by hand, statement by statement.
//! - [`strategy`]: a classic member's `partition.assignment.strategy`, and the rebalance
//!   protocol its list gives.
//!
//! Every assumption the client's model makes is in [`ASSUMPTIONS`], shown wherever a run is.

mod backlog;
pub mod broker;
pub mod classic;
pub mod compare;
pub mod consumer;
pub mod ledger;
mod queue;
pub mod script;
pub mod spec;
pub mod story;
pub mod strategy;

use crate::assignor::{AssignorKind, GroupInput};
pub use broker::BrokerSettings;
pub use ledger::Costs;
pub use story::{Story, StoryKind};

/// Which rebalance protocol the group runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// The classic protocol, eager: every member gives up everything at each rebalance (the
    /// Java client's default `[range, cooperative-sticky]`, where range supports only EAGER,
    /// or `[roundrobin]`).
    #[default]
    Eager,
    /// The classic protocol with `cooperative-sticky` alone: members give up only what moves,
    /// in a second rebalance.
    Cooperative,
    /// `group.protocol=consumer` (KIP-848), with the broker's uniform assignor or its range.
    Consumer,
    /// The classic protocol with each member's own `partition.assignment.strategy`, as the
    /// scenario lists it: the coordinator's vote picks the assignor, and each member
    /// rebalances eagerly or cooperatively as its own list gives ([`strategy`]).
    Listed,
}

impl Protocol {
    /// The name the command line and the link use.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Eager => "eager",
            Protocol::Cooperative => "cooperative",
            Protocol::Consumer => "consumer",
            Protocol::Listed => "listed",
        }
    }

    /// Reads [`Protocol::name`].
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "eager" => Some(Protocol::Eager),
            "cooperative" => Some(Protocol::Cooperative),
            "consumer" => Some(Protocol::Consumer),
            "listed" => Some(Protocol::Listed),
            _ => None,
        }
    }

    /// How a person would say it, with its default assignor ([`protocol_label`] names the
    /// one a run uses).
    pub fn label(self) -> &'static str {
        match self {
            Protocol::Eager => "classic, eager (range)",
            Protocol::Cooperative => "classic, cooperative-sticky",
            Protocol::Consumer => "consumer protocol (KIP-848, uniform)",
            Protocol::Listed => "classic, each member's own partition.assignment.strategy",
        }
    }

    /// The assignor that computes its assignments (under [`Protocol::Listed`], the Java
    /// default's: the members' vote decides, [`Group::assignor_under`]).
    pub fn assignor(self) -> AssignorKind {
        match self {
            Protocol::Eager | Protocol::Listed => AssignorKind::Range,
            Protocol::Cooperative => AssignorKind::CooperativeSticky,
            Protocol::Consumer => AssignorKind::Uniform,
        }
    }
}

/// When a member commits its offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitPolicy {
    /// `enable.auto.commit=true` (the default) with `auto.commit.interval.ms`.
    Auto {
        /// `auto.commit.interval.ms` (5,000).
        interval_ms: i64,
    },
    /// `commitSync()` after each batch is processed (at least once).
    AfterBatch,
    /// `commitSync()` as soon as a batch is fetched, before processing it (at most once).
    BeforeProcessing,
}

impl CommitPolicy {
    /// The name the command line and the link use.
    pub fn name(self) -> &'static str {
        match self {
            CommitPolicy::Auto { .. } => "auto",
            CommitPolicy::AfterBatch => "after-batch",
            CommitPolicy::BeforeProcessing => "before-processing",
        }
    }

    /// Reads [`CommitPolicy::name`]; auto-commit at Kafka's default interval (5,000 ms).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "auto" => Some(CommitPolicy::Auto { interval_ms: 5_000 }),
            "after-batch" => Some(CommitPolicy::AfterBatch),
            "before-processing" => Some(CommitPolicy::BeforeProcessing),
            _ => None,
        }
    }
}

/// Each member's client settings (every member uses the same).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClientSettings {
    /// `session.timeout.ms` (45,000; classic only).
    pub session_timeout_ms: i64,
    /// `heartbeat.interval.ms` (3,000; classic only).
    pub heartbeat_interval_ms: i64,
    /// `max.poll.interval.ms` (300,000), also the rebalance timeout.
    pub max_poll_interval_ms: i64,
    /// When offsets are committed.
    pub commit: CommitPolicy,
    /// `max.poll.records` (500).
    pub max_poll_records: u32,
    /// How long the application takes per record, in milliseconds.
    pub processing_ms_per_record: f64,
    /// Whether `close()` leaves the group: a Java consumer does
    /// (`internal.leave.group.on.close=true`); Kafka Streams does not.
    pub leave_on_close: bool,
    /// Every member has a `group.instance.id` (static membership).
    pub static_membership: bool,
}

impl Default for ClientSettings {
    fn default() -> Self {
        ClientSettings {
            session_timeout_ms: 45_000,
            heartbeat_interval_ms: 3_000,
            max_poll_interval_ms: 300_000,
            commit: CommitPolicy::Auto { interval_ms: 5_000 },
            max_poll_records: 500,
            processing_ms_per_record: 0.5,
            leave_on_close: true,
            static_membership: false,
        }
    }
}

/// The consumer protocol's broker settings (KIP-848).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConsumerGroupSettings {
    /// `group.consumer.heartbeat.interval.ms` (5,000).
    pub heartbeat_interval_ms: i64,
    /// `group.consumer.session.timeout.ms` (45,000).
    pub session_timeout_ms: i64,
}

impl Default for ConsumerGroupSettings {
    fn default() -> Self {
        ConsumerGroupSettings {
            heartbeat_interval_ms: 5_000,
            session_timeout_ms: 45_000,
        }
    }
}

/// Everything a run depends on besides the group and the story.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The rebalance protocol.
    pub protocol: Protocol,
    /// The members' client settings.
    pub client: ClientSettings,
    /// The classic coordinator's settings.
    pub broker: BrokerSettings,
    /// The consumer protocol's settings.
    pub consumer_group: ConsumerGroupSettings,
    /// A request's round trip between a client and the coordinator, in milliseconds.
    pub round_trip_ms: i64,
    /// Records produced per second to each partition.
    pub records_per_second: f64,
    /// Keep who consumed each partition when ([`Run::tenures`]), for a timeline drawn per
    /// partition; the costs are counted either way.
    pub keep_tenures: bool,
    /// The run stops after this many events, and says so.
    pub max_events: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            protocol: Protocol::Eager,
            client: ClientSettings::default(),
            broker: BrokerSettings::default(),
            consumer_group: ConsumerGroupSettings::default(),
            round_trip_ms: 2,
            records_per_second: 100.0,
            keep_tenures: true,
            max_events: MAX_EVENTS,
        }
    }
}

/// What happened, for the timeline and its table.
#[derive(Debug, Clone, PartialEq)]
pub struct Happening {
    /// When, in milliseconds since the group formed.
    pub time_ms: i64,
    /// The member it concerns (its name in the scenario), if one.
    pub member: Option<String>,
    /// What, in a word (`join`, `leave`, `rebalance`, `stable`, `revoke`, ...).
    pub kind: &'static str,
    /// What, in a sentence, with why.
    pub detail: String,
}

/// One partition's time with one member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tenure {
    /// The member's index in the run's members.
    pub member: usize,
    /// From (ms).
    pub start_ms: i64,
    /// To (ms); the run's end when it still owns it.
    pub end_ms: i64,
    /// The offset it starts reading from: a new owner's is the last committed offset (where
    /// the last owner had got to, less what it had processed and not committed); after a
    /// pause it is where it stopped. The model's log holds the produce rate's records from
    /// 0 ms on; an owner that was behind had got to the log's end less what it had not
    /// processed yet.
    pub start_offset: u64,
}

/// A run: what happened and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The protocol it ran.
    pub protocol: Protocol,
    /// The assignor it ran (the first the coordinator's vote picked).
    pub assignor: AssignorKind,
    /// Each assignor the classic coordinator's vote picked, in order: more than one when
    /// the members' lists moved the vote during the run ([`Run::label`]).
    pub assignors: Vec<AssignorKind>,
    /// Whether members were static.
    pub static_membership: bool,
    /// The members' names: the scenario's, then any the story added.
    pub members: Vec<String>,
    /// Partitions by topic, in the scenario's order: (topic, count).
    pub topics: Vec<(String, u32)>,
    /// When the story began (ms); costs count from here.
    pub start_ms: i64,
    /// When the run ended (ms).
    pub end_ms: i64,
    /// Everything that happened, in time order.
    pub happenings: Vec<Happening>,
    /// Per partition (topics in order, partitions ascending), who consumed it when; empty
    /// unless [`Settings::keep_tenures`].
    pub tenures: Vec<Vec<Tenure>>,
    /// Per member, when it consumed at least one partition: (from, to).
    pub lanes: Vec<Vec<(i64, i64)>>,
    /// Per partition (topics in order, partitions ascending), its lag at its peak: the
    /// records waiting for it when a consumer started it, counted from the story's start.
    pub partition_peak_lag: Vec<u64>,
    /// Per member, when it was down (not running): (from, to).
    pub downtime: Vec<Vec<(i64, i64)>>,
    /// When a rebalance began (the group left Stable, or the group epoch rose).
    pub rebalance_times: Vec<i64>,
    /// What it cost.
    pub costs: Costs,
    /// The requests and the broker's decisions, for the oracle (classic only).
    pub wire: Vec<broker_trace::Line>,
    /// What the run could not do as Kafka would, and what it did instead.
    pub notes: Vec<String>,
    /// How often a partition was given to a member while another still consumed it: zero
    /// in every story (the property tests hold it to zero); a script can reach Kafka's race
    /// of a member whose session expires right after the coordinator answered it, which a
    /// note then says.
    pub overlaps: u32,
    /// The first few of [`Run::overlaps`] (members by their index in [`Run::members`]).
    pub overlap_log: Vec<ledger::Overlap>,
    /// What computing the run took.
    pub work: Work,
}

/// What computing a run took: its work is its events and the partitions that change hands,
/// not the length of the story in virtual time (the benchmarks print it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Work {
    /// The run's steps, as [`Settings::max_events`] counts them: each handles one event (a
    /// request, an answer, a heartbeat tick, a poll) or one coordinator timer, or finds the
    /// run over.
    pub events: u64,
    /// How often a partition was given to a member that did not consume it already.
    pub partition_starts: u64,
    /// How often an assignment of the whole group was computed, each over every partition
    /// the members subscribe to, as Kafka computes it: by the classic group's leader once
    /// per rebalance round, by the consumer protocol's coordinator once per group epoch.
    pub assignments: u64,
}

pub mod broker_trace;

/// What the client's model assumes, shown wherever a run is shown.
pub const ASSUMPTIONS: &[&str] = &[
    "The broker's side is Kafka's coordinator, ported from GroupMetadataManager and checked against it on a clock, for the classic protocols and the consumer protocol alike.",
    "The clients are a model of the Java consumer: heartbeats every heartbeat.interval.ms from their own thread, a rejoin at the next poll(), and offsets committed before an eager revocation when auto-commit is on.",
    "A member keeps up with its partitions while it owns them; after a pause it works through the backlog in batches of max.poll.records, and it notices a rebalance only between batches (under the consumer protocol: its callbacks for a new assignment run between batches, and it acknowledges then).",
    "A member inside a batch longer than max.poll.interval.ms consumes nothing more until the batch ends.",
    "What a member processed since its last commit is read again by the next owner; a crash commits nothing; a clean close commits first.",
    "Appends on the broker and offset commits take one round trip; no request is lost except during a network cut, when an answer the coordinator sends is lost too (a member waiting for its JoinGroup or SyncGroup then joins again once the network is back).",
    "Back from a network cut, a member consumes again once the coordinator answers it (a Java consumer may fetch a round trip sooner).",
    "A restarted member comes back with a new member id (a static member keeps its group.instance.id).",
    "With each member's own partition.assignment.strategy, a member a story adds lists what the scenario's last member lists.",
    "Under the consumer protocol a closing consumer always sends its leave heartbeat (epoch -1, or -2 when static): not leaving on close is the classic consumer's setting.",
    "A consumer that fails with UNRELEASED_INSTANCE_ID is started again 10 s later, as a supervisor restarts a process that exited.",
    "Each partition's log grows at the produce rate from offset 0 at the run's first millisecond, and the group starts reading it there; a new owner starts from the last committed offset, and finds waiting what its last owner had not processed yet (a member behind shares its backlog evenly over its partitions).",
];

/// The group a run starts from: topics and members with their subscriptions, as the
/// scenario has them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Group {
    /// Topics: (name, partitions).
    pub topics: Vec<(String, u32)>,
    /// Members: (name, subscribed topics).
    pub members: Vec<(String, Vec<String>)>,
    /// The assignor the scenario names; a run uses it where its protocol runs it
    /// ([`Group::assignor_under`]).
    pub assignor: AssignorKind,
    /// Each member's `group.instance.id` in the scenario, by member (none past the end):
    /// those with one are static, unless [`ClientSettings::static_membership`] makes every
    /// member static.
    pub instance_ids: Vec<Option<String>>,
    /// Each member's `partition.assignment.strategy` in the scenario, by member: what it
    /// lists under [`Protocol::Listed`] (the Java client's default when none is given).
    pub strategies: Vec<Vec<String>>,
}

impl Group {
    /// Its topics as the assignors read them (no replica racks).
    pub(crate) fn topic_metas(&self) -> Vec<crate::assignor::TopicMeta> {
        self.topics
            .iter()
            .map(|(name, n)| crate::assignor::TopicMeta {
                name: name.clone(),
                partitions: *n,
                racks: Vec::new(),
            })
            .collect()
    }

    /// Its members' names, in order.
    pub fn member_names(&self) -> Vec<String> {
        self.members.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The group of a scenario's assignor input.
    pub fn of_input(input: &GroupInput) -> Group {
        Group {
            topics: input
                .topics
                .iter()
                .map(|t| (t.name.clone(), t.partitions))
                .collect(),
            members: input
                .members
                .iter()
                .map(|m| (m.id.clone(), m.topics.to_vec()))
                .collect(),
            assignor: AssignorKind::Range,
            instance_ids: Vec::new(),
            strategies: Vec::new(),
        }
    }

    /// A scenario's group, with the assignor it names, its members' instance ids and their
    /// assignor lists.
    pub fn of_scenario(scenario: &crate::scenario::Scenario) -> Group {
        Group {
            assignor: scenario.assignor,
            instance_ids: scenario
                .members
                .iter()
                .map(|m| m.instance_id.clone())
                .collect(),
            strategies: scenario
                .members
                .iter()
                .map(|m| m.protocols.clone())
                .collect(),
            ..Group::of_input(&scenario.group_input())
        }
    }

    /// The `group.instance.id` member `m` (named `name`) joins with under `s`: every member's
    /// own name when the settings make members static, else the scenario's.
    pub(crate) fn instance_id(&self, s: &Settings, m: usize, name: &str) -> Option<String> {
        if s.client.static_membership {
            Some(format!("{name}-instance"))
        } else {
            self.instance_ids.get(m).cloned().flatten()
        }
    }

    /// The `partition.assignment.strategy` member `m` of a run joins with under `protocol`:
    /// under [`Protocol::Listed`] its own list (a member a story adds lists what the
    /// scenario's last member lists), otherwise what every member lists for the assignor
    /// [`Group::assignor_under`] picks.
    pub fn strategy(&self, protocol: Protocol, m: usize) -> Vec<String> {
        if protocol == Protocol::Listed {
            let own = self.strategies.get(m).or(self.strategies.last());
            return match own {
                Some(list) if !list.is_empty() => list.clone(),
                _ => crate::scenario::java_protocols(),
            };
        }
        match self.assignor_under(protocol).0 {
            AssignorKind::Range => vec!["range".into(), "cooperative-sticky".into()],
            other => vec![other.name().into()],
        }
    }

    /// Whether some member lists another `partition.assignment.strategy` than the Java
    /// default (then [`Protocol::Listed`] runs otherwise than eager).
    pub fn lists_its_own(&self) -> bool {
        self.strategies
            .iter()
            .any(|l| !l.is_empty() && !crate::scenario::is_java_protocols(l))
    }

    /// Each of the scenario's members with the list it joins with under [`Protocol::Listed`].
    fn listed(&self) -> impl Iterator<Item = (&str, Vec<String>)> + '_ {
        self.members
            .iter()
            .enumerate()
            .map(|(m, (name, _))| (name.as_str(), self.strategy(Protocol::Listed, m)))
    }

    /// The assignor the coordinator's vote picks when every member joins with its own list
    /// (checked by [`strategy::check`]): the classic group's join and vote
    /// ([`crate::group::select`]), members joining in the scenario's order.
    pub fn voted_assignor(&self) -> AssignorKind {
        let lists: Vec<(&str, Vec<String>)> = self.listed().collect();
        let joins: Vec<crate::group::Join<'_>> = lists
            .iter()
            .map(|(id, protocols)| crate::group::Join { id, protocols })
            .collect();
        crate::group::select(&joins)
            .ok()
            .as_ref()
            .and_then(crate::scenario::assignor_of)
            .unwrap_or(AssignorKind::Range)
    }

    /// The assignor a run under `protocol` uses, and a note when it is not the scenario's:
    /// under eager the members list the scenario's range (with cooperative-sticky after it,
    /// the Java client's default), roundrobin or sticky; the cooperative protocol runs
    /// cooperative-sticky; the consumer protocol's broker runs uniform or its range; under
    /// [`Protocol::Listed`] the members' vote decides.
    pub fn assignor_under(&self, protocol: Protocol) -> (AssignorKind, Option<String>) {
        use AssignorKind as A;
        let named = self.assignor;
        let (runs, why) = match (protocol, named) {
            (Protocol::Listed, _) => return (self.voted_assignor(), None),
            (Protocol::Eager, A::Range | A::RoundRobin | A::Sticky)
            | (Protocol::Cooperative, A::CooperativeSticky)
            | (Protocol::Consumer, A::Uniform | A::ServerRange) => return (named, None),
            // the Java client's default list, and the protocol's own assignor
            (Protocol::Cooperative | Protocol::Consumer, A::Range) => {
                return (protocol.assignor(), None)
            }
            (Protocol::Eager, A::CooperativeSticky) => (
                A::Range,
                "cooperative-sticky alone rebalances cooperatively (the cooperative protocol)",
            ),
            (Protocol::Eager | Protocol::Cooperative, A::Uniform | A::ServerRange) => (
                protocol.assignor(),
                "the broker assigns with it under the consumer protocol",
            ),
            (Protocol::Cooperative, A::RoundRobin | A::Sticky) => (
                A::CooperativeSticky,
                "it supports only eager rebalancing",
            ),
            (Protocol::Consumer, A::RoundRobin | A::Sticky | A::CooperativeSticky) => (
                A::Uniform,
                "under the consumer protocol the broker assigns (group.remote.assignor), not the members",
            ),
        };
        let note = format!(
            "The scenario's assignor is {}: {why}. This run uses {}.",
            named.name(),
            runs.name()
        );
        (runs, Some(note))
    }
}

impl Run {
    /// How a person would say what it ran: its protocol with the assignor the vote picked,
    /// and any it picked later.
    pub fn label(&self) -> String {
        let mut label = protocol_label(self.protocol, self.assignor);
        for later in self.assignors.iter().skip(1) {
            label.push_str(&format!(", then {} by vote", later.name()));
        }
        label
    }
}

/// How a person would say a protocol with the assignor it runs.
pub fn protocol_label(protocol: Protocol, assignor: AssignorKind) -> String {
    match (protocol, assignor) {
        (Protocol::Eager, a) => format!("classic, eager ({})", a.name()),
        (Protocol::Cooperative, _) => "classic, cooperative-sticky".into(),
        (Protocol::Consumer, AssignorKind::ServerRange) => {
            "consumer protocol (KIP-848, the broker's range)".into()
        }
        (Protocol::Consumer, a) => format!("consumer protocol (KIP-848, {})", a.name()),
        (Protocol::Listed, a) => format!("classic, as each member lists ({} by vote)", a.name()),
    }
}

/// Why a run cannot start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimelineError {
    /// No member to run.
    NoMembers,
    /// A setting outside what Kafka accepts; the message says which and why.
    Setting(String),
    /// The story names something the group does not have.
    Story(String),
}

impl std::fmt::Display for TimelineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimelineError::NoMembers => write!(f, "the group has no members to run"),
            TimelineError::Setting(m) | TimelineError::Story(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for TimelineError {}

/// Up to this many members, a run keeps each member's routine events (its assignment, its
/// revocations, its notice of a rebalance); above, the group's events and each member's
/// start, close, crash and errors, as a timeline of so many lanes cannot show more.
pub const MEMBERS_TOLD_EACH: usize = 100;

/// A consumer that fails for good (UNRELEASED_INSTANCE_ID) is started again this long
/// after, as a supervisor (Kubernetes, systemd) restarts a process that exited.
pub const RESTART_AFTER_FATAL_MS: i64 = 10_000;

/// By default a run stops after this many events (requests, timers, heartbeats), and says
/// so: a story of hours over many members is then cut short rather than holding the page
/// ([`Settings::max_events`]; the command line allows more).
pub const MAX_EVENTS: u64 = 3_000_000;

/// The most partitions a run takes: a run is events times the partitions that move.
pub const MAX_PARTITIONS: u32 = 200_000;
/// The most members a run takes.
pub const MAX_MEMBERS: usize = 2_000;

/// A group of `members` members each subscribed to one topic of `partitions` partitions.
pub fn benchmark_group(members: usize, partitions: u32) -> Group {
    Group {
        assignor: AssignorKind::Range,
        instance_ids: Vec::new(),
        strategies: Vec::new(),
        topics: vec![("t0".into(), partitions)],
        members: (0..members)
            .map(|i| (format!("m{i:04}"), vec!["t0".into()]))
            .collect(),
    }
}

/// The timeline's speed cases, timed in the page and natively alike (the test command
/// prints them side by side): a rolling restart of 100 members over 10,000 partitions,
/// every member restarted once, under each protocol; (name, size, group, settings, story).
pub fn speed_cases() -> Vec<(&'static str, &'static str, Group, Settings, Story)> {
    [
        ("timeline-eager", Protocol::Eager),
        ("timeline-cooperative", Protocol::Cooperative),
        ("timeline-consumer", Protocol::Consumer),
    ]
    .into_iter()
    .map(|(name, protocol)| {
        let settings = Settings {
            protocol,
            keep_tenures: false,
            ..Settings::default()
        };
        (
            name,
            "100x10000",
            benchmark_group(100, 10_000),
            settings,
            Story::default(),
        )
    })
    .collect()
}

/// Each partition's (topic index, partition) by its index across the group's topics, and
/// each topic's first index: how both protocols' runs number partitions.
pub(crate) fn partition_layout(group: &Group) -> (Vec<(usize, u32)>, Vec<usize>) {
    let mut partitions = Vec::new();
    let mut topic_base = Vec::new();
    for (ti, (_, n)) in group.topics.iter().enumerate() {
        topic_base.push(partitions.len());
        partitions.extend((0..*n).map(|p| (ti, p)));
    }
    (partitions, topic_base)
}

/// Per partition (by index across the group's topics), whether a member of the group
/// subscribes to its topic; with `everything`, every partition.
pub(crate) fn subscribed_partitions(group: &Group, everything: bool) -> Vec<bool> {
    group
        .topics
        .iter()
        .flat_map(|(topic, n)| {
            let subscribed = everything || group.members.iter().any(|(_, ts)| ts.contains(topic));
            std::iter::repeat_n(subscribed, *n as usize)
        })
        .collect()
}

/// A run's members: the group's (name, subscription), then the `added` members a story
/// brings ([`added_name`]: `new-1`, `new-2`, ..., each subscribed to every topic).
pub(crate) fn members_with(group: &Group, added: usize) -> Vec<(String, Vec<String>)> {
    let all_topics: Vec<String> = group.topics.iter().map(|(t, _)| t.clone()).collect();
    let names = group.member_names();
    let mut members = group.members.clone();
    members.extend((0..added).map(|i| (added_name(&names, i), all_topics.clone())));
    members
}

/// The name of the `i`-th member a story adds (from 0): `new-1`, `new-2`, ..., with `+`
/// after it while a member of `scenario` already has that name.
pub(crate) fn added_name(scenario: &[String], i: usize) -> String {
    let mut name = format!("new-{}", i + 1);
    while scenario.contains(&name) {
        name.push('+');
    }
    name
}

/// The longest a run goes on after its last act before it stops (virtual ms).
const RUN_LIMIT_AFTER_ACTS_MS: i64 = 4 * 3_600_000;
/// How long a run goes on once the group is settled, so the timeline shows it.
const TAIL_MS: i64 = 5_000;

/// What the two protocols' simulators share with the driver that runs a story on them.
pub(crate) trait Simulator {
    /// Queues member `m`'s act at `t`.
    fn act_at(&mut self, t: i64, m: usize, act: story::Act);
    /// Runs events until the group is settled after `last_act` (and `tail` more), or the
    /// run's budget ends; returns the time it stopped.
    fn run_until_settled(&mut self, last_act: i64, tail: i64) -> i64;
    /// Who consumed what when, counted from the story's start.
    fn ledger(&mut self) -> &mut ledger::Ledger;
}

/// Runs a story on `sim`: every member starts at 0 (those in `initial` with settings of
/// their own), the group forms, the story's acts are
/// shifted to start once it has ([`story::story_start`]), and the run goes on until the group
/// settles after the last act ([`TAIL_MS`] more). Returns when the story started and when the
/// run ended.
pub(crate) fn drive(
    sim: &mut impl Simulator,
    members: usize,
    initial: &[(usize, u32)],
    acts: Vec<(i64, usize, story::Act)>,
) -> (i64, i64) {
    for i in 0..members {
        // (a script's `initially`: the settings of the member's first process)
        let start = initial
            .iter()
            .find(|(m, _)| *m == i)
            .map_or(story::Act::Start, |(_, config)| {
                story::Act::StartWith(*config)
            });
        sim.act_at(0, i, start);
    }
    // the group forms first; the story starts once it has
    let formed = sim.run_until_settled(0, 0);
    let start = story::story_start(formed);
    sim.ledger().count_from(start);
    let shift = start - story::STORY_START_MS;
    let last_act = acts.iter().map(|a| a.0 + shift).max().unwrap_or(start);
    for (t, m, act) in acts {
        sim.act_at(t + shift, m, act);
    }
    (start, sim.run_until_settled(last_act, TAIL_MS))
}

/// What a simulator hands back once its run is over, to be made a [`Run`].
pub(crate) struct Finished {
    pub ledger: ledger::Ledger,
    pub members: Vec<String>,
    pub happenings: Vec<Happening>,
    pub rebalance_times: Vec<i64>,
    pub downtime: Vec<Vec<(i64, i64)>>,
    pub wire: Vec<broker_trace::Line>,
    pub notes: Vec<String>,
    /// Events handled.
    pub events: u64,
    /// Assignments computed ([`Work::assignments`]).
    pub assignments: u64,
    /// Each assignor the coordinator's vote picked, in order (none: the group's
    /// [`Group::assignor_under`] the protocol).
    pub votes: Vec<AssignorKind>,
}

/// Ends a run at `end`: its ledger closed (a lane for every member), the rebalances counted
/// from `start` (the story's start), each member's downtime still open closed at `end`, how
/// often a partition had two consumers, and how often one was given to a new consumer.
fn end_run(
    ledger: ledger::Ledger,
    (group, members, notes): (&Group, &[String], &mut Vec<String>),
    rebalance_times: &[i64],
    downtime: &mut [Vec<(i64, i64)>],
    start: i64,
    end: i64,
) -> (ledger::Closed, (u32, Vec<ledger::Overlap>), u64) {
    let rebalances = rebalance_times.iter().filter(|t| **t >= start).count() as u32;
    let (overlaps, partition_starts) = (ledger.overlaps(), ledger.starts());
    overlap_notes(&ledger, group, members, notes);
    never_consumed_note(&ledger, group, members.len(), notes);
    let ledger_log = ledger.overlap_log().to_vec();
    let mut closed = ledger.finish(end, rebalances);
    closed.lanes.resize(downtime.len(), Vec::new());
    for span in downtime.iter_mut().flatten() {
        if span.1 == i64::MAX {
            span.1 = end;
        }
    }
    (closed, (overlaps, ledger_log), partition_starts)
}

/// A note when partitions the members subscribe to were never consumed (a group that
/// never formed, members a request refused for good): the costs count only what stopped, so
/// they would look clean.
fn never_consumed_note(
    ledger: &ledger::Ledger,
    group: &Group,
    members: usize,
    notes: &mut Vec<String>,
) {
    // (a member a story adds subscribes to every topic)
    let subscribed = subscribed_partitions(group, members > group.members.len());
    let (mut never, mut of) = (0usize, 0usize);
    for (p, _) in subscribed.iter().enumerate().filter(|(_, s)| **s) {
        of += 1;
        never += usize::from(!ledger.consumed_ever(p));
    }
    if never > 0 {
        notes.push(format!(
            "{never} of the {of} partitions the members subscribe to were never consumed in this run (the events say why); those the members subscribed to when the story started count as stopped from then."
        ));
    }
}

/// A note for each partition the ledger saw given to a member while another still
/// consumed it (the first few, then how many more).
fn overlap_notes(
    ledger: &ledger::Ledger,
    group: &Group,
    members: &[String],
    notes: &mut Vec<String>,
) {
    let (partitions, _) = partition_layout(group);
    let name = |m: usize| members.get(m).map_or("?", String::as_str);
    for o in ledger.overlap_log() {
        let (t, p, old, new) = (o.time_ms, o.partition, o.consumer, o.given_to);
        let (ti, n) = partitions.get(p).copied().unwrap_or((0, 0));
        let topic = group.topics.get(ti).map_or("?", |(t, _)| t.as_str());
        notes.push(format!(
            "At {:.3} s {topic}-{n} is given to {} while {} still consumes it: the coordinator had already removed {} (as Kafka's does, for instance when a member's session expires just after the coordinator answered it), and {} does not know yet. It would go on consuming until its next request tells it; the run stops it there, so what both read meanwhile is not counted twice.",
            t as f64 / 1000.0,
            name(new),
            name(old),
            name(old),
            name(old),
        ));
    }
    let more = ledger.overlaps() as usize - ledger.overlap_log().len();
    if more > 0 {
        notes.push(format!(
            "{more} more times a partition is given to a member while another still consumes it."
        ));
    }
}

impl Finished {
    /// The run from `start` to `end`: each lane and tenure closed, the costs counted.
    pub(crate) fn into_run(mut self, group: &Group, s: &Settings, start: i64, end: i64) -> Run {
        let (
            ledger::Closed {
                tenures,
                lanes,
                peak_lag,
                costs,
            },
            (overlaps, overlap_log),
            partition_starts,
        ) = end_run(
            self.ledger,
            (group, &self.members, &mut self.notes),
            &self.rebalance_times,
            &mut self.downtime,
            start,
            end,
        );
        if self.votes.is_empty() {
            self.votes.push(group.assignor_under(s.protocol).0);
        }
        Run {
            protocol: s.protocol,
            assignor: self.votes[0],
            assignors: self.votes,
            static_membership: s.client.static_membership,
            members: self.members,
            topics: group.topics.clone(),
            start_ms: start,
            end_ms: end,
            happenings: self.happenings,
            tenures,
            lanes,
            partition_peak_lag: peak_lag,
            downtime: self.downtime,
            rebalance_times: self.rebalance_times,
            costs,
            wire: self.wire,
            notes: self.notes,
            overlaps,
            overlap_log,
            work: Work {
                events: self.events,
                partition_starts,
                assignments: self.assignments,
            },
        }
    }
}

/// What only `a` holds and what only `b` holds, of two ascending lists (a member's owned
/// partitions and its new assignment: what it revokes and what it is given).
pub fn differences(a: &[usize], b: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    each_difference(a, b, |p| only_a.push(p), |p| only_b.push(p));
    (only_a, only_b)
}

/// How many [`differences`] there are on each side, without listing them.
pub(crate) fn difference_counts(a: &[usize], b: &[usize]) -> (usize, usize) {
    let (mut in_a, mut in_b) = (0, 0);
    each_difference(a, b, |_| in_a += 1, |_| in_b += 1);
    (in_a, in_b)
}

/// One walk over two ascending lists: each item only `a` holds, then each only `b` holds,
/// in order.
fn each_difference(
    a: &[usize],
    b: &[usize],
    mut only_a: impl FnMut(usize),
    mut only_b: impl FnMut(usize),
) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                only_a(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                only_b(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    a[i..].iter().for_each(|&p| only_a(p));
    b[j..].iter().for_each(|&p| only_b(p));
}

/// How many members `story` adds to `group` (a scale-out, a script's `join`; none when the
/// story cannot be read: its run says why).
pub fn members_added(group: &Group, settings: &Settings, story: &Story) -> usize {
    story::acts(story, &group.member_names(), &settings.client, &[]).map_or(0, |a| a.added)
}

/// Runs `story` on `group` under `settings`.
pub fn simulate(group: &Group, settings: &Settings, story: &Story) -> Result<Run, TimelineError> {
    // (each protocol's run checks the group and the settings first)
    match settings.protocol {
        Protocol::Eager | Protocol::Cooperative | Protocol::Listed => {
            classic::run(group, settings, story)
        }
        Protocol::Consumer => consumer::run(group, settings, story),
    }
}

/// The group and the settings a run can take, or what is wrong with them.
pub(crate) fn check(group: &Group, s: &Settings) -> Result<(), TimelineError> {
    if group.members.is_empty() {
        return Err(TimelineError::NoMembers);
    }
    if group.members.len() > MAX_MEMBERS {
        return Err(TimelineError::Setting(format!(
            "{} members: the timeline runs at most {MAX_MEMBERS}",
            group.members.len()
        )));
    }
    if !s.client.static_membership {
        let mut seen: std::collections::BTreeMap<&str, usize> = Default::default();
        for (m, id) in group.instance_ids.iter().enumerate() {
            let Some(id) = id.as_deref() else { continue };
            if let Some(first) = seen.insert(id, m) {
                let name = |m: usize| group.members.get(m).map_or("?", |(n, _)| n.as_str());
                return Err(TimelineError::Setting(format!(
                    "members {} and {} share group.instance.id \"{id}\": the coordinator would fence one of them at each join; give each member its own",
                    name(first),
                    name(m)
                )));
            }
        }
    }
    if s.protocol == Protocol::Listed {
        let lists: Vec<(&str, Vec<String>)> = group.listed().collect();
        strategy::check(lists.iter().map(|(n, l)| (*n, &l[..]))).map_err(TimelineError::Setting)?;
    }
    let partitions: u64 = group.topics.iter().map(|(_, n)| u64::from(*n)).sum();
    if partitions > u64::from(MAX_PARTITIONS) {
        return Err(TimelineError::Setting(format!(
            "{partitions} partitions: the timeline runs at most {MAX_PARTITIONS}"
        )));
    }
    check_client(&s.client).map_err(TimelineError::Setting)?;
    if !(0.0..=10_000_000.0).contains(&s.records_per_second) {
        return Err(TimelineError::Setting(format!(
            "records per second per partition = {}: give a number from 0 to 10,000,000",
            s.records_per_second
        )));
    }
    if !(0..=60_000).contains(&s.round_trip_ms) {
        return Err(TimelineError::Setting(format!(
            "round trip = {} ms: give 0 to 60,000",
            s.round_trip_ms
        )));
    }
    let b = &s.broker;
    if !(0..=86_400_000).contains(&b.initial_rebalance_delay_ms) {
        return Err(TimelineError::Setting(
            "group.initial.rebalance.delay.ms: give 0 to 86,400,000".into(),
        ));
    }
    let cg = &s.consumer_group;
    if !(5_000..=15_000).contains(&cg.heartbeat_interval_ms) {
        return Err(TimelineError::Setting(format!(
            "group.consumer.heartbeat.interval.ms = {}: the broker accepts 5,000 to 15,000 (group.consumer.min.heartbeat.interval.ms and max)",
            cg.heartbeat_interval_ms
        )));
    }
    if !(45_000..=60_000).contains(&cg.session_timeout_ms) {
        return Err(TimelineError::Setting(format!(
            "group.consumer.session.timeout.ms = {}: the broker accepts 45,000 to 60,000 (group.consumer.min.session.timeout.ms and max)",
            cg.session_timeout_ms
        )));
    }
    Ok(())
}

/// Under the classic protocols, a `session.timeout.ms` the broker accepts (the run's, which
/// the members start with unless a script's `initially` gives each its own).
pub(crate) fn check_classic_session(s: &Settings) -> Result<(), TimelineError> {
    let (b, session) = (&s.broker, s.client.session_timeout_ms);
    if !(b.min_session_timeout_ms..=b.max_session_timeout_ms).contains(&session) {
        return Err(TimelineError::Setting(format!(
            "session.timeout.ms = {session}: the broker refuses every JoinGroup with INVALID_SESSION_TIMEOUT outside {} to {} (group.min.session.timeout.ms and group.max.session.timeout.ms), and no member would ever join",
            b.min_session_timeout_ms, b.max_session_timeout_ms
        )));
    }
    Ok(())
}

/// One member's client settings, or what is wrong with them (the Java consumer's bounds).
pub(crate) fn check_client(c: &ClientSettings) -> Result<(), String> {
    let positive = [
        ("session.timeout.ms", c.session_timeout_ms),
        ("heartbeat.interval.ms", c.heartbeat_interval_ms),
        ("max.poll.interval.ms", c.max_poll_interval_ms),
    ];
    for (name, v) in positive {
        if !(1..=86_400_000).contains(&v) {
            return Err(format!(
                "{name} = {v}: give a number of milliseconds from 1 to 86,400,000"
            ));
        }
    }
    if c.heartbeat_interval_ms >= c.session_timeout_ms {
        return Err(format!(
            "heartbeat.interval.ms ({}) must be lower than session.timeout.ms ({}), as the Java consumer requires",
            c.heartbeat_interval_ms, c.session_timeout_ms
        ));
    }
    if let CommitPolicy::Auto { interval_ms } = c.commit {
        if !(1..=86_400_000).contains(&interval_ms) {
            return Err(format!(
                "auto.commit.interval.ms = {interval_ms}: give a number of milliseconds from 1 to 86,400,000"
            ));
        }
    }
    if c.max_poll_records == 0 || c.max_poll_records > 1_000_000 {
        return Err(format!(
            "max.poll.records = {}: give a number from 1 to 1,000,000",
            c.max_poll_records
        ));
    }
    if !(0.0..=60_000.0).contains(&c.processing_ms_per_record) {
        return Err(format!(
            "processing time per record = {} ms: give milliseconds from 0 to 60,000",
            c.processing_ms_per_record
        ));
    }
    Ok(())
}
