//! Rolling restarts and the story that steps through joins, leaves and restarts.

use super::baseline::Baseline;
use super::changes::compare_assignors;
use super::diff::diff;
use crate::assignor::{AssignorKind, UNASSIGNED};
use crate::scenario::member_id::{client_id_of, coordinator_member_id, display_id};
use crate::scenario::{Member, Scenario, Topic};

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
    /// What happened and why, in one sentence, with the numbers computed from the step.
    pub sentence: String,
    /// The group at this step.
    pub scenario: Scenario,
    /// The baseline to compare with (the previous step's assignment), members renamed.
    pub baseline: Option<Baseline>,
    /// The previous step's group: what every assignor's before is computed from.
    pub previous: Option<Scenario>,
    /// Members that came back under a new id since `previous` (old id, new id).
    pub renames: Vec<(String, String)>,
    /// The group's joins and leaves up to this step, when it matters who left (who leads
    /// next); empty: the members joined in list order.
    pub group_log: Vec<crate::group::GroupEvent>,
}

/// "first", "second", ... for small positions (1-based).
pub fn ordinal(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    match WORDS.get(n.wrapping_sub(1)) {
        Some(w) => w.to_string(),
        None => format!("{n}th"),
    }
}

/// A member's 1-based position in range's order of a scenario.
pub(super) fn range_position(s: &Scenario, id: &str) -> usize {
    let input = s.group_input();
    let a = crate::assignor::range(&input);
    a.order
        .iter()
        .position(|m| input.members[*m as usize].id == id)
        .map_or(0, |p| p + 1)
}

/// Partitions whose owner changed between two members that are in both groups.
pub(super) fn moved_between_stayers(base: &Baseline, now: &Scenario) -> u32 {
    let input = now.group_input();
    let a = crate::assignor::range(&input);
    let mut n = 0;
    for t in &a.topics {
        for (p, o) in t.owners.iter().enumerate() {
            if *o == UNASSIGNED {
                continue;
            }
            let new = &input.members[*o as usize].id;
            if let Some(old) = base.owner(&t.topic, p) {
                if old != new && input.members.iter().any(|m| m.id == old) {
                    n += 1;
                }
            }
        }
    }
    n
}

pub(super) fn moved_under_range(base: &Baseline, now: &Scenario) -> u32 {
    let input = now.group_input();
    let a = crate::assignor::range(&input);
    diff(base, &input, &a).moved
}

/// The baseline of `s`, its members then renamed (a restart: the same processes, new ids).
pub fn renamed_baseline(s: &Scenario, renames: &[(String, String)]) -> Baseline {
    let mut b = Baseline::of(s);
    for (o, n) in renames {
        b.rename(o, n);
    }
    b
}

pub(super) fn group(ids: &[String], static_ids: bool) -> Scenario {
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
                topics: vec!["orders".into(), "payments".into()].into(),
                ..Default::default()
            })
            .collect(),
        assignor: AssignorKind::Range,
        ..Default::default()
    }
}

