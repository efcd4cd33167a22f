//! `rebalance-lab link`: the app link that opens a scenario.

use super::input::read_input;
use rebalance_lab_core::scenario::{link, Scenario};

/// The most characters of subscription bitmasks a link may hold (see
/// [`link::subscription_mask_len`]): far beyond what a browser opens (about 2 MB), and
/// what keeps members × topics from growing the output without bound.
const MAX_MASK_CHARS: u64 = 64 << 20;

/// Print the app link that opens a scenario.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Print the app link that opens a scenario: the scenario lives in the URL \
fragment (#v1;a=r;t=...;m=...), so the link works offline and from a static host.",
    after_help = "\
Examples:
  rebalance-lab link examples/three-topics.json
  rebalance-lab link - --base https://example.org/rebalance-lab/ < examples/three-topics.json"
)]
pub struct Args {
    /// The scenario file (JSON) or kafka-consumer-groups.sh --describe output, or - for
    /// standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// Where the app is served.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080/")]
    base: String,
}

pub fn run(a: Args) -> Result<String, String> {
    let text = read_input(&a.file)?;
    // kafka-consumer-groups.sh output opens the group it shows, as observed.
    let scenario = if rebalance_lab_core::import::looks_like_consumer_groups(&text) {
        super::import::read(&a.file, &text)?.scenario
    } else {
        Scenario::from_json(&text)?
    };
    if let Some(p) = scenario.problems().first() {
        return Err(p.to_string());
    }
    link::writable(&scenario, MAX_MASK_CHARS)?;
    Ok(link::to_link(
        &a.base,
        &link::LinkState {
            scenario,
            ..Default::default()
        },
    ))
}
