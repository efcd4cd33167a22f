//! What both sticky algorithms start from, as `AbstractStickyAssignor.assignPartitions`
//! builds it: the subscriptions map (a `java.util.HashMap` keyed by member id), the topics
//! in metadata, each member's previous partitions with conflicting claims settled by
//! generation (`allSubscriptionsEqual`), and the rack information (`RackInfo`).

use crate::assignor::{subscribed, GroupInput, Subscribed};
use crate::collections::FastMap;
use crate::java::{iteration_order, string_compare, string_hash_code, string_order, JavaHashMap};

/// A topic partition: `t` indexes [`Prep::topics`] (Java name order), `p` may lie outside
/// the topic (an owned partition that no longer exists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Tp {
    pub t: u32,
    pub p: i32,
}

/// A list of partitions per member, all in one buffer (one allocation, not one per member):
/// member m's list is `buf[start[m]..start[m] + len[m]]` with room for `room[m]`; a list
/// that outgrows its room moves to the end of the buffer.
#[derive(Clone, Default)]
pub(super) struct Lists {
    buf: Vec<Tp>,
    /// Per member: start, length, room.
    at: Vec<[u32; 3]>,
}

const NO_TP: Tp = Tp { t: NONE, p: 0 };

impl Lists {
    /// Empty lists with room for `room(m)` partitions each.
    pub fn with_room(members: usize, room: impl Fn(usize) -> usize) -> Lists {
        let mut next = 0u32;
        let at = (0..members)
            .map(|m| {
                let r = room(m) as u32;
                next += r;
                [next - r, 0, r]
            })
            .collect();
        Lists {
            buf: vec![NO_TP; next as usize],
            at,
        }
    }

    /// Appends `tp` to member m's list; returns its new length.
    #[inline(always)]
    pub fn push(&mut self, m: u32, tp: Tp) -> usize {
        let a = &mut self.at[m as usize];
        if a[1] == a[2] {
            // moved to the end, with twice the room
            let (start, len) = (a[0] as usize, a[1] as usize);
            a[0] = self.buf.len() as u32;
            a[2] = (2 * a[1]).max(4);
            self.buf.extend_from_within(start..start + len);
            self.buf.resize(a[0] as usize + a[2] as usize, NO_TP);
        }
        self.buf[(a[0] + a[1]) as usize] = tp;
        a[1] += 1;
        a[1] as usize
    }

    /// Replaces member m's list by `items` (room permitting, in place).
    pub fn set(&mut self, m: u32, items: &[Tp]) {
        self.at[m as usize][1] = 0;
        for tp in items {
            self.push(m, *tp);
        }
    }

    /// Member m's list, to change in place.
    pub fn slot_mut(&mut self, m: u32) -> &mut [Tp] {
        let [start, len, _] = self.at[m as usize];
        &mut self.buf[start as usize..(start + len) as usize]
    }

    /// Shortens member m's list to `len`.
    pub fn truncate(&mut self, m: u32, len: usize) {
        let a = &mut self.at[m as usize];
        a[1] = a[1].min(len as u32);
    }

    /// `List.remove(Object)` on member m's list: the first equal element, if any.
    pub fn remove_first(&mut self, m: u32, tp: Tp) {
        let [start, len, _] = self.at[m as usize];
        let list = &mut self.buf[start as usize..(start + len) as usize];
        if let Some(i) = list.iter().position(|x| *x == tp) {
            list.copy_within(i + 1.., i);
            self.at[m as usize][1] -= 1;
        }
    }

    /// Lists laid end to end in `buf`, member m's `lens[m]` long (each with no spare room).
    pub fn from_flat(buf: Vec<Tp>, lens: &[u32]) -> Lists {
        let mut next = 0u32;
        let at = lens
            .iter()
            .map(|l| {
                next += l;
                [next - l, *l, *l]
            })
            .collect();
        Lists { buf, at }
    }

