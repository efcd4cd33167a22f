//! The classic group (crates/core/tests/vectors/classic-group.json, computed with Java 17 running Kafka's
//! ClassicGroup method bodies) and real librdkafka leaders (crates/core/tests/vectors/librdkafka.json),
//! through the library and through the binary.
#![cfg(not(target_arch = "wasm32"))]

use rebalance_lab_core::assignor::{self, AssignorKind, LeaderClient};
use rebalance_lab_core::group::{self, JoinRequest};
use rebalance_lab_core::scenario::Scenario;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_rebalance-lab");

fn load(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/../core/tests/vectors/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn of_kind(kind: &str) -> Vec<Value> {
    let all: Vec<Value> = load("classic-group.json")
        .into_iter()
        .filter(|v| v["kind"] == kind)
        .collect();
    assert!(all.len() >= 20, "{kind}: {}", all.len());
    all
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn requests(v: &Value) -> Vec<JoinRequest> {
    v["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| JoinRequest {
            id: m["id"].as_str().unwrap().into(),
            protocols: strings(&m["protocols"]),
        })
        .collect()
}

/// Runs the binary with `stdin`; returns stdout (exit code 0 asserted).
fn bin(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn coordinator_vectors() {
    let mut n = 0;
    for v in of_kind("coordinator") {
        let name = v["name"].as_str().unwrap();
        let id = v["group_id"].as_str().unwrap();
        let parts = v["offsets_partitions"].as_u64().unwrap();
        let c = group::coordinator(id, parts).unwrap();
        assert_eq!(
            c.hash_code as i64,
            v["hash_code"].as_i64().unwrap(),
            "{name}"
        );
        assert_eq!(
            c.partition as u64,
            v["expected_partition"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(c.join_error().is_some(), id.is_empty(), "{name}");
        n += 1;
    }
    assert_eq!(n, 20);
}

#[test]
fn coordinator_vectors_through_the_binary() {
    for v in of_kind("coordinator") {
        let name = v["name"].as_str().unwrap();
        let want = (v["expected_partition"].clone(), v["hash_code"].clone());
        // the vector itself as the input file (any character survives JSON)
        let out = json(&bin(&["coordinator", "-", "--json"], &v.to_string()));
        assert_eq!(
            (out["partition"].clone(), out["hash_code"].clone()),
            want,
            "{name}"
        );
        // and on the command line
        let id = v["group_id"].as_str().unwrap();
        let parts = v["offsets_partitions"].to_string();
        let out = json(&bin(
            &[
                "coordinator",
                "--group-id",
                id,
                "--partitions",
                &parts,
                "--json",
            ],
            "",
        ));
        assert_eq!(
            (out["partition"].clone(), out["hash_code"].clone()),
            want,
            "{name}"
        );
        // the text form ends with the partition
        let text = bin(&["coordinator", "-"], &v.to_string());
        assert!(
            text.contains(&format!("= {}: partition", want.0)),
            "{name}: {text}"
        );
    }
}

#[test]
fn protocol_vectors() {
    let mut n = 0;
    for v in of_kind("protocol") {
        let name = v["name"].as_str().unwrap();
        let want = &v["expected"];
        let s = group::select_protocol(&requests(&v)).unwrap();
        assert_eq!(s.accepted_ids(), strings(&want["accepted"]), "{name}");
        let refused: Vec<(String, String)> = s
            .refused
            .iter()
            .map(|r| (r.id.clone(), r.error.name().to_string()))
            .collect();
        let want_refused: Vec<(String, String)> = want["refused"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["id"].as_str().unwrap().into(),
                    r["error"].as_str().unwrap().into(),
                )
            })
            .collect();
        assert_eq!(refused, want_refused, "{name}");
        let votes: BTreeMap<String, u64> = s
            .tally
            .counts
            .iter()
            .map(|(k, c)| (k.clone(), *c as u64))
            .collect();
        let want_votes: BTreeMap<String, u64> =
            serde_json::from_value(want["votes"].clone()).unwrap();
        assert_eq!(votes, want_votes, "{name}");
        assert_eq!(
            s.selected.as_deref(),
            want["selected"].as_str(),
            "{name}: {}",
            s.why
        );
        // every accepted member voted, once
        assert_eq!(s.votes.len(), s.accepted.len(), "{name}");
        n += 1;
    }
    assert_eq!(n, 20);
}

#[test]
fn protocol_vectors_through_the_binary() {
    for v in of_kind("protocol") {
        let name = v["name"].as_str().unwrap();
        let want = &v["expected"];
        let input = serde_json::json!({ "members": v["members"] }).to_string();
        let out = json(&bin(&["vote", "-", "--json"], &input));
        for key in ["accepted", "refused", "votes", "selected"] {
            assert_eq!(out[key], want[key], "{name}: {key}");
        }
        let text = bin(&["vote", "-"], &input);
        let selected = want["selected"].as_str().unwrap_or("none");
        assert!(
            text.contains(&format!("selected: {selected}")),
            "{name}: {text}"
        );
    }
}

#[test]
fn tie_notes_agree_with_the_reasons() {
    // The vectors' notes name the tie; our reason must name it too.
    let mut ties = 0;
    for v in of_kind("protocol") {
        if !v["note"].as_str().unwrap_or("").starts_with("TIE") {
            continue;
        }
        let s = group::select_protocol(&requests(&v)).unwrap();
        assert!(s.tally.tied.len() > 1, "{}", v["name"]);
        assert!(s.why.starts_with("tie at"), "{}", s.why);
        ties += 1;
    }
    assert!(ties >= 5, "{ties}");
}

#[test]
fn leader_vectors() {
    let mut n = 0;
    for v in of_kind("leader") {
        let name = v["name"].as_str().unwrap();
        let h = group::leader_after(&strings(&v["joins"]), &strings(&v["leaves"]));
        assert_eq!(h.leader.as_deref(), v["expected_leader"].as_str(), "{name}");
        // each leader change named in the note happens, in that order
        let note = v["note"].as_str().unwrap_or("");
        let changes: Vec<&str> = h
            .steps
            .iter()
            .filter(|s| s.changed && matches!(s.event, group::GroupEvent::Leave(_)))
            .filter_map(|s| s.leader.as_deref())
            .collect();
        for c in &changes {
            assert!(
                note.contains(&format!("-> '{c}'")),
                "{name}: {c} not in {note}"
            );
        }
        n += 1;
    }
    assert_eq!(n, 20);
}

#[test]
fn leader_vectors_through_the_binary() {
    for v in of_kind("leader") {
        let name = v["name"].as_str().unwrap();
        let out = json(&bin(&["leader", "-", "--json"], &v.to_string()));
        assert_eq!(out["leader"], v["expected_leader"], "{name}");
        let text = bin(&["leader", "-"], &v.to_string());
        assert!(text.contains("leader: "), "{name}: {text}");
    }
}

/// The librdkafka captures: with the librdkafka order every one matches; with the Java
/// order, exactly those where both orders agree.
#[test]
fn librdkafka_captures() {
    let all = load("librdkafka.json");
    assert_eq!(all.len(), 6);
    let (mut agree, mut differ) = (0, 0);
    for v in &all {
        let name = v["name"].as_str().unwrap();
        let scenario = Scenario::from_json(&v.to_string()).unwrap();
        let kind = scenario.assignor;
        assert!(matches!(
            kind,
            AssignorKind::Range | AssignorKind::RoundRobin
        ));
        let want: BTreeMap<String, BTreeMap<String, Vec<i32>>> =
            serde_json::from_value(v["expected"].clone()).unwrap();
        let (input, rdk) = scenario
            .assign_with(kind, LeaderClient::Librdkafka)
            .unwrap();
        assert_eq!(rdk.to_map(&input), want, "{name}: librdkafka order");
        assert!(assignor::librdkafka_order_is_total(&input.members));
        let (_, java) = scenario.assign_with(kind, LeaderClient::Java).unwrap();
        if java.order == rdk.order {
            assert_eq!(java.to_map(&input), want, "{name}: orders agree");
            agree += 1;
        } else {
            assert_ne!(java.to_map(&input), want, "{name}: orders differ");
            differ += 1;
        }
    }
    // p2-range: ids whose UTF-8 byte order is not their UTF-16 order
    assert_eq!((agree, differ), (5, 1));
}

#[test]
fn librdkafka_captures_through_the_binary() {
    for v in load("librdkafka.json") {
        let name = v["name"].as_str().unwrap();
        let want: BTreeMap<String, BTreeMap<String, Vec<i32>>> =
            serde_json::from_value(v["expected"].clone()).unwrap();
        let out = bin(
            &["assign", "-", "--leader-client", "librdkafka"],
            &v.to_string(),
        );
        let got: BTreeMap<String, BTreeMap<String, Vec<i32>>> = serde_json::from_str(&out).unwrap();
        assert_eq!(got, want, "{name}");
    }
    // p2 through the Java order is not librdkafka's answer
    let p2 = load("librdkafka.json")
        .into_iter()
        .find(|v| v["name"] == "p2-range")
        .unwrap();
    let out = bin(&["assign", "-", "--leader-client", "java"], &p2.to_string());
    let got: Value = serde_json::from_str(&out).unwrap();
    assert_ne!(got, p2["expected"]);
}

#[test]
fn static_members_in_librdkafka_order() {
    // Not captured: a mixed group. librdkafka compares a static and a dynamic member by
    // member id (no static-first), two static members by instance id.
    let text = r#"{"assignor": "range", "topics": {"t": 3}, "members": [
        {"id": "b", "instance_id": "s1", "topics": ["t"]},
        {"id": "a", "instance_id": null, "topics": ["t"]},
        {"id": "c", "instance_id": "s0", "topics": ["t"]}]}"#;
    let scenario = Scenario::from_json(text).unwrap();
    let (input, java) = scenario
        .assign_with(AssignorKind::Range, LeaderClient::Java)
        .unwrap();
    let (_, rdk) = scenario
        .assign_with(AssignorKind::Range, LeaderClient::Librdkafka)
        .unwrap();
    let ids = |o: &[u32]| -> Vec<&str> {
        o.iter()
            .map(|i| input.members[*i as usize].id.as_str())
            .collect()
    };
    assert_eq!(ids(&java.order), ["c", "b", "a"]);
    assert_eq!(ids(&rdk.order), ["a", "c", "b"]);
}

/// Every group id whose `String.hashCode` was recorded from Java 17 (crates/core/tests/vectors/java.json:
/// NUL, a surrogate pair, `Integer.MIN_VALUE`, ...) through `coordinator -`, as a JSON file
/// would carry it: the binary answers Java's hash and `Utils.abs(hash) % 50`.
#[test]
fn recorded_java_hashes_through_the_binary() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/vectors/java.json"
    ))
    .unwrap();
    let all: Value = serde_json::from_str(&text).unwrap();
    let recorded = all["string_hash"].as_array().unwrap();
    assert!(recorded.len() > 20);
    let mut nul = false;
    for r in recorded {
        let id = r["s"].as_str().unwrap();
        nul |= id.contains('\0');
        let input = serde_json::json!({ "group_id": id, "offsets_partitions": 50 }).to_string();
        let out = json(&bin(&["coordinator", "-", "--json"], &input));
        assert_eq!(out["hash_code"], r["hash"], "{id:?}");
        assert_eq!(out["partition"], r["abs_mod_50"], "{id:?}");
    }
    assert!(nul, "a group id holding NUL is among them");
}
