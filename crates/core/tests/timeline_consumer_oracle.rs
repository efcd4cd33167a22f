//! The consumer protocol's coordinator of the timeline against Kafka's own: each case below
//! runs through the simulator, its ConsumerGroupHeartbeat requests are written as a script,
//! Kafka's real `GroupMetadataManager` at 1eb7644 answers them on a virtual clock
//! (`tests/java/consumer/`, on ../shared/tools/oracle-timeline's harness), and what Kafka
//! decided (tests/vectors/timeline-consumer/*.out.jsonl) is compared with what our coordinator
//! decided, instant by instant: every response (error, member epoch, assignment), every timer
//! that fired, and the group after each instant (its state, group and assignment epochs, each
//! member's epoch, state, assigned and revoking partitions, and each member's target).
//! Regenerate with `sh crates/core/tests/java/consumer-oracle.sh`.

#![cfg(not(target_arch = "wasm32"))]

mod timeline_common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use rebalance_lab_core::assignor::coordinator::derived_topic_id;
use rebalance_lab_core::timeline::broker_trace::Line;
use rebalance_lab_core::timeline::consumer::{run_traced, Trace};
use rebalance_lab_core::timeline::{
    ClientSettings, CommitPolicy, Group, Protocol, Settings, Story, StoryKind,
};
use serde_json::{json, Map, Value};
use timeline_common::{first_difference, group, instants, kafka_answer, story, write_script};

fn settings(f: impl FnOnce(&mut ClientSettings)) -> Settings {
    let mut s = Settings {
        protocol: Protocol::Consumer,
        ..Settings::default()
    };
    f(&mut s.client);
    s
}

/// The cases: (file name, group, settings, story).
fn cases() -> Vec<(&'static str, Group, Settings, Story)> {
    use StoryKind::*;
    vec![
        (
            "rolling-restart",
            group(3, 6),
            settings(|_| {}),
            Story::new(RollingRestart),
        ),
        (
            "static-rolling-restart",
            group(3, 6),
            settings(|c| c.static_membership = true),
            Story::new(RollingRestart),
        ),
        (
            "static-back-after-session-timeout",
            group(3, 6),
            settings(|c| c.static_membership = true),
            story(Crash, |s| s.downtime_ms = 60_000),
        ),
        (
            "member-replaced",
            group(3, 6),
            settings(|c| c.commit = CommitPolicy::AfterBatch),
            Story::new(Replace),
        ),
        ("crash", group(4, 8), settings(|_| {}), Story::new(Crash)),
        (
            "scale-out",
            group(3, 6),
            settings(|_| {}),
            story(ScaleOut, |s| s.count = 2),
        ),
        (
            "scale-in",
            group(4, 8),
            settings(|_| {}),
            story(ScaleIn, |s| s.count = 2),
        ),
        (
            "slow-poll",
            group(3, 6),
            settings(|c| c.max_poll_interval_ms = 20_000),
            story(SlowPoll, |s| s.downtime_ms = 45_000),
        ),
        (
            "network-cut-past-session",
            group(3, 6),
            settings(|_| {}),
            story(NetworkCut, |s| s.downtime_ms = 60_000),
        ),
        (
            "network-cut-within-session",
            group(3, 6),
            settings(|_| {}),
            story(NetworkCut, |s| s.downtime_ms = 20_000),
        ),
        (
            // it comes back while its old self still holds the instance id (a crash sends no
            // leave): UNRELEASED_INSTANCE_ID until the old member's session expires
            "static-crash-back-within-session",
            group(3, 6),
            settings(|c| c.static_membership = true),
            story(Crash, |s| s.downtime_ms = 20_000),
        ),
        (
            // a slow network and a member behind: a revocation's answer (3 s), the end of the
            // batch in hand and the commit before the callbacks (3 s) take longer than the
            // rebalance timeout (max.poll.interval.ms, 7 s) once, and the coordinator fences
            // that member
            "slow-network-revocation-times-out",
            group(3, 6),
            {
                let mut s = settings(|c| {
                    c.max_poll_interval_ms = 7_000;
                    c.processing_ms_per_record = 4.0;
                });
                s.round_trip_ms = 3_000;
                s.records_per_second = 20.0;
                s
            },
            Story::new(RollingRestart),
        ),
        (
            "two-at-once",
            group(5, 10),
            settings(|_| {}),
            story(RollingRestart, |s| {
                s.count = 2;
                s.downtime_ms = 5_000;
                s.gap_ms = 1_000;
            }),
        ),
    ]
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/timeline-consumer")
}

