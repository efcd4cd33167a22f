//! RoundRobinAssignor: every partition of every subscribed topic, topics in Java name order,
//! dealt to the members (in assignor order) in a circle, skipping members not subscribed to
//! the partition's topic. Racks are ignored.
//!
//! Java throws on an empty group (its CircularIterator refuses an empty list); here an empty
//! group gets an empty assignment.

use super::{
    prepare_with, totals, Assignment, AssignorKind, GroupInput, LeaderClient, Share,
    TopicAssignment, UNASSIGNED,
};

/// Runs the RoundRobinAssignor (the Java client's).
pub fn round_robin(input: &GroupInput) -> Assignment {
    round_robin_with(input, LeaderClient::Java)
}

/// Runs the round-robin assignor with the member order of the leader's `client`.
/// librdkafka's (src/rdkafka_roundrobin_assignor.c) walks the same circle, skipping members
/// not subscribed to the topic, over its own member order and topics in byte order.
pub fn round_robin_with(input: &GroupInput, client: LeaderClient) -> Assignment {
    let prep = prepare_with(input, client);
    let n = input.members.len();
    // position of each member in the circle
    let mut pos = vec![0usize; n];
    for (i, m) in prep.order.iter().enumerate() {
        pos[*m as usize] = i;
    }
    // The circle position just after the last member dealt to.
    let mut cursor = 0usize;
    let mut topics = Vec::with_capacity(prep.topics.len());
    for (name, meta, subs) in &prep.topics {
        let partitions = meta.map_or(0, |m| m.partitions);
        let mut owners = vec![UNASSIGNED; partitions as usize];
        let mut got = vec![0u32; subs.len()];
        if partitions > 0 && !subs.is_empty() {
            // Java walks the circle member by member, skipping the unsubscribed ones: that
            // is partitions × members steps when few members subscribe. The subscribers are
            // in circle order, so the walk is: the first one at or after the cursor (else
            // the first one), then the subscribers in turn.
            let first = subs.partition_point(|s| pos[*s as usize] < cursor);
            let first = if first == subs.len() { 0 } else { first };
            let mut k = first;
            for o in owners.iter_mut() {
                *o = subs[k];
                got[k] += 1;
                k = if k + 1 == subs.len() { 0 } else { k + 1 };
            }
            let last = if k == 0 { subs.len() - 1 } else { k - 1 };
            cursor = (pos[subs[last] as usize] + 1) % n;
        }
        let shares = subs
            .iter()
            .enumerate()
            .map(|(i, m)| Share {
                member: *m,
                index: i as u32,
                quota: got[i],
                first: None,
            })
            .collect();
        topics.push(TopicAssignment {
            topic: name.to_string(),
            partitions,
            owners,
            shares,
            rack_aware: false,
        });
    }
    let totals = totals(n, &topics);
    Assignment {
        assignor: AssignorKind::RoundRobin,
        order: prep.order,
        topics,
        totals,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{member, topic};
    use super::*;

    #[test]
    fn javadoc_example() {
        let input = GroupInput {
            topics: vec![topic("t0", 3), topic("t1", 3)],
            members: vec![member("C1", &["t0", "t1"]), member("C0", &["t0", "t1"])],
            ..Default::default()
        };
        let a = round_robin(&input);
        assert_eq!(a.topics[0].owners, vec![1, 0, 1]);
        assert_eq!(a.topics[1].owners, vec![0, 1, 0]);
    }

    #[test]
    fn empty_group() {
        let a = round_robin(&GroupInput::default());
        assert!(a.topics.is_empty() && a.totals.is_empty());
    }
}
