//! One change under each assignor: the previous assignment each sticky assignor reads, the page's bounds for them, and each assignor's before and after.

use super::baseline::Baseline;
use super::diff::diff;
use super::reconcile::heartbeats_of;
use crate::assignor::{Assignment, AssignorKind, GroupInput, LeaderClient};
use crate::scenario::Scenario;

/// One assignor's before and after for a what-if: the group as pinned against the group
/// now, each under that assignor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssignorChange {
    /// The assignor.
    pub kind: AssignorKind,
    /// Largest and smallest member total before.
    pub before: (u32, u32),
    /// Largest and smallest member total after (after the follow-up rebalance, for
    /// cooperative-sticky).
    pub after: (u32, u32),
    /// Partitions owned before and after whose owner changed.
    pub moved: u32,
    /// Partitions that stop being consumed during the rebalance: with an eager assignor
    /// every member gives up everything it owned until the new assignment arrives; with
    /// cooperative-sticky only the partitions that move: those a member keeps revoked in a
    /// first rebalance and handed over in a second, and those of members that left, which
    /// nobody consumes until the rebalance hands them over.
    pub paused: u32,
    /// Rebalances the change takes (2 for cooperative-sticky when something moves); for the
    /// broker's assignors, which never rebalance, the heartbeats until the group is stable
    /// ([`reconciliation`]).
    pub rebalances: u32,
    /// Members with nothing after.
    pub idle: u32,
    /// Why Java would throw instead (the assignor then gives no answer), or [`PENDING`]
    /// while the page is still computing it.
    pub error: Option<String>,
}

/// A what-if line the page computes after the repaint (a large group: one assignment per
/// task, so that no task holds the page).
pub const PENDING: &str = "computing…";

impl AssignorChange {
    /// A row with no answer: why `kind` gives none.
    pub fn failed(kind: AssignorKind, why: String) -> AssignorChange {
        AssignorChange {
            kind,
            before: (0, 0),
            after: (0, 0),
            moved: 0,
            paused: 0,
            rebalances: 1,
            idle: 0,
            error: Some(why),
        }
    }

    /// Whether the page is still computing this line ([`PENDING`]).
    pub fn is_pending(&self) -> bool {
        self.error.as_deref() == Some(PENDING)
    }

    /// The row of the side-by-side table: max/min before, max/min after, partitions moved,
    /// partitions paused (with the rebalances that takes), members idle after; or why Java
    /// would throw instead.
    pub fn cells(&self) -> Result<[String; 5], String> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let mm = |(max, min): (u32, u32)| {
            format!(
                "{max} / {min} ({})",
                crate::assignor::explain::ratio(max, min)
            )
        };
        Ok([
            mm(self.before),
            mm(self.after),
            self.moved.to_string(),
            if self.kind.is_broker() {
                format!(
                    "{} until stable, after {}",
                    self.paused,
                    crate::assignor::explain::plural(self.rebalances, "heartbeat", "heartbeats")
                )
            } else if self.rebalances > 1 {
                format!("{} over {} rebalances", self.paused, self.rebalances)
            } else {
                self.paused.to_string()
            },
            self.idle.to_string(),
        ])
    }
}

/// The group now as a sticky assignor sees it after a pin: each member of the baseline owns
/// what the baseline gave it (maybe nothing), in generation 1 (a member that brings its own
/// owned partitions or subscription bytes keeps them).
pub fn with_previous(input: &GroupInput, base: &Baseline) -> GroupInput {
    let mut out = input.clone();
    // The member of `out` each baseline member is (by id; the first with that id), for the
    // members that take their previous assignment from the baseline: one pass over the
    // baseline's partitions, not one per member.
    let mut index = crate::collections::Names::default();
    for (i, m) in out.members.iter().enumerate() {
        if m.owned.is_empty() && m.generation.is_none() {
            index.entry(m.id.clone()).or_insert(i as u32);
        }
    }
    let target: Vec<Option<u32>> = base
        .members
        .iter()
        .map(|id| index.get(id.as_str()).copied())
        .collect();
    for (t, owners) in &base.topics {
        for (p, o) in owners.iter().enumerate() {
            let Some(m) = o.and_then(|o| target.get(o as usize).copied().flatten()) else {
                continue;
            };
            let owned = &mut out.members[m as usize].owned;
            match owned.last_mut() {
                Some((name, ps)) if name == t => ps.push(p as i32),
                _ => owned.push((t.clone(), vec![p as i32])),
            }
        }
    }
    // Every member of the baseline was in its generation, 1, and got an assignment there,
    // empty or not (Java's StickyAssignor then sends user data with an empty list, and every
    // subscription says generation 1).
    for m in target.iter().flatten() {
        out.members[*m as usize].generation = Some(1);
    }
    out
}

