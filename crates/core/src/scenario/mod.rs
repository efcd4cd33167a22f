//! The scenario: cluster topics and group members, as a user builds it.
//!
//! Its JSON form is exactly the shape of an entry in the vectors (`topics` map, optional
//! `partition_racks`, `members` [...], `assignor`), so any vector entry is a valid scenario
//! file; unknown fields are ignored. Its URL form is in [`link`].

mod classic;
pub use classic::assignor_of;
pub mod colours;
pub mod edit;
pub mod glossary;
pub mod large;
pub mod link;
pub mod member_id;
pub mod planner;
pub mod presets;
pub mod whatif;

use crate::assignor::LeaderClient;
use crate::assignor::{self, AssignorKind, GroupInput, MemberMeta, TopicMeta};
use crate::collections::Names;
use crate::group::{ClientPreset, DEFAULT_OFFSETS_PARTITIONS};
use crate::protocol::{self, Subscription, TopicPartitions};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// The most partitions one topic may have in a scenario (a guard against typos that would
/// allocate gigabytes; Kafka's own benchmarks stay far below).
pub const MAX_PARTITIONS: u32 = 1_000_000;

/// The most partitions all topics of a scenario may have together: the assignment and its
/// output grow with this number, and a file must not make the tool run for minutes (the
/// largest Kafka clusters hold a few million partitions).
pub const MAX_TOTAL_PARTITIONS: u64 = 10_000_000;

/// A topic in the cluster metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    /// Topic name.
    pub name: String,
    /// Partition count; 0 means absent from the metadata.
    pub partitions: u32,
}

/// A group member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Member id.
    pub id: String,
    /// group.instance.id (static membership).
    #[serde(default)]
    pub instance_id: Option<String>,
    /// client.rack.
    #[serde(default)]
    pub rack: Option<String>,
    /// client.id, when known (an imported group shows it; the assignors never read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// Subscribed topics (shared with other members listing the same, and with the group's
    /// input: an edit writes a new list).
    #[serde(default)]
    pub topics: crate::assignor::TopicList,
    /// Partitions owned before this rebalance.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub owned: BTreeMap<String, Vec<i32>>,
    /// Generation of the owned partitions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i32>,
    /// Raw ConsumerProtocolSubscription bytes (hex in JSON). When present, the member's
    /// topics, owned partitions, generation and rack come from decoding them.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "hex_bytes")]
    pub subscription: Option<Vec<u8>>,
    /// partition.assignment.strategy: the protocol (assignor) names its JoinGroup lists, in
    /// preference order; the Java client's default when absent.
    #[serde(default = "java_protocols", skip_serializing_if = "is_java_protocols")]
    pub protocols: Vec<String>,
}

impl Default for Member {
    fn default() -> Self {
        Member {
            id: String::new(),
            instance_id: None,
            rack: None,
            client_id: None,
            topics: Default::default(),
            owned: BTreeMap::new(),
            generation: None,
            subscription: None,
            protocols: java_protocols(),
        }
    }
}

/// The Java client's default `partition.assignment.strategy`.
pub fn java_protocols() -> Vec<String> {
    ClientPreset::Java
        .protocols()
        .iter()
        .map(|p| p.to_string())
        .collect()
}

/// True for the Java client's default list.
pub fn is_java_protocols(p: &[String]) -> bool {
    p.iter()
        .map(String::as_str)
        .eq(ClientPreset::Java.protocols().iter().copied())
}

fn default_offsets_partitions() -> u32 {
    DEFAULT_OFFSETS_PARTITIONS
}

fn is_default_offsets(n: &u32) -> bool {
    *n == DEFAULT_OFFSETS_PARTITIONS
}

