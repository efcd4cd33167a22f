//! How the broker's group coordinator feeds its KIP-848 assignors, so that [`super::uniform`]
//! and [`super::server_range`] see exactly what Kafka's do (apache/kafka 1eb7644,
//! `group-coordinator/.../modern/`):
//!
//! - Members: `TargetAssignmentBuilder.build` puts every member into a `new HashMap<>()` in
//!   the order the group knows them; `GroupSpec.memberIds()` iterates that map. Here: the
//!   order of [`GroupInput::members`], through [`iteration_order`].
//! - Subscriptions: `ConsumerGroupMember` keeps the subscribed names as
//!   `new HashSet<>(list)`; `TopicIds` resolves them to topic ids lazily, dropping names
//!   absent from the metadata, while its `size()` still counts every name.
//! - Subscription type (`ModernGroup.subscriptionType`): HOMOGENEOUS when every subscribed
//!   topic *name* is subscribed by every member (or nobody subscribes to anything), so a
//!   member naming a missing topic makes the group heterogeneous.
//! - Each member's current assignment is its previous target assignment,
//!   `Assignment.fromRecord`: a `HashMap<Uuid, Set<Integer>>` filled in the listed order,
//!   each set `new HashSet<>(partitions)`. `GroupSpec.isPartitionAssigned` looks through all
//!   of them.
//! - Racks are not used (`SubscribedTopicDescriberImpl.racksForPartition` returns an empty
//!   set since KAFKA-16694).

use super::{GroupInput, MemberMeta};
use crate::collections::FastMap;
use crate::java::{iteration_order, string_hash_code, JavaHashMap, Uuid};
use std::fmt;

/// Why the broker's assignor refuses an input (where Java throws).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssignorError {
    /// What is wrong, in Kafka's words.
    pub message: String,
    /// True when Kafka's assignor throws here; false when Java gives an answer that this
    /// tool cannot show or reproduce exactly (a partition given to two members, a tree bin's
    /// order), and refuses instead.
    pub java_throws: bool,
}

impl fmt::Display for AssignorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The topic id a topic gets when the scenario names none: deterministic, from the name.
///
/// `msb` and `lsb` are 64-bit FNV-1a hashes of the name's UTF-8 bytes, after the prefixes
/// `"rebalance-lab topic msb\0"` and `"rebalance-lab topic lsb\0"`, each finished with
/// SplitMix64's mixer; Kafka's reserved ids (`msb == 0` with `lsb` 0 or 1) get `lsb | 2`.
/// A real cluster's ids are random: give the scenario its `topic_ids` to reproduce one.
pub fn derived_topic_id(name: &str) -> Uuid {
    fn fnv(prefix: &[u8], name: &str) -> i64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in prefix.iter().chain(name.as_bytes()) {
            h ^= *b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (h ^ (h >> 31)) as i64
    }
    let msb = fnv(b"rebalance-lab topic msb\0", name);
    let mut lsb = fnv(b"rebalance-lab topic lsb\0", name);
    if msb == 0 && (lsb == 0 || lsb == 1) {
        lsb |= 2;
    }
    Uuid { msb, lsb }
}

/// A topic the assignor can see (present in the metadata with at least one partition).
#[derive(Debug, Clone)]
pub(crate) struct FedTopic<'a> {
    pub name: &'a str,
    pub id: Uuid,
    pub partitions: u32,
}

/// One distinct subscription (members usually share a few).
#[derive(Debug, Clone, Default)]
pub(crate) struct FedSubscription {
    /// Distinct names as indices into [`Fed::names`], in the order listed.
    pub names: Vec<u32>,
    /// The same names sorted (to compare subscriptions as sets).
    pub sorted_names: Vec<u32>,
    /// Resolved topics, sorted, as indices into [`Fed::topics`].
    pub topics: Vec<u32>,
}

/// One owned entry: topic (index into [`Fed::topics`] when present), its id, partitions as
/// listed.
pub(crate) type Owned<'a> = (Option<u32>, Uuid, &'a [i32]);

/// The group as the coordinator hands it to an assignor.
pub(crate) struct Fed<'a> {
    /// Topics the assignor can see.
    pub topics: Vec<FedTopic<'a>>,
    /// Every subscribed name, with its topic when present.
    pub names: Vec<(&'a str, Option<u32>)>,
    /// Input indices of the members, in the members `HashMap`'s iteration order.
    pub members: Vec<u32>,
    /// Distinct subscriptions.
    pub subscriptions: Vec<FedSubscription>,
    /// Per input member, its subscription (index into `subscriptions`).
    pub subscription_of: Vec<u32>,
    /// Per input member, how many names its list has, repeats included (the size of the
    /// list `new HashSet<>(list)` is made from).
    listed: Vec<u32>,
    /// The coordinator's subscription type.
    pub homogeneous: bool,
    /// Topic index by name.
    topic_index: FastMap<&'a str, u32>,
    /// The scenario's topic ids by name.
    explicit_ids: FastMap<&'a str, Uuid>,
}

