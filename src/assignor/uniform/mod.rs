//! The broker's KIP-848 `UniformAssignor` (`group.remote.assignor=uniform`), exactly:
//! [`homogeneous`] when the coordinator calls the group HOMOGENEOUS (every member names the
//! same topics), [`heterogeneous`] otherwise. Both keep as much of each member's current
//! target assignment as balance allows; racks are ignored (KAFKA-16694).
//!
//! Ported from apache/kafka 1eb7644, `group-coordinator/.../assignor/UniformAssignor.java`,
//! `UniformHomogeneousAssignmentBuilder.java` and `UniformHeterogeneousAssignmentBuilder.java`,
//! fed as [`super::coordinator`] describes.

mod heterogeneous;
mod homogeneous;

use super::coordinator::{AssignorError, Fed};
use super::{totals, Assignment, AssignorKind, GroupInput, Share, TopicAssignment, UNASSIGNED};
use crate::java::string_compare;
use std::rc::Rc;

/// The uniform assignor's answer for the group, or why Java would throw (an owned partition
/// beyond its topic's partition count; partitions left over from owned partitions claimed
/// twice).
///
/// [`Assignment::order`] is the members `HashMap`'s iteration order (the order quotas and
/// ties go by); every topic a member names is listed, a missing one with no partitions.
pub fn uniform(input: &GroupInput) -> Result<Assignment, AssignorError> {
    let fed = Fed::new(input);
    // Per fed topic, the owner of each partition (an input index).
    let owners: Vec<Vec<u32>> = if fed.members.is_empty() {
        fed.topics
            .iter()
            .map(|t| vec![UNASSIGNED; t.partitions as usize])
            .collect()
    } else if fed.homogeneous {
        homogeneous::build(input, &fed)?
    } else {
        heterogeneous::build(input, &fed)?
    };
    Ok(assignment(
        AssignorKind::Uniform,
        input,
        &fed,
        fed.members.clone(),
        owners,
    ))
}

/// Wraps owners per fed topic into the shared [`Assignment`]: every named topic in Java
/// name order, its subscribers in the assignor's member `order` with what they got (and,
/// for server-range, where their range starts).
pub(crate) fn assignment(
    kind: AssignorKind,
    input: &GroupInput,
    fed: &Fed,
    order: Vec<u32>,
    mut owners: Vec<Vec<u32>>,
) -> Assignment {
    let ranges = kind == AssignorKind::ServerRange;
    let mut named: Vec<(&str, Option<u32>, u32)> = fed
        .names
        .iter()
        .enumerate()
        .map(|(i, (n, t))| (*n, *t, i as u32))
        .collect();
    crate::collections::sort_by(&mut named, |a, b| string_compare(a.0, b.0));
    // Subscribers of each name, in assignor order.
    // Members in a row with one subscription (often all of them) join its lists together.
    let mut subscribers: Vec<Vec<u32>> = vec![Vec::new(); fed.names.len()];
    for run in
        order.chunk_by(|a, b| fed.subscription_of[*a as usize] == fed.subscription_of[*b as usize])
    {
        for &n in &fed.subscription(run[0]).names {
            subscribers[n as usize].extend_from_slice(run);
        }
    }
    let mut got = vec![0u32; input.members.len()];
    let mut first = vec![u32::MAX; input.members.len()];
    let topics = named
        .into_iter()
        .map(|(name, topic, n)| {
            let (partitions, own) = match topic {
                Some(t) => (
                    fed.topics[t as usize].partitions,
                    std::mem::take(&mut owners[t as usize]),
                ),
                None => (0, Vec::new()),
            };
            // (uniform's shares are counted from the owners when first read: 50,000 of them at
            // 1,000 members on 50 topics, which the command line never reads, were 44% of
            // its time)
            if !ranges {
                return TopicAssignment {
                    topic: name.to_string(),
                    partitions,
                    owners: own,
                    shares: super::Shares::counted(
                        std::mem::take(&mut subscribers[n as usize]).into(),
                    ),
                    rack_aware: false,
                };
            }
            for (p, o) in own.iter().enumerate() {
                if *o != UNASSIGNED {
                    got[*o as usize] += 1;
                    let f = &mut first[*o as usize];
                    *f = (*f).min(p as u32);
                }
            }
            let shares: Rc<[Share]> = subscribers[n as usize]
                .iter()
                .enumerate()
                .map(|(i, &m)| Share {
                    member: m,
                    index: i as u32,
                    quota: std::mem::take(&mut got[m as usize]),
                    first: Some(std::mem::replace(&mut first[m as usize], u32::MAX))
                        .filter(|f| ranges && *f != u32::MAX),
                })
                .collect();
            // An owner that is not a subscriber (only with bad input) must not carry over.
            for o in &own {
                if *o != UNASSIGNED {
                    got[*o as usize] = 0;
                    first[*o as usize] = u32::MAX;
                }
            }
            TopicAssignment {
                topic: name.to_string(),
                partitions,
                owners: own,
                shares: shares.into(),
                rack_aware: false,
            }
        })
        .collect::<Vec<_>>();
    Assignment {
        assignor: kind,
        order,
        totals: totals(input.members.len(), &topics),
        topics,
        ..Default::default()
    }
}

/// Java's exception for an owned partition the topic does not have.
pub(crate) fn beyond(topic: &str, partition: u32, partitions: u32) -> AssignorError {
    AssignorError {
        message: format!(
            "owned partition {partition} of topic \"{topic}\" is beyond its {partitions} \
             partitions: Kafka's uniform assignor throws"
        ),
        java_throws: true,
    }
}