    /// Lists holding these vectors.
    pub fn from_vecs(lists: Vec<Vec<Tp>>) -> Lists {
        let mut out = Lists::with_room(lists.len(), |m| lists[m].len());
        for (m, l) in lists.iter().enumerate() {
            out.set(m as u32, l);
        }
        out
    }

    /// Every list as its own vector.
    pub fn to_vecs(&self) -> Vec<Vec<Tp>> {
        (0..self.at.len()).map(|m| self[m].to_vec()).collect()
    }
}

impl std::ops::Index<usize> for Lists {
    type Output = [Tp];
    fn index(&self, m: usize) -> &[Tp] {
        let [start, len, _] = self.at[m];
        &self.buf[start as usize..(start + len) as usize]
    }
}

/// Sorts partitions stably by `key`: each key computed once, then (key, position) pairs
/// sorted, which are distinct, so equal keys keep their order.
pub(super) fn sort_tps(v: &mut [Tp], key: &dyn Fn(&Tp) -> u64) {
    let mut keyed: Vec<(u64, u32)> = v
        .iter()
        .enumerate()
        .map(|(i, tp)| (key(tp), i as u32))
        .collect();
    if keyed.is_sorted() {
        return;
    }
    keyed.sort_unstable();
    let sorted: Vec<Tp> = keyed.iter().map(|&(_, i)| v[i as usize]).collect();
    v.copy_from_slice(&sorted);
}

/// Sorts ids (members, topics, names) stably by `cmp`: one copy of the sort for all of them.
pub(super) fn sort_ids(v: &mut [u32], cmp: &dyn Fn(u32, u32) -> std::cmp::Ordering) {
    crate::collections::sort_by(v, |a, b| cmp(*a, *b));
}

/// A partition number as an unsigned key in the same order (it may be negative).
pub(super) fn p_key(p: i32) -> u64 {
    (p as u32 ^ 0x8000_0000) as u64
}

/// Java's `DEFAULT_GENERATION`.
pub(super) const DEFAULT_GENERATION: i32 = -1;

/// A topic of `partitionsPerTopic`: subscribed by someone, in metadata with partitions.
pub(super) struct TopicInfo<'a> {
    pub name: &'a str,
    pub partitions: u32,
    /// First dense index of its partitions.
    pub offset: u32,
    pub hash: i32,
}

pub(super) struct Prep<'a> {
    pub input: &'a GroupInput,
    /// The members the Java map holds (input indices), in its iteration order.
    pub map_order: Vec<u32>,
    /// Java `String` order of member ids: rank per input index (members outside the map
    /// rank last).
    pub rank: Vec<u32>,
    /// Input index per rank.
    pub by_rank: Vec<u32>,
    pub topics: Vec<TopicInfo<'a>>,
    pub total: u32,
    /// Every member's raw subscription as name ids (duplicates kept, as Java's list), and
    /// every subscribed name.
    pub subs: Subscribed<'a>,
    /// Topic index (into `topics`) per name id, or `NONE` for a topic not in metadata.
    pub topic_of_name: Vec<u32>,
    /// Per member, the partitions its `MemberData` carries, restricted to `topics`.
    pub member_data: Lists,
    /// Every partition in `member_data` exists and appears once.
    pub claimed_once: bool,
    /// Per member, `MemberData.generation`.
    pub generation: Vec<Option<i32>>,
}

pub(super) const NONE: u32 = u32::MAX;