/// Each partition index of a run as (topic, partition).
fn layout(g: &Group) -> Vec<(String, u32)> {
    g.topics
        .iter()
        .flat_map(|(t, n)| (0..*n).map(move |p| (t.clone(), p)))
        .collect()
}

/// Partitions by topic, as the oracle prints them.
fn by_topic(layout: &[(String, u32)], ps: &[usize]) -> Value {
    let mut m: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for &p in ps {
        let (t, n) = &layout[p];
        m.entry(t.clone()).or_default().push(*n);
    }
    for v in m.values_mut() {
        v.sort_unstable();
    }
    json!(m)
}

fn scenario_of(name: &str, g: &Group, s: &Settings, st: &Story) -> (Value, Vec<Line>) {
    let run = run_traced(g, s, st, Trace::RequestsAndGroup).expect("the case runs");
    let layout = layout(g);
    let topics: Vec<Value> = g
        .topics
        .iter()
        .map(|(name, n)| {
            let id = derived_topic_id(name);
            json!({"name": name, "msb": id.msb, "lsb": id.lsb, "partitions": n})
        })
        .collect();
    let mut requests = Vec::new();
    for line in &run.wire {
        if let Line::Heartbeat { t, request: r } = line {
            let mut m = Map::new();
            m.insert("t_ms".into(), json!(t));
            m.insert("client".into(), json!(r.client));
            m.insert("member_id".into(), json!(r.member_id));
            m.insert("member_epoch".into(), json!(r.member_epoch));
            m.insert("instance_id".into(), json!(r.instance_id));
            m.insert(
                "rebalance_timeout_ms".into(),
                json!(r.rebalance_timeout_ms.unwrap_or(-1)),
            );
            m.insert("subscribed_topic_names".into(), json!(r.subscribed));
            m.insert(
                "owned".into(),
                r.owned
                    .as_ref()
                    .map_or(Value::Null, |o| by_topic(&layout, o)),
            );
            requests.push(Value::Object(m));
        }
    }
    let description = format!(
        "{name}: {} under the consumer protocol, written by the timeline's simulator (crates/core/tests/timeline_consumer_oracle.rs)",
        st.kind.label(),
    );
    let v = json!({
        "description": description,
        "group_id": "g",
        "broker": {
            "group.consumer.session.timeout.ms": s.consumer_group.session_timeout_ms,
            "group.consumer.heartbeat.interval.ms": s.consumer_group.heartbeat_interval_ms,
        },
        "topics": topics,
        "requests": requests,
        "end_ms": run.end_ms,
    });
    (v, run.wire)
}

/// Writes the scripts for the oracle (run by tests/java/consumer-oracle.sh).
#[test]
#[ignore]
fn write_consumer_oracle_scripts() {
    for (name, g, s, st) in cases() {
        let (v, _) = scenario_of(name, &g, &s, &st);
        write_script(&dir(), name, &v);
    }
}

/// What is compared at one instant.
#[derive(Debug, Default, PartialEq)]
struct Instant {
    responses: Vec<String>,
    timers: Vec<String>,
    group: Option<String>,
}

fn response_key(client: &str, error: &str, epoch: i64, assignment: &Value) -> String {
    if error == "NONE" {
        format!("{client} {error} epoch={epoch} assignment={assignment}")
    } else {
        format!("{client} {error}")
    }
}

fn group_key(
    state: &str,
    group_epoch: i64,
    assignment_epoch: i64,
    members: &Value,
    target: &Value,
) -> String {
    format!("{state} epoch={group_epoch} assignment_epoch={assignment_epoch} members={members} target={target}")
}

