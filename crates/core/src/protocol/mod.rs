//! The consumer protocol's bytes: ConsumerProtocolSubscription (JoinGroup metadata) and
//! ConsumerProtocolAssignment (SyncGroup), versions 0 to 3, read and written exactly as the
//! Kafka Java client does (see KAFKA-SEMANTICS.md).
//!
//! Decoding is sans-IO and bounded by its input. Every decoded value carries its byte span
//! (length prefix and payload apart) and a field path; every error carries a span, a path
//! and a [`DecodeErrorKind`]. A failed decode still returns the fields read before the
//! failure, so a UI can show the partial tree.

mod error;
pub mod hex;
pub mod notes;
mod reader;
pub mod sticky;
mod writer;

pub use error::{
    DecodeError, DecodeErrorKind, MessageKind, Span, ILLEGAL_ARGUMENT_EXCEPTION, RUNTIME_EXCEPTION,
    SCHEMA_EXCEPTION,
};
pub use writer::{
    encode_assignment, encode_sticky_user_data, encode_subscription, encode_subscription_parts,
    EncodeError, Encoded, SubscriptionParts,
};

use reader::{Reader, Res};
use serde::{Deserialize, Serialize};

/// The highest version of both messages this crate (and Kafka 4.0) knows.
pub const HIGHEST_VERSION: i16 = 3;

/// A topic and some of its partitions, as the wire groups them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TopicPartitions {
    /// Topic name.
    pub topic: String,
    /// Partition numbers, in wire order.
    pub partitions: Vec<i32>,
}

impl TopicPartitions {
    /// Each (topic, partitions) pair as the wire groups them, in the order given (a member's
    /// owned partitions as the scenario and the assignors hold them).
    pub fn list<'a>(pairs: impl IntoIterator<Item = (&'a String, &'a Vec<i32>)>) -> Vec<Self> {
        pairs
            .into_iter()
            .map(|(topic, partitions)| TopicPartitions {
                topic: topic.clone(),
                partitions: partitions.clone(),
            })
            .collect()
    }
}

/// The fields of a ConsumerProtocolSubscription, in wire order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscription {
    /// Subscribed topics (v0+).
    pub topics: Vec<String>,
    /// Assignor-specific user data (v0+); `None` is null on the wire, distinct from empty.
    pub user_data: Option<Vec<u8>>,
    /// Partitions the member owns now (v1+).
    pub owned_partitions: Vec<TopicPartitions>,
    /// Generation of the owned partitions (v2+); -1 means none.
    pub generation_id: i32,
    /// The member's client.rack (v3+); `None` is null, `Some("")` is empty (both "no rack").
    pub rack_id: Option<String>,
}

impl Default for Subscription {
    fn default() -> Self {
        Subscription {
            topics: Vec::new(),
            user_data: None,
            owned_partitions: Vec::new(),
            generation_id: -1,
            rack_id: None,
        }
    }
}

/// The fields of a ConsumerProtocolAssignment.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Assignment {
    /// Partitions given to the member, grouped by topic.
    pub assigned_partitions: Vec<TopicPartitions>,
    /// Assignor-specific user data; `None` is null on the wire.
    pub user_data: Option<Vec<u8>>,
}

/// The value of one decoded field, for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    /// An int16 or int32.
    Int(i64),
    /// A string (invalid UTF-8 already replaced by U+FFFD).
    Text(String),
    /// Bytes of this length (the payload span holds them).
    Bytes(usize),
    /// A null string or bytes (negative length).
    Null,
    /// An array with this many elements.
    Array(usize),
    /// A struct element of an array.
    Struct,
}

/// A field's path such as `owned_partitions[1].partitions[0]`, kept compact (no string is
/// built per decoded value); `Display` writes it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FieldPath {
    /// The enclosing array element, such as (`owned_partitions`, 1).
    pub parent: Option<(&'static str, u32)>,
    /// The field's own name.
    pub name: &'static str,
    /// Its index when it is an array element.
    pub index: Option<u32>,
}

impl FieldPath {
    /// A top-level field.
    pub const fn top(name: &'static str) -> Self {
        FieldPath {
            parent: None,
            name,
            index: None,
        }
    }
    /// Element `i` of this array.
    pub const fn at(self, i: u32) -> Self {
        FieldPath {
            index: Some(i),
            ..self
        }
    }
    /// Field `name` inside this element.
    pub fn child(self, name: &'static str) -> Self {
        FieldPath {
            parent: Some((self.name, self.index.unwrap_or(0))),
            name,
            index: None,
        }
    }
}

impl std::fmt::Display for FieldPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some((p, i)) = self.parent {
            write!(f, "{p}[{i}].")?;
        }
        f.write_str(self.name)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

/// One decoded field: its path, nesting depth, and where its bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Path such as `owned_partitions[1].partitions[0]`.
    pub path: FieldPath,
    /// Nesting depth (0 for top-level fields).
    pub depth: u8,
    /// The length or count prefix, for strings, bytes and arrays.
    pub prefix: Option<Span>,
    /// The value's own bytes (for arrays, all their elements).
    pub payload: Span,
    /// The decoded value.
    pub value: FieldValue,
}

