//! The user data of Kafka's sticky assignors, as carried in a subscription's `user_data`.
//!
//! - StickyAssignor: `previous_assignment` (array of {topic, partitions}) in version 0, plus
//!   `generation` (int32) in version 1. No version header: Java tries V1 and falls back to V0.
//! - CooperativeStickyAssignor: one int32, the generation.

use super::reader::Reader;
use super::{FieldPath, MessageKind, TopicPartitions};

/// What a sticky assignor's user data says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StickyUserData {
    /// StickyAssignor user data: the member's previous partitions, and (V1) its generation.
    Sticky {
        /// Previously owned partitions.
        previous: Vec<TopicPartitions>,
        /// Generation (version 1 only).
        generation: Option<i32>,
    },
    /// CooperativeStickyAssignor user data: the generation.
    Cooperative {
        /// Generation.
        generation: i32,
    },
}

fn previous(r: &mut Reader<'_>) -> Option<Vec<TopicPartitions>> {
    let path = FieldPath::top("previous_assignment");
    let (count, _) = r
        .array_start("int32 count of previous_assignment", path)
        .ok()?;
    let mut out = Vec::with_capacity(r.capacity_for(count, 6));
    for i in 0..count {
        let elem = path.at(i as u32);
        let topic = r.string_field(elem.child("topic"), false).ok()??;
        let (n, _) = r
            .array_start("int32 count of partitions", elem.child("partitions"))
            .ok()?;
        let mut partitions = Vec::with_capacity(r.capacity_for(n, 4));
        for j in 0..n {
            partitions.push(
                r.i32_field("int32 partition", elem.child("partitions").at(j as u32))
                    .ok()?,
            );
        }
        out.push(TopicPartitions { topic, partitions });
    }
    Some(out)
}

/// Recognises sticky or cooperative-sticky user data; `None` when it is neither (the bytes
/// must be consumed exactly).
pub fn decode_sticky_user_data(bytes: &[u8]) -> Option<StickyUserData> {
    if bytes.len() == 4 {
        return Some(StickyUserData::Cooperative {
            generation: i32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        });
    }
    // V1: previous assignment then generation.
    // Sticky user data travels inside a subscription and has no version header of its
    // own; its errors are only ever discarded.
    let mut r = Reader::new(bytes, MessageKind::Subscription);
    r.in_header = false;
    if let Some(prev) = previous(&mut r) {
        if r.remaining() == 4 {
            if let Ok(g) = r.i32_field("int32 generation", FieldPath::top("generation")) {
                return Some(StickyUserData::Sticky {
                    previous: prev,
                    generation: Some(g),
                });
            }
        }
        if r.remaining() == 0 {
            return Some(StickyUserData::Sticky {
                previous: prev,
                generation: None,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::hex::parse_hex;

    #[test]
    fn real_sticky_v1_user_data() {
        // From the vectors: StickyAssignor V1 output (orders [1], t0 [0, 0]... generation 7).
        let b = parse_hex(
            "0000000200066f726465727300000001000000010002743000000002000000000000000200000007",
        )
        .unwrap();
        match decode_sticky_user_data(&b).unwrap() {
            StickyUserData::Sticky {
                previous,
                generation,
            } => {
                assert_eq!(generation, Some(7));
                assert_eq!(previous[0].topic, "orders");
                assert_eq!(previous[0].partitions, vec![1]);
                assert_eq!(previous[1].topic, "t0");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            decode_sticky_user_data(&[0, 0, 0, 3]),
            Some(StickyUserData::Cooperative { generation: 3 })
        );
        assert_eq!(decode_sticky_user_data(b"hello"), None);
    }

    #[test]
    fn sticky_user_data_is_written_as_java_groups_it() {
        use crate::protocol::encode_sticky_user_data;
        let tp = |t: &str, ps: &[i32]| TopicPartitions {
            topic: t.into(),
            partitions: ps.to_vec(),
        };
        // the vectors' bytes: orders [1], t0 [0, 2], generation 7
        let b = encode_sticky_user_data(&[tp("t0", &[0]), tp("orders", &[1]), tp("t0", &[2])], 7)
            .unwrap();
        assert_eq!(
            crate::protocol::hex::to_hex(&b).replace(' ', ""),
            "0000000200066f726465727300000001000000010002743000000002000000000000000200000007"
        );
        // Topics in HashMap order, as Java 17 prints a HashMap of these keys:
        // [zeta, a, payments, orders, t0]
        let list: Vec<_> = ["t0", "payments", "orders", "zeta", "a"]
            .iter()
            .map(|t| tp(t, &[0]))
            .collect();
        let b = encode_sticky_user_data(&list, -1).unwrap();
        match decode_sticky_user_data(&b).unwrap() {
            StickyUserData::Sticky {
                previous,
                generation,
            } => {
                let order: Vec<_> = previous.iter().map(|t| t.topic.as_str()).collect();
                assert_eq!(order, ["zeta", "a", "payments", "orders", "t0"]);
                assert_eq!(generation, Some(-1));
            }
            other => panic!("{other:?}"),
        }
    }
}