fn is_java(c: &LeaderClient) -> bool {
    *c == LeaderClient::Java
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A whole scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    /// Topics in metadata, in the user's order.
    #[serde(with = "topic_map")]
    pub topics: Vec<Topic>,
    /// Racks of each partition's replicas, per topic (optional).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub partition_racks: BTreeMap<String, Vec<Vec<String>>>,
    /// Members, in the user's order (which never changes the assignment).
    #[serde(default)]
    pub members: Vec<Member>,
    /// The assignor; range unless said otherwise.
    #[serde(default)]
    pub assignor: AssignorKind,
    /// Kafka topic ids (22 base64url characters) by topic name, for the broker's assignors,
    /// whose orders depend on them. A topic without one gets
    /// [`assignor::derived_topic_id`]; a name not in `topics` still resolves its owned
    /// partitions (a deleted topic).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub topic_ids: BTreeMap<String, String>,
    /// group.id; `None` shows the default, [`DEFAULT_GROUP_ID`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<String>,
    /// offsets.topic.num.partitions (partitions of `__consumer_offsets`), 50 by default.
    #[serde(
        default = "default_offsets_partitions",
        skip_serializing_if = "is_default_offsets"
    )]
    pub offsets_partitions: u32,
    /// The leader's client library, whose member order range and round-robin follow.
    #[serde(default, skip_serializing_if = "is_java")]
    pub leader_client: LeaderClient,
    /// True when `assignor` follows the members' protocol vote; false when it was set by
    /// hand (an override), as in every file written before the vote existed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub assignor_by_vote: bool,
}

/// The group id shown when none is set.
pub const DEFAULT_GROUP_ID: &str = "my-group";

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            topics: Vec::new(),
            partition_racks: BTreeMap::new(),
            members: Vec::new(),
            assignor: AssignorKind::default(),
            group_id: None,
            offsets_partitions: DEFAULT_OFFSETS_PARTITIONS,
            leader_client: LeaderClient::Java,
            assignor_by_vote: false,
            topic_ids: BTreeMap::new(),
        }
    }
}

/// Something wrong with a scenario, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where: `topics["orders"]`, `members[2].id`, ...
    pub at: String,
    /// What.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl Member {
    /// A dynamic member with these topics.
    pub fn new(id: &str, topics: &[&str]) -> Self {
        Member {
            id: id.to_string(),
            topics: topics
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .into(),
            ..Default::default()
        }
    }

    /// The subscription this member sends: decoded from its bytes when it has them, else
    /// built from its fields.
    pub fn effective_subscription(&self) -> Result<Subscription, protocol::DecodeError> {
        if let Some(bytes) = &self.subscription {
            return protocol::decode_subscription(bytes).into_result();
        }
        Ok(self.fields_subscription())
    }

    /// The subscription built from the member's form fields.
    pub fn fields_subscription(&self) -> Subscription {
        Subscription {
            topics: self.topics.to_vec(),
            user_data: None,
            owned_partitions: TopicPartitions::list(self.owned.iter()),
            generation_id: self.generation.unwrap_or(-1),
            rack_id: self.rack.clone(),
        }
    }

    /// Takes the member's topics, owned partitions, generation and rack from a decoded
    /// subscription (the bytes stay the source of truth).
    pub fn apply_subscription(&mut self, s: &Subscription) {
        let mut seen = Names::default();
        self.topics = s
            .topics
            .iter()
            .filter(|t| seen.insert(t.to_string(), 0).is_none())
            .cloned()
            .collect::<Vec<_>>()
            .into();
        // A topic listed twice has its partitions joined, in order.
        self.owned = BTreeMap::new();
        for tp in &s.owned_partitions {
            let earlier: &mut Vec<i32> = self.owned.entry(tp.topic.clone()).or_default();
            earlier.extend(&tp.partitions);
        }
        self.generation = (s.generation_id >= 0).then_some(s.generation_id);
        self.rack = s.rack_id.clone().filter(|r| !r.is_empty());
    }
}

/// A typed topic id in Kafka's canonical form (`Uuid.toString`) when Java's
/// `Uuid.fromString` reads it (`T2-B4s3VTwiI5YHbPp6YUe` is `T2-B4s3VTwiI5YHbPp6YUQ`), else as
/// typed ([`Scenario::problems`] says why it is refused).
pub fn canonical_topic_id(id: &str) -> String {
    crate::java::Uuid::parse(id).map_or_else(|_| id.to_string(), |u| u.to_string())
}

