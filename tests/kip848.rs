//! The broker's KIP-848 assignors (uniform, server-range) against every entry of
//! tests/vectors/kip848-*.json (computed by Kafka's own classes, fed as the group
//! coordinator feeds them), through the library and through the binary; and the Java
//! `HashMap`/`HashSet` orders those answers rest on, against the orders recorded with them.

#![cfg(not(target_arch = "wasm32"))]

use rebalance_lab::assignor::{self, coordinator, AssignorKind};
use rebalance_lab::scenario::Scenario;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

fn load(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// {member: {topic: set of partitions}}, topics with no partition left out.
type SetMap = BTreeMap<String, BTreeMap<String, BTreeSet<u32>>>;

fn as_sets(v: &Value) -> SetMap {
    let m: BTreeMap<String, BTreeMap<String, Vec<u32>>> =
        serde_json::from_value(v.clone()).unwrap();
    m.into_iter()
        .map(|(member, topics)| {
            let topics = topics
                .into_iter()
                .filter(|(_, ps)| !ps.is_empty())
                .map(|(t, ps)| (t, ps.into_iter().collect()))
                .collect();
            (member, topics)
        })
        .collect()
}

/// `expected` and every `alternatives` entry.
fn accepted(v: &Value) -> Vec<SetMap> {
    let mut out = vec![as_sets(&v["expected"])];
    if let Some(alts) = v["alternatives"].as_array() {
        out.extend(alts.iter().map(as_sets));
    }
    out
}

fn kind_of(file: &str) -> AssignorKind {
    if file.contains("uniform") {
        AssignorKind::Uniform
    } else {
        AssignorKind::ServerRange
    }
}

/// The file's `assignor` ("range" for the broker's range) as our kind.
fn scenario_of(file: &str, v: &Value) -> Scenario {
    let mut v = v.clone();
    v["assignor"] = Value::from(kind_of(file).name());
    Scenario::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{}: {e}", v["name"]))
}

const FILES: [&str; 2] = ["kip848-uniform.json", "kip848-range.json"];

#[test]
fn every_vector_through_the_library() {
    let mut passed = 0;
    for file in FILES {
        for v in load(file) {
            let name = v["name"].as_str().unwrap();
            let scenario = scenario_of(file, &v);
            let input = scenario.group_input();
            let result = assignor::try_assign(kind_of(file), &input)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .unwrap();
            let got = as_sets(&serde_json::to_value(result.to_map(&input)).unwrap());
            assert!(
                accepted(&v).contains(&got),
                "{name}: got {got:?}, expected {:?}",
                accepted(&v)[0]
            );
            passed += 1;
        }
    }
    assert_eq!(passed, 50);
}

#[test]
fn every_vector_through_the_binary() {
    let bin = env!("CARGO_BIN_EXE_rebalance-lab");
    let dir = std::env::temp_dir().join(format!("rl-kip848-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut passed = 0;
    for file in FILES {
        for (i, v) in load(file).into_iter().enumerate() {
            // The file says "range"; the binary is told which one on the command line.
            let path = dir.join(format!("{file}-{i}.json"));
            std::fs::write(&path, v.to_string()).unwrap();
            let out = Command::new(bin)
                .args(["assign", "--assignor", kind_of(file).name()])
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                v["name"],
                String::from_utf8_lossy(&out.stderr)
            );
            let got = as_sets(&serde_json::from_slice(&out.stdout).unwrap());
            assert!(accepted(&v).contains(&got), "{}: {got:?}", v["name"]);
            passed += 1;
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(passed, 50);
}

#[test]
fn member_order_is_the_recorded_hash_map_order() {
    let mut checked = 0;
    for file in FILES {
        for v in load(file) {
            let Some(recorded) = v["java_member_order"].as_array() else {
                continue;
            };
            let input = scenario_of(file, &v).group_input();
            let order: Vec<&str> = coordinator::member_order(&input.members)
                .iter()
                .map(|i| input.members[*i as usize].id.as_str())
                .collect();
            let recorded: Vec<&str> = recorded.iter().map(|x| x.as_str().unwrap()).collect();
            assert_eq!(order, recorded, "{}", v["name"]);
            checked += 1;
        }
    }
    assert_eq!(checked, 50);
}

#[test]
fn topic_order_is_the_recorded_hash_set_order() {
    // Homogeneous uniform: `new HashSet<>(TopicIds)` of the first member (members-map
    // order), itself over `new HashSet<>(names)`.
    let mut checked = 0;
    for v in load("kip848-uniform.json") {
        let Some(recorded) = v["java_topic_order"].as_array() else {
            continue;
        };
        let input = scenario_of("kip848-uniform.json", &v).group_input();
        let order = coordinator::uniform_topic_order(&input).unwrap();
        let recorded: Vec<&str> = recorded.iter().map(|x| x.as_str().unwrap()).collect();
        assert_eq!(order, recorded, "{}", v["name"]);
        checked += 1;
    }
    assert_eq!(checked, 18);
}

#[test]
fn the_subscription_type_is_the_recorded_one() {
    for file in FILES {
        for v in load(file) {
            let input = scenario_of(file, &v).group_input();
            let fed = coordinator::subscription_type(&input);
            assert_eq!(
                fed,
                v["subscription_type"].as_str().unwrap(),
                "{}",
                v["name"]
            );
        }
    }
}
