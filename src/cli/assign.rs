//! `rebalance-lab assign`: the assignment of a scenario file.

use super::input::read_input;
use crate::assignor::{self, AssignorKind};
use crate::scenario::Scenario;

/// The assignors this version runs.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Assignor {
    /// RangeAssignor (Kafka's default).
    Range,
    /// RoundRobinAssignor.
    #[value(name = "roundrobin", alias = "round-robin", alias = "round_robin")]
    RoundRobin,
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
            Assignor::Uniform => AssignorKind::Uniform,
            Assignor::ServerRange => AssignorKind::ServerRange,
        }
    }
}

/// Print the assignment of a scenario as JSON {member: {topic: [partitions]}}.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Print the assignment of a scenario as JSON {member: {topic: [partitions]}}, \
one member per line, every member present.\n\n\
A scenario file has the shape of an entry in tests/vectors/*.json: a `topics` map of name \
to partition count, optional `partition_racks`, `members` (id, instance_id, rack, topics, \
owned, generation, or `subscription` as hex) and `assignor`.\n\n\
For the broker's assignors (uniform, server-range), `owned` is each member's current \
target assignment and `topic_ids` maps topic names to Kafka topic ids (22 base64url \
characters); a topic without one gets an id derived from its name.",
    after_help = "\
Examples:
  rebalance-lab assign examples/three-topics.json
  cat examples/three-topics.json | rebalance-lab assign - --assignor roundrobin
  rebalance-lab assign examples/three-topics.json --assignor uniform"
)]
pub struct Args {
    /// The scenario file (JSON), or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// The assignor to run instead of the scenario's own.
    #[arg(long, value_enum, value_name = "ASSIGNOR")]
    assignor: Option<Assignor>,
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
    let input = scenario.group_input();
    let result = assignor::try_assign(kind, &input)
        .map_err(|e| e.to_string())?
        .ok_or(format!(
            "the {} assignor is not implemented in this version; use --assignor range, \
             roundrobin, uniform or server-range",
            kind.name()
        ))?;
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
