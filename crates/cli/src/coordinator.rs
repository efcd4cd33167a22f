//! `rebalance-lab coordinator`: which partition of __consumer_offsets coordinates a group.

use super::input::read_input;
use rebalance_lab_core::group::{coordinator, DEFAULT_OFFSETS_PARTITIONS};
use serde::Deserialize;

/// Print the __consumer_offsets partition (and so the broker) that coordinates a group.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Print the __consumer_offsets partition whose leader coordinates a group: \
Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions, step by step (with --json: \
{\"partition\", \"hash_code\"}).\n\n\
The group id comes from --group-id or from FILE, a JSON object {\"group_id\": ID, \
\"offsets_partitions\": N (optional)}, which can hold any character (NUL included).",
    after_help = "\
Examples:
  rebalance-lab coordinator --group-id orders
  rebalance-lab coordinator --group-id orders --partitions 150 --json
  echo '{\"group_id\": \"polygenelubricants\"}' | rebalance-lab coordinator -"
)]
pub struct Args {
    /// A JSON file {\"group_id\", \"offsets_partitions\"}, or - for standard input.
    #[arg(
        value_name = "FILE",
        required_unless_present = "group_id",
        conflicts_with = "group_id"
    )]
    file: Option<String>,
    /// The group id (group.id).
    #[arg(long, value_name = "ID")]
    group_id: Option<String>,
    /// Partitions of __consumer_offsets (offsets.topic.num.partitions; default 50, or the
    /// file's).
    #[arg(long, value_name = "N")]
    partitions: Option<u64>,
    /// Print JSON {"partition", "hash_code"} instead of the steps.
    #[arg(long)]
    json: bool,
}

#[derive(Deserialize)]
struct Input {
    group_id: String,
    offsets_partitions: Option<u64>,
}

pub fn run(a: Args) -> Result<String, String> {
    let (group_id, file_partitions) = match (a.group_id, a.file) {
        (Some(id), _) => (id, None),
        (None, Some(file)) => {
            let input: Input =
                serde_json::from_str(&read_input(&file)?).map_err(|e| format!("{file}: {e}"))?;
            (input.group_id, input.offsets_partitions)
        }
        (None, None) => return Err("give --group-id ID or a FILE".into()),
    };
    let n = a
        .partitions
        .or(file_partitions)
        .unwrap_or(DEFAULT_OFFSETS_PARTITIONS as u64);
    let c = coordinator(&group_id, n).map_err(|e| e.to_string())?;
    if !a.json {
        return Ok(c.explain().join("\n"));
    }
    if let Some(e) = c.join_error() {
        eprintln!("note: JoinGroup refuses an empty group id ({e}) before the partition is used");
    }
    Ok(format!(
        "{{\"partition\": {}, \"hash_code\": {}}}",
        c.partition, c.hash_code
    ))
}
