//! Property tests of the sticky assignors over random groups: every partition at most once
//! and only to a member; equal subscriptions balanced within one; members that stay keep
//! what they owned up to their quota; cooperative never hands a partition to a new owner in
//! the round that revokes it, and the follow-up round completes the assignment; the member
//! listing order does not matter, nor does the order each member lists its topics in (the
//! assignors' shared paths for members on one list give the answer of the plain ones).

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rebalance_lab_core::assignor::sticky::{cooperative_follow_up, cooperative_sticky, sticky};
use rebalance_lab_core::assignor::{Assignment, GroupInput, MemberMeta, TopicMeta, UNASSIGNED};
use std::collections::BTreeMap;

/// Random groups: up to 8 members over up to 4 topics, all subscribed (`equal`) or each a
/// random non-empty subset; previous ownership from a random earlier assignment.
fn group(equal: bool) -> impl Strategy<Value = GroupInput> {
    (
        prop::collection::vec(1u32..7, 1..4),
        prop::collection::vec((0u32..12, prop::collection::vec(any::<bool>(), 4)), 1..8),
    )
        .prop_map(move |(sizes, members)| {
            let topics: Vec<TopicMeta> = sizes
                .iter()
                .enumerate()
                .map(|(i, n)| TopicMeta {
                    name: format!("t{i}"),
                    partitions: *n,
                    racks: vec![],
                })
                .collect();
            let mut seen = std::collections::HashSet::new();
            let members = members
                .into_iter()
                .filter(|(id, _)| seen.insert(*id))
                .map(|(id, subs)| {
                    let mut topics: Vec<String> = (0..sizes.len())
                        .filter(|i| equal || subs[*i])
                        .map(|i| format!("t{i}"))
                        .collect();
                    if topics.is_empty() {
                        topics.push("t0".into());
                    }
                    MemberMeta {
                        id: format!("consumer-{id}"),
                        topics: topics.into(),
                        ..Default::default()
                    }
                })
                .collect();
            GroupInput {
                topics,
                members,
                ..Default::default()
            }
        })
}

/// The group after a first assignment: members own what they got (generation 1); one
/// member (if any is left) leaves and a new one may join.
fn rebalanced(g: &GroupInput, a: &Assignment, leave: usize, join: bool) -> GroupInput {
    let mut next = rebalance_lab_core::assignor::sticky::follow_up_input(g, a);
    if next.members.len() > 1 {
        next.members.remove(leave % next.members.len());
    }
    if join {
        let topics = next.members[0].topics.clone();
        next.members.push(MemberMeta {
            id: "consumer-new".into(),
            topics,
            ..Default::default()
        });
    }
    next
}

fn owned_count(m: &MemberMeta) -> usize {
    m.owned.iter().map(|(_, ps)| ps.len()).sum()
}

fn check_valid(g: &GroupInput, a: &Assignment) -> Result<(), TestCaseError> {
    prop_assert!(a.extra.is_empty(), "{:?}", a.extra);
    for t in &a.topics {
        for o in &t.owners {
            prop_assert!(*o == UNASSIGNED || (*o as usize) < g.members.len());
            if *o != UNASSIGNED {
                prop_assert!(g.members[*o as usize].topics.contains(&t.topic));
            }
        }
    }
    Ok(())
}

fn shuffled(g: &GroupInput, seed: u64) -> GroupInput {
    let mut s = seed;
    let mut out = g.clone();
    for i in (1..out.members.len()).rev() {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        out.members.swap(i, (s >> 33) as usize % (i + 1));
    }
    out
}

/// Whether member ids could collide in one Java HashMap bucket (then the listing order
/// matters to Java too): ids here differ only in their last characters.
fn may_depend_on_order(g: &GroupInput) -> bool {
    let mut buckets = std::collections::HashSet::new();
    !g.members.iter().all(|m| {
        let h = rebalance_lab_core::java::string_hash_code(&m.id) as u32;
        buckets.insert((h ^ (h >> 16)) & 15)
    })
}

