//! The command-line tool: `rebalance-lab assign|decode|encode|link|bench`.
//!
//! Every bad input gets a message on stderr and exit code 1, never a panic.

use crate::assignor::{self, AssignorKind};
use crate::protocol::{self, hex, Subscription, TopicPartitions};
use crate::scenario::{link, Scenario};
use serde_json::{json, Value};
use std::io::Read;
use std::time::Instant;

const USAGE: &str = "usage: rebalance-lab COMMAND
  assign FILE|- [--assignor range|roundrobin]   assignment as JSON {member: {topic: [partitions]}}
  decode HEX|-                                  decode a ConsumerProtocolSubscription
  encode --version N FILE|-                     encode a subscription (JSON fields) as hex
  link FILE|- [--base URL]                      the app link that opens this scenario
  bench [--assignor A] [--members M] [--topics T] [--partitions P] [--runs N] [--json]";

/// Runs the tool with its arguments (without the program name); returns the exit code.
pub fn run(args: Vec<String>) -> i32 {
    match dispatch(&args) {
        Ok(out) => {
            println!("{out}");
            0
        }
        Err(e) => {
            eprintln!("rebalance-lab: {e}");
            1
        }
    }
}

struct Args {
    positional: Vec<String>,
    flags: Vec<(String, Option<String>)>,
}

impl Args {
    fn parse(args: &[String], with_value: &[&str], switches: &[&str]) -> Result<Args, String> {
        let mut positional = Vec::new();
        let mut flags = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if a.starts_with("--") {
                let (name, inline) = match a.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (a.clone(), None),
                };
                if with_value.contains(&name.as_str()) {
                    let v = match inline {
                        Some(v) => v,
                        None => it.next().cloned().ok_or(format!("{name} needs a value"))?,
                    };
                    flags.push((name, Some(v)));
                } else if switches.contains(&name.as_str()) {
                    flags.push((name, None));
                } else {
                    return Err(format!("unknown option {name}\n{USAGE}"));
                }
            } else {
                positional.push(a.clone());
            }
        }
        Ok(Args { positional, flags })
    }
    fn get(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }
    fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, _)| n == name)
    }
    fn one(&self, what: &str) -> Result<&str, String> {
        match self.positional.as_slice() {
            [one] => Ok(one),
            [] => Err(format!("missing {what}\n{USAGE}")),
            _ => Err(format!(
                "expected one {what}, got {}",
                self.positional.len()
            )),
        }
    }
    fn number<T>(&self, name: &str, default: T, min: u64, max: u64) -> Result<T, String>
    where
        T: std::str::FromStr + Into<u64> + Copy,
    {
        match self.get(name) {
            None => Ok(default),
            Some(v) => {
                let n: T = v.parse().map_err(|_| {
                    format!("{name}: {v:?} is not a whole number from {min} to {max}")
                })?;
                let x: u64 = n.into();
                if x < min || x > max {
                    return Err(format!("{name}: {x} is outside {min}..={max}"));
                }
                Ok(n)
            }
        }
    }
}

fn read_input(arg: &str) -> Result<String, String> {
    if arg == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("reading stdin: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(arg).map_err(|e| format!("{arg}: {e}"))
    }
}