impl Scenario {
    /// Parses a scenario file (JSON), with a message that says where it is wrong.
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        // (serde would read a struct from an array too, and say "invalid length 0, expected
        // struct Scenario with 9 elements" for `[]`)
        let first = text.trim_start().chars().next();
        let found = match first {
            None => Some("nothing"),
            Some('[') => Some("an array"),
            Some('"') => Some("a string"),
            Some('0'..='9' | '-') => Some("a number"),
            Some('t' | 'f') => Some("true or false"),
            Some('n') => Some("null"),
            _ => None,
        };
        if let Some(found) = found {
            let line = text.len() - text.trim_start().len();
            let line = text[..line].matches('\n').count() + 1;
            return Err(format!(
                "scenario JSON: line {line}: a scenario is a JSON object, such as {{\"topics\": {{\"orders\": 6}}, \"members\": [{{\"id\": \"c1\", \"topics\": [\"orders\"]}}]}}, and this is {found}"
            ));
        }
        let s: Scenario = serde_json::from_str(text).map_err(|e| format!("scenario JSON: {e}"))?;
        if let Some(p) = s
            .problems()
            .into_iter()
            .find(|p| p.at.starts_with("topics"))
        {
            return Err(p.to_string());
        }
        Ok(s)
    }

    /// Partitions in all, over every topic.
    pub fn total_partitions(&self) -> u64 {
        self.topics.iter().map(|t| u64::from(t.partitions)).sum()
    }

    /// Index of a topic by name (a linear search: for one look-up, not one per member).
    pub fn topic_index(&self, name: &str) -> Option<usize> {
        self.topics.iter().position(|t| t.name == name)
    }

    /// Everything wrong with the scenario: duplicate names, partition counts out of range
    /// (per topic and in all), undecodable subscription bytes.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut seen = Names::default();
        for t in &self.topics {
            if seen.insert(t.name.clone(), 0).is_some() {
                out.push(Problem {
                    at: format!("topics[\"{}\"]", t.name),
                    message: "duplicate topic name".into(),
                });
            }
            if t.partitions > MAX_PARTITIONS {
                out.push(Problem {
                    at: format!("topics[\"{}\"]", t.name),
                    message: format!(
                        "partition count {} is above the limit of {MAX_PARTITIONS}",
                        t.partitions
                    ),
                });
            }
        }
        let total = self.total_partitions();
        if total > MAX_TOTAL_PARTITIONS {
            out.push(Problem {
                at: "topics".into(),
                message: format!(
                    "{total} partitions in all is above the limit of {MAX_TOTAL_PARTITIONS}"
                ),
            });
        }
        let mut ids = Names::default();
        for (i, m) in self.members.iter().enumerate() {
            if ids.insert(m.id.clone(), 0).is_some() {
                out.push(Problem {
                    at: format!("members[{i}].id"),
                    message: format!("duplicate member id \"{}\"", m.id),
                });
            }
            if let Err(e) = m.effective_subscription() {
                out.push(Problem {
                    at: format!("members[{i}].subscription"),
                    message: e.to_string(),
                });
            }
        }
        for (name, id) in self.topic_ids.iter() {
            let refusal = match crate::java::Uuid::parse(id) {
                Err(e) => Some(e.to_string()),
                Ok(u) => u.reserved_for_topics().map(str::to_string),
            };
            if let Some(message) = refusal {
                out.push(Problem {
                    at: format!("topic_ids[\"{name}\"]"),
                    message,
                });
            }
        }
        if let Some((a, b, id)) = self.topic_id_clash() {
            out.push(Problem {
                at: format!("topic_ids[\"{b}\"]"),
                message: format!(
                    "topics \"{a}\" and \"{b}\" both have the id {id}: a topic id names one topic"
                ),
            });
        }
        out
    }

    /// Topic `name`'s id in Kafka's canonical form ([`canonical_topic_id`]): the one typed
    /// for it (`topic_ids`), else the one derived from its name
    /// ([`crate::assignor::derived_topic_id`]).
    pub fn topic_id_of(&self, name: &str) -> String {
        self.topic_ids
            .get(name)
            .map(|id| canonical_topic_id(id))
            .unwrap_or_else(|| crate::assignor::derived_topic_id(name).to_string())
    }

    /// The topic other than the one named `except` whose id is `id` (in canonical form), if
    /// any (a topic id names one topic in Kafka; two texts Java reads as one id are one id).
    pub fn topic_with_id(&self, id: &str, except: &str) -> Option<&str> {
        self.topics
            .iter()
            .find(|t| t.name != except && self.topic_id_of(&t.name) == id)
            .map(|t| t.name.as_str())
    }

    /// Two topics with one id: the first such pair of topic names and the id, if any (a link
    /// read as it came may have them; the edits never make them). Hashed, and nothing to do
    /// without typed ids.
    pub fn topic_id_clash(&self) -> Option<(String, String, String)> {
        if self.topic_ids.is_empty() {
            return None;
        }
        let mut seen: crate::collections::FastMap<String, &str> = Default::default();
        for t in &self.topics {
            let id = self.topic_id_of(&t.name);
            if let Some(other) = seen.get(&id) {
                return Some((other.to_string(), t.name.clone(), id));
            }
            seen.insert(id, t.name.as_str());
        }
        None
    }

    /// What the assignor sees. A member whose subscription bytes do not decode subscribes
    /// to nothing (a Java leader would fail the rebalance; [`Scenario::problems`] says why).
    /// Owned partitions and generation are the subscription's (what cooperative-sticky
    /// reads); see [`Scenario::group_input_for`].
    pub fn group_input(&self) -> GroupInput {
        self.group_input_for(AssignorKind::CooperativeSticky)
    }

    /// What the given assignor sees. StickyAssignor takes each member's previous assignment
    /// from its user data: for a member given as bytes, the decoded StickyAssignor user
    /// data; for a member given as fields, its `owned` and `generation` (as in the vectors).
    pub fn group_input_for(&self, kind: AssignorKind) -> GroupInput {
        GroupInput {
            topics: self
                .topics
                .iter()
                .map(|t| TopicMeta {
                    name: t.name.clone(),
                    partitions: t.partitions.min(MAX_PARTITIONS),
                    racks: self
                        .partition_racks
                        .get(&t.name)
                        .cloned()
                        .unwrap_or_default(),
                })
                .collect(),
            members: self
                .members
                .iter()
                .map(|m| {
                    // A member given by its fields shares its topic list (no copy of it)
                    // and its owned partitions are its previous assignment; one given as
                    // bytes has what they decode to.
                    let (topics, rack, (owned, generation)) = match m.subscription {
                        None => (
                            m.topics.clone(),
                            m.rack.clone(),
                            (
                                m.owned
                                    .iter()
                                    .map(|(t, ps)| (t.clone(), ps.clone()))
                                    .collect(),
                                m.generation,
                            ),
                        ),
                        Some(_) => {
                            let sub = m.effective_subscription().unwrap_or_default();
                            let previous = previous_assignment(&sub, kind);
                            (sub.topics.into(), sub.rack_id, previous)
                        }
                    };
                    MemberMeta {
                        id: m.id.clone(),
                        instance_id: m.instance_id.clone(),
                        rack,
                        topics,
                        owned,
                        generation,
                    }
                })
                .collect(),
            // An id that does not parse is reported by `problems`; the topic gets the
            // derived id meanwhile.
            topic_ids: self
                .topic_ids
                .iter()
                .filter_map(|(n, id)| Some((n.clone(), crate::java::Uuid::parse(id).ok()?)))
                .collect(),
        }
    }

    /// Runs an assignor over the scenario; `None` where Java throws (see
    /// [`Scenario::try_assign`]).
    pub fn assign(&self, kind: AssignorKind) -> Option<(GroupInput, assignor::Assignment)> {
        self.try_assign(kind).ok()
    }

    /// Runs an assignor over the scenario; an error names the exception Java throws.
    pub fn try_assign(
        &self,
        kind: AssignorKind,
    ) -> Result<(GroupInput, assignor::Assignment), assignor::sticky::StickyError> {
        self.try_assign_with(kind, assignor::LeaderClient::Java)
    }

    /// [`Scenario::assign`] as computed by a leader running `client` (its member order).
    pub fn assign_with(
        &self,
        kind: AssignorKind,
        client: assignor::LeaderClient,
    ) -> Option<(GroupInput, assignor::Assignment)> {
        self.try_assign_with(kind, client).ok()
    }

    /// [`Scenario::try_assign`] as computed by a leader running `client`.
    pub fn try_assign_with(
        &self,
        kind: AssignorKind,
        client: assignor::LeaderClient,
    ) -> Result<(GroupInput, assignor::Assignment), assignor::sticky::StickyError> {
        let input = self.group_input_for(kind);
        let a = assignor::try_assign_with(kind, &input, client)?;
        Ok((input, a))
    }
}

