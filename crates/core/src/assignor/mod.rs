//! Kafka's assignors, with Java's exact answers: the client's [`range`] (the default
//! RangeAssignor, rack-aware as in KIP-881) and [`round_robin`]; the broker's KIP-848
//! [`uniform`] and [`server_range`], fed as the group coordinator feeds them
//! ([`coordinator`]).
//!
//! The sticky assignors ([`sticky`](sticky::sticky) and
//! [`cooperative_sticky`](sticky::cooperative_sticky)) are in [`sticky`]; Java throws for
//! some inputs, so [`try_assign`] returns a `Result`.
//!
//! All return one shared [`Assignment`]: an owner per partition plus, per topic, the
//! ordered subscribers with their quota, so a UI can explain the arithmetic without
//! computing it again.

pub mod coordinator;
pub mod explain;
mod order;
mod range;
mod round_robin;
pub mod server_range;
pub mod sticky;
pub mod transfer;
pub mod uniform;

pub use coordinator::{derived_topic_id, AssignorError};
pub use order::{
    librdkafka_member_cmp, librdkafka_order, librdkafka_order_is_total, member_cmp, LeaderClient,
};
pub use range::{range, range_with};
pub use round_robin::{round_robin, round_robin_with};
pub use server_range::server_range;
pub use uniform::uniform;

use crate::collections::Names;
use crate::java::string_compare;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Marks a partition nobody owns in [`TopicAssignment::owners`].
pub const UNASSIGNED: u32 = u32::MAX;

/// Which assignor to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AssignorKind {
    /// org.apache.kafka.clients.consumer.RangeAssignor (the default).
    #[default]
    Range,
    /// org.apache.kafka.clients.consumer.RoundRobinAssignor.
    #[serde(rename = "roundrobin")]
    RoundRobin,
    /// org.apache.kafka.clients.consumer.StickyAssignor (eager).
    Sticky,
    /// org.apache.kafka.clients.consumer.CooperativeStickyAssignor (round 1; see
    /// [`sticky::cooperative_follow_up`] for the follow-up rebalance).
    #[serde(rename = "cooperative-sticky")]
    CooperativeSticky,
    /// The broker's KIP-848 UniformAssignor (`group.remote.assignor=uniform`, the default
    /// of `group.protocol=consumer`).
    Uniform,
    /// The broker's KIP-848 RangeAssignor (`group.remote.assignor=range`).
    #[serde(rename = "server-range")]
    ServerRange,
}

impl AssignorKind {
    /// The Java client's assignors, as the page lists them (the what-if's lines, in order).
    pub const CLIENT: [AssignorKind; 4] = [
        AssignorKind::Range,
        AssignorKind::RoundRobin,
        AssignorKind::Sticky,
        AssignorKind::CooperativeSticky,
    ];

    /// Every assignor: the client's, then the broker's.
    pub const ALL: [AssignorKind; 6] = [
        AssignorKind::Range,
        AssignorKind::RoundRobin,
        AssignorKind::Sticky,
        AssignorKind::CooperativeSticky,
        AssignorKind::Uniform,
        AssignorKind::ServerRange,
    ];

    /// The broker's assignors (KIP-848, `group.protocol=consumer`): the broker computes the
    /// assignment and members reconcile to it heartbeat by heartbeat, with no rebalance.
    pub fn is_broker(self) -> bool {
        matches!(self, AssignorKind::Uniform | AssignorKind::ServerRange)
    }