impl<'a> Prep<'a> {
    pub fn new(input: &'a GroupInput) -> Prep<'a> {
        let n = input.members.len();
        let (map_order, by_rank) = member_orders(input);
        let mut rank = vec![u32::MAX; n];
        for (r, m) in by_rank.iter().enumerate() {
            rank[*m as usize] = r as u32;
        }
        let subs = subscribed(&input.members);
        let names = &subs.names;
        let meta: FastMap<&str, u32> = input
            .topics
            .iter()
            .filter(|t| t.partitions > 0)
            .map(|t| (t.name.as_str(), t.partitions))
            .collect();
        let mut present: Vec<u32> = (0..names.len() as u32)
            .filter(|i| meta.contains_key(names[*i as usize]))
            .collect();
        sort_ids(&mut present, &|a, b| {
            string_compare(names[a as usize], names[b as usize])
        });
        let mut topic_of_name = vec![NONE; names.len()];
        let mut topics = Vec::with_capacity(present.len());
        let mut total = 0u32;
        for (ti, id) in present.iter().enumerate() {
            topic_of_name[*id as usize] = ti as u32;
            let name = names[*id as usize];
            let parts = &meta[name];
            topics.push(TopicInfo {
                name,
                partitions: *parts,
                offset: total,
                hash: string_hash_code(name),
            });
            total += parts;
        }
        // Previous partitions: topics resolved by name (`each_claim`, through a `NameIndex`).
        let topic_index: FastMap<&str, u32> = topics
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name, i as u32))
            .collect();
        // Whether every claimed partition exists and is claimed once (then `claims` has
        // nothing to settle), found while reading them.
        let (member_data, claimed_once) = {
            // (room for one claim per partition, as a group that kept its assignment has)
            let mut buf = Vec::with_capacity(total as usize);
            let mut lens = vec![0u32; n];
            let mut seen = vec![false; total as usize];
            let mut once = true;
            each_claim(input, &topic_index, |m, t, parts| {
                let info = &topics[t as usize];
                buf.extend(parts.iter().map(|p| Tp { t, p: *p }));
                lens[m as usize] += parts.len() as u32;
                for p in parts {
                    // (a negative partition is above every count as a u32)
                    once &= (*p as u32) < info.partitions
                        && !std::mem::replace(&mut seen[(info.offset + *p as u32) as usize], true);
                }
            });
            (Lists::from_flat(buf, &lens), once)
        };
        Prep {
            input,
            map_order,
            rank,
            by_rank,
            topics,
            total,
            subs,
            topic_of_name,
            member_data,
            claimed_once,
            generation: input.members.iter().map(|m| m.generation).collect(),
        }
    }

    /// `members` (each once, all in the map) sorted by member id, Java `String` order.
    pub fn in_rank_order(&self, members: &[u32]) -> Vec<u32> {
        // marked, then read off in rank order: O(members in the map), no sort
        let mut marked = vec![false; self.rank.len()];
        for m in members {
            marked[*m as usize] = true;
        }
        self.by_rank
            .iter()
            .copied()
            .filter(|m| marked[*m as usize])
            .collect()
    }

    /// Number of members in the subscriptions map.
    pub fn members(&self) -> usize {
        self.map_order.len()
    }

    /// Dense index of a partition that exists.
    pub fn dense(&self, tp: Tp) -> Option<usize> {
        dense_of(&self.topics, tp)
    }

    /// The partition at a dense index.
    pub fn tp_at(&self, d: usize) -> Tp {
        let t = self
            .topics
            .partition_point(|t| (t.offset as usize) <= d)
            .saturating_sub(1);
        Tp {
            t: t as u32,
            p: (d - self.topics[t].offset as usize) as i32,
        }
    }

    /// `TopicPartition.hashCode()`.
    pub fn tp_hash(&self, tp: Tp) -> i32 {
        31i32
            .wrapping_add(tp.p)
            .wrapping_mul(31)
            .wrapping_add(self.topics[tp.t as usize].hash)
    }

    /// The member's subscription generation (`Subscription.generationId()`, -1 when absent).
    pub fn subscription_generation(&self, m: u32) -> i32 {
        self.generation[m as usize].unwrap_or(DEFAULT_GENERATION)
    }
}

/// Every member's previous partitions whose topic is in `topic_index`, in input order:
/// `each(member, topic, partitions)`, topics resolved by [`NameIndex`].
fn each_claim(
    input: &GroupInput,
    topic_index: &FastMap<&str, u32>,
    mut each: impl FnMut(u32, u32, &[i32]),
) {
    let index = NameIndex::new(topic_index);
    for (i, m) in input.members.iter().enumerate() {
        for (name, parts) in &m.owned {
            let t = index.get(name);
            if t != NONE {
                each(i as u32, t, parts);
            }
        }
    }
}

