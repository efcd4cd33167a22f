//! What both sticky algorithms start from, as `AbstractStickyAssignor.assignPartitions`
//! builds it: the subscriptions map (a `java.util.HashMap` keyed by member id), the topics
//! in metadata, each member's previous partitions with conflicting claims settled by
//! generation (`allSubscriptionsEqual`), and the rack information (`RackInfo`).

use crate::assignor::{subscribed, GroupInput, Subscribed};
use crate::collections::FastMap;
use crate::java::{string_compare, string_hash_code, JavaHashMap};

/// A topic partition: `t` indexes [`Prep::topics`] (Java name order), `p` may lie outside
/// the topic (an owned partition that no longer exists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Tp {
    pub t: u32,
    pub p: i32,
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
    pub member_data: Vec<Vec<Tp>>,
    /// Per member, `MemberData.generation`.
    pub generation: Vec<Option<i32>>,
}

pub(super) const NONE: u32 = u32::MAX;

impl<'a> Prep<'a> {
    pub fn new(input: &'a GroupInput) -> Prep<'a> {
        let n = input.members.len();
        // The subscriptions map: a later duplicate id replaces the value, keeps the place.
        let mut map: JavaHashMap<&str, u32> = JavaHashMap::new();
        for (i, m) in input.members.iter().enumerate() {
            map.insert(m.id.as_str(), i as u32);
        }
        let map_order: Vec<u32> = map.iter().map(|(_, i)| *i).collect();
        let mut by_rank = map_order.clone();
        crate::collections::sort_by(&mut by_rank, |a, b| {
            string_compare(
                &input.members[*a as usize].id,
                &input.members[*b as usize].id,
            )
        });
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
        let mut present: Vec<(u32, u32)> = names
            .iter()
            .enumerate()
            .filter_map(|(i, nm)| meta.get(nm).map(|p| (i as u32, *p)))
            .collect();
        crate::collections::sort_by(&mut present, |a, b| {
            string_compare(names[a.0 as usize], names[b.0 as usize])
        });
        let mut topic_of_name = vec![NONE; names.len()];
        let mut topics = Vec::with_capacity(present.len());
        let mut total = 0u32;
        for (ti, (id, parts)) in present.iter().enumerate() {
            topic_of_name[*id as usize] = ti as u32;
            let name = names[*id as usize];
            topics.push(TopicInfo {
                name,
                partitions: *parts,
                offset: total,
                hash: string_hash_code(name),
            });
            total += parts;
        }
        // Previous partitions: topics resolved by name (the previous member's owned list
        // first, it is usually in the same order).
        let topic_index: FastMap<&str, u32> = topics
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name, i as u32))
            .collect();
        let mut member_data = Vec::with_capacity(n);
        let mut prev_owned: &[(String, Vec<i32>)] = &[];
        let mut prev_idx: Vec<u32> = Vec::new();
        for m in &input.members {
            let mut list = Vec::new();
            let mut idx = Vec::with_capacity(m.owned.len());
            for (j, (name, parts)) in m.owned.iter().enumerate() {
                let t = match prev_owned.get(j) {
                    Some((pn, _)) if pn == name => prev_idx[j],
                    _ => topic_index.get(name.as_str()).copied().unwrap_or(NONE),
                };
                idx.push(t);
                if t != NONE {
                    list.extend(parts.iter().map(|p| Tp { t, p: *p }));
                }
            }
            member_data.push(list);
            prev_owned = &m.owned;
            prev_idx = idx;
        }
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
            generation: input.members.iter().map(|m| m.generation).collect(),
        }
    }

    /// Number of members in the subscriptions map.
    pub fn members(&self) -> usize {
        self.map_order.len()
    }

    /// Dense index of a partition that exists.
    pub fn dense(&self, tp: Tp) -> Option<usize> {
        let t = &self.topics[tp.t as usize];
        (tp.p >= 0 && (tp.p as u32) < t.partitions).then(|| (t.offset + tp.p as u32) as usize)
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

/// The outcome of `allSubscriptionsEqual`.
pub(super) struct Claims {
    pub all_equal: bool,
    /// Per member, its previously owned partitions that survive the generation checks.
    pub owned: Vec<Vec<Tp>>,
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
    let mut owned: Vec<Vec<Tp>> = vec![Vec::new(); n];
    let mut multiple_owners = FastMap::default();
    let mut max_generation = DEFAULT_GENERATION;
    // previous owner per partition: dense for existing partitions, a map for the others
    let mut owner_dense = vec![NONE; prep.total as usize];
    let mut owner_other: FastMap<Tp, u32> = FastMap::default();
    for &m in &prep.map_order {
        let sub = prep.subs.of(m);
        if first_len == 0 {
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
        for &tp in &prep.member_data[m as usize] {
            let slot = match prep.dense(tp) {
                Some(d) => &mut owner_dense[d],
                None => owner_other.entry(tp).or_insert(NONE),
            };
            let other = *slot;
            if other == NONE {
                owned[m as usize].push(tp);
                *slot = m;
                continue;
            }
            let other_generation = prep.subscription_generation(other);
            if generation == other_generation {
                multiple_owners.insert(tp, 0);
                remove_first(&mut owned[other as usize], tp);
                *slot = m;
            } else if generation > other_generation {
                owned[m as usize].push(tp);
                remove_first(&mut owned[other as usize], tp);
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
