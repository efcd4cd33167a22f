//! Encoding with Java's rules: topics sorted, owned partitions sorted and grouped by topic,
//! fields the version cannot carry dropped (and reported to the caller).

use super::{Assignment, Subscription, TopicPartitions, HIGHEST_VERSION};
use crate::java::string_compare as java_cmp;
use std::fmt;

/// The bytes written, the version actually written, and what the version could not carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// The message, int16 version header included.
    pub bytes: Vec<u8>,
    /// The version written (a requested version above 3 is written as 3, as Java does).
    pub version: i16,
    /// Fields with a value that this version cannot carry, so they were not sent
    /// (for example `rack_id` at version 2).
    pub dropped: Vec<&'static str>,
}

/// Why a message cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// A negative version (Java: "Unsupported subscription version").
    UnsupportedVersion(i16),
    /// A string longer than an int16 length can say.
    StringTooLong {
        /// Which field.
        field: String,
        /// Its length in bytes.
        len: usize,
    },
    /// A collection larger than an int32 count can say.
    TooMany {
        /// Which field.
        field: &'static str,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::UnsupportedVersion(v) => {
                write!(f, "unsupported version {v}: versions are 0 to 3")
            }
            EncodeError::StringTooLong { field, len } => {
                write!(
                    f,
                    "{field} is {len} bytes long; a Kafka string holds at most 32767"
                )
            }
            EncodeError::TooMany { field } => {
                write!(f, "{field} has more elements than an int32 count allows")
            }
        }
    }
}

impl std::error::Error for EncodeError {}

struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn i16(&mut self, v: i16) {
        self.out.extend_from_slice(&v.to_be_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_be_bytes());
    }
    fn count(&mut self, n: usize, field: &'static str) -> Result<(), EncodeError> {
        let n = i32::try_from(n).map_err(|_| EncodeError::TooMany { field })?;
        self.i32(n);
        Ok(())
    }
    fn string(&mut self, s: &str, field: &str) -> Result<(), EncodeError> {
        self.string_named(s, || field.to_string())
    }
    /// A string whose field's name is made only when the string does not fit.
    fn string_named(&mut self, s: &str, field: impl FnOnce() -> String) -> Result<(), EncodeError> {
        let len = i16::try_from(s.len()).map_err(|_| EncodeError::StringTooLong {
            field: field(),
            len: s.len(),
        })?;
        self.i16(len);
        self.out.extend_from_slice(s.as_bytes());
        Ok(())
    }
    fn nullable_bytes(&mut self, b: Option<&[u8]>) -> Result<(), EncodeError> {
        match b {
            None => self.i32(-1),
            Some(b) => {
                self.count(b.len(), "user_data")?;
                self.out.extend_from_slice(b);
            }
        }
        Ok(())
    }
    fn topic_partitions(
        &mut self,
        list: &[TopicPartitions],
        field: &'static str,
    ) -> Result<(), EncodeError> {
        self.count(list.len(), field)?;
        for tp in list {
            self.string(&tp.topic, field)?;
            self.count(tp.partitions.len(), field)?;
            for p in &tp.partitions {
                self.i32(*p);
            }
        }
        Ok(())
    }
}

/// Sorts partitions by (topic in Java order, partition) and groups them by topic, as Java's
/// `serializeSubscription` does.
pub(crate) fn group_sorted(list: &[TopicPartitions]) -> Vec<TopicPartitions> {
    grouped_in_order(list).into_owned()
}

/// [`group_sorted`], borrowing the list when it is grouped and in order already.
fn grouped_in_order(list: &[TopicPartitions]) -> std::borrow::Cow<'_, [TopicPartitions]> {
    // (a client's owned partitions usually come grouped and in this order already: a
    // topic at a time, in Java order, each topic's partitions ascending)
    let grouped = list
        .iter()
        .all(|tp| !tp.partitions.is_empty() && tp.partitions.is_sorted())
        && list
            .windows(2)
            .all(|w| java_cmp(&w[0].topic, &w[1].topic).is_lt());
    if grouped {
        return std::borrow::Cow::Borrowed(list);
    }
    let mut flat: Vec<(&str, i32)> = list
        .iter()
        .flat_map(|tp| tp.partitions.iter().map(move |p| (tp.topic.as_str(), *p)))
        .collect();
    let order = |a: &(&str, i32), b: &(&str, i32)| java_cmp(a.0, b.0).then(a.1.cmp(&b.1));
    crate::collections::sort_by(&mut flat, order);
    let mut out: Vec<TopicPartitions> = Vec::new();
    for (t, p) in flat {
        match out.last_mut() {
            Some(last) if last.topic == t => last.partitions.push(p),
            _ => out.push(TopicPartitions {
                topic: t.to_string(),
                partitions: vec![p],
            }),
        }
    }
    std::borrow::Cow::Owned(out)
}

fn check_version(version: i16) -> Result<i16, EncodeError> {
    if version < 0 {
        return Err(EncodeError::UnsupportedVersion(version));
    }
    Ok(version.min(HIGHEST_VERSION))
}

/// A subscription to encode, borrowed: [`join_metadata`](crate::group::round::join_metadata)
/// writes one per protocol from one subscription, each with its own user data and owned
/// partitions.
#[derive(Debug, Clone, Copy)]
pub struct SubscriptionParts<'a> {
    /// Subscribed topics.
    pub topics: &'a [String],
    /// Assignor-specific user data; `None` is null.
    pub user_data: Option<&'a [u8]>,
    /// Partitions the member owns now.
    pub owned_partitions: &'a [TopicPartitions],
    /// Generation of the owned partitions; -1 means none.
    pub generation_id: i32,
    /// The member's client.rack; `None` is null.
    pub rack_id: Option<&'a str>,
}

