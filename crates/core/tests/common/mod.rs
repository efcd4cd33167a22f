//! What the vector tests share: loading a file of crates/core/tests/vectors, reading
//! `expected` and `alternatives` as sets, and checking one sticky or KIP-848 case against our
//! library (crates/cli/tests/vectors.rs and kip848.rs, crates/core/tests/oracle.rs).

// Each test crate uses its own part of this module.
#![allow(dead_code)]

use rebalance_lab_core::assignor::{self, AssignorKind};
use rebalance_lab_core::scenario::Scenario;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The entries of `tests/vectors/<name>` (`name` may hold a directory, `oracle/sticky.json`).
pub fn load(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/../core/tests/vectors/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// {member: {topic: partitions}} (a partition Java gives may not exist: past its topic's
/// end, or negative).
pub type Map = BTreeMap<String, BTreeMap<String, Vec<i32>>>;

/// {member: {topic: set of partitions}}, topics with no partition left out.
pub type SetMap = BTreeMap<String, BTreeMap<String, BTreeSet<i32>>>;

/// An assignment map as sets.
pub fn map_as_sets(m: &Map) -> SetMap {
    m.iter()
        .map(|(member, topics)| {
            let topics = topics
                .iter()
                .filter(|(_, ps)| !ps.is_empty())
                .map(|(t, ps)| (t.clone(), ps.iter().copied().collect()))
                .collect();
            (member.clone(), topics)
        })
        .collect()
}

/// A JSON assignment map as sets.
pub fn as_sets(v: &Value) -> SetMap {
    map_as_sets(&serde_json::from_value(v.clone()).unwrap())
}

/// `expected` and every entry of `alternatives`, as sets.
pub fn accepted(v: &Value) -> Vec<SetMap> {
    let mut out = vec![as_sets(&v["expected"])];
    if let Some(alts) = v["alternatives"].as_array() {
        out.extend(alts.iter().map(as_sets));
    }
    out
}

/// Java throws for this entry instead of assigning.
pub fn throws(v: &Value) -> bool {
    v.get("java_exception").is_some_and(|e| !e.is_null()) || v["expected"].is_null()
}

/// What our library made of a case that matched Java.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Both assigned, alike.
    Answered,
    /// Both refused, with the same exception class.
    Thrown,
    /// Java's answer gives a partition to two members (from a target assignment that
    /// already did); we refuse it, as not an assignment.
    Twice,
}

/// Some partition of this answer map goes to two members.
pub fn gives_a_partition_twice(expected: &Value) -> bool {
    let Some(members) = expected.as_object() else {
        return false;
    };
    let mut seen = BTreeSet::new();
    members
        .values()
        .filter_map(Value::as_object)
        .flat_map(|topics| topics.iter())
        .flat_map(|(t, ps)| {
            ps.as_array()
                .into_iter()
                .flatten()
                .map(move |p| (t, p.as_u64()))
        })
        .any(|tp| !seen.insert(tp))
}

/// One sticky or cooperative-sticky entry through [`Scenario::try_assign`]: the same answer
/// as Java (as sets, `expected` or an alternative), or the same exception class.
pub fn check_sticky_case(v: &Value, kind: AssignorKind) -> Result<Outcome, String> {
    let name = v["name"].as_str().unwrap_or("?");
    let scenario = Scenario::from_json(&v.to_string()).map_err(|e| format!("{name}: {e}"))?;
    if scenario.assignor != kind {
        return Err(format!("{name}: assignor {:?}", scenario.assignor));
    }
    match scenario.try_assign(kind) {
        Err(e) => {
            if !throws(v) {
                return Err(format!(
                    "{name}: we throw {e}, Java answers {}",
                    v["expected"]
                ));
            }
            let want = v["java_exception"].as_str().unwrap_or_default();
            if !e
                .java_exception
                .starts_with(want.split(':').next().unwrap())
            {
                return Err(format!("{name}: we throw {e}, Java {want}"));
            }
            Ok(Outcome::Thrown)
        }
        Ok((input, result)) => {
            if throws(v) {
                return Err(format!(
                    "{name}: Java throws {}, we answer {:?}",
                    v["java_exception"],
                    map_as_sets(&result.to_map(&input))
                ));
            }
            let got = map_as_sets(&result.to_map(&input));
            let accepted = accepted(v);
            if !accepted.contains(&got) {
                return Err(format!("{name}: got {got:?}, expected {:?}", accepted[0]));
            }
            if v.get("quirk").is_some_and(|q| !q.is_null())
                && accepted[0] == got
                && result.notes.is_empty()
            {
                // our answer is Java's, quirk included, and says so
                return Err(format!("{name}: quirk without a note"));
            }
            Ok(Outcome::Answered)
        }
    }
}