    /// The name used in files, links and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            AssignorKind::Range => "range",
            AssignorKind::RoundRobin => "roundrobin",
            AssignorKind::Sticky => "sticky",
            AssignorKind::CooperativeSticky => "cooperative-sticky",
            AssignorKind::Uniform => "uniform",
            AssignorKind::ServerRange => "server-range",
        }
    }
    /// The client assignor a classic group's protocol name selects (a JoinGroup's protocol,
    /// a `partition.assignment.strategy` entry): one of [`AssignorKind::CLIENT`], by its
    /// [`AssignorKind::name`].
    pub fn of_protocol(name: &str) -> Option<Self> {
        AssignorKind::CLIENT.into_iter().find(|k| k.name() == name)
    }

    /// Parses a name from [`AssignorKind::name`] (also `round-robin`, `round_robin`,
    /// `server_range`).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "range" => Some(AssignorKind::Range),
            "roundrobin" | "round-robin" | "round_robin" => Some(AssignorKind::RoundRobin),
            "sticky" => Some(AssignorKind::Sticky),
            "cooperative-sticky" => Some(AssignorKind::CooperativeSticky),
            "uniform" => Some(AssignorKind::Uniform),
            "server-range" | "server_range" => Some(AssignorKind::ServerRange),
            _ => None,
        }
    }
}

/// A topic in the cluster metadata.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TopicMeta {
    /// Topic name.
    pub name: String,
    /// Partition count (0 means absent from metadata).
    pub partitions: u32,
    /// Per partition, the racks of its replicas; empty when unknown.
    pub racks: Vec<Vec<String>>,
}

/// A group member as the assignor sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemberMeta {
    /// Member id (assigned by the coordinator).
    pub id: String,
    /// group.instance.id, for static members.
    pub instance_id: Option<String>,
    /// client.rack (empty means none).
    pub rack: Option<String>,
    /// Subscribed topics. Members with the same list may share it (as Kafka's own benchmark
    /// shares one list): the assignors then read it once.
    pub topics: TopicList,
    /// Partitions owned before this rebalance, per topic: for StickyAssignor its user data,
    /// for CooperativeStickyAssignor the subscription's owned partitions, for the broker's
    /// assignors the member's current target assignment. A partition may lie outside its
    /// topic, as Java allows.
    pub owned: Vec<(String, Vec<i32>)>,
    /// Generation of `owned` (`None`: no generation, Java's -1; the sticky assignors only).
    pub generation: Option<i32>,
}

/// A member's subscribed topics, shared between members with the same list (an `Rc`, so
/// equal lists compare by pointer): a link's members that list the same topics share one
/// (`scenario::link`), the group's input shares the scenario's (no copy of 500,000 names at
/// 10,000 members on 50 topics), and [`benchmark_input`] shares one, as Kafka's benchmark
/// does.
pub type TopicList = std::rc::Rc<Vec<String>>;

/// What the assignor is given: cluster metadata and the members' subscriptions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupInput {
    /// Topics in metadata.
    pub topics: Vec<TopicMeta>,
    /// Members, in the order the group knows them (the client's assignors never depend on
    /// it; the broker's iterate a `HashMap` filled in this order).
    pub members: Vec<MemberMeta>,
    /// Kafka topic ids by topic name, for the broker's assignors; a name without one gets
    /// [`derived_topic_id`].
    pub topic_ids: Vec<(String, crate::java::Uuid)>,
}

/// One subscriber of a topic, in assignor order, with its share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    /// Index of the member in [`GroupInput::members`].
    pub member: u32,
    /// Its position among the topic's subscribers (0 first).
    pub index: u32,
    /// Partitions range gives it: n div m, plus one when index < n mod m (for round-robin,
    /// the partitions it actually got).
    pub quota: u32,
    /// Range's first partition, (n div m) * index + min(index, n mod m), when it gets any.
    pub first: Option<u32>,
}

/// The result for one subscribed topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicAssignment {
    /// Topic name.
    pub topic: String,
    /// Partition count; 0 when the topic is missing from metadata (then nobody gets it).
    pub partitions: u32,
    /// Per partition, the index of its owner in [`GroupInput::members`], or [`UNASSIGNED`].
    pub owners: Vec<u32>,
    /// The topic's subscribers in assignor order, with their shares: read them with
    /// [`TopicAssignment::shares`].
    pub shares: Shares,
    /// True when rack matching (KIP-881) placed some of this topic's partitions.
    pub rack_aware: bool,
}

