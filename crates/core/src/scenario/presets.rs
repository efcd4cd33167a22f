//! One-click teaching scenarios.

use super::{Member, Scenario, Topic};
use crate::assignor::AssignorKind;

/// A named preset.
pub struct Preset {
    /// Stable key (used by tests and the UI).
    pub key: &'static str,
    /// Button label.
    pub label: &'static str,
    /// What it shows.
    pub lesson: &'static str,
    /// Builds the scenario.
    pub build: fn() -> Scenario,
}

fn topics(list: &[(&str, u32)]) -> Vec<Topic> {
    list.iter()
        .map(|(n, p)| Topic {
            name: n.to_string(),
            partitions: *p,
        })
        .collect()
}

/// All presets, in the order the UI shows them.
pub const PRESETS: &[Preset] = &[
    Preset {
        key: "seven-three",
        label: "7 partitions / 3 members",
        lesson: "7 div 3 = 2, 7 mod 3 = 1: the first member gets one more.",
        build: || Scenario {
            topics: topics(&[("orders", 7)]),
            members: ["consumer-a", "consumer-b", "consumer-c"]
                .iter()
                .map(|id| Member::new(id, &["orders"]))
                .collect(),
            ..Default::default()
        },
    },
    Preset {
        key: "three-topics",
        label: "3 topics × 3 partitions / 2 members",
        lesson: "Range works per topic, so the first member gets the extra partition of every topic: 6 against 3.",
        build: || Scenario {
            topics: topics(&[("t0", 3), ("t1", 3), ("t2", 3)]),
            members: ["C0", "C1"]
                .iter()
                .map(|id| Member::new(id, &["t0", "t1", "t2"]))
                .collect(),
            ..Default::default()
        },
    },
    Preset {
        key: "round-robin",
        label: "Round-robin: C0, C1 and t0, t1 × 3",
        lesson: "Round-robin deals all partitions in a circle: C0 gets t0p0, t0p2, t1p1; C1 gets t0p1, t1p0, t1p2.",
        build: || Scenario {
            topics: topics(&[("t0", 3), ("t1", 3)]),
            members: ["C0", "C1"]
                .iter()
                .map(|id| Member::new(id, &["t0", "t1"]))
                .collect(),
            assignor: AssignorKind::RoundRobin,
            ..Default::default()
        },
    },
    Preset {
        key: "string-order",
        label: "consumer-10 vs consumer-2",
        lesson: "Member ids sort as strings: consumer-10 comes before consumer-2.",
        build: || Scenario {
            topics: topics(&[("events", 5)]),
            members: ["consumer-2", "consumer-10", "consumer-1"]
                .iter()
                .map(|id| Member::new(id, &["events"]))
                .collect(),
            ..Default::default()
        },
    },
    Preset {
        key: "idle",
        label: "More members than partitions",
        lesson: "With 2 partitions and 4 members, two members sit idle but stay in the group.",
        build: || Scenario {
            topics: topics(&[("payments", 2)]),
            members: ["m1", "m2", "m3", "m4"]
                .iter()
                .map(|id| Member::new(id, &["payments"]))
                .collect(),
            ..Default::default()
        },
    },
    Preset {
        key: "static",
        label: "Static members",
        lesson: "Members with a group.instance.id come first, ordered by instance id, whatever their member ids.",
        build: || {
            let mut a = Member::new("consumer-a-7f3e", &["clicks"]);
            let mut b = Member::new("consumer-b-1c9d", &["clicks"]);
            a.instance_id = Some("worker-2".into());
            b.instance_id = Some("worker-1".into());
            Scenario {
                topics: topics(&[("clicks", 8)]),
                members: vec![Member::new("consumer-0-aa11", &["clicks"]), a, b],
                ..Default::default()
            }
        },
    },
];

/// A preset by key.
pub fn preset(key: &str) -> Option<Scenario> {
    PRESETS.iter().find(|p| p.key == key).map(|p| (p.build)())
}
