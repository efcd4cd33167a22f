//! `rebalance-lab encode`: a ConsumerProtocolSubscription as hex, from JSON fields.

use super::input::read_input;
use rebalance_lab_core::protocol::{self, hex, Subscription, TopicPartitions};
use serde_json::Value;

/// Encode a ConsumerProtocolSubscription from JSON fields and print it as hex.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Encode a ConsumerProtocolSubscription from JSON fields (topics, user_data \
as hex, owned_partitions [{topic, partitions}], generation_id, rack_id: the shape `decode` \
prints) and print it as hex. Fields the version does not carry are dropped, with a note on \
stderr; a version above 3 is written as 3, as Kafka does.",
    after_help = "\
Examples:
  rebalance-lab encode --version 3 fields.json
  echo '{\"topics\": [\"orders\"], \"rack_id\": \"eu-west-1a\"}' | rebalance-lab encode --version 3 -"
)]
pub struct Args {
    /// The subscription version to write (0 to 3).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i16).range(0..))]
    version: i16,
    /// The fields file (JSON), or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
}

pub fn run(a: Args) -> Result<String, String> {
    let text = read_input(&a.file)?;
    let sub = subscription_from_json(&text)?;
    let enc = protocol::encode_subscription(&sub, a.version).map_err(|e| e.to_string())?;
    for f in &enc.dropped {
        eprintln!("note: {f} is not sent at version {}", enc.version);
    }
    Ok(hex::to_hex(&enc.bytes))
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
