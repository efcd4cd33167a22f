//! `rebalance-lab import`: a scenario from what `kafka-consumer-groups.sh --describe` prints.

use super::input::read_input;
use rebalance_lab_core::{export, import};

/// Read the output of kafka-consumer-groups.sh --describe and print the scenario JSON.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Read the output of kafka-consumer-groups.sh --describe --group G (the offsets \
view, --members, --members --verbose, --state, alone or pasted together; Kafka 2.8 to 4.x) and \
print the scenario as JSON: topics, members (id, instance_id, client_id, topics, owned: the \
observed assignment), group_id, assignor (when --state names it) and lag per partition (null \
where unknown). What Kafka warned about, and what does not add up, goes to stderr.",
    after_help = "\
Examples:
  kafka-consumer-groups.sh --bootstrap-server localhost:9092 --describe --group orders > g.txt
  rebalance-lab import g.txt
  rebalance-lab import g.txt | rebalance-lab assign -"
)]
pub struct Args {
    /// The text kafka-consumer-groups.sh printed, or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
}

/// The import of a FILE argument, its warnings on stderr.
pub(super) fn read(file: &str, text: &str) -> Result<import::Import, String> {
    let i = import::parse(text).map_err(|e| format!("{file}: {e}"))?;
    for w in &i.warnings {
        eprintln!("warning: line {}: {}", w.line, w.message);
    }
    Ok(i)
}

pub fn run(a: Args) -> Result<String, String> {
    Ok(export::json::import_json(&read(
        &a.file,
        &read_input(&a.file)?,
    )?))
}