/// A name's value in a map of names, found from the name's own bytes: a name of
/// at most 16 bytes is exactly its length and two 8-byte words (the first 8 bytes and the
/// last 8, zero-padded below 8), so a small open-addressed table of those keys finds it
/// with one hash of two words and one compare, with no byte loop and no `memcmp` (topic
/// names are mostly that short; longer ones go to the map itself). Each owned entry of a
/// group holds its own copy of its topic's name, so this runs once per entry: 10,000 times
/// for 1,000 members after one left.
struct NameIndex<'m, 'a> {
    /// (first word, last word, length, value); value `NONE`: empty.
    slots: Vec<(u64, u64, u32, u32)>,
    shift: u32,
    /// Every name, for those longer than 16 bytes.
    map: &'m FastMap<&'a str, u32>,
}

impl<'m, 'a> NameIndex<'m, 'a> {
    fn new(map: &'m FastMap<&'a str, u32>) -> Self {
        let bits = (2 * map.len()).next_power_of_two().max(16).trailing_zeros();
        let mut index = NameIndex {
            slots: vec![(0, 0, 0, NONE); 1 << bits],
            shift: 64 - bits,
            map,
        };
        for (name, v) in map {
            if let Some(key) = name_key(name) {
                let mut i = index.slot(key);
                while index.slots[i].3 != NONE {
                    i = (i + 1) & (index.slots.len() - 1);
                }
                index.slots[i] = (key.0, key.1, key.2, *v);
            }
        }
        index
    }

    #[inline(always)]
    fn slot(&self, (w0, w1, len): (u64, u64, u32)) -> usize {
        ((w0 ^ w1.rotate_left(29) ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift)
            as usize
    }

    /// The name's value, or `NONE` when the map does not hold it.
    #[inline(always)]
    fn get(&self, name: &str) -> u32 {
        let Some(key) = name_key(name) else {
            return self.map.get(name).copied().unwrap_or(NONE);
        };
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let s = &self.slots[i];
            if s.3 == NONE || (s.0, s.1, s.2) == key {
                return s.3;
            }
            i = (i + 1) & mask;
        }
    }
}

/// A name of at most 16 bytes as (first word, last word, length): equal keys, equal names
/// (at a given length, the words read cover every byte: two overlapping 8-byte reads from
/// 8 to 16 bytes, two overlapping 4-byte ones from 4 to 7, each byte below that).
#[inline(always)]
fn name_key(name: &str) -> Option<(u64, u64, u32)> {
    let b = name.as_bytes();
    let len = b.len();
    let w8 = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]));
    let w4 = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or([0; 4])) as u64;
    let words = match len {
        8..=16 => (w8(0), w8(len - 8)),
        4..=7 => (w4(0) | w4(len - 4) << 32, 0),
        1..=3 => (
            b[0] as u64 | (b[len / 2] as u64) << 8 | (b[len - 1] as u64) << 16,
            0,
        ),
        0 => (0, 0),
        _ => return None,
    };
    Some((words.0, words.1, len as u32))
}

/// `a == b`; names of at most 16 bytes compared as their [`name_key`]s, without a
/// call to `memcmp` (topic names and member ids are mostly that long).
#[inline(always)]
fn same_name(a: &str, b: &str) -> bool {
    if a.len() == b.len() {
        if let (Some(x), Some(y)) = (name_key(a), name_key(b)) {
            return x == y;
        }
    }
    a == b
}