/// The largest group the page runs the sticky assignors on (the command-line tool runs
/// any), in (member, partition of a topic it subscribes to) pairs: 1,000 members all
/// subscribed to the same 10,000 partitions, or half as many pairs when subscriptions differ
/// (Java's general algorithm, slower than the one for equal subscriptions). The page runs
/// them on its main thread; an edit with a pinned what-if runs them up to seven times (the
/// scenario's own, with its follow-up round; sticky and cooperative-sticky before and after
/// the change, and cooperative-sticky's follow-up). A large group's what-if runs one
/// assignment per task after the repaint (the app's `Computed::work`), so an edit at the
/// bound holds the main thread 60 to 140 ms at most in this build (`tests/web.rs`,
/// bench_the_longest_task_of_an_edit_at_the_sticky_bound; docs/performance.md).
pub const STICKY_PAIRS: u64 = 10_000_000;

/// Why the page does not run `kind` (a sticky assignor) on `input`, if it is above the bound.
pub fn sticky_refusal(input: &GroupInput, kind: AssignorKind) -> Option<String> {
    let partitions: crate::collections::Names = input
        .topics
        .iter()
        .map(|t| (t.name.clone(), t.partitions))
        .collect();
    let pairs: u64 = input
        .members
        .iter()
        .flat_map(|m| m.topics.iter())
        .filter_map(|t| partitions.get(t.as_str()))
        .map(|p| u64::from(*p))
        .sum();
    let equal = input.members.windows(2).all(|w| w[0].topics == w[1].topics);
    let limit = if equal {
        STICKY_PAIRS
    } else {
        STICKY_PAIRS / 2
    };
    (pairs > limit).then(|| {
        format!(
            "this page runs the {name} assignor on up to {limit} member-partition pairs (each member times the partitions it subscribes to; {STICKY_PAIRS} when all subscriptions are equal) and this group has {pairs}: the command-line tool runs any size, rebalance-lab assign FILE --assignor {name}",
            name = kind.name(),
        )
    })
}

/// What the page runs for `s` under its sticky assignor: the input, each member's previous
/// assignment being `previous` (the pinned baseline) unless the member says otherwise, and
/// the rounds it gives (round 1 alone unless `follow_up`: cooperative-sticky's follow-up
/// round is a second run, which a large group's page computes only to show it); or why
/// there are none (above the page's bound, [`sticky_refusal`], or Java throws).
#[allow(clippy::type_complexity)]
pub fn sticky_rounds(
    s: &Scenario,
    previous: Option<&Baseline>,
    follow_up: bool,
) -> (GroupInput, Result<(Assignment, Option<Assignment>), String>) {
    let (input, refusal) = sticky_input(s, s.assignor, previous);
    if let Some(refusal) = refusal {
        return (input, Err(refusal));
    }
    let rounds = if follow_up {
        assign_after(s.assignor, &input, None, s.leader_client)
    } else {
        crate::assignor::try_assign_with(s.assignor, &input, s.leader_client)
            .map(|r1| (r1, None))
            .map_err(|e| e.to_string())
    };
    (input, rounds)
}

/// Cooperative-sticky's first round on the group now, the baseline being the previous
/// generation: what a cooperative rebalance of the same change revokes (the group panel's
/// cooperative column, whatever assignor is on screen); or why there is none (Java throws,
/// or the group is above the page's bound).
pub fn cooperative_round1(s: &Scenario, previous: Option<&Baseline>) -> Result<Assignment, String> {
    let kind = AssignorKind::CooperativeSticky;
    match sticky_input(s, kind, previous) {
        (_, Some(refusal)) => Err(refusal),
        (input, None) => crate::assignor::try_assign_with(kind, &input, s.leader_client)
            .map_err(|e| e.to_string()),
    }
}

/// What sticky assignor `kind` sees of the group now: each member's previous assignment
/// being `previous` unless the member says otherwise; or, beside the input without it, why
/// the page does not run `kind` on it ([`sticky_refusal`]).
pub(super) fn sticky_input(
    s: &Scenario,
    kind: AssignorKind,
    previous: Option<&Baseline>,
) -> (GroupInput, Option<String>) {
    let input = s.group_input_for(kind);
    if let Some(refusal) = sticky_refusal(&input, kind) {
        return (input, Some(refusal));
    }
    match previous {
        Some(b) => (with_previous(&input, b), None),
        None => (input, None),
    }
}

