//! The classic coordinator of the timeline against Kafka's own: each case below runs through
//! the simulator, its requests are written as a script for `oracle-timeline` (Kafka's real
//! `GroupMetadataManager` at 1eb7644 on a virtual clock, ../shared/tools/oracle-timeline),
//! and what Kafka decided (tests/vectors/timeline/*.out.jsonl) is compared with what our
//! coordinator decided, instant by instant: every response (error, generation, member id,
//! protocol, assignment), every timer that fired, and the group's state, generation and
//! members after each instant. Regenerate with `sh crates/core/tests/java/timeline-oracle.sh`.
//!
//! Where Kafka picks a leader from a `HashMap` over random member ids (the leader left or did
//! not rejoin), the leader and what only the leader is told are compared as sets from then on.

#![cfg(not(target_arch = "wasm32"))]

mod timeline_common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use rebalance_lab_core::timeline::broker::Api;
use rebalance_lab_core::timeline::broker_trace::{base64, oracle_scenario, Line};
use rebalance_lab_core::timeline::classic::run_traced;
use rebalance_lab_core::timeline::{
    ClientSettings, CommitPolicy, Group, Protocol, Settings, Story, StoryKind,
};
use serde_json::Value;
use timeline_common::{first_difference, group, instants, kafka_answer, story, write_script};

fn settings(protocol: Protocol, f: impl FnOnce(&mut ClientSettings)) -> Settings {
    let mut s = Settings {
        protocol,
        ..Settings::default()
    };
    f(&mut s.client);
    s
}

/// The cases: (file name, group, settings, story).
fn cases() -> Vec<(&'static str, Group, Settings, Story)> {
    use Protocol::{Cooperative, Eager, Listed};
    use StoryKind::*;
    vec![
        (
            "eager-rolling-restart",
            group(3, 6),
            settings(Eager, |_| {}),
            Story::new(RollingRestart),
        ),
        (
            "cooperative-rolling-restart",
            group(3, 6),
            settings(Cooperative, |_| {}),
            Story::new(RollingRestart),
        ),
        (
            "static-rolling-restart",
            group(3, 6),
            settings(Eager, |c| c.static_membership = true),
            Story::new(RollingRestart),
        ),
        (
            "static-restart-after-session-timeout",
            group(3, 6),
            settings(Eager, |c| {
                c.static_membership = true;
                c.session_timeout_ms = 10_000;
            }),
            story(Crash, |s| s.downtime_ms = 25_000),
        ),
        (
            "streams-instance-replaced",
            group(3, 6),
            settings(Cooperative, |c| {
                c.leave_on_close = false;
                c.commit = CommitPolicy::AfterBatch;
            }),
            // a gap long enough that no member closes while its JoinGroup is parked: then
            // Kafka's random choice of leader could pick a dead member (see ASSUMPTIONS)
            story(RollingRestart, |s| s.gap_ms = 60_000),
        ),
        (
            "dynamic-crash",
            group(4, 8),
            settings(Eager, |c| c.session_timeout_ms = 10_000),
            Story::new(Crash),
        ),
        (
            "eager-scale-out",
            group(3, 6),
            settings(Eager, |_| {}),
            story(ScaleOut, |s| s.count = 2),
        ),
        (
            "cooperative-scale-out",
            group(3, 6),
            settings(Cooperative, |_| {}),
            Story::new(ScaleOut),
        ),
        (
            "eager-scale-in",
            group(4, 8),
            settings(Eager, |_| {}),
            story(ScaleIn, |s| s.count = 2),
        ),
        (
            "slow-poll",
            group(3, 6),
            settings(Eager, |c| c.max_poll_interval_ms = 20_000),
            story(SlowPoll, |s| s.downtime_ms = 45_000),
        ),
        (
            "network-cut-past-session",
            group(3, 6),
            settings(Cooperative, |c| c.session_timeout_ms = 10_000),
            story(NetworkCut, |s| s.downtime_ms = 30_000),
        ),
        (
            "network-cut-within-session",
            group(3, 6),
            settings(Eager, |_| {}),
            story(NetworkCut, |s| s.downtime_ms = 20_000),
        ),
        (
            "two-at-once-short-rebalance-timeout",
            group(5, 10),
            settings(Eager, |c| {
                c.max_poll_interval_ms = 8_000;
                c.session_timeout_ms = 6_000;
                c.heartbeat_interval_ms = 2_000;
            }),
            story(RollingRestart, |s| {
                s.count = 2;
                s.downtime_ms = 5_000;
                s.gap_ms = 1_000;
            }),
        ),
        (
            // mid-upgrade: cooperative-sticky wins the vote, one member still rebalances
            // eagerly
            "listed-mid-upgrade",
            listed(
                group(3, 6),
                &[
                    &["cooperative-sticky"],
                    &["cooperative-sticky", "range"],
                    &["range", "cooperative-sticky"],
                ],
            ),
            settings(Listed, |_| {}),
            Story::new(RollingRestart),
        ),
        (
            // two votes each for range and roundrobin: the tie goes to the name Kafka's
            // HashMap iterates first; as members leave, the vote changes
            "listed-vote-tie",
            listed(
                group(4, 8),
                &[
                    &["roundrobin", "range"],
                    &["range", "roundrobin"],
                    &["roundrobin", "range"],
                    &["range", "roundrobin"],
                ],
            ),
            settings(Listed, |_| {}),
            story(ScaleIn, |s| s.count = 1),
        ),
        (
            // from round-robin: a first rolling restart adds cooperative-sticky to each list,
            // a second leaves it alone; the vote moves to it with the first member back
            "to-cooperative-from-roundrobin",
            Group {
                assignor: rebalance_lab_core::assignor::AssignorKind::RoundRobin,
                ..group(3, 6)
            },
            settings(Eager, |_| {}),
            Story::new(ToCooperative),
        ),
        (
            // a script: one member restarted with its own, shorter timeouts, then crashed
            // (its session expires after 10 s, the others' after 45 s); another restarted
            // while a rebalance waits
            "script-own-timeouts",
            group(3, 6),
            settings(Eager, |_| {}),
            Story {
                script: "0s restart c1 for 5s with session.timeout.ms=10000 max.poll.interval.ms=20000\n30s crash c1\n32s restart c2 for 3s".into(),
                ..Story::new(Script)
            },
        ),
        (
            // a joiner listing nothing the crashed member (still in the group until its
            // session times out) lists: refused with INCONSISTENT_GROUP_PROTOCOL
            "script-inconsistent-protocol",
            listed(group(2, 4), &[&["range"], &["range"]]),
            settings(Listed, |_| {}),
            Story {
                script: "0s crash c2\n1s restart c1 for 1s with partition.assignment.strategy=roundrobin".into(),
                ..Story::new(Script)
            },
        ),
    ]
}