impl Field {
    /// The whole field: prefix and payload.
    pub fn span(&self) -> Span {
        Span::new(
            self.prefix.map_or(self.payload.start, |p| p.start),
            self.payload.end,
        )
    }
}

/// A leniency of Kafka's decoder that was applied: accepted, but worth telling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The header says a version above 3; read as 3, as Java does.
    VersionReadAs {
        /// The version in the header.
        header: i16,
        /// The version it was read as.
        read_as: i16,
    },
    /// Bytes after the last field, ignored as Java ignores them.
    TrailingBytes {
        /// Where they are.
        span: Span,
    },
    /// Invalid UTF-8 in a string, replaced by U+FFFD as Java does.
    InvalidUtf8 {
        /// The string's path.
        field: FieldPath,
        /// Its payload bytes.
        span: Span,
    },
}

/// What a decode read: the message (partial when `error` is set), fields and notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<T> {
    /// The version in the header (`None` when the header itself could not be read).
    pub header_version: Option<i16>,
    /// The version the body was read as (the header clamped to 3).
    pub version: i16,
    /// The message: complete, or the fields read before the failure.
    pub message: T,
    /// Every field read, in wire order.
    pub fields: Vec<Field>,
    /// Leniencies applied.
    pub notes: Vec<Note>,
    /// Bytes after the last field (ignored).
    pub trailing_bytes: usize,
    /// The failure, if any.
    pub error: Option<DecodeError>,
}

impl<T> Decoded<T> {
    /// The message when the decode succeeded, the error otherwise.
    pub fn into_result(self) -> Result<T, DecodeError> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.message),
        }
    }

    /// Bytes consumed by the fields (header included, trailing bytes excluded).
    pub fn consumed(&self) -> usize {
        self.fields.iter().map(|f| f.span().end).max().unwrap_or(0)
    }
}

fn header(r: &mut Reader<'_>) -> Res<i16> {
    let path = FieldPath::top("version");
    let v = r.i16_field("int16 version header", path)?;
    if v < 0 {
        let f = r.fields.pop().map(|f| f.span()).unwrap_or_default();
        return Err(r.err_at(f, path, DecodeErrorKind::UnsupportedVersion { version: v }));
    }
    // Java reads the header apart; from here on an underflow is in the body.
    r.in_header = false;
    if v > HIGHEST_VERSION {
        r.notes.push(Note::VersionReadAs {
            header: v,
            read_as: HIGHEST_VERSION,
        });
    }
    Ok(v)
}

/// Reads an array of `{topic: string, partitions: [int32]}` into `out`.
fn topic_partitions(
    r: &mut Reader<'_>,
    name: &'static str,
    out: &mut Vec<TopicPartitions>,
) -> Res<()> {
    let path = FieldPath::top(name);
    let (count, idx) = r.array_start(
        if name == "owned_partitions" {
            "int32 count of owned_partitions"
        } else {
            "int32 count of assigned_partitions"
        },
        path,
    )?;
    // Each element is at least a 2-byte topic length and a 4-byte count.
    out.reserve(r.capacity_for(count, 6));
    let res = (|| {
        for i in 0..count {
            let elem = path.at(i as u32);
            let sidx = r.struct_start(elem);
            let res = (|| {
                let topic = r
                    .string_field(elem.child("topic"), false)?
                    .unwrap_or_default();
                out.push(TopicPartitions {
                    topic,
                    partitions: Vec::new(),
                });
                let ppath = elem.child("partitions");
                let (n, pidx) = r.array_start("int32 count of partitions", ppath)?;
                let cap = r.capacity_for(n, 4);
                let last = out.last_mut().expect("pushed above");
                last.partitions.reserve(cap);
                let res = (|| {
                    for j in 0..n {
                        let p = r.i32_field("int32 partition", ppath.at(j as u32))?;
                        last.partitions.push(p);
                    }
                    Ok(())
                })();
                r.end_array(pidx);
                res
            })();
            r.end_array(sidx);
            res?;
        }
        Ok(())
    })();
    r.end_array(idx);
    res
}

fn finish<T>(
    r: Reader<'_>,
    header_version: Option<i16>,
    message: T,
    error: Option<DecodeError>,
) -> Decoded<T> {
    let version = header_version.unwrap_or(0).clamp(0, HIGHEST_VERSION);
    let pos = r.pos();
    let total = pos + r.remaining();
    let mut notes = r.notes;
    let trailing_bytes = if error.is_none() { total - pos } else { 0 };
    if trailing_bytes > 0 {
        notes.push(Note::TrailingBytes {
            span: Span::new(pos, total),
        });
    }
    Decoded {
        header_version,
        version,
        message,
        fields: r.fields,
        notes,
        trailing_bytes,
        error,
    }
}

