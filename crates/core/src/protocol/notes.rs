//! What a decode means, in words: the leniencies Kafka's Java decoder applied to a
//! subscription (and what its nullable fields hold), the text of a field's value, the
//! fields a version does not send, and what a sticky assignor's user data says.
//!
//! Plain text, no markup: a front end escapes it as it paints it.

use super::sticky::{decode_sticky_user_data, StickyUserData};
use super::{Decoded, FieldValue, Note, Subscription};

/// One leniency in a sentence, naming what Java does about it.
pub fn note_text(note: &Note) -> String {
    match note {
        Note::VersionReadAs { header, read_as } => format!(
            "The header says version {header}; Kafka reads a newer version as {read_as}, the newest it knows, and so does this view."
        ),
        Note::TrailingBytes { span } => format!(
            "{} trailing bytes at 0x{:04x} after the last field: Kafka ignores them.",
            span.len(),
            span.start
        ),
        Note::InvalidUtf8 { field, .. } => format!(
            "{field} is not valid UTF-8: Kafka replaces the bad bytes with U+FFFD (shown as �)."
        ),
    }
}

/// The notes about a decoded subscription: each leniency applied ([`note_text`]), then,
/// when the decode succeeded, what `user_data`, `rack_id` (v3+) and a negative
/// `generation_id` (v2+) hold — null and empty are different on the wire but mean the
/// same to Kafka.
pub fn subscription_notes(d: &Decoded<Subscription>) -> Vec<String> {
    let mut out: Vec<String> = d.notes.iter().map(note_text).collect();
    if d.error.is_some() {
        return out;
    }
    let m = &d.message;
    out.push(match &m.user_data {
        None => "user_data is null (length -1).".to_string(),
        Some(u) if u.is_empty() => {
            "user_data is empty, not null (length 0), as librdkafka sends it.".to_string()
        }
        Some(u) => format!("user_data: {} bytes.", u.len()),
    });
    if d.version >= 3 {
        out.push(match &m.rack_id {
            None => "rack_id is null: no rack.".to_string(),
            Some(r) if r.is_empty() => "rack_id is empty, not null: also no rack (librdkafka sends \"\" without client.rack).".to_string(),
            Some(r) => format!("rack_id is \"{r}\"."),
        });
    }
    if d.version >= 2 && m.generation_id < 0 {
        out.push(format!(
            "generation_id {} is negative: no generation.",
            m.generation_id
        ));
    }
    out
}

/// A field's value as the field tree shows it: numbers as they are, strings quoted, bytes
/// and arrays by their size, null as `null`; a struct element has no value of its own.
pub fn value_text(v: &FieldValue) -> String {
    match v {
        FieldValue::Int(n) => n.to_string(),
        FieldValue::Text(t) => format!("\"{t}\""),
        FieldValue::Bytes(n) => format!("{n} bytes"),
        FieldValue::Null => "null".into(),
        FieldValue::Array(n) => format!("{n} {}", if *n == 1 { "element" } else { "elements" }),
        FieldValue::Struct => String::new(),
    }
}

/// The fields a subscription written at `version` leaves out (as Java's encoder drops
/// them), in a sentence; `None` when nothing is dropped.
pub fn dropped_text(dropped: &[&str], version: i16) -> Option<String> {
    if dropped.is_empty() {
        return None;
    }
    Some(format!(
        "{} {} not sent at version {version}.",
        dropped.join(" and "),
        if dropped.len() == 1 { "is" } else { "are" }
    ))
}

/// A decoded subscription in a line: the header's version, its size and how many topics
/// it subscribes to.
pub fn subscription_summary(d: &Decoded<Subscription>, len: usize) -> String {
    let topics = d.message.topics.len();
    format!(
        "Version {} · {len} bytes · {topics} {}",
        d.header_version.unwrap_or(0),
        if topics == 1 { "topic" } else { "topics" }
    )
}