/// `g` with each member listing its own `partition.assignment.strategy`.
fn listed(g: Group, lists: &[&[&str]]) -> Group {
    Group {
        strategies: lists
            .iter()
            .map(|l| l.iter().map(|n| n.to_string()).collect())
            .collect(),
        ..g
    }
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/timeline")
}

fn scenario_of(name: &str, g: &Group, s: &Settings, st: &Story) -> (Value, Vec<Line>) {
    let run = run_traced(g, s, st, true).expect("the case runs");
    let members: Vec<(String, Option<String>)> = run
        .members
        .iter()
        .map(|m| {
            (
                m.clone(),
                s.client.static_membership.then(|| format!("{m}-instance")),
            )
        })
        .collect();
    let description = format!(
        "{name}: {} under {}, written by the timeline's simulator (crates/core/tests/timeline_oracle.rs)",
        st.kind.label(),
        s.protocol.label()
    );
    let v = oracle_scenario(
        &description,
        &members,
        s.client.session_timeout_ms,
        s.client.max_poll_interval_ms,
        s.broker.initial_rebalance_delay_ms,
        &run.wire,
        run.end_ms,
    );
    (v, run.wire)
}

/// Writes the scripts for the oracle (run by tests/java/timeline-oracle.sh).
#[test]
#[ignore]
fn write_oracle_scripts() {
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
    leader: Option<String>,
    leader_members: Vec<String>,
}

fn response_key(client: &str, api: &str, v: &Value, exact_leader: bool) -> String {
    let mut key = format!("{client} {api} {}", v["error"].as_str().unwrap_or(""));
    if api == "JoinGroup" {
        key += &format!(
            " gen={} id={} protocol={}",
            v["generation_id"],
            v["member_id"].as_str().unwrap_or(""),
            // an error response's protocol: Kafka's default "" or null, alike to a client
            v["protocol_name"].as_str().unwrap_or("")
        );
        if exact_leader {
            key += &format!(
                " leader={} skip={}",
                v["leader"].as_str().unwrap_or(""),
                v["skip_assignment"]
            );
        }
    }
    if api == "SyncGroup" {
        key += &format!(" assignment={}", v["assignment"]);
    }
    key
}

