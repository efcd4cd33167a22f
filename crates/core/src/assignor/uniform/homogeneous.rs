//! `UniformHomogeneousAssignmentBuilder`: every member names the same topics.
//!
//! - Topics in the order of a `HashSet` of the first member's topic ids (members-map order).
//! - Unassigned: those topics' partitions nobody owns, topic by topic, ascending.
//! - Quotas over the total partition count: the k-th member (members-map order) may keep
//!   `total / M`, plus one while `k < total % M`.
//! - Each member's owned partitions, walked in its assignment map's order (and each set's
//!   `HashSet<Integer>` order), are kept up to its quota; the rest are revoked and appended
//!   to the unassigned list (partitions of topics it no longer names simply go).
//! - Members below quota, in members-map order, take consecutive runs of the list.

use super::super::coordinator::{AssignorError, Fed};
use super::super::{GroupInput, UNASSIGNED};
use super::beyond;
use crate::java::{iteration_order, JavaHashMap};

pub(super) fn build(input: &GroupInput, fed: &Fed) -> Result<Vec<Vec<u32>>, AssignorError> {
    let mut owners: Vec<Vec<u32>> = fed
        .topics
        .iter()
        .map(|t| vec![UNASSIGNED; t.partitions as usize])
        .collect();
    let topic_order = fed.topic_set_order(fed.members[0])?;
    if topic_order.is_empty() {
        return Ok(owners);
    }
    let mut subscribed = vec![false; fed.topics.len()];
    for t in &topic_order {
        subscribed[*t as usize] = true;
    }
    // The owned partitions of each member, resolved once: (topic, partitions as listed).
    let owned: Vec<Vec<(u32, &[i32])>> = fed
        .members
        .iter()
        .map(|&m| {
            let mut seen: Vec<u32> = Vec::new();
            input.members[m as usize]
                .owned
                .iter()
                .filter_map(|(name, ps)| {
                    let t = fed.resolve_owned(name).0?;
                    (subscribed[t as usize] && !seen.contains(&t)).then(|| {
                        seen.push(t);
                        (t, ps.as_slice())
                    })
                })
                .collect()
        })
        .collect();
    // GroupSpec.isPartitionAssigned: owned by anyone.
    let mut assigned: Vec<Vec<bool>> = fed
        .topics
        .iter()
        .map(|t| vec![false; t.partitions as usize])
        .collect();
    for entries in &owned {
        for (t, ps) in entries {
            let n = fed.topics[*t as usize].partitions;
            for p in ps.iter().map(|p| *p as u32) {
                // a negative partition reads as a huge one: beyond the topic, as in Java
                if p >= n {
                    return Err(beyond(fed.topics[*t as usize].name, p, n));
                }
                assigned[*t as usize][p as usize] = true;
            }
        }
    }
    let mut unassigned: Vec<(u32, u32)> = Vec::new();
    let mut total: u64 = 0;
    for &t in &topic_order {
        let n = fed.topics[t as usize].partitions;
        total += n as u64;
        let a = &assigned[t as usize];
        unassigned.extend((0..n).filter(|p| !a[*p as usize]).map(|p| (t, p)));
    }
    let members = fed.members.len() as u64;
    let min_quota = (total / members) as u32;
    let mut extra = total % members;
    let mut unfilled: Vec<(u32, u32)> = Vec::new();
    let mut distinct: Vec<u32> = Vec::new();
    for (k, &m) in fed.members.iter().enumerate() {
        let mut quota = min_quota;
        if extra > 0 {
            quota += 1;
            extra -= 1;
        }
        let count: u32 = owned[k]
            .iter()
            .map(|(_, ps)| distinct_count(ps, &mut distinct))
            .sum();
        if count <= quota {
            // Nothing to revoke: the walk order does not matter.
            quota -= count;
            for (t, ps) in &owned[k] {
                for p in *ps {
                    owners[*t as usize][*p as usize] = m;
                }
            }
        } else {
            for (topic, _, ps) in fed.owned_in_map_order(&input.members[m as usize])? {
                let Some(t) = topic else {
                    continue;
                };
                if !subscribed[t as usize] {
                    continue;
                }
                let set = hash_set_order(ps)?;
                if set.len() as u32 <= quota {
                    quota -= set.len() as u32;
                    for p in set {
                        owners[t as usize][p as usize] = m;
                    }
                } else {
                    for p in set {
                        if quota > 0 {
                            quota -= 1;
                            owners[t as usize][p as usize] = m;
                        } else {
                            unassigned.push((t, p));
                        }
                    }
                }
            }
        }
        if quota > 0 {
            unfilled.push((m, quota));
        }
    }
    let mut next = 0usize;
    for (m, quota) in unfilled {
        let end = (next + quota as usize).min(unassigned.len());
        for &(t, p) in &unassigned[next..end] {
            owners[t as usize][p as usize] = m;
        }
        next = end;
    }
    if next < unassigned.len() {
        return Err(AssignorError {
            message: "Partitions were left unassigned (owned partitions claimed by two \
                      members): Kafka's uniform assignor throws"
                .into(),
            java_throws: true,
        });
    }
    Ok(owners)
}

/// How many distinct partitions a list holds (a `HashSet` of it).
fn distinct_count(ps: &[i32], scratch: &mut Vec<u32>) -> u32 {
    if ps.windows(2).all(|w| w[0] < w[1]) {
        return ps.len() as u32;
    }
    scratch.clear();
    scratch.extend(ps.iter().map(|p| *p as u32));
    scratch.sort_unstable();
    scratch.dedup();
    scratch.len() as u32
}

/// The partitions of `new HashSet<>(list)` in its iteration order.
fn hash_set_order(ps: &[i32]) -> Result<Vec<u32>, AssignorError> {
    let mut seen = std::collections::HashSet::with_capacity(ps.len());
    let keys: Vec<u32> = ps
        .iter()
        .copied()
        .filter(|p| seen.insert(*p))
        .map(|p| p as u32)
        .collect();
    let hashes: Vec<i32> = keys.iter().map(|p| *p as i32).collect();
    let table = JavaHashMap::<(), ()>::table_for_collection_of(ps.len());
    let order = iteration_order(&hashes, table).ok_or_else(|| AssignorError {
        message: "nine or more owned partitions share one bucket of a HashSet of 64 or more \
                  buckets: Java's tree-bin order is not reproduced"
            .into(),
        java_throws: false,
    })?;
    Ok(order.iter().map(|i| keys[*i as usize]).collect())
}
