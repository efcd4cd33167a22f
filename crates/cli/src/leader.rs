//! `rebalance-lab leader`: who leads a classic group after members join and leave.

use super::input::read_input;
use rebalance_lab_core::group::leader_after;
use serde::Deserialize;

/// Print the group leader after joins and leaves.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Members join in order, then leave in order; print the leader, as Kafka's \
broker (ClassicGroup) chooses it: the first member added leads, and when the leader leaves, \
the first key of the members HashMap does (with --json: {\"leader\"}).\n\n\
FILE is a JSON object {\"joins\": [ID, ...], \"leaves\": [ID, ...]}.",
    after_help = "\
Examples:
  echo '{\"joins\": [\"z\", \"y\", \"x\"], \"leaves\": [\"z\"]}' | rebalance-lab leader -
  rebalance-lab leader group.json --json"
)]
pub struct Args {
    /// The joins and leaves (JSON), or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// Print JSON {"leader"} instead of the steps.
    #[arg(long)]
    json: bool,
}

#[derive(Deserialize)]
struct Input {
    joins: Vec<String>,
    #[serde(default)]
    leaves: Vec<String>,
}

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

pub fn run(a: Args) -> Result<String, String> {
    let input: Input =
        serde_json::from_str(&read_input(&a.file)?).map_err(|e| format!("{}: {e}", a.file))?;
    let h = leader_after(&input.joins, &input.leaves);
    let leader = h.leader.as_deref().map_or("null".into(), q);
    if a.json {
        return Ok(format!("{{\"leader\": {leader}}}"));
    }
    let mut out: Vec<String> = h.steps.iter().map(|s| s.why.clone()).collect();
    out.push(format!("leader: {leader}"));
    out.push(format!(
        "next leader if it leaves: {}",
        h.next_leader.as_deref().map_or("none".into(), q)
    ));
    Ok(out.join("\n"))
}
