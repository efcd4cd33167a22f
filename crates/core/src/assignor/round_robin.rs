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
use std::rc::Rc;

/// What a topic's round-robin shares depend on: its subscriber list (by address), the
/// subscriber dealt to first, and its partition count.
type SharesKey = (*const u32, usize, u32);

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
    // The shares built, by (subscribers, first subscriber dealt to, partitions): a topic
    // dealt from the same place to the same list has the same shares. The last 64 are kept,
    // a plain list searched in order: with m members all subscribed to topics of p
    // partitions, the first member dealt to comes back every m / gcd(m, p) topics (5 topics
    // at 1,000 members and 200 partitions, 20 at 10,000 and 500).
    let mut built: Vec<(SharesKey, Rc<[Share]>)> = Vec::new();
    for (name, meta, l) in &prep.topics {
        let subs = &prep.lists[*l as usize];
        let partitions = meta.map_or(0, |m| m.partitions);
        let len = subs.len();
        let mut owners = vec![UNASSIGNED; partitions as usize];
        // Java walks the circle member by member, skipping the unsubscribed ones: that is
        // partitions × members steps when few members subscribe. The subscribers are in
        // circle order, so the walk is: the first one at or after the cursor (else the first
        // one), then the subscribers in turn.
        let mut first = 0;
        if partitions > 0 && len > 0 {
            first = subs.partition_point(|s| pos[*s as usize] < cursor);
            if first == len {
                first = 0;
            }
            let mut k = first;
            for o in owners.iter_mut() {
                *o = subs[k];
                k = if k + 1 == len { 0 } else { k + 1 };
            }
            let last = if k == 0 { len - 1 } else { k - 1 };
            cursor = (pos[subs[last] as usize] + 1) % n;
        }
        let key = (subs.as_ptr(), first, partitions);
        let shares = match built.iter().find(|(k, _)| *k == key) {
            Some((_, shares)) => shares.clone(),
            None => {
                // Subscriber i got every len-th partition from the (i - first)-th on.
                let (per, extra) = (
                    partitions.checked_div(len as u32).unwrap_or(0),
                    partitions.checked_rem(len as u32).unwrap_or(0),
                );
                let shares: Rc<[Share]> = subs
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        let from_first = if i >= first {
                            i - first
                        } else {
                            i + len - first
                        };
                        Share {
                            member: *m,
                            index: i as u32,
                            quota: per + u32::from((from_first as u32) < extra),
                            first: None,
                        }
                    })
                    .collect();
                if built.len() == 64 {
                    built.clear();
                }
                built.push((key, shares.clone()));
                shares
            }
        };
        topics.push(TopicAssignment {
            topic: name.to_string(),
            partitions,
            owners,
            shares: shares.into(),
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
