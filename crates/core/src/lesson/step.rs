//! A lesson step as the answers read it: its groups and who owns what under a rule.

use super::Step;
use crate::assignor::{Assignment, GroupInput};
use crate::protocol::{decode_subscription, FieldValue};
use crate::scenario::whatif::Baseline;
use crate::scenario::Scenario;

/// Who owns which partition, as some rule says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Owners {
    /// Member ids the result lists, in the group's order (every member, for the real
    /// assignors).
    pub members: Vec<String>,
    /// Per topic with partitions, in the result's order: per partition, its owner's id.
    pub topics: Vec<(String, Vec<Option<String>>)>,
}

impl Owners {
    /// The owners in an assignor's result (topics without partitions left out).
    pub fn of_assignment(input: &GroupInput, a: &Assignment) -> Owners {
        // The what-if's pinned form, with owner indices turned into ids.
        let b = Baseline::pin(input, a);
        Owners {
            topics: b
                .topics
                .iter()
                .map(|(t, owners)| {
                    let ids = owners
                        .iter()
                        .map(|o| o.map(|i| b.members[i as usize].clone()))
                        .collect();
                    (t.clone(), ids)
                })
                .collect(),
            members: b.members,
        }
    }

    /// The cells `member` owns, topic by topic in the result's order.
    pub fn cells_of(&self, member: &str) -> Vec<(String, u32)> {
        let mut out = Vec::new();
        for (t, owners) in &self.topics {
            for (p, o) in owners.iter().enumerate() {
                if o.as_deref() == Some(member) {
                    out.push((t.clone(), p as u32));
                }
            }
        }
        out
    }

    /// How many partitions `member` gets; `None` when the result does not list it.
    pub fn count_of(&self, member: &str) -> Option<u32> {
        if !self.members.iter().any(|m| m == member) {
            return None;
        }
        Some(self.cells_of(member).len() as u32)
    }

    /// The owner of a partition (`None` when nobody owns it or it does not exist).
    pub fn owner(&self, topic: &str, partition: u32) -> Option<&str> {
        let (_, owners) = self.topics.iter().find(|(t, _)| t == topic)?;
        owners.get(partition as usize)?.as_deref()
    }

    /// Listed members that get nothing.
    pub fn idle(&self) -> Vec<&str> {
        self.members
            .iter()
            .filter(|m| self.count_of(m) == Some(0))
            .map(String::as_str)
            .collect()
    }

    /// Partitions owned in both `before` and `self` whose owner changed.
    pub fn moved_since(&self, before: &Owners) -> u32 {
        let mut moved = 0;
        for (t, owners) in &self.topics {
            for (p, o) in owners.iter().enumerate() {
                if let (Some(now), Some(then)) = (o, before.owner(t, p as u32)) {
                    if now != then {
                        moved += 1;
                    }
                }
            }
        }
        moved
    }
}

/// A step read and validated: its groups parsed, the real assignment computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedStep {
    /// The step's data.
    pub step: Step,
    /// Its group (after the change, for a what-if).
    pub scenario: Scenario,
    /// A what-if's group before the change.
    pub before: Option<Scenario>,
    /// What the assignor sees of [`LoadedStep::scenario`].
    pub input: GroupInput,
    /// The real assignor's result for [`LoadedStep::scenario`].
    pub owners: Owners,
    /// The real assignor's result for [`LoadedStep::before`].
    pub before_owners: Option<Owners>,
    /// The timeline the step's link carries (its story and settings), for a step that asks
    /// about the group over time.
    pub timeline: Option<crate::timeline::spec::Spec>,
}

impl LoadedStep {
    /// A member's raw subscription bytes.
    pub fn bytes_of(&self, member: &str) -> Option<&[u8]> {
        self.scenario
            .members
            .iter()
            .find(|m| m.id == member)?
            .subscription
            .as_deref()
    }
}

/// A decoded field as it reads in a choice: numbers in decimal (an array's element count),
/// text as it is, `null`, `N bytes`.
pub(super) fn field_value(bytes: &[u8], path: &str) -> Option<String> {
    let d = decode_subscription(bytes);
    let f = d.fields.iter().find(|f| f.path.to_string() == path)?;
    Some(match &f.value {
        FieldValue::Int(v) => v.to_string(),
        FieldValue::Text(t) => t.clone(),
        FieldValue::Bytes(n) => format!("{n} bytes"),
        FieldValue::Null => "null".to_string(),
        FieldValue::Array(n) => n.to_string(),
        FieldValue::Struct => "struct".to_string(),
    })
}