/// When our coordinator first had to guess a leader Kafka picks at random: from that
/// instant on, leaders are compared as sets.
fn guessed_from(wire: &[Line]) -> Option<i64> {
    wire.iter().find_map(|l| match l {
        Line::Group { t, group } if !group.leader_candidates.is_empty() => Some(*t),
        _ => None,
    })
}

fn ours(wire: &[Line]) -> BTreeMap<i64, Instant> {
    let mut out: BTreeMap<i64, Instant> = BTreeMap::new();
    let guessed_from = guessed_from(wire);
    for line in wire {
        let exact_leader = guessed_from.is_none_or(|g| line.time() < g);
        let at = out.entry(line.time()).or_default();
        match line {
            Line::Request { .. } => {}
            Line::TimerFired { key, .. } => at.timers.push(key.clone()),
            Line::Response { response: r, .. } => {
                let v = serde_json::json!({
                    "error": r.error.name(),
                    "generation_id": r.generation,
                    "member_id": r.member_id,
                    "protocol_name": r.protocol,
                    "leader": r.leader,
                    "skip_assignment": r.skip_assignment,
                    "assignment": r.assignment.as_ref().map(|a| base64(a)),
                });
                at.responses
                    .push(response_key(&r.client, r.api.name(), &v, exact_leader));
                if r.api == Api::JoinGroup {
                    at.leader_members
                        .extend(r.members.iter().map(|m| m.0.clone()));
                }
            }
            Line::Group { group: g, .. } => {
                at.group = Some(format!(
                    "{} gen={} protocol={:?} members={:?}",
                    g.state.name(),
                    g.generation,
                    g.protocol,
                    g.members
                ));
                at.leader = exact_leader.then(|| g.leader.clone().unwrap_or_default());
            }
            _ => {}
        }
    }
    out
}

fn kafkas(text: &str, wire: &[Line]) -> BTreeMap<i64, Instant> {
    let guessed_from = guessed_from(wire);
    let mut out: BTreeMap<i64, Instant> = BTreeMap::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON line");
        let t = v["t"].as_i64().expect("t");
        let exact_leader = guessed_from.is_none_or(|g| t < g);
        match v["event"].as_str().unwrap_or("") {
            "timer_fired" => out
                .entry(t)
                .or_default()
                .timers
                .push(v["key"].as_str().unwrap().into()),
            "response" => {
                let api = v["api"].as_str().unwrap();
                let at = out.entry(t).or_default();
                at.responses.push(response_key(
                    v["client"].as_str().unwrap(),
                    api,
                    &v,
                    exact_leader,
                ));
                if api == "JoinGroup" {
                    for m in v["members"].as_array().unwrap() {
                        at.leader_members
                            .push(m["member_id"].as_str().unwrap().into());
                    }
                }
            }
            "group" => {
                let at = out.entry(t).or_default();
                let members: Vec<String> = v["members"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_string())
                    .collect();
                let protocol = v["protocol"].as_str().map(String::from);
                at.group = Some(format!(
                    "{} gen={} protocol={:?} members={:?}",
                    v["state"].as_str().unwrap(),
                    v["generation"],
                    protocol,
                    members
                ));
                at.leader = exact_leader.then(|| v["leader"].as_str().unwrap_or("").to_string());
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_coordinator_decides_as_kafka_does() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for (name, g, s, st) in cases() {
        let (script, wire) = scenario_of(name, &g, &s, &st);
        let out = match kafka_answer(
            &dir(),
            name,
            &script,
            "sh crates/core/tests/java/timeline-oracle.sh",
        ) {
            Ok(out) => out,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let mut kafka = kafkas(&out, &wire);
        let mut us = ours(&wire);
        let times = instants(&mut kafka, &mut us);
        for m in [&mut kafka, &mut us] {
            // the group as it stands at each instant (the oracle also prints a line when
            // only a member's flags changed)
            let (mut group, mut leader) = (None, None);
            for t in &times {
                let at = m.entry(*t).or_default();
                at.responses.sort();
                at.timers.sort();
                at.leader_members.sort();
                if at.group.is_some() {
                    group = at.group.clone();
                    leader = at.leader.clone();
                }
                at.group = group.clone();
                at.leader = leader.clone();
            }
        }
        compared += times.len();
        failures.extend(first_difference(name, &kafka, &us));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 100, "only {compared} instants compared");
}