/// A topic's subscribers with their shares, as the assignor gave them (shared between
/// topics with the same subscribers and partition count), or, from the sticky assignors,
/// counted from the topic's owners the first time they are read: an assignment of 1,000
/// members over 50 topics holds 50,000 shares (1 MB), which the command line, the what-if
/// and the grid's other topics never read.
#[derive(Debug, Clone)]
pub enum Shares {
    /// Given by the assignor.
    Given(std::rc::Rc<[Share]>),
    /// The subscribers in assignor order; each one's quota is the number of the topic's
    /// partitions it got.
    Counted {
        subscribers: std::rc::Rc<[u32]>,
        counted: std::cell::OnceCell<std::rc::Rc<[Share]>>,
        /// Each share's `first` is the first partition it got (the broker's range assignor,
        /// whose ranges are contiguous).
        ranges: bool,
    },
}

impl From<std::rc::Rc<[Share]>> for Shares {
    fn from(shares: std::rc::Rc<[Share]>) -> Self {
        Shares::Given(shares)
    }
}

impl Shares {
    /// Shares counted from the owners when first read.
    pub fn counted(subscribers: std::rc::Rc<[u32]>) -> Shares {
        Shares::Counted {
            subscribers,
            counted: std::cell::OnceCell::new(),
            ranges: false,
        }
    }

    /// Shares counted from the owners when first read, each with the first partition it got
    /// (a range assignor's contiguous ranges).
    pub fn ranges(subscribers: std::rc::Rc<[u32]>) -> Shares {
        Shares::Counted {
            subscribers,
            counted: std::cell::OnceCell::new(),
            ranges: true,
        }
    }
}

impl TopicAssignment {
    /// The topic's subscribers in assignor order, with their shares.
    pub fn shares(&self) -> &std::rc::Rc<[Share]> {
        match &self.shares {
            Shares::Given(shares) => shares,
            Shares::Counted {
                subscribers,
                counted,
                ranges,
            } => counted.get_or_init(|| {
                // each owner's count, read off in the subscribers' order
                let mut got = vec![0u32; subscribers.iter().max().map_or(0, |m| *m as usize + 1)];
                for o in &self.owners {
                    if let Some(c) = got.get_mut(*o as usize) {
                        *c += 1;
                    }
                }
                let mut shares = zero_shares(subscribers);
                for s in &mut shares {
                    s.quota = got[s.member as usize];
                }
                if *ranges {
                    // (the first partition each owner got, where its range starts)
                    let mut first = vec![u32::MAX; got.len()];
                    for (p, o) in self.owners.iter().enumerate() {
                        if let Some(f) = first.get_mut(*o as usize) {
                            *f = (*f).min(p as u32);
                        }
                    }
                    for s in &mut shares {
                        s.first = Some(first[s.member as usize]).filter(|f| *f != u32::MAX);
                    }
                }
                shares.into()
            }),
        }
    }
    /// How many members subscribe to the topic.
    pub fn subscribers(&self) -> usize {
        match &self.shares {
            Shares::Given(shares) => shares.len(),
            Shares::Counted { subscribers, .. } => subscribers.len(),
        }
    }
    /// n div m, the base share.
    pub fn per_member(&self) -> u32 {
        let m = self.subscribers() as u32;
        self.partitions.checked_div(m).unwrap_or(0)
    }
    /// n mod m, how many members get one more.
    pub fn extra(&self) -> u32 {
        let m = self.subscribers() as u32;
        self.partitions.checked_rem(m).unwrap_or(0)
    }
}

impl PartialEq for Shares {
    /// The same shares; counted ones by their subscribers (with the topic's owners, which
    /// [`TopicAssignment`] compares, they are the counts), whether counted yet or not.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Shares::Given(a), Shares::Given(b)) => a == b,
            (
                Shares::Counted {
                    subscribers: a,
                    ranges: x,
                    ..
                },
                Shares::Counted {
                    subscribers: b,
                    ranges: y,
                    ..
                },
            ) => x == y && a == b,
            _ => false,
        }
    }
}

impl Eq for Shares {}