proptest! {
    #[test]
    fn fresh_and_rebalanced_are_valid_and_balanced(g in group(true), leave in 0usize..8, join in any::<bool>(), seed in any::<u64>()) {
        let a = sticky(&g).unwrap();
        check_valid(&g, &a)?;
        let total: u32 = g.topics.iter().map(|t| t.partitions).sum();
        prop_assert_eq!(a.totals.iter().sum::<u32>(), total);
        let (max, min) = a.max_min();
        prop_assert!(max - min <= 1);
        let next = rebalanced(&g, &a, leave, join);
        let b = sticky(&next).unwrap();
        check_valid(&next, &b)?;
        let (max, min) = b.max_min();
        prop_assert!(max - min <= 1);
        prop_assert_eq!(b.totals.iter().sum::<u32>(), total);
        // stickiness: a member that stays keeps min(owned, quota) of what it owned
        let quota = (total as usize) / next.members.len();
        let map = b.to_map(&next);
        for m in &next.members {
            let kept = m.owned.iter().map(|(t, ps)| ps.iter().filter(|p| map[&m.id].get(t).is_some_and(|l| l.contains(*p))).count()).sum::<usize>();
            prop_assert!(kept >= owned_count(m).min(quota), "{} kept {} of {}", m.id, kept, owned_count(m));
        }
        if !may_depend_on_order(&next) {
            let s = shuffled(&next, seed);
            prop_assert_eq!(sticky(&s).unwrap().to_map(&s), map);
        }
    }

    /// Members on one list (the assignors' shared paths) and the same topics listed in
    /// other orders (each member read apart, its partitions merged into one list): the same
    /// assignment, shares, notes and withheld partitions, fresh and after a rebalance.
    #[test]
    fn one_list_or_lists_apart_give_the_same_answer(g in group(true), leave in 0usize..8, join in any::<bool>()) {
        let apart = |g: &GroupInput| {
            let mut h = g.clone();
            for (i, m) in h.members.iter_mut().enumerate() {
                if i % 2 == 1 {
                    let mut t: Vec<String> = m.topics.iter().cloned().collect();
                    t.reverse();
                    m.topics = t.into();
                }
            }
            h
        };
        for assign in [sticky, cooperative_sticky] {
            let a = assign(&g).unwrap();
            prop_assert_eq!(&assign(&apart(&g)).unwrap(), &a);
            let next = rebalanced(&g, &a, leave, join);
            prop_assert_eq!(assign(&apart(&next)).unwrap(), assign(&next).unwrap());
        }
    }

    #[test]
    fn general_is_valid(g in group(false), leave in 0usize..8, join in any::<bool>(), seed in any::<u64>()) {
        let a = sticky(&g).unwrap();
        check_valid(&g, &a)?;
        let next = rebalanced(&g, &a, leave, join);
        let b = sticky(&next).unwrap();
        check_valid(&next, &b)?;
        // every partition with a subscriber is assigned
        for t in &b.topics {
            if next.members.iter().any(|m| m.topics.contains(&t.topic)) {
                prop_assert!(t.owners.iter().all(|o| *o != UNASSIGNED));
            }
        }
        if !may_depend_on_order(&next) {
            let s = shuffled(&next, seed);
            prop_assert_eq!(sticky(&s).unwrap().to_map(&s), b.to_map(&next));
        }
    }

    #[test]
    fn cooperative_withholds_then_completes(g in group(false), equal in any::<bool>(), leave in 0usize..8, join in any::<bool>()) {
        let g = if equal { let mut g = g; let all: Vec<String> = g.topics.iter().map(|t| t.name.clone()).collect(); for m in &mut g.members { m.topics = all.clone().into(); } g } else { g };
        let a = cooperative_sticky(&g).unwrap();
        check_valid(&g, &a)?;
        let next = rebalanced(&g, &a, leave, join);
        let r1 = cooperative_sticky(&next).unwrap();
        check_valid(&next, &r1)?;
        // round 1 never gives a partition to a member other than its previous owner while
        // that owner still claims it
        let previous: BTreeMap<(String, i32), usize> = next.members.iter().enumerate()
            .flat_map(|(i, m)| m.owned.iter().flat_map(move |(t, ps)| ps.iter().map(move |p| ((t.clone(), *p), i))))
            .collect();
        for t in &r1.topics {
            for (p, o) in t.owners.iter().enumerate() {
                if let Some(prev) = previous.get(&(t.topic.clone(), p as i32)) {
                    prop_assert!(*o == UNASSIGNED || *o as usize == *prev, "{}-{} moved in round 1", t.topic, p);
                }
            }
        }
        for w in &r1.withheld {
            let t = r1.topics.iter().find(|t| t.topic == w.topic).unwrap();
            prop_assert_eq!(t.owners[w.partition as usize], UNASSIGNED);
        }
        // round 2 assigns everything with a subscriber, nothing withheld
        let r2 = cooperative_follow_up(&next, &r1).unwrap();
        prop_assert!(r2.withheld.is_empty(), "{:?}", r2.withheld);
        for t in &r2.topics {
            if next.members.iter().any(|m| m.topics.contains(&t.topic)) {
                prop_assert!(t.owners.iter().all(|o| *o != UNASSIGNED));
            }
        }
    }
}
