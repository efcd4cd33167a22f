//! `rebalance-lab decode`: a ConsumerProtocolSubscription from hex.

use super::input::read_input;
use rebalance_lab_core::protocol::{self, hex, Subscription};
use serde_json::{json, Value};

/// Decode a ConsumerProtocolSubscription (hex) and print its fields as JSON.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Decode a ConsumerProtocolSubscription, as a consumer sends it in JoinGroup, \
and print its fields as JSON (version, topics, user_data, owned_partitions, generation_id, \
rack_id, trailing_bytes).\n\n\
The hex may be upper or lower case, with spaces, newlines, commas, colons, 0x prefixes or \
\\x escapes, or a dump from xxd, hexdump -C or Wireshark.",
    after_help = "\
Examples:
  rebalance-lab decode 00030000000100057330312d610000000000000000ffffffff0000
  xxd -p subscription.bin | rebalance-lab decode -"
)]
pub struct Args {
    /// The bytes as hex, or - to read them from standard input.
    #[arg(value_name = "HEX")]
    hex: String,
}

pub fn run(a: Args) -> Result<String, String> {
    let text = if a.hex == "-" {
        read_input("-")?
    } else {
        a.hex
    };
    let bytes = hex::parse_hex(&text).map_err(|e| e.to_string())?;
    let d = protocol::decode_subscription(&bytes);
    if let Some(e) = &d.error {
        return Err(e.to_string());
    }
    Ok(serde_json::to_string_pretty(&decoded_json(&d)).unwrap_or_default())
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