/// What sticky user data says: StickyAssignor's previous partitions (and, in its V1
/// schema, the generation), or CooperativeStickyAssignor's generation.
pub fn sticky_text(s: &StickyUserData) -> String {
    match s {
        StickyUserData::Sticky {
            previous,
            generation,
        } => {
            let list: Vec<String> = previous
                .iter()
                .map(|tp| {
                    let ps: Vec<String> = tp.partitions.iter().map(|p| p.to_string()).collect();
                    format!("{} [{}]", tp.topic, ps.join(", "))
                })
                .collect();
            format!(
                "As StickyAssignor user data: previous partitions {}{}.",
                if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(", ")
                },
                generation
                    .map(|g| format!(", generation {g}"))
                    .unwrap_or_default()
            )
        }
        StickyUserData::Cooperative { generation } => {
            format!("As CooperativeStickyAssignor user data: generation {generation}.")
        }
    }
}

/// [`sticky_text`] of `user_data` read as a sticky assignor's; `None` when the bytes are
/// neither assignor's user data.
pub fn user_data_text(user_data: &[u8]) -> Option<String> {
    decode_sticky_user_data(user_data).map(|s| sticky_text(&s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::hex::parse_hex;
    use crate::protocol::{decode_subscription, encode_subscription, FieldPath, Span};

    fn notes(hex: &str) -> Vec<String> {
        subscription_notes(&decode_subscription(&parse_hex(hex).unwrap()))
    }

    /// The `user_data` of a vector in tests/vectors/subscription.json (recorded from Java).
    fn vector_user_data(name: &str) -> Vec<u8> {
        let all: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/vectors/subscription.json")).unwrap();
        let v = all
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name)
            .unwrap_or_else(|| panic!("no vector {name}"));
        parse_hex(v["fields"]["user_data"].as_str().unwrap()).unwrap()
    }

    #[test]
    fn a_version_above_3_is_read_as_3() {
        // v5 header, then a v3 body: no topics, null user_data, no owned partitions,
        // generation -1, null rack.
        let n = notes("0005 00000000 ffffffff 00000000 ffffffff ffff");
        assert_eq!(
            n[0],
            "The header says version 5; Kafka reads a newer version as 3, the newest it knows, and so does this view."
        );
        // Read as v3, so the v3 fields are described too.
        assert!(
            n.contains(&"rack_id is null: no rack.".to_string()),
            "{n:?}"
        );
        assert!(n.contains(&"generation_id -1 is negative: no generation.".to_string()));
        assert_eq!(n.len(), 4, "{n:?}");
    }

    #[test]
    fn trailing_bytes_are_counted_and_placed() {
        // A complete v0 subscription (10 bytes), then 3 bytes Java ignores.
        let n = notes("0000 00000000 ffffffff 010203");
        assert_eq!(
            n[0],
            "3 trailing bytes at 0x000a after the last field: Kafka ignores them."
        );
        assert_eq!(n[1], "user_data is null (length -1).");
        assert_eq!(n.len(), 2);
    }

    #[test]
    fn invalid_utf8_names_the_field() {
        // One topic of two bytes, the first not UTF-8.
        let n = notes("0000 00000001 0002ff61 ffffffff");
        assert_eq!(
            n[0],
            "topics[0] is not valid UTF-8: Kafka replaces the bad bytes with U+FFFD (shown as �)."
        );
        assert_eq!(
            note_text(&Note::InvalidUtf8 {
                field: FieldPath::top("rack_id"),
                span: Span::new(0, 1)
            }),
            "rack_id is not valid UTF-8: Kafka replaces the bad bytes with U+FFFD (shown as �)."
        );
    }

    #[test]
    fn null_and_empty_are_told_apart() {
        // A negative nullable length is null.
        assert_eq!(
            notes("0000 00000000 ffffffff"),
            ["user_data is null (length -1)."]
        );
        assert_eq!(
            notes("0000 00000000 00000000"),
            ["user_data is empty, not null (length 0), as librdkafka sends it."]
        );
        assert_eq!(
            notes("0000 00000000 00000002 abcd"),
            ["user_data: 2 bytes."]
        );
        // v3: null rack, empty rack, a rack; generation 4 is not negative.
        assert_eq!(
            notes("0003 00000000 ffffffff 00000000 00000004 ffff"),
            [
                "user_data is null (length -1).",
                "rack_id is null: no rack."
            ]
        );
        assert_eq!(
            notes("0003 00000000 ffffffff 00000000 00000004 0000")[1],
            "rack_id is empty, not null: also no rack (librdkafka sends \"\" without client.rack)."
        );
        assert_eq!(
            notes("0003 00000000 ffffffff 00000000 00000004 0001 61")[1],
            "rack_id is \"a\"."
        );
        // v1 has no generation_id: nothing said about it.
        assert_eq!(notes("0001 00000000 ffffffff 00000000").len(), 1);
    }

    #[test]
    fn a_refused_decode_keeps_only_its_leniencies() {
        // v7 header, then the topics count is cut short.
        let n = notes("0007 0000");
        assert_eq!(n.len(), 1);
        assert!(n[0].starts_with("The header says version 7;"));
    }

    #[test]
    fn field_values() {
        assert_eq!(value_text(&FieldValue::Int(-1)), "-1");
        assert_eq!(value_text(&FieldValue::Text("orders".into())), "\"orders\"");
        assert_eq!(value_text(&FieldValue::Bytes(40)), "40 bytes");
        assert_eq!(value_text(&FieldValue::Null), "null");
        assert_eq!(value_text(&FieldValue::Array(1)), "1 element");
        assert_eq!(value_text(&FieldValue::Array(0)), "0 elements");
        assert_eq!(value_text(&FieldValue::Struct), "");
    }

    #[test]
    fn dropped_fields_and_summary() {
        assert_eq!(dropped_text(&[], 3), None);
        assert_eq!(
            dropped_text(&["rack_id"], 2).as_deref(),
            Some("rack_id is not sent at version 2.")
        );
        assert_eq!(
            dropped_text(&["generation_id", "rack_id"], 1).as_deref(),
            Some("generation_id and rack_id are not sent at version 1.")
        );
        let sub = Subscription {
            topics: vec!["orders".into()],
            ..Subscription::default()
        };
        let written = encode_subscription(&sub, 3).unwrap().bytes;
        let d = decode_subscription(&written);
        assert_eq!(
            subscription_summary(&d, written.len()),
            format!("Version 3 · {} bytes · 1 topic", written.len())
        );
        let d = decode_subscription(&parse_hex("0000 00000000 ffffffff").unwrap());
        assert_eq!(
            subscription_summary(&d, 10),
            "Version 0 · 10 bytes · 0 topics"
        );
    }

    #[test]
    fn sticky_v1_user_data_names_partitions_and_generation() {
        let u = vector_user_data("enc-v3-sticky-userdata");
        assert_eq!(
            user_data_text(&u).as_deref(),
            Some("As StickyAssignor user data: previous partitions orders [1], t0 [0, 2], generation 7.")
        );
        // Previous assignment empty, generation 1.
        let u = vector_user_data("enc-v3-sticky-userdata-empty-assignment");
        assert_eq!(
            user_data_text(&u).as_deref(),
            Some("As StickyAssignor user data: previous partitions none, generation 1.")
        );
    }

    #[test]
    fn sticky_v0_user_data_has_no_generation() {
        let u = vector_user_data("enc-v3-sticky-userdata-v0-schema");
        assert_eq!(
            user_data_text(&u).as_deref(),
            Some("As StickyAssignor user data: previous partitions t0 [3].")
        );
    }

    #[test]
    fn cooperative_user_data_is_a_4_byte_generation() {
        let u = vector_user_data("enc-v3-full");
        assert_eq!(
            user_data_text(&u).as_deref(),
            Some("As CooperativeStickyAssignor user data: generation 3.")
        );
        let u = vector_user_data("enc-v3-coop-userdata-nogen");
        assert_eq!(
            user_data_text(&u).as_deref(),
            Some("As CooperativeStickyAssignor user data: generation -1.")
        );
        // Neither assignor's: nothing to say.
        assert_eq!(
            user_data_text(&vector_user_data("enc-v3-userdata-bytes")),
            None
        );
    }
}