/// An assignment with the reasons for it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Assignment {
    /// The assignor that produced it.
    pub assignor: AssignorKind,
    /// Member indices in assignor order (the Java client's: static members first, then
    /// Java string order; librdkafka's: see [`LeaderClient`]).
    pub order: Vec<u32>,
    /// Every subscribed topic, in Java name order.
    pub topics: Vec<TopicAssignment>,
    /// Per member (input index), the partitions it got across all topics.
    pub totals: Vec<u32>,
    /// What the Java client did that a reader would not expect, and why (sticky assignors).
    pub notes: Vec<sticky::Note>,
    /// Grants [`TopicAssignment::owners`] cannot hold: a partition that does not exist, or a
    /// second member given one partition (Java quirks; see `notes`).
    pub extra: Vec<sticky::Grant>,
    /// Cooperative-sticky: partitions changing owner, withheld until the follow-up rebalance.
    pub withheld: Vec<sticky::Withheld>,
}

impl Assignment {
    /// The assignment in the vectors' shape: {memberId: {topic: [partitions]}}, every
    /// member present; a partition Java gives that does not exist is there as Java has it
    /// (past its topic's end, or negative).
    pub fn to_map(&self, input: &GroupInput) -> BTreeMap<String, BTreeMap<String, Vec<i32>>> {
        let mut out: BTreeMap<String, BTreeMap<String, Vec<i32>>> = input
            .members
            .iter()
            .map(|m| (m.id.clone(), BTreeMap::new()))
            .collect();
        for t in &self.topics {
            for (p, owner) in t.owners.iter().enumerate() {
                if *owner == UNASSIGNED {
                    continue;
                }
                let id = &input.members[*owner as usize].id;
                if let Some(m) = out.get_mut(id) {
                    m.entry(t.topic.clone()).or_default().push(p as i32);
                }
            }
        }
        // Java's quirks: a partition that does not exist, or one given twice
        for g in &self.extra {
            let id = &input.members[g.member as usize].id;
            if let Some(m) = out.get_mut(id) {
                m.entry(g.topic.clone()).or_default().push(g.partition);
            }
        }
        out
    }

    /// The largest and smallest member total (over all members, idle ones included).
    pub fn max_min(&self) -> (u32, u32) {
        let max = self.totals.iter().copied().max().unwrap_or(0);
        let min = self.totals.iter().copied().min().unwrap_or(0);
        (max, min)
    }

    /// Partitions of `member` (input index) per topic, in topic order.
    pub fn partitions_of(&self, member: u32) -> Vec<(&str, Vec<u32>)> {
        self.topics
            .iter()
            .filter_map(|t| {
                let ps: Vec<u32> = t
                    .owners
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| **o == member)
                    .map(|(p, _)| p as u32)
                    .collect();
                (!ps.is_empty()).then_some((t.topic.as_str(), ps))
            })
            .collect()
    }
}

/// Kafka's ClientSideAssignorBenchmark scenario: `members` members all subscribed to
/// `topics` topics of `partitions` partitions each.
pub fn benchmark_input(members: u32, topics: u32, partitions: u32) -> GroupInput {
    let names: Vec<String> = (0..topics).map(|t| format!("topic-{t}")).collect();
    // One list shared by every member, as Kafka's benchmark shares its topic names.
    let shared: TopicList = names.clone().into();
    GroupInput {
        topics: names
            .iter()
            .map(|n| TopicMeta {
                name: n.clone(),
                partitions,
                racks: vec![],
            })
            .collect(),
        members: (0..members)
            .map(|m| MemberMeta {
                id: format!("consumer-{m}"),
                topics: shared.clone(),
                ..Default::default()
            })
            .collect(),
        topic_ids: Vec::new(),
    }
}

/// The cases the page's speed is judged on, measured in the page (tests/web.rs) and natively
/// (`cargo bench -p rebalance-lab-core --bench core -- speed`), which the test command prints
/// side by side: Kafka's benchmark group ([`benchmark_input`], 1,000 members x 50 topics x
/// 200 partitions) under every assignor, fresh and after one member leaves ([`one_leaves`]).
pub fn speed_cases() -> Result<Vec<(AssignorKind, &'static str, GroupInput)>, sticky::StickyError> {
    let fresh = benchmark_input(1_000, 50, 200);
    let mut cases = Vec::new();
    for kind in AssignorKind::ALL {
        let left = one_leaves(&fresh, kind)?;
        cases.push((kind, "fresh", fresh.clone()));
        cases.push((kind, "one-leaves", left));
    }
    Ok(cases)
}