impl<'a> Fed<'a> {
    /// Resolves names, subscriptions and member order as the coordinator does.
    pub fn new(input: &'a GroupInput) -> Fed<'a> {
        let mut topics: Vec<FedTopic> = Vec::new();
        let mut topic_index: FastMap<&str, u32> = FastMap::default();
        let explicit_ids: FastMap<&str, Uuid> = input
            .topic_ids
            .iter()
            .map(|(n, id)| (n.as_str(), *id))
            .collect();
        for t in &input.topics {
            if t.partitions == 0 || topic_index.contains_key(t.name.as_str()) {
                continue;
            }
            topic_index.insert(t.name.as_str(), topics.len() as u32);
            topics.push(FedTopic {
                name: &t.name,
                id: explicit_ids
                    .get(t.name.as_str())
                    .copied()
                    .unwrap_or_else(|| derived_topic_id(&t.name)),
                partitions: t.partitions,
            });
        }
        let mut names: Vec<(&str, Option<u32>)> = Vec::new();
        let mut name_index: FastMap<&str, u32> = FastMap::default();
        let mut subscriptions: Vec<FedSubscription> = Vec::new();
        let mut known: FastMap<Vec<u32>, u32> = FastMap::default();
        // Per name, the last member (numbered from 1) that listed it.
        let mut seen_in: Vec<u32> = Vec::new();
        let mut stamp = 0u32;
        let mut subscription_of: Vec<u32> = Vec::with_capacity(input.members.len());
        let mut prev: Option<&[String]> = None;
        // Per name, the name listed after it last time: lists usually repeat or shift the
        // list before, so a guess checked by comparing names saves hashing most of them.
        let mut next_of: Vec<u32> = Vec::new();
        // Per name, its bytes as two words when it has at most 16 (the guesses are checked
        // against these, without reading the name where it was first listed).
        let mut keys: Vec<Option<ShortKey>> = Vec::new();
        let mut first_listed = NO_NAME;
        // (the member's distinct names, reused from member to member)
        let mut listed: Vec<u32> = Vec::new();
        for m in &input.members {
            // Members usually list the same topics as the one before.
            if prev.is_some_and(|p| {
                p.len() == m.topics.len() && p.iter().zip(m.topics.iter()).all(|(a, b)| same(a, b))
            }) {
                subscription_of.push(*subscription_of.last().unwrap_or(&0));
                continue;
            }
            prev = Some(&m.topics);
            listed.clear();
            stamp += 1;
            let mut last = NO_NAME;
            for t in m.topics.iter() {
                let guess = if last == NO_NAME {
                    first_listed
                } else {
                    next_of[last as usize]
                };
                let key = short_key(t);
                let is = |g: u32| match (keys.get(g as usize), key) {
                    (Some(Some(k)), Some(key)) => *k == key,
                    (Some(None), None) => names[g as usize].0 == t.as_str(),
                    _ => false,
                };
                let guess = [
                    guess,
                    next_of.get(guess as usize).copied().unwrap_or(NO_NAME),
                ]
                .into_iter()
                .find(|g| is(*g));
                let i = match guess {
                    Some(g) => g,
                    None => *name_index.entry(t.as_str()).or_insert_with(|| {
                        names.push((t.as_str(), topic_index.get(t.as_str()).copied()));
                        keys.push(key);
                        seen_in.push(0);
                        next_of.push(NO_NAME);
                        (names.len() - 1) as u32
                    }),
                };
                if last == NO_NAME {
                    first_listed = i;
                } else {
                    next_of[last as usize] = i;
                }
                last = i;
                // A name listed twice counts once (the member's HashSet).
                if seen_in[i as usize] != stamp {
                    seen_in[i as usize] = stamp;
                    listed.push(i);
                }
            }
            // (a subscription seen before is looked up before it is sorted and resolved)
            if let Some(i) = known.get(listed.as_slice()) {
                subscription_of.push(*i);
                continue;
            }
            let mut sub = FedSubscription {
                names: listed.clone(),
                ..Default::default()
            };
            sub.sorted_names = sub.names.clone();
            sub.sorted_names.sort_unstable();
            sub.topics = sub
                .sorted_names
                .iter()
                .filter_map(|n| names[*n as usize].1)
                .collect();
            sub.topics.sort_unstable();
            let next = subscriptions.len() as u32;
            known.insert(sub.names.clone(), next);
            subscriptions.push(sub);
            subscription_of.push(next);
        }
        let homogeneous = match subscriptions.first() {
            None => true,
            Some(first) => subscriptions
                .iter()
                .all(|s| s.sorted_names == first.sorted_names),
        };
        Fed {
            topics,
            names,
            members: member_order(&input.members),
            subscriptions,
            subscription_of,
            listed: input
                .members
                .iter()
                .map(|m| m.topics.len() as u32)
                .collect(),
            homogeneous,
            topic_index,
            explicit_ids,
        }
    }

    /// The subscription of the member at input index `m`.
    pub fn subscription(&self, m: u32) -> &FedSubscription {
        &self.subscriptions[self.subscription_of[m as usize] as usize]
    }

    /// The member's topic ids in the order `new HashSet<>(TopicIds)` iterates them (the
    /// homogeneous uniform builder deals topics in this order): the names' `HashSet` order,
    /// resolved, then re-hashed as ids into a set sized for every name.
    pub fn topic_set_order(&self, m: u32) -> Result<Vec<u32>, AssignorError> {
        let sub = self.subscription(m);
        let name_hashes: Vec<i32> = sub
            .names
            .iter()
            .map(|n| string_hash_code(self.names[*n as usize].0))
            .collect();
        let names_table =
            JavaHashMap::<(), ()>::table_for_collection_of(self.listed[m as usize] as usize);
        let by_name = iteration_order(&name_hashes, names_table).ok_or_else(inexact)?;
        let resolved: Vec<u32> = by_name
            .iter()
            .filter_map(|i| self.names[sub.names[*i as usize] as usize].1)
            .collect();
        let id_hashes: Vec<i32> = resolved
            .iter()
            .map(|t| self.topics[*t as usize].id.hash_code())
            .collect();
        // TopicIds.size() counts every distinct name, resolved or not.
        let ids_table = JavaHashMap::<(), ()>::table_for_collection_of(sub.names.len());
        let order = iteration_order(&id_hashes, ids_table).ok_or_else(inexact)?;
        Ok(order.iter().map(|i| resolved[*i as usize]).collect())
    }

    /// The member's owned entries in its assignment map's order (`HashMap<Uuid, ...>` in the
    /// listed order), a topic listed twice counted once (its first entry).
    pub fn owned_in_map_order(
        &self,
        member: &'a MemberMeta,
    ) -> Result<Vec<Owned<'a>>, AssignorError> {
        let mut entries: Vec<Owned> = Vec::with_capacity(member.owned.len());
        for (name, ps) in &member.owned {
            let (topic, id) = self.resolve_owned(name);
            if entries.iter().any(|e| e.1 == id) {
                continue;
            }
            entries.push((topic, id, ps.as_slice()));
        }
        if entries.len() <= 1 {
            return Ok(entries);
        }
        let hashes: Vec<i32> = entries.iter().map(|e| e.1.hash_code()).collect();
        let order = iteration_order(&hashes, 16).ok_or_else(inexact)?;
        Ok(order.iter().map(|i| entries[*i as usize]).collect())
    }

