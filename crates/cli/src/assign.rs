//! `rebalance-lab assign`: the assignment of a scenario file.

use super::input::read_input;
use rebalance_lab_core::assignor::{librdkafka_order_is_total, AssignorKind, LeaderClient};
use rebalance_lab_core::scenario::Scenario;

/// The assignors this version runs.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Assignor {
    /// RangeAssignor (Kafka's default).
    Range,
    /// RoundRobinAssignor.
    #[value(name = "roundrobin", alias = "round-robin", alias = "round_robin")]
    RoundRobin,
    /// StickyAssignor (eager); previous assignment from each member's owned + generation.
    Sticky,
    /// CooperativeStickyAssignor, round 1 (--follow-up for round 2).
    #[value(name = "cooperative-sticky")]
    CooperativeSticky,
    /// The broker's KIP-848 uniform assignor (reads topic_ids and owned).
    Uniform,
    /// The broker's KIP-848 range assignor (group.remote.assignor=range).
    #[value(name = "server-range", alias = "server_range")]
    ServerRange,
}

impl From<Assignor> for AssignorKind {
    fn from(a: Assignor) -> Self {
        match a {
            Assignor::Range => AssignorKind::Range,
            Assignor::RoundRobin => AssignorKind::RoundRobin,
            Assignor::Sticky => AssignorKind::Sticky,
            Assignor::CooperativeSticky => AssignorKind::CooperativeSticky,
            Assignor::Uniform => AssignorKind::Uniform,
            Assignor::ServerRange => AssignorKind::ServerRange,
        }
    }
}

/// The client library of the group leader, which computes the assignment.
#[derive(Debug, Clone, Copy, Default, clap::ValueEnum)]
pub enum Client {
    /// The Apache Kafka Java client (static members first, Java string order).
    #[default]
    Java,
    /// librdkafka (member ids in byte order, two static members by instance id).
    Librdkafka,
}

impl From<Client> for LeaderClient {
    fn from(c: Client) -> Self {
        match c {
            Client::Java => LeaderClient::Java,
            Client::Librdkafka => LeaderClient::Librdkafka,
        }
    }
}

/// Print the assignment of a scenario as JSON {member: {topic: [partitions]}}.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Print the assignment of a scenario as JSON {member: {topic: [partitions]}}, \
one member per line, every member present.\n\n\
A scenario file has the shape of an entry in crates/core/tests/vectors/*.json: a `topics` map of name \
to partition count, optional `partition_racks`, `members` (id, instance_id, rack, topics, \
owned, generation, or `subscription` as hex) and `assignor`.\n\n\
For the broker's assignors (uniform, server-range), `owned` is each member's current \
target assignment and `topic_ids` maps topic names to Kafka topic ids (22 base64url \
characters); a topic without one gets an id derived from its name.",
    after_help = "\
Examples:
  rebalance-lab assign examples/three-topics.json
  cat examples/three-topics.json | rebalance-lab assign - --assignor roundrobin
  rebalance-lab assign examples/three-topics.json --leader-client librdkafka
  rebalance-lab assign group.json --assignor cooperative-sticky --follow-up
  rebalance-lab assign examples/three-topics.json --assignor uniform"
)]
pub struct Args {
    /// The scenario file (JSON), or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// The assignor to run instead of the scenario's own.
    #[arg(long, value_enum, value_name = "ASSIGNOR")]
    assignor: Option<Assignor>,
    /// The leader's client, whose member order range and round-robin follow.
    #[arg(long, value_enum, value_name = "CLIENT", default_value = "java")]
    leader_client: Client,
    /// cooperative-sticky: print the follow-up rebalance (round 2: members own what round 1
    /// gave them) instead of round 1.
    #[arg(long)]
    follow_up: bool,
}

pub fn run(a: Args) -> Result<String, String> {
    let scenario = Scenario::from_json(&read_input(&a.file)?)?;
    if let Some(p) = scenario.problems().first() {
        return Err(p.to_string());
    }
    let kind = a.assignor.map_or(scenario.assignor, AssignorKind::from);
    if kind == AssignorKind::RoundRobin && scenario.members.is_empty() {
        eprintln!(
            "note: Java's RoundRobinAssignor throws on an empty group; here it is an empty result"
        );
    }
    if a.follow_up && kind != AssignorKind::CooperativeSticky {
        return Err("--follow-up is for --assignor cooperative-sticky".into());
    }
    let client = LeaderClient::from(a.leader_client);
    let (mut input, mut result) = scenario
        .try_assign_with(kind, client)
        .map_err(|e| e.to_string())?;
    if a.follow_up {
        input = rebalance_lab_core::assignor::sticky::follow_up_input(&input, &result);
        result = rebalance_lab_core::assignor::sticky::cooperative_sticky(&input)
            .map_err(|e| e.to_string())?;
    }
    for n in &result.notes {
        eprintln!("note: {}", n.text);
    }
    if !result.withheld.is_empty() {
        let list: Vec<String> = result
            .withheld
            .iter()
            .map(|w| format!("{}-{}", w.topic, w.partition))
            .collect();
        eprintln!(
            "note: withheld until the follow-up rebalance (they change owner): {}",
            list.join(", ")
        );
    }
    if client == LeaderClient::Librdkafka {
        if !librdkafka_order_is_total(&input.members) {
            eprintln!(
                "note: with these static and dynamic members librdkafka's member comparison is \
                 cyclic; its order then depends on the C library's qsort, and this is one \
                 possible answer"
            );
        }
        if kind == AssignorKind::Range && input.members.iter().any(|m| m.rack.is_some()) {
            eprintln!(
                "note: racks are placed with the Java client's rack-aware range; librdkafka's \
                 differs in details and is not reproduced"
            );
        }
    }
    // One member per line: readable, and still JSON.
    let map = result.to_map(&input);
    let lines: Vec<String> = map
        .iter()
        .map(|(m, topics)| {
            format!(
                "  {}: {}",
                serde_json::to_string(m).unwrap_or_default(),
                serde_json::to_string(topics).unwrap_or_default()
            )
        })
        .collect();
    Ok(if lines.is_empty() {
        "{}".to_string()
    } else {
        format!("{{\n{}\n}}", lines.join(",\n"))
    })
}
