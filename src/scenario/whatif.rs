//! What-if: pin an assignment as the baseline, change the group, and see exactly what moved;
//! plus stories that step through the changes people ask about.

use super::member_id::{client_id_of, coordinator_member_id};
use super::{Member, Scenario, Topic};
use crate::assignor::{Assignment, AssignorKind, GroupInput, UNASSIGNED};
use crate::collections::VecMap;

/// A pinned assignment: the owner (member id) of every partition.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Baseline {
    /// Member ids, in the order they were listed when pinned (every member, idle ones too).
    pub members: Vec<String>,
    /// Per topic, per partition, the owner's index in `members`.
    pub topics: Vec<(String, Vec<Option<u32>>)>,
}

impl Baseline {
    /// Freezes an assignment.
    pub fn pin(input: &GroupInput, a: &Assignment) -> Baseline {
        Baseline {
            members: input.members.iter().map(|m| m.id.clone()).collect(),
            topics: a
                .topics
                .iter()
                .filter(|t| t.partitions > 0)
                .map(|t| {
                    let owners = t
                        .owners
                        .iter()
                        .map(|o| (*o != UNASSIGNED).then_some(*o))
                        .collect();
                    (t.topic.clone(), owners)
                })
                .collect(),
        }
    }

    /// Freezes a scenario's assignment under its own assignor (empty for the assignors
    /// this version does not run).
    pub fn of(s: &Scenario) -> Baseline {
        let input = s.group_input();
        match crate::assignor::assign(s.assignor, &input) {
            Some(a) => Baseline::pin(&input, &a),
            None => Baseline::default(),
        }
    }

    /// The baseline owner of a partition.
    pub fn owner(&self, topic: &str, partition: usize) -> Option<&str> {
        let (_, owners) = self.topics.iter().find(|(t, _)| t == topic)?;
        let o = (*owners.get(partition)?)?;
        self.members.get(o as usize).map(String::as_str)
    }

    /// A member came back under a new member id (a restart): its partitions in the baseline
    /// now count as the new id's, so only real moves show.
    pub fn rename(&mut self, old: &str, new: &str) {
        for m in &mut self.members {
            if m == old {
                *m = new.to_string();
            }
        }
    }
}

/// What changed between the baseline and now.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Diff {
    /// Partitions owned in both whose owner changed.
    pub moved: u32,
    /// Partitions owned now that nobody owned in the baseline (new partitions or topics).
    pub newly_assigned: u32,
    /// Partitions owned in the baseline that nobody owns now.
    pub unassigned: u32,
    /// Per topic of the current assignment (same order), per partition: did its owner change?
    pub moved_cells: Vec<Vec<bool>>,
    /// Per member id: (partitions gained, partitions lost), only members with a change.
    pub changes: VecMap<String, (u32, u32)>,
    /// Members that had partitions and now have none.
    pub became_idle: Vec<String>,
    /// Members that had none (or were not there) and now have some.
    pub became_busy: Vec<String>,
    /// Members present now but not in the baseline.
    pub joined: Vec<String>,
    /// Members of the baseline that are gone.
    pub left: Vec<String>,
}