/// The time of one run of `f` in milliseconds, as the speed cases are timed in the page and
/// natively alike (`now` is the clock in milliseconds: `performance.now()` in the page,
/// `Instant` natively): warmed for at least 5 runs and 250 ms (a browser compiles a function
/// lazily and optimises it once it has run a while), then the median of five means, each over
/// the runs that fill 20 ms (the browser's clock steps by 0.1 ms).
pub fn median_run_ms(now: impl Fn() -> f64, mut f: impl FnMut()) -> f64 {
    let mut runs = |least: u32, ms: f64| {
        let (t0, mut n) = (now(), 0);
        while n < least || now() - t0 < ms {
            f();
            n += 1;
        }
        (now() - t0) / f64::from(n)
    };
    runs(5, 250.0);
    let mut times: Vec<f64> = (0..5).map(|_| runs(1, 20.0)).collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times[2]
}

/// Kafka's ServerSideAssignorBenchmark-like group for the broker's assignors: as
/// [`benchmark_input`], except that with `heterogeneous` member m subscribes to half the
/// topics, the `topics / 2` from topic m (mod `topics`) on (overlapping windows: every
/// topic has about half the members).
pub fn server_benchmark_input(
    members: u32,
    topics: u32,
    partitions: u32,
    heterogeneous: bool,
) -> GroupInput {
    let mut input = benchmark_input(members, topics, partitions);
    if heterogeneous {
        let names: Vec<String> = input.topics.iter().map(|t| t.name.clone()).collect();
        let half = (topics / 2).max(1);
        for (m, member) in input.members.iter_mut().enumerate() {
            member.topics = (0..half)
                .map(|k| names[(m + k as usize) % names.len()].clone())
                .collect::<Vec<_>>()
                .into();
        }
    }
    input
}

/// The next epoch after `result` when one member leaves: every other member owns what
/// `result` gave it (its current target assignment) and the last member is gone.
pub fn one_leaves_target(input: &GroupInput, result: &Assignment) -> GroupInput {
    let mut next = input.clone();
    for (i, m) in next.members.iter_mut().enumerate() {
        m.owned = result
            .partitions_of(i as u32)
            .into_iter()
            .map(|(t, ps)| (t.to_string(), ps.into_iter().map(|p| p as i32).collect()))
            .collect();
    }
    next.members.pop();
    next
}

/// The benchmark's second scenario: assign `input` with `kind`, give every member what it
/// got (generation 1), then remove the last member.
pub fn one_leaves(
    input: &GroupInput,
    kind: AssignorKind,
) -> Result<GroupInput, sticky::StickyError> {
    let first = try_assign(kind, input)?;
    let mut next = sticky::follow_up_input(input, &first);
    next.members.pop();
    Ok(next)
}

/// Runs the chosen assignor; `None` where Java throws (see [`try_assign`] for why).
pub fn assign(kind: AssignorKind, input: &GroupInput) -> Option<Assignment> {
    try_assign(kind, input).ok()
}

/// Runs the chosen assignor as the leader's client would: range and round-robin in that
/// client's member order (see [`LeaderClient`]); `None` where Java throws.
pub fn assign_with(
    kind: AssignorKind,
    input: &GroupInput,
    client: LeaderClient,
) -> Option<Assignment> {
    try_assign_with(kind, input, client).ok()
}

/// Runs the chosen assignor; an error names the exception Java throws instead of assigning
/// (the sticky assignors only: range and round-robin always answer).
pub fn try_assign(
    kind: AssignorKind,
    input: &GroupInput,
) -> Result<Assignment, sticky::StickyError> {
    try_assign_with(kind, input, LeaderClient::Java)
}