/// How many steps [`story`] has (without computing them: each runs assignments).
pub const STORY_STEPS: usize = 8;

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
    let restart_renames = rolling_restart(&mut restart, 1_000);
    let restart_base = renamed_baseline(&leave, &restart_renames);
    let mut statics = leave.clone();
    for (i, m) in statics.members.iter_mut().enumerate() {
        m.instance_id = Some(format!("orders-app-{}", i + 1));
    }
    let mut static_restart = statics.clone();
    let static_renames = rolling_restart(&mut static_restart, 1_000);
    let static_base = renamed_baseline(&statics, &static_renames);
    let (join_base, leave_base) = (Baseline::of(&start), Baseline::of(&join));
    let joiner = &ids[3];
    let leaver = &ids[1];
    let total: u32 = start.topics.iter().map(|t| t.partitions).sum();
    let join_moved = moved_under_range(&join_base, &join);
    let leave_moved = moved_under_range(&leave_base, &leave);
    let restart_moved = moved_under_range(&restart_base, &restart);
    let static_moved = moved_under_range(&static_base, &static_restart);
    let mut steps = vec![
        Step {
            title: "Start",
            sentence: "Three dynamic members share orders (6 partitions) and payments (4); their member ids are the coordinator's client.id-UUID, so range orders them by UUID.".to_string(),
            baseline: None,
            scenario: start.clone(),
            previous: None,
            renames: Vec::new(),
            group_log: Vec::new(),
        },
        Step {
            title: "A member joins",
            sentence: format!(
                "A fourth member joins ({}, {} in range's order): range recomputes every topic over four subscribers, so {join_moved} of {total} partitions move, {} of them between members that stayed.",
                display_id(joiner),
                ordinal(range_position(&join, joiner)),
                moved_between_stayers(&join_base, &join)
            ),
            baseline: Some(join_base),
            scenario: join.clone(),
            previous: Some(start.clone()),
            renames: Vec::new(),
            group_log: Vec::new(),
        },
        Step {
            title: "A member leaves",
            sentence: format!(
                "The {} member in range's order ({}) leaves: the members after it shift up, and {leave_moved} of {total} partitions change hands, {} of them between members that stayed.",
                ordinal(range_position(&join, leaver)),
                display_id(leaver),
                moved_between_stayers(&leave_base, &leave)
            ),
            baseline: Some(leave_base),
            scenario: leave.clone(),
            previous: Some(join.clone()),
            renames: Vec::new(),
            group_log: Vec::new(),
        },
        Step {
            title: "Rolling restart, dynamic members",
            sentence: format!(
                "Every member restarts and rejoins with a new member id (client.id plus a fresh UUID): the UUIDs decide the order, so {restart_moved} of {total} partitions move although nothing else changed. Each process is shown under its new id."
            ),
            baseline: Some(restart_base),
            scenario: restart,
            previous: Some(leave.clone()),
            renames: restart_renames,
            group_log: Vec::new(),
        },
        Step {
            title: "The same group with static members",
            sentence: "The same three processes now set group.instance.id (orders-app-1 to 3): static members come first, ordered by instance id.".to_string(),
            baseline: None,
            scenario: statics.clone(),
            previous: None,
            renames: Vec::new(),
            group_log: Vec::new(),
        },
        Step {
            title: "Rolling restart, static members",
            sentence: format!(
                "Every member restarts and gets a new member id again, but range orders static members by group.instance.id, which did not change: {}.",
                if static_moved == 0 { "nothing moves".to_string() } else { format!("{static_moved} partitions move") }
            ),
            baseline: Some(static_base),
            scenario: static_restart,
            previous: Some(statics),
            renames: static_renames,
            group_log: Vec::new(),
        },
    ];
    steps.push(scale_out_step(&start, &join, join_moved, total));
    steps.push(leader_leaves_step(&ids, &leave, leaver, total));
    steps
}

/// Scale out by one under cooperative-sticky: the same join as the story's second step,
/// range beside cooperative-sticky.
fn scale_out_step(start: &Scenario, join: &Scenario, join_moved: u32, total: u32) -> Step {
    let coop_join = Scenario {
        assignor: AssignorKind::CooperativeSticky,
        ..join.clone()
    };
    let coop_start = Scenario {
        assignor: AssignorKind::CooperativeSticky,
        ..start.clone()
    };
    let versus = compare_assignors(
        start,
        &[],
        join,
        &[AssignorKind::Range, AssignorKind::CooperativeSticky],
    );
    Step {
        title: "Scale out by one: range vs cooperative-sticky",
        sentence: format!(
            "The same fourth member joins a group that runs cooperative-sticky (Java's second default): range moves {join_moved} of {total} partitions and every member stops consuming all {} it owns until the new assignment arrives; cooperative-sticky moves {} and pauses only those, over {} rebalances, while the rest keep flowing.",
            versus[0].paused,
            versus[1].moved,
            versus[1].rebalances
        ),
        baseline: Some(Baseline::of(&coop_start)),
        scenario: coop_join,
        previous: Some(coop_start),
        renames: Vec::new(),
        group_log: Vec::new(),
    }
}

/// The leader leaves: members join in list order, the second leaves (the story's third
/// step), then the first, who led; the coordinator's members HashMap decides who leads next.
fn leader_leaves_step(ids: &[String], leave: &Scenario, leaver: &str, total: u32) -> Step {
    use crate::group::GroupEvent;
    let mut log: Vec<GroupEvent> = ids.iter().map(|id| GroupEvent::Join(id.clone())).collect();
    log.push(GroupEvent::Leave(leaver.to_string()));
    let leader = ids[0].clone();
    log.push(GroupEvent::Leave(leader.clone()));
    let history = crate::group::run_events_briefly(&log);
    let next = history.leader.clone().unwrap_or_default();
    let mut headless = leave.clone();
    headless.members.retain(|m| m.id != leader);
    let headless_base = Baseline::of(leave);
    let second = &headless.members[0].id;
    Step {
        title: "The leader leaves",
        sentence: format!(
            "The {} member in range's order ({}) leaves, and it led the group (the first to join): the coordinator makes the first key of its members HashMap the leader, {}{}; range moves {} of {total} partitions.",
            ordinal(range_position(leave, &leader)),
            display_id(&leader),
            display_id(&next),
            if &next == second {
                " (here also the next to have joined; the map's order, not chance)".to_string()
            } else {
                format!(
                    " (not {}, who joined next: the map's order, not chance)",
                    display_id(second)
                )
            },
            moved_under_range(&headless_base, &headless)
        ),
        baseline: Some(headless_base),
        scenario: headless,
        previous: Some(leave.clone()),
        renames: Vec::new(),
        group_log: log,
    }
}