/// Decodes a ConsumerProtocolSubscription (version header included) as Java's
/// `ConsumerProtocol.deserializeSubscription` does.
pub fn decode_subscription(bytes: &[u8]) -> Decoded<Subscription> {
    let mut r = Reader::new(bytes, MessageKind::Subscription);
    r.fields.reserve(bytes.len() / 4 + 8);
    let mut sub = Subscription::default();
    let mut header_version = None;
    let res = (|| {
        let v = header(&mut r)?;
        header_version = Some(v);
        let topics = FieldPath::top("topics");
        let (count, idx) = r.array_start("int32 count of topics", topics)?;
        sub.topics.reserve(r.capacity_for(count, 2));
        let res = (|| {
            for i in 0..count {
                let t = r.string_field(topics.at(i as u32), false)?;
                sub.topics.push(t.unwrap_or_default());
            }
            Ok(())
        })();
        r.end_array(idx);
        res?;
        sub.user_data = r.nullable_bytes_field(FieldPath::top("user_data"))?;
        if v >= 1 {
            topic_partitions(&mut r, "owned_partitions", &mut sub.owned_partitions)?;
        }
        if v >= 2 {
            sub.generation_id =
                r.i32_field("int32 generation_id", FieldPath::top("generation_id"))?;
        }
        if v >= 3 {
            sub.rack_id = r.string_field(FieldPath::top("rack_id"), true)?;
        }
        Ok(())
    })();
    finish(r, header_version, sub, res.err())
}

/// Decodes a ConsumerProtocolAssignment (version header included) as Java's
/// `ConsumerProtocol.deserializeAssignment` does.
pub fn decode_assignment(bytes: &[u8]) -> Decoded<Assignment> {
    let mut r = Reader::new(bytes, MessageKind::Assignment);
    let mut a = Assignment::default();
    let mut header_version = None;
    let res = (|| {
        let v = header(&mut r)?;
        header_version = Some(v);
        topic_partitions(&mut r, "assigned_partitions", &mut a.assigned_partitions)?;
        a.user_data = r.nullable_bytes_field(FieldPath::top("user_data"))?;
        Ok(())
    })();
    finish(r, header_version, a, res.err())
}

impl Subscription {
    /// What a message written at `version` keeps of this subscription (the rest is dropped,
    /// as Java drops it), normalised as Java's encoder writes it.
    pub fn as_written_at(&self, version: i16) -> Subscription {
        let v = version.clamp(0, HIGHEST_VERSION);
        let mut topics = self.topics.clone();
        crate::collections::sort_by(&mut topics, |a, b| crate::java::string_compare(a, b));
        Subscription {
            topics,
            user_data: self.user_data.clone(),
            owned_partitions: if v >= 1 {
                writer::group_sorted(&self.owned_partitions)
            } else {
                Vec::new()
            },
            generation_id: if v >= 2 { self.generation_id } else { -1 },
            rack_id: if v >= 3 { self.rack_id.clone() } else { None },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn java(bytes: &str, assignment: bool) -> (bool, usize, &'static str, String) {
        let b = hex::parse_hex(bytes).unwrap();
        let e = if assignment {
            decode_assignment(&b).error
        } else {
            decode_subscription(&b).error
        }
        .expect("refused");
        let (class, message) = e.java_exception();
        (e.is_incomplete(), e.span.start, class, message)
    }

    #[test]
    fn java_exceptions_for_the_assignment() {
        assert_eq!(
            java("ffff", true),
            (
                false,
                0,
                SCHEMA_EXCEPTION,
                "Unsupported assignment version: -1".into()
            )
        );
        assert_eq!(
            java("00", true),
            (
                false,
                0,
                SCHEMA_EXCEPTION,
                "Buffer underflow while parsing consumer protocol's header".into()
            )
        );
        assert_eq!(
            java("0000 ffffffff", true),
            (
                false,
                2,
                RUNTIME_EXCEPTION,
                "non-nullable field assignedPartitions was serialized as null".into()
            )
        );
        assert_eq!(
            java("0000 00000000", true),
            (
                true,
                6,
                SCHEMA_EXCEPTION,
                "Buffer underflow while parsing consumer protocol's assignment".into()
            )
        );
    }

    /// Input that ends right after a length or count is incomplete for the UI (its span is
    /// where the next bytes go), but Java refuses it on the declared length.
    #[test]
    fn incomplete_after_a_prefix_is_java_s_length_check() {
        assert_eq!(
            java("0000 00000001", false),
            (
                true,
                6,
                RUNTIME_EXCEPTION,
                "Tried to allocate a collection of size 1, but there are only 0 bytes remaining."
                    .into()
            )
        );
        assert_eq!(
            java("0000 00000001 0005", false),
            (
                true,
                8,
                RUNTIME_EXCEPTION,
                "Error reading byte array of 5 byte(s): only 0 byte(s) available".into()
            )
        );
        assert_eq!(
            java("0000 00000000 00000003", false),
            (
                true,
                10,
                ILLEGAL_ARGUMENT_EXCEPTION,
                "newLimit > capacity: (3 > 0)".into()
            )
        );
        // A count within the bytes left passes Java's check; the element then underflows.
        assert_eq!(
            java("0000 00000002 0001 61", false),
            (
                true,
                9,
                SCHEMA_EXCEPTION,
                "Buffer underflow while parsing consumer protocol's subscription".into()
            )
        );
    }
}