/// The previous assignment and generation of a member given as bytes, as the sticky assignor
/// `kind` reads them from its subscription `sub` (Java's `memberData`).
fn previous_assignment(
    sub: &Subscription,
    kind: AssignorKind,
) -> (Vec<(String, Vec<i32>)>, Option<i32>) {
    use protocol::sticky::{decode_sticky_user_data, StickyUserData};
    let pairs = |tps: &[TopicPartitions]| -> Vec<(String, Vec<i32>)> {
        tps.iter()
            .map(|tp| (tp.topic.clone(), tp.partitions.clone()))
            .collect()
    };
    let user_data = sub.user_data.as_deref();
    match kind {
        AssignorKind::Sticky => match user_data {
            None | Some([]) => (Vec::new(), None),
            Some(bytes) => match decode_sticky_user_data(bytes) {
                Some(StickyUserData::Sticky {
                    previous,
                    generation,
                }) => (pairs(&previous), generation),
                // Java ignores user data it cannot parse, with the default generation
                _ => (Vec::new(), Some(-1)),
            },
        },
        _ => {
            let generation = if sub.generation_id >= 0 {
                Some(sub.generation_id)
            } else {
                match user_data.map(decode_sticky_user_data) {
                    None => None,
                    Some(Some(StickyUserData::Cooperative { generation })) => Some(generation),
                    Some(_) => Some(-1),
                }
            };
            (pairs(&sub.owned_partitions), generation)
        }
    }
}

