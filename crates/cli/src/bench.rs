//! `rebalance-lab bench`: Kafka's ClientSideAssignorBenchmark scenario, timed.

use super::assign::Assignor;
use rebalance_lab_core::assignor::{self, AssignorKind};
use serde_json::json;
use std::collections::HashSet;
use std::time::Instant;

/// The rebalance timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Rebalance {
    /// A new group: nobody owns anything.
    Fresh,
    /// The next epoch after a fresh assignment, with one member gone (the others own their
    /// previous target assignment).
    OneLeaves,
}

/// Time an assignor on Kafka's benchmark scenario (every member subscribed to every topic).
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Time an assignor on Kafka's ClientSideAssignorBenchmark scenario: M members \
all subscribed to T topics of P partitions each; prints the median of N runs, after as many \
untimed runs (none started after half a second). Build with --release for meaningful \
figures.",
    after_help = "\
Examples:
  rebalance-lab bench --assignor roundrobin --members 1000 --topics 50 --partitions 200
  rebalance-lab bench --runs 5 --json
  rebalance-lab bench --assignor uniform --rebalance one-leaves --heterogeneous"
)]
pub struct Args {
    /// The assignor to time.
    #[arg(long, value_enum, value_name = "ASSIGNOR", default_value = "range")]
    assignor: Assignor,
    /// Members in the group.
    #[arg(long, value_name = "M", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    members: u32,
    /// Topics, all subscribed by every member.
    #[arg(long, value_name = "T", default_value_t = 50,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    topics: u32,
    /// Partitions per topic.
    #[arg(long, value_name = "P", default_value_t = 200,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    partitions: u32,
    /// Timed runs (the median is printed).
    #[arg(long, value_name = "N", default_value_t = 21,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    runs: u32,
    /// Which rebalance to time.
    #[arg(long, value_enum, value_name = "REBALANCE", default_value = "fresh")]
    rebalance: Rebalance,
    /// Each member subscribes to half the topics (an overlapping window) instead of all.
    #[arg(long)]
    heterogeneous: bool,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> Result<String, String> {
    let kind = AssignorKind::from(a.assignor);
    let (members, topics, partitions, runs) = (a.members, a.topics, a.partitions, a.runs);
    if topics as u64 * partitions as u64 > 10_000_000 {
        return Err("--topics × --partitions is above 10,000,000 partitions".into());
    }
    let mut input = assignor::server_benchmark_input(members, topics, partitions, a.heterogeneous);
    if a.rebalance == Rebalance::OneLeaves {
        input = match kind {
            AssignorKind::Sticky | AssignorKind::CooperativeSticky => {
                assignor::one_leaves(&input, kind).map_err(|e| e.to_string())?
            }
            _ => {
                let fresh = assignor::try_assign(kind, &input).map_err(|e| e.to_string())?;
                assignor::one_leaves_target(&input, &fresh)
            }
        };
    }
    // Partitions somebody subscribes to: every one is assigned.
    let subscribed: HashSet<&str> = input
        .members
        .iter()
        .flat_map(|m| m.topics.iter().map(|t| t.as_str()))
        .collect();
    let expected_total = subscribed.len() as u64 * partitions as u64;
    // StickyAssignor's previous assignment travels in each member's user data, which Java's
    // assign() deserializes (StickyAssignor.memberData): the timed run decodes the same bytes
    // into the members' owned lists first (`decode`), untimed only the copy they are put in.
    let user_data = (a.rebalance == Rebalance::OneLeaves && kind == AssignorKind::Sticky)
        .then(|| sticky_user_data(&input))
        .transpose()?;
    let mut work = input.clone();
    let once = |work: &mut assignor::GroupInput| {
        if let Some(bytes) = &user_data {
            decode(work, bytes)?;
        }
        assignor::try_assign(kind, work).map_err(|e| e.to_string())
    };
    // Steady state, as the Java side's warm-up gives Java: untimed runs first (the
    // allocator's heap grown, the caches and the CPU's clock warm): as many runs as are
    // timed, none started after half a second.
    let warm = Instant::now();
    for _ in 0..runs {
        if warm.elapsed().as_secs_f64() > 0.5 {
            break;
        }
        once(&mut work)?;
    }
    let mut times = Vec::with_capacity(runs as usize);
    let mut check = 0u64;
    for _ in 0..runs {
        // (the previous run's lists freed before the clock starts: the JVM pays nothing per
        // dead object either)
        if user_data.is_some() {
            for m in &mut work.members {
                m.owned = Vec::new();
            }
        }
        let t = Instant::now();
        let r = once(&mut work)?;
        times.push(t.elapsed().as_secs_f64() * 1e6);
        check += r.totals.iter().map(|x| *x as u64).sum::<u64>() + r.withheld.len() as u64;
    }
    times.sort_by(|x, y| x.total_cmp(y));
    let median = times[times.len() / 2];
    if check != runs as u64 * expected_total {
        return Err("internal check failed: not every partition was assigned".into());
    }
    if a.json {
        Ok(json!({
            "assignor": kind.name(), "members": members, "topics": topics,
            "partitions_per_topic": partitions, "runs": runs, "median_us": median,
            "rebalance": match a.rebalance { Rebalance::Fresh => "fresh", Rebalance::OneLeaves => "one-leaves" },
            "heterogeneous": a.heterogeneous,
            // (sticky one-leaves: each run decodes every member's user data once; Java's
            // assign() decodes it too, twice when subscriptions differ)
            "decodes_user_data": user_data.is_some(),
        })
        .to_string())
    } else {
        Ok(format!(
            "{}{}{}: {members} members × {topics} topics × {partitions} partitions: median {:.1} µs over {runs} runs",
            kind.name(),
            if a.heterogeneous { ", heterogeneous" } else { "" },
            if a.rebalance == Rebalance::OneLeaves { ", one member gone" } else { "" },
            median
        ))
    }
}

/// Each member's previous partitions and generation as StickyAssignor's user data (V1, as
/// Java writes it).
fn sticky_user_data(input: &assignor::GroupInput) -> Result<Vec<Vec<u8>>, String> {
    use rebalance_lab_core::protocol::{encode_sticky_user_data, TopicPartitions};
    input
        .members
        .iter()
        .map(|m| {
            let previous = TopicPartitions::list(m.owned.iter().map(|(t, ps)| (t, ps)));
            encode_sticky_user_data(&previous, m.generation.unwrap_or(-1))
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// Puts each member's user data, decoded, in its owned partitions and generation.
fn decode(input: &mut assignor::GroupInput, user_data: &[Vec<u8>]) -> Result<(), String> {
    use rebalance_lab_core::protocol::sticky::{decode_sticky_user_data, StickyUserData};
    for (m, bytes) in input.members.iter_mut().zip(user_data) {
        let Some(StickyUserData::Sticky {
            previous,
            generation,
        }) = decode_sticky_user_data(bytes)
        else {
            return Err(format!(
                "internal check failed: {}'s user data does not decode",
                m.id
            ));
        };
        m.owned = previous
            .into_iter()
            .map(|tp| (tp.topic, tp.partitions))
            .collect();
        m.generation = generation;
    }
    Ok(())
}
