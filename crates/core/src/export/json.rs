//! A scenario as JSON in the tool's shape (what `rebalance-lab import` prints and `assign`
//! reads): `topics`, `members` (each `id`, `instance_id`, `client_id`, `topics`, `owned`),
//! then `group_id`, `assignor` and `lag` when known.

use crate::assignor::AssignorKind;
use crate::import::{Import, Lag};
use crate::scenario::{Scenario, Topic};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::collections::BTreeMap;

/// Topics as {name: count}, in the scenario's order.
struct Topics<'a>(&'a [Topic]);

impl Serialize for Topics<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for t in self.0 {
            m.serialize_entry(&t.name, &t.partitions)?;
        }
        m.end()
    }
}

#[derive(Serialize)]
struct MemberOut<'a> {
    id: &'a str,
    instance_id: &'a Option<String>,
    client_id: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rack: &'a Option<String>,
    topics: &'a [String],
    owned: &'a BTreeMap<String, Vec<i32>>,
}

#[derive(Serialize)]
struct Out<'a> {
    topics: Topics<'a>,
    members: Vec<MemberOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    group_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assignor: Option<AssignorKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lag: Option<&'a Lag>,
    /// Topic ids typed for the broker's assignors (they order topics by id).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    topic_ids: BTreeMap<String, String>,
}

/// The scenario JSON, pretty-printed, topics and members in the scenario's order, with the
/// group id, the assignor (when named: else none, and `assign` runs range) and the lag per
/// partition (`null` where unknown).
pub fn scenario_json(
    scenario: &Scenario,
    group_id: Option<&str>,
    assignor: Option<AssignorKind>,
    lag: Option<&Lag>,
) -> String {
    let out = Out {
        topics: Topics(&scenario.topics),
        members: scenario
            .members
            .iter()
            .map(|m| MemberOut {
                id: &m.id,
                instance_id: &m.instance_id,
                client_id: &m.client_id,
                rack: &m.rack,
                topics: &m.topics,
                owned: &m.owned,
            })
            .collect(),
        group_id,
        assignor,
        lag,
        // (in Kafka's canonical form, as the page shows them)
        topic_ids: scenario
            .topic_ids
            .iter()
            .map(|(name, id)| (name.clone(), crate::scenario::canonical_topic_id(id)))
            .collect(),
    };
    serde_json::to_string_pretty(&out).unwrap_or_default()
}

/// [`scenario_json`] of an import.
pub fn import_json(i: &Import) -> String {
    scenario_json(&i.scenario, i.group_id.as_deref(), i.assignor, Some(&i.lag))
}
