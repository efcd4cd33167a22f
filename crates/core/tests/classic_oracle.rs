//! Differential test against Kafka's broker: every case of
//! tests/vectors/oracle/classic-group.json (random groups made and answered by
//! tests/java/classic/ClassicOracle.java running Kafka's own `ClassicGroup` and
//! `ClassicGroupMember` at 1eb7644; regenerate with `sh tests/java/classic-oracle.sh`)
//! through our library: who is accepted and who refused (`supportsProtocols`), the candidate
//! protocols, each member's vote in the members map's order, the selected protocol or the
//! exception Java throws, the leader after the joins, and after each leave the leader and the
//! members map's order. `CLASSIC_ORACLE=<file>` runs another batch.

#![cfg(not(target_arch = "wasm32"))]

use rebalance_lab_core::group::{run_events, select_protocol, GroupEvent, JoinRequest};
use serde_json::Value;

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_str().expect("a string").to_string())
        .collect()
}

/// One case: `Err` says the first difference.
fn check(case: &Value) -> Result<(), String> {
    let events = case["events"].as_array().expect("events");
    let joins: Vec<JoinRequest> = events
        .iter()
        .filter(|e| e.get("join").is_some())
        .map(|e| JoinRequest {
            id: e["join"].as_str().unwrap().to_string(),
            protocols: strings(&e["protocols"]),
        })
        .collect();
    let leaves: Vec<String> = events
        .iter()
        .filter_map(|e| e.get("leave").and_then(Value::as_str).map(String::from))
        .collect();
    let sel = select_protocol(&joins).map_err(|e| e.to_string())?;
    let same = |what: &str, ours: &dyn std::fmt::Debug, java: &dyn std::fmt::Debug| {
        let (o, j) = (format!("{ours:?}"), format!("{java:?}"));
        if o == j {
            Ok(())
        } else {
            Err(format!("{what}: ours {o}, Java {j}"))
        }
    };
    let accepted: Vec<&str> = sel.accepted_ids();
    same("accepted", &accepted, &strings(&case["accepted"]))?;
    let refused: Vec<&str> = sel.refused.iter().map(|r| r.id.as_str()).collect();
    same("refused", &refused, &strings(&case["refused"]))?;
    same(
        "members map order",
        &sel.member_order,
        &strings(&case["members_after_joins"]),
    )?;
    if !accepted.is_empty() {
        same("candidates", &sel.candidates, &strings(&case["candidates"]))?;
    }
    // Java's selectProtocol stops at the first member (in map order) whose vote throws; the
    // oracle asked every member.
    for (ours, java) in sel.votes.iter().zip(case["votes"].as_array().unwrap()) {
        same("voter", &ours.id, &java["id"].as_str().unwrap_or_default())?;
        same(
            &format!("vote of {}", ours.id),
            &ours.vote.as_ref().map(|v| v.0.as_str()),
            &java["vote"].as_str(),
        )?;
    }
    same(
        "selected",
        &sel.selected.as_deref(),
        &case["selected"].as_str(),
    )?;
    let java_exception = case["exception"]
        .as_str()
        .map(|e| e.trim_start_matches("java.lang.").to_string());
    same("exception", &sel.java_exception, &java_exception)?;
    // The leader: the accepted members join in order, then the leaves.
    let mut log: Vec<GroupEvent> = accepted
        .iter()
        .map(|id| GroupEvent::Join(id.to_string()))
        .collect();
    let joined = log.len();
    log.extend(leaves.iter().cloned().map(GroupEvent::Leave));
    let history = run_events(&log);
    let after_joins = joined
        .checked_sub(1)
        .map(|i| history.steps[i].leader.clone());
    same(
        "leader after the joins",
        &after_joins.flatten().as_deref(),
        &case["leader_after_joins"].as_str(),
    )?;
    for (i, java) in case["after_leaves"].as_array().unwrap().iter().enumerate() {
        let step = &history.steps[joined + i];
        let what = format!("after leave {i} ({})", java["leave"]);
        same(&what, &step.leader.as_deref(), &java["leader"].as_str())?;
        same(
            &format!("{what}, members"),
            &step.members,
            &strings(&java["members"]),
        )?;
    }
    Ok(())
}

#[test]
fn kafka_s_classic_group_agrees() {
    let path = std::env::var("CLASSIC_ORACLE").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/vectors/oracle/classic-group.json"
        )
        .into()
    });
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = doc["cases"].as_array().expect("cases");
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|c| check(c).err().map(|e| format!("case {}: {e}", c["case"])))
        .collect();
    for f in &failed {
        eprintln!("MISMATCH {f}");
    }
    eprintln!(
        "classic group: {} of {} cases agree with Kafka's ClassicGroup",
        cases.len() - failed.len(),
        cases.len()
    );
    assert!(failed.is_empty(), "{} mismatches", failed.len());
    assert!(cases.len() >= 800, "too few cases: {}", cases.len());
}