    /// An owned topic name: its topic when the assignor can see it, and its id (the
    /// scenario's, else derived: a deleted topic keeps the id it had).
    pub fn resolve_owned(&self, name: &str) -> (Option<u32>, Uuid) {
        match self.topic_index.get(name) {
            Some(i) => (Some(*i), self.topics[*i as usize].id),
            None => (
                None,
                self.explicit_ids
                    .get(name)
                    .copied()
                    .unwrap_or_else(|| derived_topic_id(name)),
            ),
        }
    }
}

const NO_NAME: u32 = u32::MAX;

/// A name of at most 16 bytes as two words and its length: equal keys, equal names.
type ShortKey = (u64, u64, usize);

fn short_key(name: &str) -> Option<ShortKey> {
    let b = name.as_bytes();
    let mut w = [0u8; 16];
    w.get_mut(..b.len())?.copy_from_slice(b);
    let (lo, hi) = w.split_at(8);
    Some((
        u64::from_le_bytes(lo.try_into().ok()?),
        u64::from_le_bytes(hi.try_into().ok()?),
        b.len(),
    ))
}

/// Two names are equal: `==` on strings, without a `memcmp` call for short names (this
/// runs for every name every member lists).
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    // the first and the last 8 (or 4) bytes, overlapping, cover a short name
    let w8 = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or([0; 8]));
    let w4 = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().unwrap_or([0; 4]));
    match n {
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        _ => a == b,
    }
}