/// `uniform` or `server-range` by the file's name.
pub fn kip848_kind(file: &str) -> AssignorKind {
    if file.contains("uniform") {
        AssignorKind::Uniform
    } else {
        AssignorKind::ServerRange
    }
}

/// A KIP-848 entry as a scenario for `kind` (the files may say "range" for the broker's).
pub fn kip848_scenario(kind: AssignorKind, v: &Value) -> Scenario {
    let mut v = v.clone();
    v["assignor"] = Value::from(kind.name());
    Scenario::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{}: {e}", v["name"]))
}

/// One KIP-848 entry through [`assignor::try_assign`]: the same answer as Java (as sets,
/// `expected` or an alternative), or an error where Java throws.
pub fn check_kip848_case(v: &Value, kind: AssignorKind) -> Result<Outcome, String> {
    let name = v["name"].as_str().unwrap_or("?");
    let input = kip848_scenario(kind, v).group_input();
    match assignor::try_assign(kind, &input) {
        Err(_) if throws(v) => Ok(Outcome::Thrown),
        Err(_) if gives_a_partition_twice(&v["expected"]) => Ok(Outcome::Twice),
        Err(e) => Err(format!(
            "{name}: we refuse ({e}), Java answers {}",
            v["expected"]
        )),
        Ok(result) => {
            let got = map_as_sets(&result.to_map(&input));
            if throws(v) {
                return Err(format!(
                    "{name}: Java throws {}, we answer {got:?}",
                    v["java_exception"]
                ));
            }
            let accepted = accepted(v);
            if !accepted.contains(&got) {
                return Err(format!("{name}: got {got:?}, expected {:?}", accepted[0]));
            }
            Ok(Outcome::Answered)
        }
    }
}

/// The recorded `java_member_order` (the members `HashMap`'s order) against ours; `None`
/// when the entry records none.
pub fn check_member_order(v: &Value, kind: AssignorKind) -> Option<Result<(), String>> {
    let recorded = v["java_member_order"].as_array()?;
    let input = kip848_scenario(kind, v).group_input();
    let order: Vec<&str> = assignor::coordinator::member_order(&input.members)
        .iter()
        .map(|i| input.members[*i as usize].id.as_str())
        .collect();
    let recorded: Vec<&str> = recorded.iter().map(|x| x.as_str().unwrap()).collect();
    Some(if order == recorded {
        Ok(())
    } else {
        Err(format!(
            "{}: member order {order:?}, Java {recorded:?}",
            v["name"]
        ))
    })
}

/// The recorded `java_topic_order` (homogeneous uniform: `new HashSet<>(TopicIds)` of the
/// first member in members-map order, itself over `new HashSet<>(names)`) against ours;
/// `None` when the entry records none.
pub fn check_topic_order(v: &Value) -> Option<Result<(), String>> {
    let recorded = v["java_topic_order"].as_array()?;
    let input = kip848_scenario(AssignorKind::Uniform, v).group_input();
    let order = match assignor::coordinator::uniform_topic_order(&input) {
        Ok(order) => order,
        Err(e) => return Some(Err(format!("{}: topic order: {e}", v["name"]))),
    };
    let recorded: Vec<&str> = recorded.iter().map(|x| x.as_str().unwrap()).collect();
    Some(if order == recorded {
        Ok(())
    } else {
        Err(format!(
            "{}: topic order {order:?}, Java {recorded:?}",
            v["name"]
        ))
    })
}

/// The recorded `subscription_type` against the one we feed.
pub fn check_subscription_type(v: &Value, kind: AssignorKind) -> Result<(), String> {
    let input = kip848_scenario(kind, v).group_input();
    let fed = assignor::coordinator::subscription_type(&input);
    if fed == v["subscription_type"].as_str().unwrap_or_default() {
        Ok(())
    } else {
        Err(format!(
            "{}: subscription type {fed}, Java {}",
            v["name"], v["subscription_type"]
        ))
    }
}