/// [`try_assign`] as the leader's client would run it (the sticky assignors exist only in
/// the Java client's order).
pub fn try_assign_with(
    kind: AssignorKind,
    input: &GroupInput,
    client: LeaderClient,
) -> Result<Assignment, sticky::StickyError> {
    match kind {
        AssignorKind::Range => Ok(range_with(input, client)),
        AssignorKind::RoundRobin => Ok(round_robin_with(input, client)),
        AssignorKind::Sticky => sticky::sticky(input),
        AssignorKind::CooperativeSticky => sticky::cooperative_sticky(input),
        AssignorKind::Uniform => Ok(uniform(input)?),
        AssignorKind::ServerRange => Ok(server_range(input)),
    }
}

/// Shared preparation: members in assignor order, and every subscribed topic (Java name
/// order) with its subscribers in that order.
pub(crate) struct Prepared<'a> {
    pub order: Vec<u32>,
    pub topics: Vec<PreparedTopic<'a>>,
    /// Subscriber lists, each in order; topics with the same subscribers may share one.
    pub lists: Vec<Vec<u32>>,
}

/// (topic name, metadata if present with partitions > 0, its subscribers' list in
/// [`Prepared::lists`])
pub(crate) type PreparedTopic<'a> = (&'a str, Option<&'a TopicMeta>, u32);

/// Members in the leader `client`'s order, and every subscribed topic (in that client's name
/// order) with its subscribers in member order.
pub(crate) fn prepare_with(input: &GroupInput, client: LeaderClient) -> Prepared<'_> {
    let order = match client {
        LeaderClient::Java => java_order(input),
        LeaderClient::Librdkafka => librdkafka_order(&input.members),
    };
    prepare_in_order(input, order, client)
}

/// The Java client's member order.
fn java_order(input: &GroupInput) -> Vec<u32> {
    // Sort compact keys (static first, then the compared id) rather than chasing each
    // member on every comparison.
    let mut keys: Vec<(bool, &str, &str, u32)> = input
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| match &m.instance_id {
            Some(inst) => (false, inst.as_str(), m.id.as_str(), i as u32),
            None => (true, m.id.as_str(), "", i as u32),
        })
        .collect();
    crate::collections::sort_by(&mut keys, |a, b| {
        a.0.cmp(&b.0)
            .then_with(|| string_compare(a.1, b.1))
            .then_with(|| string_compare(a.2, b.2))
            .then(a.3.cmp(&b.3))
    });
    keys.iter().map(|k| k.3).collect()
}

/// Every member's subscribed names as name ids (first appearance in member order, into
/// `names`), duplicates kept as the member lists them. A member listing the previous
/// member's topics shares its ids (natively by `Rc`'s equality: nothing to read when it
/// shares the list itself, as Kafka's benchmark does).
pub(crate) struct Subscribed<'a> {
    /// Every subscribed name, by name id.
    pub names: Vec<&'a str>,
    flat: Vec<u32>,
    /// Per member, its part of `flat`.
    spans: Vec<(u32, u32)>,
    /// Whether every member has the first member's span (and there is one).
    pub one_list: bool,
}

impl Subscribed<'_> {
    /// Member `m`'s subscription as name ids.
    pub fn of(&self, m: u32) -> &[u32] {
        let (a, b) = self.spans[m as usize];
        &self.flat[a as usize..b as usize]
    }

    /// Whether members `a` and `b` share one list of ids (the same list, or an equal one
    /// listed next to it).
    pub fn same(&self, a: u32, b: u32) -> bool {
        self.one_list || self.spans[a as usize] == self.spans[b as usize]
    }
}

/// A topic's subscribers (in order) with no partitions yet.
pub(crate) fn zero_shares(subscribers: &[u32]) -> Vec<Share> {
    subscribers
        .iter()
        .enumerate()
        .map(|(i, m)| Share {
            member: *m,
            index: i as u32,
            quota: 0,
            first: None,
        })
        .collect()
}