fn inexact() -> AssignorError {
    AssignorError {
        message: "nine or more keys share one bucket of a java.util.HashMap of 64 or more \
                  buckets: Java's tree-bin order is not reproduced"
            .into(),
        java_throws: false,
    }
}

/// The coordinator's subscription type of the group: `"HOMOGENEOUS"` or `"HETEROGENEOUS"`
/// (`SubscriptionType`'s names).
pub fn subscription_type(input: &GroupInput) -> &'static str {
    if Fed::new(input).homogeneous {
        "HOMOGENEOUS"
    } else {
        "HETEROGENEOUS"
    }
}

/// The topics the homogeneous uniform builder deals, in its order (the first member's
/// `new HashSet<>(TopicIds)`), by name; empty for an empty group.
pub fn uniform_topic_order(input: &GroupInput) -> Result<Vec<&str>, AssignorError> {
    let fed = Fed::new(input);
    let Some(first) = fed.members.first() else {
        return Ok(Vec::new());
    };
    Ok(fed
        .topic_set_order(*first)?
        .iter()
        .map(|t| fed.topics[*t as usize].name)
        .collect())
}

/// Input indices of the members in the coordinator's `HashMap<String, ...>` order (the
/// order the broker's assignors iterate them).
pub fn member_order(members: &[MemberMeta]) -> Vec<u32> {
    let hashes: Vec<i32> = members.iter().map(|m| string_hash_code(&m.id)).collect();
    let distinct = {
        let mut seen: FastMap<&str, ()> = FastMap::default();
        members
            .iter()
            .all(|m| seen.insert(m.id.as_str(), ()).is_none())
    };
    if distinct {
        if let Some(order) = iteration_order(&hashes, 16) {
            return order;
        }
    }
    // A repeated id keeps its first place with the last member's data (HashMap.put), or a
    // tree bin: the map itself.
    let mut map: JavaHashMap<&str, u32> = JavaHashMap::new();
    for (i, m) in members.iter().enumerate() {
        map.insert(m.id.as_str(), i as u32);
    }
    map.iter().map(|(_, i)| *i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::tests::{member, topic};

    /// Each member's subscription is the distinct names it listed, in its order, whatever the
    /// names' lengths (the guesses are checked against two words of a name up to 16 bytes,
    /// against the name itself above): names that differ only past byte 16 or in a NUL, an
    /// empty name, and lists that repeat, shift or shuffle the list before.
    #[test]
    fn each_member_subscribes_to_the_distinct_names_it_listed() {
        let names = [
            "orders",
            "orders\0",
            "",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            "abcdefghijklmnopr",
            "a-much-longer-topic-name-of-the-payments-team",
            "a-much-longer-topic-name-of-the-payments-tea",
            "sixteen-bytes-xy",
            "sixteen-bytes-xz",
        ];
        let lists: Vec<Vec<&str>> = vec![
            names.to_vec(),
            names.to_vec(),
            names[1..].to_vec(),
            names.iter().rev().copied().collect(),
            vec![names[4], names[5], names[4], names[3], names[8]],
            vec![names[5], names[4], names[3], names[9], names[9]],
            vec![names[6], names[7], names[0], names[1]],
            vec![names[7], names[6], names[1], names[0], names[2]],
            names.to_vec(),
        ];
        let input = GroupInput {
            topics: names
                .iter()
                .filter(|n| !n.is_empty())
                .map(|n| topic(n, 2))
                .collect(),
            members: lists
                .iter()
                .enumerate()
                .map(|(i, l)| member(&format!("m{i}"), l))
                .collect(),
            topic_ids: vec![],
        };
        let fed = Fed::new(&input);
        for (i, l) in lists.iter().enumerate() {
            let mut want: Vec<&str> = Vec::new();
            for n in l {
                if !want.contains(n) {
                    want.push(n);
                }
            }
            let got: Vec<&str> = fed
                .subscription(i as u32)
                .names
                .iter()
                .map(|n| fed.names[*n as usize].0)
                .collect();
            assert_eq!(got, want, "member {i}");
        }
        // One index per distinct name, and each resolved to its own topic.
        assert_eq!(fed.names.len(), names.len());
        for (name, t) in &fed.names {
            assert_eq!(
                t.map(|t| fed.topics[t as usize].name),
                (!name.is_empty()).then_some(*name)
            );
        }
        assert!(!fed.homogeneous);
    }
}
