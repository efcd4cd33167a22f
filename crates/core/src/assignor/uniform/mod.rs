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
use super::{totals, Assignment, AssignorKind, GroupInput, TopicAssignment, UNASSIGNED};
use crate::java::string_compare;

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
        None,
    ))
}

/// The subscribers of each of `fed`'s names, in the assignor's member `order` (each list
/// sized before it is filled: members in a row with one subscription, often all of them,
/// join its lists together).
pub(crate) fn subscribers_by_name(fed: &Fed, order: &[u32]) -> Vec<Vec<u32>> {
    let runs = || {
        order.chunk_by(|a, b| fed.subscription_of[*a as usize] == fed.subscription_of[*b as usize])
    };
    let mut count = vec![0usize; fed.names.len()];
    for run in runs() {
        for &n in &fed.subscription(run[0]).names {
            count[n as usize] += run.len();
        }
    }
    let mut subscribers: Vec<Vec<u32>> = count.into_iter().map(Vec::with_capacity).collect();
    for run in runs() {
        for &n in &fed.subscription(run[0]).names {
            subscribers[n as usize].extend_from_slice(run);
        }
    }
    subscribers
}

/// Wraps owners per fed topic into the shared [`Assignment`]: every named topic in Java
/// name order, its subscribers in the assignor's member `order` (`subscribers`, by name, when
/// the assignor has them already) with what they got, counted when first read (and, for
/// server-range, where their range starts).
pub(crate) fn assignment(
    kind: AssignorKind,
    input: &GroupInput,
    fed: &Fed,
    order: Vec<u32>,
    mut owners: Vec<Vec<u32>>,
    subscribers: Option<Vec<Vec<u32>>>,
) -> Assignment {
    let ranges = kind == AssignorKind::ServerRange;
    let mut named: Vec<(&str, Option<u32>, u32)> = fed
        .names
        .iter()
        .enumerate()
        .map(|(i, (n, t))| (*n, *t, i as u32))
        .collect();
    crate::collections::sort_by(&mut named, |a, b| string_compare(a.0, b.0));
    let mut subscribers = subscribers.unwrap_or_else(|| subscribers_by_name(fed, &order));
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
            // (the shares are counted from the owners when first read: 50,000 of them at
            // 1,000 members on 50 topics, which the command line never reads, were 44% of
            // uniform's time)
            let subscribers = std::mem::take(&mut subscribers[n as usize]).into();
            TopicAssignment {
                topic: name.to_string(),
                partitions,
                owners: own,
                shares: if ranges {
                    super::Shares::ranges(subscribers)
                } else {
                    super::Shares::counted(subscribers)
                },
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