/// [`Subscribed`] for `members`, read in input order (sequential memory).
pub(crate) fn subscribed(members: &[MemberMeta]) -> Subscribed<'_> {
    let mut ids: crate::collections::FastMap<&str, u32> = Default::default();
    let mut out = Subscribed {
        names: Vec::new(),
        flat: Vec::new(),
        spans: Vec::with_capacity(members.len()),
        one_list: !members.is_empty(),
    };
    let mut prev: Option<&TopicList> = None;
    for m in members {
        if prev.is_none_or(|p| *p != m.topics) {
            out.one_list &= prev.is_none();
            let start = out.flat.len() as u32;
            for t in m.topics.iter() {
                let id = *ids.entry(t.as_str()).or_insert_with(|| {
                    out.names.push(t.as_str());
                    (out.names.len() - 1) as u32
                });
                out.flat.push(id);
            }
            out.spans.push((start, out.flat.len() as u32));
            prev = Some(&m.topics);
        } else {
            out.spans.push(out.spans[out.spans.len() - 1]);
        }
    }
    out
}

fn prepare_in_order(input: &GroupInput, order: Vec<u32>, client: LeaderClient) -> Prepared<'_> {
    // Topic name to its position in the metadata, and to its position in `topics`.
    let meta: Names = input
        .topics
        .iter()
        .enumerate()
        .filter(|(_, t)| t.partitions > 0)
        .map(|(i, t)| (t.name.clone(), i as u32))
        .collect();
    let subs = subscribed(&input.members);
    // Topic index = name id.
    let mut topics: Vec<PreparedTopic<'_>> = subs
        .names
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                *t,
                meta.get(*t).map(|m| &input.topics[*m as usize]),
                i as u32,
            )
        })
        .collect();
    let lists = if subs.one_list {
        // Everyone lists the same topics (the usual group): each topic's subscribers are
        // all the members in order, one list shared by every topic.
        for t in &mut topics {
            t.2 = 0;
        }
        vec![order.clone()]
    } else {
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); topics.len()];
        // Members in assignor order: each topic's subscribers come out sorted.
        for &m in &order {
            for &i in subs.of(m) {
                let list = &mut lists[i as usize];
                // A topic listed twice in one subscription counts once (Java dedups by
                // member id).
                if list.last() != Some(&m) {
                    list.push(m);
                }
            }
        }
        lists
    };
    match client {
        LeaderClient::Java => {
            crate::collections::sort_by(&mut topics, |a, b| string_compare(a.0, b.0))
        }
        // rd_kafka_assignor_topic_cmp: strcmp on the names.
        LeaderClient::Librdkafka => {
            crate::collections::sort_by(&mut topics, |a, b| a.0.as_bytes().cmp(b.0.as_bytes()))
        }
    }
    Prepared {
        order,
        topics,
        lists,
    }
}

pub(crate) fn totals(n: usize, topics: &[TopicAssignment]) -> Vec<u32> {
    let mut totals = vec![0u32; n];
    for t in topics {
        for o in &t.owners {
            if *o != UNASSIGNED {
                totals[*o as usize] += 1;
            }
        }
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn member(id: &str, topics: &[&str]) -> MemberMeta {
        MemberMeta {
            id: id.into(),
            topics: topics
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .into(),
            ..Default::default()
        }
    }

    pub(crate) fn topic(name: &str, n: u32) -> TopicMeta {
        TopicMeta {
            name: name.into(),
            partitions: n,
            racks: vec![],
        }
    }

    #[test]
    fn seven_partitions_three_members() {
        let input = GroupInput {
            topics: vec![topic("t", 7)],
            members: vec![
                member("c", &["t"]),
                member("a", &["t"]),
                member("b", &["t"]),
            ],
            ..Default::default()
        };
        let a = range(&input);
        let t = &a.topics[0];
        assert_eq!(t.owners, vec![1, 1, 1, 2, 2, 0, 0]);
        assert_eq!((t.per_member(), t.extra()), (2, 1));
        let firsts: Vec<_> = t
            .shares()
            .iter()
            .map(|s| (s.member, s.quota, s.first))
            .collect();
        assert_eq!(
            firsts,
            vec![(1, 3, Some(0)), (2, 2, Some(3)), (0, 2, Some(5))]
        );
        assert_eq!(a.totals, vec![2, 3, 2]);
    }
}
