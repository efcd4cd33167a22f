//! Every vector of tests/vectors (copied from shared/vectors: expected answers produced by
//! running the Apache Kafka Java client), through the library and through the binary.

#![cfg(not(target_arch = "wasm32"))]

#[path = "../../core/tests/common/mod.rs"]
mod common;

use common::{accepted, check_sticky_case, load, map_as_sets, throws, Map, Outcome};
use rebalance_lab_cli::{decoded_json, subscription_from_json};
use rebalance_lab_core::assignor::{self, AssignorKind};
use rebalance_lab_core::protocol::{self, hex};
use rebalance_lab_core::scenario::Scenario;
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

fn expected(v: &Value) -> Map {
    serde_json::from_value(v["expected"].clone()).unwrap()
}

fn check_assignor(file: &str, kind: AssignorKind) -> usize {
    let mut n = 0;
    for v in load(file) {
        let name = v["name"].as_str().unwrap();
        let scenario =
            Scenario::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(scenario.assignor, kind, "{name}");
        let (input, result) = scenario.assign(kind).unwrap();
        let got = result.to_map(&input);
        if v.get("java_exception").is_some() {
            // Java throws for an empty round-robin group; we give an empty assignment.
            assert!(got.values().all(|m| m.is_empty()), "{name}");
            continue;
        }
        assert_eq!(got, expected(&v), "{name}");
        n += 1;
    }
    n
}

#[test]
fn range_vectors() {
    let n = check_assignor("range.json", AssignorKind::Range);
    assert_eq!(n, 114);
}

#[test]
fn roundrobin_vectors() {
    let n = check_assignor("roundrobin.json", AssignorKind::RoundRobin);
    assert!(n >= 39, "{n}");
}