/// Compares the current assignment with a baseline.
pub fn diff(baseline: &Baseline, input: &GroupInput, current: &Assignment) -> Diff {
    let mut d = Diff::default();
    let id = |o: u32| input.members[o as usize].id.as_str();
    // Counted by member index: gained by a current member, lost by a baseline member.
    let mut gained = vec![0u32; input.members.len()];
    let mut lost = vec![0u32; baseline.members.len()];
    let mut before_total = vec![0u32; baseline.members.len()];
    for (_, owners) in &baseline.topics {
        for o in owners.iter().flatten() {
            if let Some(n) = before_total.get_mut(*o as usize) {
                *n += 1;
            }
        }
    }
    let before_of = |o: Option<u32>| {
        let o = o? as usize;
        Some((o, baseline.members.get(o)?.as_str()))
    };
    for t in &current.topics {
        let before: &[Option<u32>] = baseline
            .topics
            .iter()
            .find(|(name, _)| *name == t.topic)
            .map_or(&[], |(_, owners)| owners);
        let mut cells = vec![false; t.owners.len()];
        for (p, o) in t.owners.iter().enumerate() {
            let now = (*o != UNASSIGNED).then_some(*o);
            let was = before_of(before.get(p).copied().flatten());
            match (was, now) {
                (Some((b, bid)), Some(n)) if bid != id(n) => {
                    d.moved += 1;
                    cells[p] = true;
                    gained[n as usize] += 1;
                    lost[b] += 1;
                }
                (None, Some(n)) => {
                    d.newly_assigned += 1;
                    gained[n as usize] += 1;
                }
                (Some((b, _)), None) => {
                    d.unassigned += 1;
                    lost[b] += 1;
                }
                _ => {}
            }
        }
        d.moved_cells.push(cells);
    }
    // Baseline partitions of topics or partitions that are gone entirely.
    for (topic, owners) in &baseline.topics {
        let now = current
            .topics
            .iter()
            .find(|t| &t.topic == topic)
            .map_or(0, |t| t.owners.len());
        for o in owners.iter().skip(now).flatten() {
            d.unassigned += 1;
            if let Some(n) = lost.get_mut(*o as usize) {
                *n += 1;
            }
        }
    }
    let mut changes: Vec<(String, (u32, u32))> = Vec::new();
    for (m, g) in input.members.iter().zip(&gained).filter(|(_, g)| **g > 0) {
        changes.push((m.id.clone(), (*g, 0)));
    }
    for (m, l) in baseline.members.iter().zip(&lost).filter(|(_, l)| **l > 0) {
        changes.push((m.clone(), (0, *l)));
    }
    d.changes = VecMap::from_vec_merging(changes, |a, b| {
        a.0 += b.0;
        a.1 += b.1;
    });
    // Every baseline member's total, by id (a rename can give two baseline entries one id).
    let before_by_id = ids_with(baseline.members.iter().map(String::as_str), before_total);
    for (i, m) in input.members.iter().enumerate() {
        let before = before_by_id.get(m.id.as_str()).copied();
        let now = current.totals[i];
        if before.unwrap_or(0) > 0 && now == 0 {
            d.became_idle.push(m.id.clone());
        }
        if before.unwrap_or(0) == 0 && now > 0 {
            d.became_busy.push(m.id.clone());
        }
        if before.is_none() {
            d.joined.push(m.id.clone());
        }
    }
    let current_ids = ids_with(input.members.iter().map(|m| m.id.as_str()), Vec::new());
    for m in &baseline.members {
        if !current_ids.contains_key(m.as_str()) {
            d.left.push(m.clone());
        }
    }
    d
}

/// Ids with a count each (0 past the end of `counts`), counts of a repeated id added up.
fn ids_with<'a>(ids: impl Iterator<Item = &'a str>, counts: Vec<u32>) -> VecMap<&'a str, u32> {
    let entries = ids
        .enumerate()
        .map(|(i, id)| (id, counts.get(i).copied().unwrap_or(0)))
        .collect();
    VecMap::from_vec_merging(entries, |a, b| *a += b)
}

/// Every dynamic member rejoins with a new member id, as after a rolling restart; static
/// members (group.instance.id) rejoin with a new member id too, but keep their instance id.
/// Returns the renames (old id, new id).
pub fn rolling_restart(s: &mut Scenario, seed: u64) -> Vec<(String, String)> {
    let mut renames = Vec::new();
    for (i, m) in s.members.iter_mut().enumerate() {
        let client_id = client_id_of(&m.id);
        let new = coordinator_member_id(client_id, seed.wrapping_add(i as u64 * 7919));
        renames.push((m.id.clone(), new.clone()));
        m.id = new;
    }
    renames
}

/// One step of a story.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Short title.
    pub title: &'static str,
    /// What happened and why, in one sentence.
    pub sentence: &'static str,
    /// The group at this step.
    pub scenario: Scenario,
    /// The baseline to compare with (the previous step's assignment), members renamed.
    pub baseline: Option<Baseline>,
}

fn group(ids: &[String], static_ids: bool) -> Scenario {
    Scenario {
        topics: vec![
            Topic {
                name: "orders".into(),
                partitions: 6,
            },
            Topic {
                name: "payments".into(),
                partitions: 4,
            },
        ],
        members: ids
            .iter()
            .enumerate()
            .map(|(i, id)| Member {
                id: id.clone(),
                instance_id: static_ids.then(|| format!("orders-app-{}", i + 1)),
                topics: vec!["orders".into(), "payments".into()],
                ..Default::default()
            })
            .collect(),
        assignor: AssignorKind::Range,
        ..Default::default()
    }
}

