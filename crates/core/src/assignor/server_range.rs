//! The broker's KIP-848 `RangeAssignor` (`group.remote.assignor=range`; apache/kafka
//! 1eb7644, `group-coordinator/.../assignor/RangeAssignor.java`, rewritten by KAFKA-16944).
//!
//! Not sticky: the current assignment is ignored. Members are sorted static first, by
//! group.instance.id, then dynamic by member id (both `String.compareTo`; the sort is
//! stable, so equal instance ids keep the members `HashMap`'s order). Each topic is split
//! over its subscribers in that order into contiguous ranges: with n partitions and m
//! subscribers, n / m each and one more for the first n % m. Topics a member names but the
//! metadata lacks are dropped by the coordinator; racks are not used.

use super::coordinator::Fed;
use super::uniform::{assignment, subscribers_by_name};
use super::{Assignment, AssignorKind, GroupInput, MemberMeta, UNASSIGNED};
use crate::java::string_order;

/// The broker's range assignment of the group (never fails: Java's cannot throw on what
/// the coordinator feeds it).
pub fn server_range(input: &GroupInput) -> Assignment {
    let fed = Fed::new(input);
    // Static members first by instance id, then the others by member id: two stable sorts
    // by precomputed keys (the same order as one sort comparing both ways).
    let (statics, dynamics): (Vec<u32>, Vec<u32>) = fed
        .members
        .iter()
        .partition(|m| input.members[**m as usize].instance_id.is_some());
    let in_order = |ms: &[u32], key: fn(&MemberMeta) -> &str| {
        let keys: Vec<&str> = ms
            .iter()
            .map(|m| key(&input.members[*m as usize]))
            .collect();
        string_order(&keys)
            .into_iter()
            .map(|i| ms[i as usize])
            .collect::<Vec<u32>>()
    };
    let mut order = in_order(&statics, |m| m.instance_id.as_deref().unwrap_or(""));
    order.extend(in_order(&dynamics, |m| m.id.as_str()));
    // Each topic's subscribers in that order: the list of the name it has.
    let subscribers = subscribers_by_name(&fed, &order);
    let mut name_of = vec![u32::MAX; fed.topics.len()];
    for (n, (_, t)) in fed.names.iter().enumerate() {
        if let Some(t) = t {
            name_of[*t as usize] = n as u32;
        }
    }
    let owners: Vec<Vec<u32>> = fed
        .topics
        .iter()
        .zip(&name_of)
        .map(|(t, n)| {
            let n_partitions = t.partitions;
            let mut owners = vec![UNASSIGNED; n_partitions as usize];
            let subs = subscribers
                .get(*n as usize)
                .map_or(&[][..], |s| s.as_slice());
            if subs.is_empty() {
                return owners;
            }
            let m = subs.len() as u32;
            let (min, mut extra) = (n_partitions / m, n_partitions % m);
            let mut next = 0u32;
            for &member in subs {
                let mut quota = min;
                if extra > 0 {
                    quota += 1;
                    extra -= 1;
                }
                let end = (next + quota).min(n_partitions);
                owners[next as usize..end as usize].fill(member);
                next = end;
            }
            owners
        })
        .collect();
    assignment(
        AssignorKind::ServerRange,
        input,
        &fed,
        order,
        owners,
        Some(subscribers),
    )
}