/// The assignment `kind` gives the group now, the baseline being the previous generation
/// for the sticky assignors: (round 1, the follow-up round when cooperative-sticky withheld
/// partitions).
pub fn assign_after(
    kind: AssignorKind,
    input: &GroupInput,
    base: Option<&Baseline>,
    client: LeaderClient,
) -> Result<(Assignment, Option<Assignment>), String> {
    use crate::assignor::sticky;
    // (the broker's uniform reads each member's previous target assignment as its owned
    // partitions; server-range ignores them)
    let sticky_kind = matches!(
        kind,
        AssignorKind::Sticky | AssignorKind::CooperativeSticky | AssignorKind::Uniform
    );
    let input = match base {
        Some(b) if sticky_kind => with_previous(input, b),
        _ => input.clone(),
    };
    let round1 =
        crate::assignor::try_assign_with(kind, &input, client).map_err(|e| e.to_string())?;
    let round2 = if kind == AssignorKind::CooperativeSticky && !round1.withheld.is_empty() {
        Some(sticky::cooperative_follow_up(&input, &round1).map_err(|e| e.to_string())?)
    } else {
        None
    };
    Ok((round1, round2))
}

/// Each assignor in `kinds` on the pinned group and on the group now (members that came
/// back under new ids, `renames`, count as the same member; for the sticky assignors the
/// pinned assignment is the previous generation): the what-if summary, one line per
/// assignor.
pub fn compare_assignors(
    pinned: &Scenario,
    renames: &[(String, String)],
    now: &Scenario,
    kinds: &[AssignorKind],
) -> Vec<AssignorChange> {
    kinds
        .iter()
        .map(|k| change_after(change_before(pinned, renames, *k), now))
        .collect()
}

/// What [`change_after`] needs of the pinned group under one assignor: its assignment there
/// (as a baseline, members that came back under new ids renamed), the largest and smallest
/// total and what everyone owned; or the row saying why there is none.
pub type Before = Result<(AssignorKind, Baseline, (u32, u32), u32), AssignorChange>;

/// The first half of [`compare_assignors`]'s line for `kind`: the pinned group's assignment.
pub fn change_before(
    pinned: &Scenario,
    renames: &[(String, String)],
    kind: AssignorKind,
) -> Before {
    let was = pinned.group_input_for(kind);
    let before = crate::assignor::try_assign_with(kind, &was, pinned.leader_client)
        .map_err(|e| AssignorChange::failed(kind, format!("before: {e}")))?;
    let mut base = Baseline::pin(&was, &before);
    for (o, n) in renames {
        base.rename(o, n);
    }
    Ok((kind, base, before.max_min(), before.totals.iter().sum()))
}

/// The second half: the group now under the same assignor, the pinned assignment being the
/// previous generation for the sticky assignors.
pub fn change_after(before: Before, now: &Scenario) -> AssignorChange {
    let (k, base, max_min, owned_before) = match before {
        Ok(b) => b,
        Err(row) => return row,
    };
    let is = now.group_input_for(k);
    let (round1, round2) = match assign_after(k, &is, Some(&base), now.leader_client) {
        Ok(r) => r,
        Err(e) => return AssignorChange::failed(k, format!("after: {e}")),
    };
    let cooperative = round2.is_some();
    let after = round2.unwrap_or(round1.clone());
    let d = diff(&base, &is, &after);
    // The broker's assignors: no rebalance; the partitions that move pause, each from its
    // revocation to its new owner's next heartbeat, for the heartbeats reconciliation takes.
    let heartbeats = heartbeats_of(k, &base, &is, &after);
    AssignorChange {
        before: max_min,
        after: after.max_min(),
        moved: d.moved,
        paused: if k == AssignorKind::CooperativeSticky {
            round1.withheld.len() as u32 + d.moved_from_left
        } else if heartbeats.is_some() {
            d.moved
        } else {
            owned_before
        },
        rebalances: heartbeats.unwrap_or(if cooperative { 2 } else { 1 }),
        idle: after.totals.iter().filter(|t| **t == 0).count() as u32,
        kind: k,
        error: None,
    }
}

/// The baseline of what the page shows, which the sticky assignors' rounds decide.
impl Baseline {
    /// Freezes what the page shows for `s`: under a sticky assignor, the assignment it gives
    /// with `previous` as the previous generation, after cooperative-sticky's follow-up
    /// rebalance (the group once it is stable); otherwise as [`Baseline::of`]. Empty when
    /// the assignor gives no answer, or the group is above the page's bound for the sticky
    /// assignors ([`sticky_refusal`]).
    pub fn now(s: &Scenario, previous: Option<&Baseline>) -> Baseline {
        // (uniform keeps the previous target assignment too)
        if !matches!(
            s.assignor,
            AssignorKind::Sticky | AssignorKind::CooperativeSticky | AssignorKind::Uniform
        ) {
            return Baseline::of(s);
        }
        match sticky_rounds(s, previous, true) {
            (input, Ok((r1, r2))) => Baseline::pin(&input, r2.as_ref().unwrap_or(&r1)),
            (_, Err(_)) => Baseline::default(),
        }
    }
}