/// The story: a member joins, a member leaves, a rolling restart of dynamic members, and
/// the same restart with static members. Every member uses Java's default client.id
/// (`consumer-orders-1` in every JVM), so member ids differ only by the coordinator's UUID.
pub fn story() -> Vec<Step> {
    let client = "consumer-orders-1";
    let ids: Vec<String> = (0..4)
        .map(|i| coordinator_member_id(client, 11 + i))
        .collect();
    let start = group(&ids[..3], false);
    let join = group(&ids[..4], false);
    let mut leave = join.clone();
    leave.members.remove(1);
    let mut restart = leave.clone();
    let renames = rolling_restart(&mut restart, 1_000);
    let mut restart_base = Baseline::of(&leave);
    for (o, n) in &renames {
        restart_base.rename(o, n);
    }
    let mut statics = leave.clone();
    for (i, m) in statics.members.iter_mut().enumerate() {
        m.instance_id = Some(format!("orders-app-{}", i + 1));
    }
    let mut static_restart = statics.clone();
    let renames = rolling_restart(&mut static_restart, 1_000);
    let mut static_base = Baseline::of(&statics);
    for (o, n) in &renames {
        static_base.rename(o, n);
    }
    vec![
        Step {
            title: "Start",
            sentence: "Three dynamic members share orders (6 partitions) and payments (4); their member ids are the coordinator's client.id-UUID, so range orders them by UUID.",
            baseline: None,
            scenario: start.clone(),
        },
        Step {
            title: "A member joins",
            sentence: "A fourth member joins: range recomputes every topic over four subscribers, so partitions move even between members that stayed.",
            baseline: Some(Baseline::of(&start)),
            scenario: join.clone(),
        },
        Step {
            title: "A member leaves",
            sentence: "The second member in the order leaves: everyone after it shifts up one place, and its partitions and more change hands.",
            baseline: Some(Baseline::of(&join)),
            scenario: leave.clone(),
        },
        Step {
            title: "Rolling restart, dynamic members",
            sentence: "Every member restarts and rejoins with a new member id (client.id plus a fresh UUID): the UUIDs decide the order, so range can reshuffle much of the group although nothing else changed.",
            baseline: Some(restart_base),
            scenario: restart,
        },
        Step {
            title: "The same group with static members",
            sentence: "The same three processes now set group.instance.id (orders-app-1 to 3): static members come first, ordered by instance id.",
            baseline: None,
            scenario: statics,
        },
        Step {
            title: "Rolling restart, static members",
            sentence: "Every member restarts and gets a new member id again, but range orders static members by group.instance.id, which did not change: nothing moves.",
            baseline: Some(static_base),
            scenario: static_restart,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff_of(s: &Scenario, b: &Baseline) -> Diff {
        let input = s.group_input();
        let a = crate::assignor::range(&input);
        diff(b, &input, &a)
    }

    #[test]
    fn member_joins() {
        let s = super::super::presets::preset("seven-three").unwrap();
        let b = Baseline::of(&s);
        let mut t = s.clone();
        t.members.push(Member::new("consumer-0", &["orders"]));
        let d = diff_of(&t, &b);
        // consumer-0 sorts first. 7 over 3 (a 0-2, b 3-4, c 5-6) becomes 7 over 4
        // (consumer-0 0-1, a 2-3, b 4-5, c 6): partitions 0, 1, 3 and 5 move.
        assert_eq!(d.moved, 4);
        assert_eq!(d.joined, vec!["consumer-0".to_string()]);
        assert_eq!(d.became_busy, vec!["consumer-0".to_string()]);
        assert_eq!(d.changes["consumer-a"], (1, 2));
        assert_eq!(d.changes["consumer-0"], (2, 0));
        assert_eq!(
            d.moved_cells[0],
            vec![true, true, false, true, false, true, false]
        );
    }

    #[test]
    fn story_restarts() {
        let steps = story();
        let moved: Vec<u32> = steps
            .iter()
            .map(|s| {
                s.baseline
                    .as_ref()
                    .map_or(0, |b| diff_of(&s.scenario, b).moved)
            })
            .collect();
        assert!(
            moved[3] > 0,
            "a dynamic rolling restart reshuffles: {moved:?}"
        );
        assert_eq!(moved[5], 0, "a static rolling restart moves nothing");
        assert!(moved[1] > 0 && moved[2] > 0);
        assert_eq!(
            client_id_of(&steps[3].scenario.members[0].id),
            "consumer-orders-1"
        );
    }
}