fn ours(g: &Group, wire: &[Line]) -> BTreeMap<i64, Instant> {
    let layout = layout(g);
    let mut out: BTreeMap<i64, Instant> = BTreeMap::new();
    for line in wire {
        let at = out.entry(line.time()).or_default();
        match line {
            Line::TimerFired { key, .. } => at.timers.push(key.clone()),
            Line::HeartbeatAnswer { response: r, .. } => at.responses.push(response_key(
                &r.client,
                r.error.name(),
                i64::from(r.member_epoch),
                &r.assignment
                    .as_ref()
                    .map_or(Value::Null, |a| by_topic(&layout, a)),
            )),
            Line::ConsumerGroup { group: gl, .. } => {
                let members: Map<String, Value> = gl
                    .members
                    .iter()
                    .map(|m| {
                        (
                            m.member_id.clone(),
                            json!({
                                "epoch": m.epoch,
                                "state": m.state,
                                "assigned": by_topic(&layout, &m.assigned),
                                "revoking": by_topic(&layout, &m.revoking),
                            }),
                        )
                    })
                    .collect();
                let target: Map<String, Value> = gl
                    .target
                    .iter()
                    .map(|(id, t)| (id.clone(), by_topic(&layout, t)))
                    .collect();
                at.group = Some(group_key(
                    gl.state,
                    i64::from(gl.group_epoch),
                    i64::from(gl.assignment_epoch),
                    &Value::Object(members),
                    &Value::Object(target),
                ));
            }
            _ => {}
        }
    }
    out
}

fn kafkas(text: &str) -> BTreeMap<i64, Instant> {
    let mut out: BTreeMap<i64, Instant> = BTreeMap::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON line");
        let t = v["t"].as_i64().expect("t");
        match v["event"].as_str().unwrap_or("") {
            "timer_error" => panic!("Kafka's timer failed: {line}"),
            "timer_fired" => out
                .entry(t)
                .or_default()
                .timers
                .push(v["key"].as_str().unwrap().into()),
            "response" => {
                let at = out.entry(t).or_default();
                at.responses.push(response_key(
                    v["client"].as_str().unwrap(),
                    v["error"].as_str().unwrap(),
                    v["member_epoch"].as_i64().unwrap(),
                    &v["assignment"],
                ));
            }
            "group" => {
                let members: Map<String, Value> = v["members"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(id, m)| {
                        (
                            id.clone(),
                            json!({
                                "epoch": m["epoch"],
                                "state": m["state"],
                                "assigned": m["assigned"],
                                "revoking": m["revoking"],
                            }),
                        )
                    })
                    .collect();
                out.entry(t).or_default().group = Some(group_key(
                    v["state"].as_str().unwrap(),
                    v["group_epoch"].as_i64().unwrap(),
                    v["assignment_epoch"].as_i64().unwrap(),
                    &Value::Object(members),
                    &v["target"],
                ));
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_consumer_coordinator_decides_as_kafka_does() {
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut responses = 0;
    for (name, g, s, st) in cases() {
        let (script, wire) = scenario_of(name, &g, &s, &st);
        let out = match kafka_answer(
            &dir(),
            name,
            &script,
            "sh crates/core/tests/java/consumer-oracle.sh",
        ) {
            Ok(out) => out,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let mut kafka = kafkas(&out);
        let mut us = ours(&g, &wire);
        let times = instants(&mut kafka, &mut us);
        for m in [&mut kafka, &mut us] {
            // the group as it stands at each instant
            let mut group = None;
            for t in &times {
                let at = m.entry(*t).or_default();
                at.responses.sort();
                at.timers.sort();
                if at.group.is_some() {
                    group = at.group.clone();
                }
                at.group = group.clone();
            }
        }
        compared += times.len();
        responses += us.values().map(|i| i.responses.len()).sum::<usize>();
        failures.extend(first_difference(name, &kafka, &us));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 100, "only {compared} instants compared");
    assert!(responses > 100, "only {responses} responses compared");
}