fn dispatch(args: &[String]) -> Result<String, String> {
    let Some((cmd, rest)) = args.split_first() else {
        return Err(USAGE.to_string());
    };
    match cmd.as_str() {
        "assign" => {
            let a = Args::parse(rest, &["--assignor"], &[])?;
            let scenario = Scenario::from_json(&read_input(a.one("scenario file")?)?)?;
            if let Some(p) = scenario.problems().first() {
                return Err(p.to_string());
            }
            let kind = match a.get("--assignor") {
                Some(n) => AssignorKind::parse(n)
                    .ok_or(format!("--assignor: {n:?} is not range or roundrobin"))?,
                None => scenario.assignor,
            };
            if kind == AssignorKind::RoundRobin && scenario.members.is_empty() {
                eprintln!("note: Java's RoundRobinAssignor throws on an empty group; here it is an empty result");
            }
            let (input, result) = scenario.assign(kind).ok_or(format!(
                "the {} assignor is not implemented in this version; use --assignor range or roundrobin",
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
        "decode" => {
            let a = Args::parse(rest, &[], &[])?;
            let arg = a.one("hex (or - for stdin)")?;
            let text = if arg == "-" {
                read_input("-")?
            } else {
                arg.to_string()
            };
            let bytes = hex::parse_hex(&text).map_err(|e| e.to_string())?;
            let d = protocol::decode_subscription(&bytes);
            if let Some(e) = &d.error {
                return Err(e.to_string());
            }
            Ok(serde_json::to_string_pretty(&decoded_json(&d)).unwrap_or_default())
        }
        "encode" => {
            let a = Args::parse(rest, &["--version"], &[])?;
            let v = a
                .get("--version")
                .ok_or("encode needs --version N (0 to 3)")?;
            let version: i16 = v
                .parse()
                .map_err(|_| format!("--version: {v:?} is not a version number"))?;
            let text = read_input(a.one("fields file")?)?;
            let sub = subscription_from_json(&text)?;
            let enc = protocol::encode_subscription(&sub, version).map_err(|e| e.to_string())?;
            for f in &enc.dropped {
                eprintln!("note: {f} is not sent at version {}", enc.version);
            }
            Ok(hex::to_hex(&enc.bytes))
        }
        "link" => {
            let a = Args::parse(rest, &["--base"], &[])?;
            let scenario = Scenario::from_json(&read_input(a.one("scenario file")?)?)?;
            if let Some(p) = scenario.problems().first() {
                return Err(p.to_string());
            }
            let base = a.get("--base").unwrap_or("http://127.0.0.1:8080/");
            Ok(link::to_link(
                base,
                &link::LinkState {
                    scenario,
                    ..Default::default()
                },
            ))
        }
        "bench" => bench(rest),
        "help" | "--help" | "-h" => Ok(USAGE.to_string()),
        other => Err(format!("unknown command {other:?}\n{USAGE}")),
    }
}

/// The decoded subscription in the shape of `decoded` in the vectors.
pub fn decoded_json(d: &protocol::Decoded<Subscription>) -> Value {
    let m = &d.message;
    json!({
        "version": d.header_version.unwrap_or(0),
        "topics": m.topics,
        "user_data": m.user_data.as_ref().map(|u| hex::to_hex(u)),
        "owned_partitions": m.owned_partitions.iter().map(|tp| json!({"topic": tp.topic, "partitions": tp.partitions})).collect::<Vec<_>>(),
        "generation_id": m.generation_id,
        "rack_id": m.rack_id,
        "trailing_bytes": d.trailing_bytes,
    })
}

/// Reads subscription fields from JSON in the shape of `fields` in the vectors.
pub fn subscription_from_json(text: &str) -> Result<Subscription, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("fields JSON: {e}"))?;
    let obj = v.as_object().ok_or("fields JSON: expected an object")?;
    let str_list = |k: &str| -> Result<Vec<String>, String> {
        match obj.get(k) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| {
                    x.as_str()
                        .map(String::from)
                        .ok_or(format!("{k}: expected strings"))
                })
                .collect(),
            Some(_) => Err(format!("{k}: expected a list of strings")),
        }
    };
    let user_data = match obj.get("user_data") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(hex::parse_hex(s).map_err(|e| format!("user_data: {e}"))?),
        Some(_) => return Err("user_data: expected hex or null".into()),
    };
    let mut owned = Vec::new();
    if let Some(Value::Array(a)) = obj.get("owned_partitions") {
        for (i, e) in a.iter().enumerate() {
            let topic = e
                .get("topic")
                .and_then(Value::as_str)
                .ok_or(format!("owned_partitions[{i}].topic: expected a string"))?;
            let parts = e
                .get("partitions")
                .and_then(Value::as_array)
                .ok_or(format!("owned_partitions[{i}].partitions: expected a list"))?
                .iter()
                .map(|p| {
                    p.as_i64()
                        .and_then(|p| i32::try_from(p).ok())
                        .ok_or(format!(
                            "owned_partitions[{i}].partitions: expected int32 values"
                        ))
                })
                .collect::<Result<Vec<i32>, String>>()?;
            owned.push(TopicPartitions {
                topic: topic.to_string(),
                partitions: parts,
            });
        }
    }
    let generation_id = match obj.get("generation_id") {
        None | Some(Value::Null) => -1,
        Some(g) => g
            .as_i64()
            .and_then(|g| i32::try_from(g).ok())
            .ok_or("generation_id: expected an int32")?,
    };
    let rack_id = match obj.get("rack_id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err("rack_id: expected a string or null".into()),
    };
    Ok(Subscription {
        topics: str_list("topics")?,
        user_data,
        owned_partitions: owned,
        generation_id,
        rack_id,
    })
}

fn bench(rest: &[String]) -> Result<String, String> {
    let a = Args::parse(
        rest,
        &[
            "--assignor",
            "--members",
            "--topics",
            "--partitions",
            "--runs",
        ],
        &["--json"],
    )?;
    let kind = match a.get("--assignor") {
        Some(n) => AssignorKind::parse(n)
            .filter(|k| matches!(k, AssignorKind::Range | AssignorKind::RoundRobin))
            .ok_or(format!("--assignor: {n:?} is not range or roundrobin"))?,
        None => AssignorKind::Range,
    };
    let members: u32 = a.number("--members", 1000u32, 1, 100_000)?;
    let topics: u32 = a.number("--topics", 50u32, 1, 100_000)?;
    let partitions: u32 = a.number("--partitions", 200u32, 1, 1_000_000)?;
    let runs: u32 = a.number("--runs", 21u32, 1, 10_000)?;
    if topics as u64 * partitions as u64 > 10_000_000 {
        return Err("--topics × --partitions is above 10,000,000 partitions".into());
    }
    let input = assignor::benchmark_input(members, topics, partitions);
    let mut times = Vec::with_capacity(runs as usize);
    let mut check = 0u64;
    for _ in 0..runs {
        let t = Instant::now();
        let r = assignor::assign(kind, &input)
            .ok_or(format!("the {} assignor is not implemented", kind.name()))?;
        times.push(t.elapsed().as_secs_f64() * 1e6);
        check += r.totals.iter().map(|x| *x as u64).sum::<u64>();
    }
    times.sort_by(|x, y| x.total_cmp(y));
    let median = times[times.len() / 2];
    if check != runs as u64 * topics as u64 * partitions as u64 {
        return Err("internal check failed: not every partition was assigned".into());
    }
    if a.has("--json") {
        Ok(json!({
            "assignor": kind.name(), "members": members, "topics": topics,
            "partitions_per_topic": partitions, "runs": runs, "median_us": median,
        })
        .to_string())
    } else {
        Ok(format!(
            "{}: {members} members × {topics} topics × {partitions} partitions: median {:.1} µs over {runs} runs",
            kind.name(),
            median
        ))
    }
}