impl<'a> SubscriptionParts<'a> {
    /// A subscription's own fields.
    pub fn of(sub: &'a Subscription) -> SubscriptionParts<'a> {
        SubscriptionParts {
            topics: &sub.topics,
            user_data: sub.user_data.as_deref(),
            owned_partitions: &sub.owned_partitions,
            generation_id: sub.generation_id,
            rack_id: sub.rack_id.as_deref(),
        }
    }
}

/// Encodes a subscription at `version` as Java's `ConsumerProtocol.serializeSubscription`.
pub fn encode_subscription(sub: &Subscription, version: i16) -> Result<Encoded, EncodeError> {
    encode_subscription_parts(SubscriptionParts::of(sub), version)
}

/// [`encode_subscription`] of borrowed parts: the topics in Java order and the owned
/// partitions grouped by topic, as [`Subscription::as_written_at`] normalises them.
pub fn encode_subscription_parts(
    sub: SubscriptionParts<'_>,
    version: i16,
) -> Result<Encoded, EncodeError> {
    let v = check_version(version)?;
    let mut topics: Vec<&str> = sub.topics.iter().map(String::as_str).collect();
    crate::collections::sort_by(&mut topics, |a, b| java_cmp(a, b));
    let owned = if v >= 1 {
        grouped_in_order(sub.owned_partitions)
    } else {
        std::borrow::Cow::Borrowed(&[][..])
    };
    let mut dropped = Vec::new();
    if v < 1
        && sub
            .owned_partitions
            .iter()
            .any(|tp| !tp.partitions.is_empty())
    {
        dropped.push("owned_partitions");
    }
    if v < 2 && sub.generation_id != -1 {
        dropped.push("generation_id");
    }
    if v < 3 && sub.rack_id.is_some_and(|r| !r.is_empty()) {
        dropped.push("rack_id");
    }
    // (room for the whole message, so the bytes are written once)
    let strings: usize = topics.iter().map(|t| 2 + t.len()).sum();
    let partitions: usize = owned
        .iter()
        .map(|tp| 2 + tp.topic.len() + 4 + 4 * tp.partitions.len())
        .sum();
    let room = 2 + 4 + strings + 4 + sub.user_data.map_or(0, <[u8]>::len) + 4 + partitions + 4 + 2;
    let mut w = Writer {
        out: Vec::with_capacity(room + sub.rack_id.map_or(0, str::len)),
    };
    w.i16(v);
    w.count(topics.len(), "topics")?;
    for (i, t) in topics.iter().enumerate() {
        w.string_named(t, || format!("topics[{i}]"))?;
    }
    w.nullable_bytes(sub.user_data)?;
    if v >= 1 {
        w.topic_partitions(&owned, "owned_partitions")?;
    }
    if v >= 2 {
        w.i32(sub.generation_id);
    }
    if v >= 3 {
        match sub.rack_id {
            None => w.i16(-1),
            Some(r) => w.string(r, "rack_id")?,
        }
    }
    Ok(Encoded {
        bytes: w.out,
        version: v,
        dropped,
    })
}

/// StickyAssignor's user data as Java writes it (`StickyAssignor.serializeTopicPartitionAssignment`,
/// the V1 schema): the previous partitions grouped by topic in `java.util.HashMap` order of
/// the topic names (`CollectionUtils.groupPartitionsByTopic`), each topic's partitions in the
/// order given, then the generation.
pub fn encode_sticky_user_data(
    previous: &[TopicPartitions],
    generation: i32,
) -> Result<Vec<u8>, EncodeError> {
    // topic -> its slot in `groups` (a put that finds the key keeps its place, as Java's:
    // the slot already there goes back)
    let mut by_topic: crate::java::JavaHashMap<&str, u32> = crate::java::JavaHashMap::new();
    let mut groups: Vec<Vec<i32>> = Vec::new();
    for tp in previous {
        let next = groups.len() as u32;
        let at = match by_topic.insert(&tp.topic, next) {
            Some(old) => {
                by_topic.insert(&tp.topic, old);
                old
            }
            None => {
                groups.push(Vec::new());
                next
            }
        };
        groups[at as usize].extend_from_slice(&tp.partitions);
    }
    let mut w = Writer { out: Vec::new() };
    w.count(groups.len(), "previous_assignment")?;
    for (t, at) in by_topic.iter() {
        w.string(t, "previous_assignment")?;
        let ps = &groups[*at as usize];
        w.count(ps.len(), "previous_assignment")?;
        for p in ps {
            w.i32(*p);
        }
    }
    w.i32(generation);
    Ok(w.out)
}

/// Groups partitions by topic in order of first appearance, as Java's
/// `serializeAssignment` does (it does not sort).
fn group_in_order(list: &[TopicPartitions]) -> Vec<TopicPartitions> {
    let mut out: Vec<TopicPartitions> = Vec::new();
    for tp in list {
        match out.iter_mut().find(|o| o.topic == tp.topic) {
            Some(o) => o.partitions.extend_from_slice(&tp.partitions),
            None => out.push(tp.clone()),
        }
    }
    out
}

/// Encodes an assignment at `version` as Java's `ConsumerProtocol.serializeAssignment`
/// (partitions grouped by topic, in the order given).
pub fn encode_assignment(a: &Assignment, version: i16) -> Result<Encoded, EncodeError> {
    let v = check_version(version)?;
    let mut w = Writer {
        out: Vec::with_capacity(64),
    };
    w.i16(v);
    w.topic_partitions(
        &group_in_order(&a.assigned_partitions),
        "assigned_partitions",
    )?;
    w.nullable_bytes(a.user_data.as_deref())?;
    Ok(Encoded {
        bytes: w.out,
        version: v,
        dropped: Vec::new(),
    })
}