#[test]
fn range_and_roundrobin_vectors_through_the_binary() {
    let bin = env!("CARGO_BIN_EXE_rebalance-lab");
    let dir = std::env::temp_dir().join(format!("rl-vectors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["range.json", "roundrobin.json"] {
        for (i, v) in load(file).into_iter().enumerate() {
            if v.get("java_exception").is_some() {
                continue;
            }
            let path = dir.join(format!("{file}-{i}.json"));
            std::fs::write(&path, v.to_string()).unwrap();
            let out = Command::new(bin).arg("assign").arg(&path).output().unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                v["name"],
                String::from_utf8_lossy(&out.stderr)
            );
            let got: Map = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(got, expected(&v), "{}", v["name"]);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Where each malformed vector's failure starts, counted by hand from its hex: the length or
/// count prefix of the failing field, or the first byte the underflowing read wanted.
const MALFORMED_STARTS: [(&str, usize); 23] = [
    // Header v3 over a v1 body: generation_id would follow owned_partitions, at the end.
    ("dec-v1-bytes-with-v3-header-truncated", 70),
    // The version header: nothing there.
    ("bad-empty", 0),
    // The version header: 1 of its 2 bytes.
    ("bad-one-byte", 0),
    // The version header itself is the unsupported version.
    ("bad-version-minus1", 0),
    // Likewise, -32768.
    ("bad-version-min", 0),
    // The topics count, right after the 2-byte header.
    ("bad-header-only-v0", 2),
    // The topics count (-1).
    ("bad-topics-count-negative", 2),
    // The topics count (i32::MAX).
    ("bad-topics-count-huge", 2),
    // The topics count (9, with 7 bytes after it).
    ("bad-topics-count-exceeds-remaining", 2),
    // topics[0]'s int16 length, after header and count (2 + 4).
    ("bad-topic-len-negative", 6),
    // topics[0]'s int16 length (50, with 2 bytes after it).
    ("bad-topic-len-exceeds-remaining", 6),
    // user_data's int32 length, after an empty topics array (2 + 4).
    ("bad-userdata-len-exceeds-remaining", 6),
    // user_data's length: nothing there.
    ("bad-userdata-missing", 6),
    // owned_partitions count, after null user_data (6 + 4).
    ("bad-v1-owned-missing", 10),
    // owned_partitions count (-1).
    ("bad-v1-owned-count-negative", 10),
    // owned_partitions[0].topic's length, after the count (10 + 4).
    ("bad-v1-owned-topic-len-negative", 14),
    // owned_partitions[0].partitions count, after topic "t" (14 + 2 + 1).
    ("bad-v1-owned-partitions-count-negative", 17),
    // Count 3 passes Java's check (3 <= 4 bytes left); partitions[1] (after [0] at 21) underflows.
    ("bad-v1-owned-partitions-count-exceeds", 25),
    // generation_id, after an empty owned_partitions (10 + 4).
    ("bad-v2-generation-missing", 14),
    // generation_id: 2 of its 4 bytes.
    ("bad-v2-generation-partial", 14),
    // rack_id's length, after generation_id (14 + 4).
    ("bad-v3-rack-missing", 18),
    // rack_id's length (4, with 2 bytes after it).
    ("bad-v3-rack-len-exceeds", 18),
    // rack_id's length: 1 of its 2 bytes.
    ("bad-v3-rack-one-byte-len", 18),
];

#[test]
fn subscription_vectors() {
    let mut counts = BTreeMap::new();
    let mut malformed_seen = 0;
    for v in load("subscription.json") {
        let name = v["name"].as_str().unwrap();
        let kind = v["kind"].as_str().unwrap();
        *counts.entry(kind.to_string()).or_insert(0) += 1;
        match kind {
            "encode" => {
                let sub = subscription_from_json(&v["fields"].to_string()).unwrap();
                let version = v["version"].as_i64().unwrap() as i16;
                let res = protocol::encode_subscription(&sub, version);
                if v["hex"].is_null() {
                    assert!(res.is_err(), "{name}: Java refused");
                    continue;
                }
                let enc = res.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(
                    hex::to_hex(&enc.bytes),
                    v["hex"].as_str().unwrap(),
                    "{name}"
                );
                let d = protocol::decode_subscription(&enc.bytes);
                assert_eq!(decoded_json(&d), v["decoded"], "{name}");
            }
            "decode" => {
                let bytes = hex::parse_hex(v["hex"].as_str().unwrap()).unwrap();
                let d = protocol::decode_subscription(&bytes);
                assert!(d.error.is_none(), "{name}: {:?}", d.error);
                assert_eq!(decoded_json(&d), v["decoded"], "{name}");
            }
            "malformed" => {
                let bytes = hex::parse_hex(v["hex"].as_str().unwrap()).unwrap();
                let d = protocol::decode_subscription(&bytes);
                let e = d
                    .error
                    .unwrap_or_else(|| panic!("{name}: Java refused, we accepted"));
                let (class, message) = e.java_exception();
                assert_eq!(class, v["error"]["exception"], "{name}: {e}");
                assert_eq!(message, v["error"]["message"], "{name}: {e}");
                let start = MALFORMED_STARTS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .unwrap_or_else(|| panic!("{name}: no expected offset in the table"))
                    .1;
                assert_eq!(e.span.start, start, "{name}: {e}");
                assert!(e.span.end <= bytes.len(), "{name}");
                assert!(e.to_string().contains("(Java: "), "{name}: {e}");
                malformed_seen += 1;
            }
            other => panic!("{name}: unknown kind {other}"),
        }
    }
    assert_eq!(counts["encode"], 101);
    assert_eq!(counts["decode"], 15);
    assert_eq!(counts["malformed"], 23);
    assert_eq!(malformed_seen, MALFORMED_STARTS.len());
}

#[test]
fn decode_through_the_binary() {
    let bin = env!("CARGO_BIN_EXE_rebalance-lab");
    for v in load("subscription.json") {
        let hex = v["hex"].as_str().unwrap_or_default();
        if v["kind"] == "encode" || hex.is_empty() {
            continue;
        }
        let out = Command::new(bin).args(["decode", hex]).output().unwrap();
        if v["kind"] == "malformed" {
            assert_eq!(out.status.code(), Some(1), "{}", v["name"]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("byte 0x"), "{}: {err}", v["name"]);
        } else {
            assert!(out.status.success(), "{}", v["name"]);
            let got: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(got, v["decoded"], "{}", v["name"]);
        }
    }
}

#[test]
fn every_assignor_vector_is_a_valid_scenario_file() {
    for file in [
        "range.json",
        "roundrobin.json",
        "sticky.json",
        "cooperative-sticky.json",
    ] {
        for v in load(file) {
            let s: Result<Scenario, _> = serde_json::from_value(v.clone());
            assert!(s.is_ok(), "{}: {:?}", v["name"], s.err());
        }
    }
    // and the assignor name maps
    assert_eq!(
        AssignorKind::parse("roundrobin"),
        Some(AssignorKind::RoundRobin)
    );
    let _ = assignor::UNASSIGNED;
}

fn check_sticky(file: &str, kind: AssignorKind) -> (usize, usize) {
    let (mut answered, mut thrown) = (0, 0);
    for v in load(file) {
        match check_sticky_case(&v, kind) {
            Ok(Outcome::Answered) => answered += 1,
            Ok(Outcome::Thrown) => thrown += 1,
            Ok(Outcome::Twice) => unreachable!("only a KIP-848 check says Twice"),
            Err(e) => panic!("{e}"),
        }
    }
    (answered, thrown)
}

#[test]
fn sticky_vectors() {
    assert_eq!(check_sticky("sticky.json", AssignorKind::Sticky), (36, 1));
}

#[test]
fn cooperative_sticky_vectors() {
    assert_eq!(
        check_sticky("cooperative-sticky.json", AssignorKind::CooperativeSticky),
        (36, 1)
    );
}

#[test]
fn sticky_vectors_through_the_binary() {
    let bin = env!("CARGO_BIN_EXE_rebalance-lab");
    let dir = std::env::temp_dir().join(format!("rl-sticky-vectors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut n = 0;
    for (file, flag) in [
        ("sticky.json", "sticky"),
        ("cooperative-sticky.json", "cooperative-sticky"),
    ] {
        for (i, v) in load(file).into_iter().enumerate() {
            let path = dir.join(format!("{file}-{i}.json"));
            std::fs::write(&path, v.to_string()).unwrap();
            let out = Command::new(bin)
                .args(["assign", path.to_str().unwrap(), "--assignor", flag])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if throws(&v) {
                assert!(!out.status.success(), "{}", v["name"]);
                assert!(stderr.contains("java.lang."), "{}: {stderr}", v["name"]);
                n += 1;
                continue;
            }
            assert!(out.status.success(), "{}: {stderr}", v["name"]);
            let got: Map = serde_json::from_slice(&out.stdout).unwrap();
            assert!(accepted(&v).contains(&map_as_sets(&got)), "{}", v["name"]);
            n += 1;
        }
    }
    assert_eq!(n, 74);
    std::fs::remove_dir_all(&dir).ok();
}