/// Dense index of a partition of `topics` that exists.
fn dense_of(topics: &[TopicInfo<'_>], tp: Tp) -> Option<usize> {
    let t = &topics[tp.t as usize];
    (tp.p >= 0 && (tp.p as u32) < t.partitions).then(|| (t.offset + tp.p as u32) as usize)
}

/// The subscriptions map's iteration order (a `java.util.HashMap` keyed by member id: a later
/// duplicate id replaces the value and keeps the place), and its members in Java `String`
/// order of their ids.
fn member_orders(input: &GroupInput) -> (Vec<u32>, Vec<u32>) {
    let ids: Vec<&str> = input.members.iter().map(|m| m.id.as_str()).collect();
    let by_rank = string_order(&ids);
    let distinct = by_rank
        .windows(2)
        .all(|w| !same_name(ids[w[0] as usize], ids[w[1] as usize]));
    if distinct {
        // Distinct keys: the map's order follows from their hashes alone, unless a bucket
        // would have become a tree.
        let hashes: Vec<i32> = ids.iter().map(|id| string_hash_code(id)).collect();
        if let Some(map_order) = iteration_order(&hashes, 16) {
            return (map_order, by_rank);
        }
    }
    let mut map: JavaHashMap<&str, u32> = JavaHashMap::new();
    for (i, id) in ids.iter().enumerate() {
        map.insert(id, i as u32);
    }
    let map_order: Vec<u32> = map.iter().map(|(_, i)| *i).collect();
    let mut by_rank = map_order.clone();
    sort_ids(&mut by_rank, &|a, b| {
        string_compare(ids[a as usize], ids[b as usize])
    });
    (map_order, by_rank)
}

/// The outcome of `allSubscriptionsEqual`.
pub(super) struct Claims {
    pub all_equal: bool,
    /// Per member, its previously owned partitions that survive the generation checks.
    pub owned: Lists,
    /// Partitions claimed by two members of one generation (nobody keeps them).
    pub multiple_owners: FastMap<Tp, u32>,
    pub max_generation: i32,
}

/// `allSubscriptionsEqual`: whether every raw subscription equals the first non-empty one
/// (an empty one re-initialises the comparison, Java's quirk), and each member's previous
/// partitions with conflicting claims settled: the higher generation keeps the partition; in
/// one generation nobody does.
pub(super) fn claims(prep: &Prep<'_>) -> Claims {
    let n = prep.input.members.len();
    let mut all_equal = true;
    let mut first: Vec<bool> = vec![false; prep.topic_of_name.len()];
    let mut first_len = 0usize;
    let mut first_m = 0u32;
    let settled = prep.claimed_once;
    let mut owned = if settled {
        // each member keeps what it claims (the members outside the map are cut below)
        prep.member_data.clone()
    } else {
        Lists::with_room(n, |m| prep.member_data[m].len())
    };
    if settled {
        for m in 0..n as u32 {
            if prep.rank[m as usize] == u32::MAX {
                owned.truncate(m, 0);
            }
        }
    }
    let mut multiple_owners = FastMap::default();
    let mut max_generation = DEFAULT_GENERATION;
    // previous owner per partition: dense for existing partitions, a map for the others
    // (nothing to settle: no table)
    let mut owner_dense = vec![NONE; if settled { 0 } else { prep.total as usize }];
    let mut owner_other: FastMap<Tp, u32> = FastMap::default();
    for &m in &prep.map_order {
        let sub = prep.subs.of(m);
        if first_len > 0 && sub.len() == first_len && prep.subs.same(first_m, m) {
            // the first list itself, without duplicates (Java compares the list's size with
            // the set's): equal
        } else if first_len == 0 {
            first_m = m;
            for &id in sub {
                if !first[id as usize] {
                    first[id as usize] = true;
                    first_len += 1;
                }
            }
        } else if all_equal && !(sub.len() == first_len && sub.iter().all(|id| first[*id as usize]))
        {
            all_equal = false;
        }
        let generation = prep.generation[m as usize].unwrap_or(DEFAULT_GENERATION);
        max_generation = max_generation.max(generation);
        if settled {
            continue;
        }
        for &tp in &prep.member_data[m as usize] {
            let slot = match prep.dense(tp) {
                Some(d) => &mut owner_dense[d],
                None => owner_other.entry(tp).or_insert(NONE),
            };
            let other = *slot;
            if other == NONE {
                owned.push(m, tp);
                *slot = m;
                continue;
            }
            let other_generation = prep.subscription_generation(other);
            if generation == other_generation {
                multiple_owners.insert(tp, 0);
                owned.remove_first(other, tp);
                *slot = m;
            } else if generation > other_generation {
                owned.push(m, tp);
                owned.remove_first(other, tp);
                *slot = m;
            }
        }
    }
    Claims {
        all_equal,
        owned,
        multiple_owners,
        max_generation,
    }
}

/// `List.remove(Object)`: the first equal element, if any.
pub(super) fn remove_first<T: PartialEq>(v: &mut Vec<T>, x: T) -> bool {
    match v.iter().position(|y| *y == x) {
        Some(i) => {
            v.remove(i);
            true
        }
        None => false,
    }
}

/// `RackInfo`, decided once over all partitions (KIP-881).
pub(super) struct Racks {
    /// Per member, its rack id when rack-aware assignment is used (else all `NONE`).
    pub consumer: Vec<u32>,
    /// Per dense partition, its replicas' distinct racks (empty when not rack-aware).
    pub partition: Vec<Vec<u32>>,
    /// Per dense partition, how many consumers share one of its racks (empty when no
    /// consumer has a rack).
    pub consumers_by_partition: Vec<u32>,
    pub rack_aware: bool,
}

impl Racks {
    pub fn new(prep: &Prep<'_>) -> Racks {
        let n = prep.input.members.len();
        let mut ids: FastMap<&str, u32> = FastMap::default();
        let mut consumer_rack = vec![NONE; n];
        let mut consumers_per_rack: Vec<u32> = Vec::new();
        for &m in &prep.map_order {
            if let Some(r) = prep.input.members[m as usize].rack.as_deref() {
                if !r.is_empty() {
                    let next = ids.len() as u32;
                    let id = *ids.entry(r).or_insert(next);
                    if id as usize == consumers_per_rack.len() {
                        consumers_per_rack.push(0);
                    }
                    consumers_per_rack[id as usize] += 1;
                    consumer_rack[m as usize] = id;
                }
            }
        }
        let consumer_racks = ids.len();
        if consumer_racks == 0 {
            return Racks {
                consumer: vec![NONE; n],
                partition: Vec::new(),
                consumers_by_partition: Vec::new(),
                rack_aware: false,
            };
        }
        // topic name -> its index in the input (the same map type as elsewhere here)
        let meta: FastMap<&str, u32> = prep
            .input
            .topics
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.as_str(), i as u32))
            .collect();
        let mut partition: Vec<Vec<u32>> = Vec::with_capacity(prep.total as usize);
        for t in &prep.topics {
            let racks = meta
                .get(t.name)
                .map(|i| &prep.input.topics[*i as usize].racks);
            for p in 0..t.partitions as usize {
                let mut set: Vec<u32> = Vec::new();
                if let Some(list) = racks.and_then(|r| r.get(p)) {
                    for r in list {
                        let next = ids.len() as u32;
                        let id = *ids.entry(r.as_str()).or_insert(next);
                        if !set.contains(&id) {
                            set.push(id);
                        }
                    }
                }
                crate::collections::sort(&mut set);
                partition.push(set);
            }
        }
        let mut any_partition_rack = vec![false; ids.len()];
        for set in &partition {
            for r in set {
                any_partition_rack[*r as usize] = true;
            }
        }
        let all: Vec<u32> = (0..ids.len() as u32)
            .filter(|r| any_partition_rack[*r as usize])
            .collect();
        let intersects = (0..consumer_racks).any(|r| any_partition_rack[r]);
        // useRackAwareAssignment: consumer racks meet partition racks, and not every
        // partition is on every rack.
        let rack_aware = intersects && partition.iter().any(|s| *s != all);
        let count = |r: &u32| consumers_per_rack.get(*r as usize).copied().unwrap_or(0);
        let consumers_by_partition = partition
            .iter()
            .map(|s| s.iter().map(count).sum())
            .collect();
        if rack_aware {
            Racks {
                consumer: consumer_rack,
                partition,
                consumers_by_partition,
                rack_aware,
            }
        } else {
            Racks {
                consumer: vec![NONE; n],
                partition: Vec::new(),
                consumers_by_partition,
                rack_aware,
            }
        }
    }

    /// `racksMismatch`: the member has a rack and the partition's replicas are not on it
    /// (a partition that does not exist has no replicas).
    pub fn mismatch(&self, prep: &Prep<'_>, m: u32, tp: Tp) -> bool {
        let r = self.consumer[m as usize];
        r != NONE
            && match prep.dense(tp) {
                Some(d) => !self.partition[d].contains(&r),
                None => true,
            }
    }

    /// `nextRackConsumer`: from `first`, circularly, the first member of `list` on one of
    /// the partition's racks.
    pub fn next_rack_consumer(&self, d: usize, list: &[u32], first: usize) -> Option<usize> {
        let racks = &self.partition[d];
        if racks.is_empty() {
            return None;
        }
        (0..list.len()).map(|i| (first + i) % list.len()).find(|i| {
            let r = self.consumer[list[*i] as usize];
            r != NONE && racks.contains(&r)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Lists, Tp};

    // (proptest is a native dev-dependency)
    #[cfg(not(target_arch = "wasm32"))]
    mod name_index {
        use super::super::{same_name, NameIndex, NONE};
        use crate::collections::FastMap;
        use proptest::prelude::*;

        proptest! {
            /// The name index answers as the map it is built from, for names in it and not,
            /// of every length around its 8- and 16-byte edges, and for names that differ from
            /// one in the map by one byte (or a NUL at the end, which zero padding must not hide);
            /// `same_name`, which compares the same keys, as `==`.
            #[test]
            fn name_index_answers_as_its_map(
                names in proptest::collection::vec("[a-c\\x00é]{0,20}", 0..60),
                probes in proptest::collection::vec("[a-c\\x00é]{0,20}", 0..60),
            ) {
                let map: FastMap<&str, u32> =
                    names.iter().enumerate().map(|(i, n)| (n.as_str(), i as u32)).collect();
                let index = NameIndex::new(&map);
                for name in names.iter().chain(&probes) {
                    let mut near = name.clone();
                    near.push('\0');
                    for n in [name.as_str(), near.as_str(), &name[..name.len() - name.chars().last().map_or(0, char::len_utf8)]] {
                        prop_assert_eq!(index.get(n), map.get(n).copied().unwrap_or(NONE), "{:?}", n);
                        prop_assert_eq!(same_name(name, n), name == n, "{:?} {:?}", name, n);
                    }
                }
            }
        }
    }

    fn tp(p: i32) -> Tp {
        Tp { t: 0, p }
    }

    /// The buffer's lists behave as one vector per member, past their room too.
    #[test]
    fn lists_act_as_vectors() {
        let mut lists = Lists::with_room(3, |m| m);
        let mut want: Vec<Vec<Tp>> = vec![Vec::new(); 3];
        for i in 0..40 {
            let m = (i * 7 % 3) as u32;
            assert_eq!(lists.push(m, tp(i)), want[m as usize].len() + 1);
            want[m as usize].push(tp(i));
        }
        lists.remove_first(1, tp(1));
        want[1].retain(|x| *x != tp(1));
        lists.set(2, &[tp(9); 20]);
        want[2] = vec![tp(9); 20];
        lists.truncate(0, 3);
        want[0].truncate(3);
        lists.slot_mut(2)[0] = tp(-1);
        want[2][0] = tp(-1);
        assert_eq!(lists.to_vecs(), want);
        assert_eq!(Lists::from_vecs(want.clone()).to_vecs(), want);
    }
}
