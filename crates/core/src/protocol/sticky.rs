//! The user data of Kafka's sticky assignors, as carried in a subscription's `user_data`.
//!
//! - StickyAssignor: `previous_assignment` (array of {topic, partitions}) in version 0, plus
//!   `generation` (int32) in version 1. No version header: Java tries V1 and falls back to V0.
//! - CooperativeStickyAssignor: one int32, the generation.

use super::TopicPartitions;

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

/// A cursor over user data: nothing is recorded (the sticky assignors' user data is read
/// whole or not at all, and its errors are never shown), and nothing is allocated beyond
/// what the bytes left can hold.
struct Bytes<'a> {
    buf: &'a [u8],
}

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.buf.split_at_checked(n)?;
        self.buf = rest;
        Some(head)
    }

    fn i32(&mut self) -> Option<i32> {
        self.take(4)
            .map(|b| i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// An array count: not negative, and no more elements than bytes left.
    fn count(&mut self) -> Option<usize> {
        usize::try_from(self.i32()?)
            .ok()
            .filter(|n| *n <= self.buf.len())
    }

    /// A string (int16 length, not negative; UTF-8, malformed input replaced as Java's
    /// `new String(bytes, UTF_8)` does).
    fn string(&mut self) -> Option<String> {
        let b = self.take(2)?;
        let len = usize::try_from(i16::from_be_bytes([b[0], b[1]])).ok()?;
        let b = self.take(len)?;
        Some(match std::str::from_utf8(b) {
            Ok(s) => s.to_owned(),
            Err(_) => String::from_utf8_lossy(b).into_owned(),
        })
    }
}

/// StickyAssignor's `previous_assignment`: an array of {topic, partitions}.
fn previous(r: &mut Bytes<'_>) -> Option<Vec<TopicPartitions>> {
    let count = r.count()?;
    let mut out = Vec::with_capacity(count.min(r.buf.len() / 6));
    for _ in 0..count {
        let topic = r.string()?;
        let n = r.count()?;
        let mut partitions = Vec::with_capacity(n.min(r.buf.len() / 4));
        for _ in 0..n {
            partitions.push(r.i32()?);
        }
        out.push(TopicPartitions { topic, partitions });
    }
    Some(out)
}

/// Recognises sticky or cooperative-sticky user data; `None` when it is neither (the bytes
/// must be consumed exactly). Read with a plain cursor: the assignors read every member's
/// user data on each rebalance (10,000 partitions in 1,000 members' user data took 0.6 ms
/// through the bytes view's reader, which records every field with its path and span).
pub fn decode_sticky_user_data(bytes: &[u8]) -> Option<StickyUserData> {
    if bytes.len() == 4 {
        return Some(StickyUserData::Cooperative {
            generation: i32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        });
    }
    // V1: previous assignment then generation; V0: the previous assignment alone. Sticky
    // user data has no version header of its own (Java tries V1, then V0).
    let mut r = Bytes { buf: bytes };
    let previous = previous(&mut r)?;
    let generation = match r.buf.len() {
        4 => Some(r.i32()?),
        0 => None,
        _ => return None,
    };
    Some(StickyUserData::Sticky {
        previous,
        generation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::hex::parse_hex;

    // (natively only: proptest is not built for wasm32)
    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use crate::protocol::reader::Reader;
        use crate::protocol::{FieldPath, MessageKind};
        use proptest::prelude::*;

        /// The decoder as it was, through the bytes view's reader: the reference the plain
        /// cursor above is checked against.
        fn with_reader(bytes: &[u8]) -> Option<StickyUserData> {
            fn previous(r: &mut Reader<'_>) -> Option<Vec<TopicPartitions>> {
                let path = FieldPath::top("previous_assignment");
                let (count, _) = r.array_start("int32 count", path).ok()?;
                let mut out = Vec::with_capacity(r.capacity_for(count, 6));
                for i in 0..count {
                    let elem = path.at(i as u32);
                    let topic = r.string_field(elem.child("topic"), false).ok()??;
                    let (n, _) = r
                        .array_start("int32 count", elem.child("partitions"))
                        .ok()?;
                    let mut partitions = Vec::with_capacity(r.capacity_for(n, 4));
                    for j in 0..n {
                        let at = elem.child("partitions").at(j as u32);
                        partitions.push(r.i32_field("int32 partition", at).ok()?);
                    }
                    out.push(TopicPartitions { topic, partitions });
                }
                Some(out)
            }
            if bytes.len() == 4 {
                return Some(StickyUserData::Cooperative {
                    generation: i32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
                });
            }
            let mut r = Reader::new(bytes, MessageKind::Subscription);
            r.in_header = false;
            let prev = previous(&mut r)?;
            match r.remaining() {
                4 => r
                    .i32_field("int32 generation", FieldPath::top("generation"))
                    .ok()
                    .map(|g| StickyUserData::Sticky {
                        previous: prev,
                        generation: Some(g),
                    }),
                0 => Some(StickyUserData::Sticky {
                    previous: prev,
                    generation: None,
                }),
                _ => None,
            }
        }

        /// User data as a sticky assignor writes it, then cut, grown or changed at one byte.
        fn user_data() -> impl Strategy<Value = Vec<u8>> {
            let topics = prop::collection::vec(
                (
                    prop::collection::vec(any::<u8>(), 0..6),
                    prop::collection::vec(-2i32..40, 0..5),
                ),
                0..5,
            );
            (
                topics,
                any::<Option<i32>>(),
                any::<u8>(),
                0usize..5,
                any::<usize>(),
                any::<u8>(),
            )
                .prop_map(|(topics, generation, lead, how, at, byte)| {
                    let mut b = (topics.len() as i32).to_be_bytes().to_vec();
                    for (name, parts) in &topics {
                        b.extend((name.len() as i16).to_be_bytes());
                        b.extend(name);
                        b.extend((parts.len() as i32).to_be_bytes());
                        for p in parts {
                            b.extend(p.to_be_bytes());
                        }
                    }
                    if let Some(g) = generation {
                        b.extend(g.to_be_bytes());
                    }
                    match how {
                        0 => {}
                        1 => b.truncate(at % (b.len() + 1)),
                        2 => b.push(lead),
                        3 => {
                            let i = at % b.len();
                            b[i] = byte;
                        }
                        // (0xff at a random byte: where it is a length's first byte, a negative length)
                        _ => {
                            let i = at % b.len();
                            b[i] = 0xff;
                        }
                    }
                    b
                })
        }

        proptest! {
            /// The plain cursor reads exactly what the bytes view's reader reads: the same
            /// topics, partitions and generation, and nothing where it finds nothing.
            #[test]
            fn the_plain_cursor_reads_as_the_reader_does(
                b in prop_oneof![user_data(), prop::collection::vec(any::<u8>(), 0..40)]
            ) {
                prop_assert_eq!(decode_sticky_user_data(&b), with_reader(&b));
            }
        }
    }

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
        // a topic name of length -1 (strings here are not nullable)
        assert_eq!(
            decode_sticky_user_data(&parse_hex("00000001ffff00000000").unwrap()),
            None
        );
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
