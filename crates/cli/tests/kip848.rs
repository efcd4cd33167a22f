//! The broker's KIP-848 assignors (uniform, server-range) against every entry of
//! crates/core/tests/vectors/kip848-*.json (computed by Kafka's own classes, fed as the group
//! coordinator feeds them), through the library and through the binary; and the Java
//! `HashMap`/`HashSet` orders those answers rest on, against the orders recorded with them.

#![cfg(not(target_arch = "wasm32"))]

#[path = "../../core/tests/common/mod.rs"]
mod common;

use common::{
    accepted, as_sets, check_kip848_case, check_member_order, check_subscription_type,
    check_topic_order, kip848_kind as kind_of, load, Outcome,
};
use std::process::Command;

const FILES: [&str; 2] = ["kip848-uniform.json", "kip848-range.json"];

#[test]
fn every_vector_through_the_library() {
    let mut passed = 0;
    for file in FILES {
        for v in load(file) {
            match check_kip848_case(&v, kind_of(file)) {
                Ok(Outcome::Answered) => passed += 1,
                Ok(Outcome::Thrown | Outcome::Twice) => panic!("{}: Java refuses here?", v["name"]),
                Err(e) => panic!("{e}"),
            }
        }
    }
    assert_eq!(passed, 50);
}

/// Case `v` of `file`, written to `path`, through `rebalance-lab assign`: the answer is one
/// Kafka accepts. (The file says "range"; the binary is told which one on the command line.)
fn through_the_binary(path: &std::path::Path, file: &str, v: &serde_json::Value) {
    std::fs::write(path, v.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rebalance-lab"))
        .args(["assign", "--assignor", kind_of(file).name()])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        v["name"],
        String::from_utf8_lossy(&out.stderr)
    );
    let got = as_sets(&serde_json::from_slice(&out.stdout).unwrap());
    assert!(accepted(v).contains(&got), "{}: {got:?}", v["name"]);
}