/// `topics` as a JSON object {name: count}, keeping the file's order.
mod topic_map {
    use super::*;

    pub fn serialize<S: Serializer>(topics: &[Topic], s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(topics.len()))?;
        for t in topics {
            m.serialize_entry(&t.name, &t.partitions)?;
        }
        m.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Topic>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Vec<Topic>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of topic name to partition count")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<Topic>, A::Error> {
                let mut out: Vec<Topic> = Vec::new();
                // Names seen so far (a scan of `out` per topic is quadratic).
                let mut seen = Names::default();
                while let Some((name, partitions)) = map.next_entry::<String, i64>()? {
                    if !(0..=MAX_PARTITIONS as i64).contains(&partitions) {
                        return Err(de::Error::custom(format!(
                            "topic \"{name}\": partition count {partitions} is outside 0..={MAX_PARTITIONS}"
                        )));
                    }
                    if seen.insert(name.clone(), 0).is_some() {
                        return Err(de::Error::custom(format!(
                            "topic \"{name}\" is listed twice"
                        )));
                    }
                    out.push(Topic {
                        name,
                        partitions: partitions as u32,
                    });
                }
                Ok(out)
            }
        }
        d.deserialize_map(V)
    }
}

/// Optional bytes as a hex string.
mod hex_bytes {
    use super::*;
    use crate::protocol::hex;

    pub fn serialize<S: Serializer>(b: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match b {
            Some(b) => s.serialize_str(&hex::to_hex(b)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        let s: Option<String> = Option::deserialize(d)?;
        match s {
            None => Ok(None),
            Some(s) => hex::parse_hex(&s)
                .map(Some)
                .map_err(|e| de::Error::custom(format!("subscription: {e}"))),
        }
    }
}
