//! `rebalance-lab vote`: which joiners a classic group accepts and which assignor it picks.

use super::input::read_input;
use rebalance_lab_core::group::{select_protocol, ClientPreset, JoinRequest};
use serde::Deserialize;

/// Print the joiners a group accepts and refuses, the votes and the selected protocol.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Members join in the file's order, each with its protocol (assignor) names in \
preference order; print who is accepted, who is refused (INCONSISTENT_GROUP_PROTOCOL), each \
vote and the selected protocol, exactly as Kafka's broker (ClassicGroup) decides, ties \
included (with --json: {\"accepted\", \"refused\": [{\"id\", \"error\"}], \"votes\", \
\"selected\"}).\n\n\
FILE is a JSON object {\"members\": [{\"id\": ID, \"protocols\": [NAME, ...]}]}; instead of \
\"protocols\" a member may give \"client\": \"java\" | \"librdkafka\" | \"kafka-python\" for \
that client's default list.",
    after_help = "\
Examples:
  echo '{\"members\": [{\"id\": \"a\", \"client\": \"java\"}, {\"id\": \"b\", \"client\": \"librdkafka\"}]}' | rebalance-lab vote -
  rebalance-lab vote members.json --json"
)]
pub struct Args {
    /// The members (JSON), or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Member {
    id: String,
    protocols: Option<Vec<String>>,
    client: Option<String>,
}

#[derive(Deserialize)]
struct Input {
    members: Vec<Member>,
}

fn requests(text: &str, file: &str) -> Result<Vec<JoinRequest>, String> {
    let input: Input = serde_json::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    input
        .members
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            let protocols = match (m.protocols, m.client) {
                (Some(p), None) => p,
                (None, Some(c)) => ClientPreset::parse(&c)
                    .ok_or(format!(
                        "members[{i}].client: {c:?} is not java, librdkafka or kafka-python"
                    ))?
                    .protocols()
                    .iter()
                    .map(|p| p.to_string())
                    .collect(),
                _ => {
                    return Err(format!(
                        "members[{i}]: give either \"protocols\" or \"client\""
                    ))
                }
            };
            Ok(JoinRequest {
                id: m.id,
                protocols,
            })
        })
        .collect()
}

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

pub fn run(a: Args) -> Result<String, String> {
    let reqs = requests(&read_input(&a.file)?, &a.file)?;
    let s = select_protocol(&reqs).map_err(|e| e.to_string())?;
    if let Some(e) = &s.java_exception {
        eprintln!("note: {}; Java throws {e}", s.why);
    }
    if a.json {
        // Votes in the tally HashMap's iteration order (the order ties are broken in).
        let votes: Vec<String> = s
            .tally
            .counts
            .iter()
            .map(|(n, c)| format!("{}: {c}", q(n)))
            .collect();
        let refused: Vec<String> = s
            .refused
            .iter()
            .map(|r| format!("{{\"id\": {}, \"error\": {}}}", q(&r.id), q(r.error.name())))
            .collect();
        let accepted: Vec<String> = s.accepted.iter().map(|m| q(&m.id)).collect();
        return Ok(format!(
            "{{\"accepted\": [{}], \"refused\": [{}], \"votes\": {{{}}}, \"selected\": {}}}",
            accepted.join(", "),
            refused.join(", "),
            votes.join(", "),
            s.selected.as_deref().map_or("null".into(), q)
        ));
    }
    let mut out = Vec::new();
    for m in &s.accepted {
        out.push(format!("accepted {}: {}", q(&m.id), m.why));
    }
    for r in &s.refused {
        out.push(format!("refused  {}: {} ({})", q(&r.id), r.error, r.why));
    }
    if !s.candidates.is_empty() {
        out.push(format!(
            "candidates (listed by every member): {}",
            s.candidates.join(", ")
        ));
    }
    for v in &s.votes {
        match &v.vote {
            Some((p, _)) => out.push(format!("{} votes {p}: {}", q(&v.id), v.why)),
            None => out.push(format!("{} cannot vote: {}", q(&v.id), v.why)),
        }
    }
    if !s.tally.counts.is_empty() {
        let t: Vec<String> = s
            .tally
            .counts
            .iter()
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        out.push(format!("tally (HashMap order): {}", t.join(", ")));
    }
    match &s.selected {
        Some(p) => out.push(format!("selected: {p} ({})", s.why)),
        None => out.push(format!("selected: none ({})", s.why)),
    }
    Ok(out.join("\n"))
}