#[test]
fn every_vector_through_the_binary() {
    let dir = std::env::temp_dir().join(format!("rl-kip848-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut passed = 0;
    for file in FILES {
        for (i, v) in load(file).into_iter().enumerate() {
            through_the_binary(&dir.join(format!("{file}-{i}.json")), file, &v);
            passed += 1;
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(passed, 50);
}

/// The same cases with every topic id spelled as Java's `Uuid.fromString` also reads it: the
/// last character with its unused low bits set, or padded with `==`. Kafka's answer is the
/// recorded one (the same 16 bytes reach its assignor), through the library and the binary.
#[test]
fn every_vector_with_ids_spelled_otherwise() {
    const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let dir = std::env::temp_dir().join(format!("rl-kip848-spelled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut passed = 0;
    for file in FILES {
        for (i, mut v) in load(file).into_iter().enumerate() {
            let Some(ids) = v["topic_ids"].as_object_mut() else {
                continue;
            };
            for (j, id) in ids.values_mut().enumerate() {
                let text = id.as_str().unwrap();
                let spelled = if (i + j) % 3 == 0 {
                    format!("{text}==")
                } else {
                    // (a canonical last character has its low 4 bits clear: set some)
                    let last = B64.find(&text[21..]).unwrap();
                    let other = last | (1 + (i + j) % 15);
                    format!("{}{}", &text[..21], &B64[other..other + 1])
                };
                *id = serde_json::Value::String(spelled);
            }
            match check_kip848_case(&v, kind_of(file)) {
                Ok(Outcome::Answered) => {}
                other => panic!("{}: {:?}", v["name"], other.err()),
            }
            through_the_binary(&dir.join(format!("{file}-{i}.json")), file, &v);
            passed += 1;
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(passed >= 40, "{passed} cases carry topic ids");
}

#[test]
fn member_order_is_the_recorded_hash_map_order() {
    let mut checked = 0;
    for file in FILES {
        for v in load(file) {
            if let Some(r) = check_member_order(&v, kind_of(file)) {
                r.unwrap_or_else(|e| panic!("{e}"));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 50);
}

#[test]
fn topic_order_is_the_recorded_hash_set_order() {
    let mut checked = 0;
    for v in load("kip848-uniform.json") {
        if let Some(r) = check_topic_order(&v) {
            r.unwrap_or_else(|e| panic!("{e}"));
            checked += 1;
        }
    }
    assert_eq!(checked, 18);
}

#[test]
fn the_subscription_type_is_the_recorded_one() {
    for file in FILES {
        for v in load(file) {
            check_subscription_type(&v, kind_of(file)).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

mod properties {
    use proptest::prelude::*;
    use rebalance_lab_core::assignor::{
        server_range, try_assign, uniform, AssignorKind, GroupInput, MemberMeta, TopicMeta,
        UNASSIGNED,
    };

    /// Up to 4 topics (t3 may be absent from the metadata), up to 9 members with any
    /// subscriptions (or all the same), and a valid previous assignment: each partition
    /// owned by at most one member, whatever it subscribes to.
    fn group() -> impl Strategy<Value = GroupInput> {
        (
            prop::collection::vec(0u32..13, 4),
            prop::collection::vec((prop::collection::vec(any::<bool>(), 4), 0u32..3), 0..9),
            any::<bool>(),
            prop::collection::vec(0u32..12, 4 * 13),
        )
            .prop_map(|(counts, members, same, owners)| {
                let names = ["t0", "t1", "t2", "t3"];
                let topics: Vec<TopicMeta> = counts[..3]
                    .iter()
                    .enumerate()
                    .map(|(i, n)| TopicMeta {
                        name: names[i].into(),
                        partitions: *n,
                        racks: vec![],
                    })
                    .collect();
                let first = members.first().map(|m| m.0.clone()).unwrap_or_default();
                let mut members: Vec<MemberMeta> = members
                    .iter()
                    .enumerate()
                    .map(|(i, (subs, kind))| MemberMeta {
                        id: format!("m{i}-{kind}"),
                        instance_id: (*kind == 2).then(|| format!("i{}", 9 - i)),
                        topics: names
                            .iter()
                            .zip(if same { &first } else { subs })
                            .filter(|(_, s)| **s)
                            .map(|(n, _)| n.to_string())
                            .collect::<Vec<_>>()
                            .into(),
                        ..Default::default()
                    })
                    .collect();
                let m = members.len() as u32;
                for (t, meta) in topics.iter().enumerate() {
                    for p in 0..meta.partitions {
                        let o = owners[t * 13 + p as usize];
                        if o < m {
                            let owned = &mut members[o as usize].owned;
                            match owned.iter_mut().find(|(n, _)| *n == meta.name) {
                                Some((_, ps)) => ps.push(p as i32),
                                None => owned.push((meta.name.clone(), vec![p as i32])),
                            }
                        }
                    }
                }
                GroupInput {
                    topics,
                    members,
                    topic_ids: vec![],
                }
            })
    }

    /// Every partition of a topic somebody subscribes to goes to exactly one subscriber.
    fn each_partition_once_to_a_subscriber(input: &GroupInput, kind: AssignorKind) {
        let a = try_assign(kind, input).unwrap();
        for t in &a.topics {
            let meta = input.topics.iter().find(|m| m.name == t.topic);
            let n = meta.map_or(0, |m| m.partitions);
            assert_eq!(t.owners.len() as u32, n, "{}", t.topic);
            for o in &t.owners {
                assert_ne!(*o, UNASSIGNED, "{}", t.topic);
                assert!(input.members[*o as usize].topics.contains(&t.topic));
            }
            // The shares (uniform's counted when first read): the topic's subscribers in the
            // assignor's member order, each with the partitions of it that it got.
            let subscribers: Vec<u32> = a
                .order
                .iter()
                .copied()
                .filter(|m| input.members[*m as usize].topics.contains(&t.topic))
                .collect();
            let shares = t.shares();
            assert_eq!(
                shares.iter().map(|s| s.member).collect::<Vec<_>>(),
                subscribers,
                "{}",
                t.topic
            );
            let (n, m) = (t.partitions, shares.len() as u32);
            for s in shares.iter() {
                let got = t.owners.iter().filter(|o| **o == s.member).count() as u32;
                assert_eq!(s.quota, got, "{} member {}", t.topic, s.member);
                // server-range's shares say where each range starts: the range rule's
                // (n div m) * i + min(i, n mod m), for a member that gets any
                let first = (kind == AssignorKind::ServerRange && got > 0)
                    .then(|| (n / m) * s.index + s.index.min(n % m));
                assert_eq!(s.first, first, "{} member {}", t.topic, s.member);
            }
        }
        let total: u32 = a.totals.iter().sum();
        let subscribed: u32 = a.topics.iter().map(|t| t.partitions).sum();
        assert_eq!(total, subscribed);
    }

    proptest! {
        #[test]
        fn uniform_assigns_each_partition_once(input in group()) {
            each_partition_once_to_a_subscriber(&input, AssignorKind::Uniform);
        }

        #[test]
        fn server_range_assigns_each_partition_once(input in group()) {
            each_partition_once_to_a_subscriber(&input, AssignorKind::ServerRange);
        }

        #[test]
        fn uniform_counts_differ_by_at_most_one_when_homogeneous(input in group()) {
            let subs = input.members.first().map(|m| m.topics.clone());
            prop_assume!(input.members.iter().all(|m| Some(&m.topics) == subs.as_ref()));
            let a = uniform(&input).unwrap();
            let (max, min) = a.max_min();
            prop_assert!(max - min <= 1, "{:?}", a.totals);
        }

        #[test]
        fn uniform_keeps_what_balance_allows_when_homogeneous(input in group()) {
            // Stickiness: with one member's quota q, it keeps min(q, what it owned).
            let subs = input.members.first().map(|m| m.topics.clone());
            prop_assume!(input.members.iter().all(|m| Some(&m.topics) == subs.as_ref()));
            let a = uniform(&input).unwrap();
            let (max, min) = a.max_min();
            for (i, m) in input.members.iter().enumerate() {
                let kept: u32 = a
                    .partitions_of(i as u32)
                    .iter()
                    .map(|(t, ps)| {
                        let owned = m.owned.iter().find(|(n, _)| n == t);
                        ps.iter().filter(|p| owned.is_some_and(|(_, o)| o.contains(&(**p as i32)))).count() as u32
                    })
                    .sum();
                let owned: u32 = m
                    .owned
                    .iter()
                    .filter(|(t, _)| m.topics.contains(t))
                    .map(|(_, ps)| ps.len() as u32)
                    .sum();
                prop_assert!(kept >= owned.min(min), "{} kept {kept} of {owned} ({min}..{max})", m.id);
            }
        }

        #[test]
        fn server_range_ignores_owned(input in group()) {
            let mut fresh = input.clone();
            for m in &mut fresh.members {
                m.owned.clear();
            }
            let a = server_range(&input);
            let b = server_range(&fresh);
            prop_assert_eq!(a.to_map(&input), b.to_map(&fresh));
        }

        #[test]
        fn uniform_is_stable_on_its_own_answer(input in group()) {
            // Feeding the answer back as the current assignment changes nothing (homogeneous:
            // a heterogeneous group stopped by the 16-pass limit could still move).
            let subs = input.members.first().map(|m| m.topics.clone());
            prop_assume!(input.members.iter().all(|m| Some(&m.topics) == subs.as_ref()));
            let a = uniform(&input).unwrap();
            let mut next = input.clone();
            for (i, m) in next.members.iter_mut().enumerate() {
                m.owned = a
                    .partitions_of(i as u32)
                    .into_iter()
                    .map(|(t, ps)| (t.to_string(), ps.into_iter().map(|p| p as i32).collect()))
                    .collect();
            }
            let b = uniform(&next).unwrap();
            prop_assert_eq!(a.to_map(&input), b.to_map(&next));
        }
    }
}
