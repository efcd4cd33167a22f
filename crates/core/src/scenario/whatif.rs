//! What-if: pin an assignment as the baseline, change the group, and see exactly what moved;
//! plus stories that step through the changes people ask about.

use super::member_id::{client_id_of, coordinator_member_id, display_id};
use super::{Member, Scenario, Topic};
use crate::assignor::{Assignment, AssignorKind, GroupInput, LeaderClient, UNASSIGNED};
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
        match crate::assignor::assign_with(s.assignor, &input, s.leader_client) {
            Some(a) => Baseline::pin(&input, &a),
            None => Baseline::default(),
        }
    }

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

    /// Freezes what the members say they own (`owned`: an imported group's observed
    /// assignment): every member, every topic with partitions; a partition two members claim
    /// goes to the first.
    pub fn observed(s: &Scenario) -> Baseline {
        let mut topics: Vec<(String, Vec<Option<u32>>)> = Vec::new();
        let mut slot: crate::collections::Names = Default::default();
        for t in s.topics.iter().filter(|t| t.partitions > 0) {
            slot.insert(t.name.clone(), topics.len() as u32);
            topics.push((t.name.clone(), vec![None; t.partitions as usize]));
        }
        // (one pass over what each member owns)
        for (i, m) in s.members.iter().enumerate() {
            for (t, ps) in m.owned.iter() {
                let Some(&k) = slot.get(t.as_str()) else {
                    continue;
                };
                let owners = &mut topics[k as usize].1;
                for p in ps {
                    if let Some(o @ None) = usize::try_from(*p).ok().and_then(|p| owners.get_mut(p))
                    {
                        *o = Some(i as u32);
                    }
                }
            }
        }
        Baseline {
            members: s.members.iter().map(|m| m.id.clone()).collect(),
            topics,
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
    /// Of those, the ones whose baseline owner has left the group: nobody consumes them from
    /// its leaving until their new owner gets them.
    pub moved_from_left: u32,
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
    // Which baseline members have left the group (by baseline index), found once.
    let current_ids = ids_with(input.members.iter().map(|m| m.id.as_str()), Vec::new());
    let gone: Vec<bool> = baseline
        .members
        .iter()
        .map(|m| !current_ids.contains_key(m.as_str()))
        .collect();
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
                    d.moved_from_left += u32::from(gone[b]);
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
    d.left = baseline
        .members
        .iter()
        .zip(&gone)
        .filter(|(_, gone)| **gone)
        .map(|(m, _)| m.clone())
        .collect();
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

/// How the broker moves the group from the baseline to `a` (KIP-848,
/// [`crate::group::reconcile`]): each member of the baseline currently holds what the baseline
/// gave it (the previous target assignment), each member of `input` is to hold what `a` gives
/// it; members of the baseline no longer in `input` have left.
pub fn reconciliation(
    base: &Baseline,
    input: &GroupInput,
    a: &Assignment,
) -> crate::group::reconcile::Reconciliation {
    use crate::group::reconcile::Partitions;
    fn add(list: &mut Partitions, topic: &str, p: u32) {
        match list.last_mut() {
            Some((t, ps)) if t == topic => ps.push(p),
            _ => list.push((topic.to_string(), vec![p])),
        }
    }
    let mut before: Vec<(String, Partitions)> = base
        .members
        .iter()
        .map(|m| (m.clone(), Vec::new()))
        .collect();
    for (t, owners) in &base.topics {
        for (p, o) in owners.iter().enumerate() {
            if let Some(list) = o.and_then(|o| before.get_mut(o as usize)) {
                add(&mut list.1, t, p as u32);
            }
        }
    }
    let mut target: Vec<(String, Partitions)> = input
        .members
        .iter()
        .map(|m| (m.id.clone(), Vec::new()))
        .collect();
    for t in &a.topics {
        for (p, o) in t.owners.iter().enumerate() {
            if let Some(list) = target.get_mut(*o as usize) {
                add(&mut list.1, &t.topic, p as u32);
            }
        }
    }
    crate::group::reconcile::reconcile(&before, &target)
}

/// For the broker's assignors, the heartbeats reconciliation from `base` to `after` takes;
/// None for the client's.
fn heartbeats_of(
    k: AssignorKind,
    base: &Baseline,
    is: &GroupInput,
    after: &Assignment,
) -> Option<u32> {
    k.is_broker().then(|| {
        reconciliation(base, is, after)
            .heartbeats_until_stable
            .unwrap_or(0)
    })
}

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
fn sticky_input(
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
fn range_position(s: &Scenario, id: &str) -> usize {
    let input = s.group_input();
    let a = crate::assignor::range(&input);
    a.order
        .iter()
        .position(|m| input.members[*m as usize].id == id)
        .map_or(0, |p| p + 1)
}

/// Partitions whose owner changed between two members that are in both groups.
fn moved_between_stayers(base: &Baseline, now: &Scenario) -> u32 {
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

fn moved_under_range(base: &Baseline, now: &Scenario) -> u32 {
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
                topics: vec!["orders".into(), "payments".into()].into(),
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
    // Scale out by one under cooperative-sticky: the same join as step 2.
    let coop_join = Scenario {
        assignor: AssignorKind::CooperativeSticky,
        ..join.clone()
    };
    let coop_start = Scenario {
        assignor: AssignorKind::CooperativeSticky,
        ..start.clone()
    };
    let versus = compare_assignors(
        &start,
        &[],
        &join,
        &[AssignorKind::Range, AssignorKind::CooperativeSticky],
    );
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
    steps.push(
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
        },
    );
    // The leader leaves: members join in list order, the second leaves (step 3), then the
    // first, who led; the coordinator's members HashMap decides who leads next.
    use crate::group::GroupEvent;
    let mut log: Vec<GroupEvent> = ids.iter().map(|id| GroupEvent::Join(id.clone())).collect();
    log.push(GroupEvent::Leave(leaver.clone()));
    let leader = ids[0].clone();
    log.push(GroupEvent::Leave(leader.clone()));
    let history = crate::group::run_events_briefly(&log);
    let next = history.leader.clone().unwrap_or_default();
    let mut headless = leave.clone();
    headless.members.retain(|m| m.id != leader);
    let headless_base = Baseline::of(&leave);
    let second = &headless.members[0].id;
    steps.push(Step {
        title: "The leader leaves",
        sentence: format!(
            "The {} member in range's order ({}) leaves, and it led the group (the first to join): the coordinator makes the first key of its members HashMap the leader, {}{}; range moves {} of {total} partitions.",
            ordinal(range_position(&leave, &leader)),
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
    });
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff_of(s: &Scenario, b: &Baseline) -> Diff {
        let input = s.group_input();
        let a = crate::assignor::range(&input);
        diff(b, &input, &a)
    }

    /// A large group's page asks for cooperative-sticky's first round alone: it is the first
    /// round of the two, and the follow-up is left out only.
    #[test]
    fn round_one_alone_is_the_first_of_both() {
        let mut s = super::super::presets::preset("seven-three").unwrap();
        s.assignor = AssignorKind::CooperativeSticky;
        let base = Baseline::now(&s, None);
        s.members.push(Member::new("consumer-0", &["orders"]));
        let (with_input, both) = sticky_rounds(&s, Some(&base), true);
        let (alone_input, alone) = sticky_rounds(&s, Some(&base), false);
        let (both, alone) = (both.unwrap(), alone.unwrap());
        assert_eq!(with_input, alone_input);
        assert!(!both.0.withheld.is_empty() && both.1.is_some(), "{both:?}");
        assert_eq!((&alone.0, &alone.1), (&both.0, &None));
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

    /// Each step's sentence says what its data does: the numbers and the member named are
    /// computed again here, independently, and must appear in the text.
    #[test]
    fn story_texts_match_their_data() {
        let steps = story();
        for (k, step) in steps.iter().enumerate() {
            let Some(base) = &step.baseline else { continue };
            let kind = step.scenario.assignor;
            let input = step.scenario.group_input_for(kind);
            let (r1, r2) = assign_after(kind, &input, Some(base), LeaderClient::Java).unwrap();
            let a = r2.unwrap_or(r1);
            let d = diff(base, &input, &a);
            let total: u32 = step.scenario.topics.iter().map(|t| t.partitions).sum();
            if kind != AssignorKind::Range {
                let claim = format!("{} moves {}", kind.name(), d.moved);
                assert!(
                    step.sentence.contains(&claim),
                    "step {k}: {claim}: {}",
                    step.sentence
                );
                continue;
            }
            if d.moved == 0 {
                assert!(
                    step.sentence.contains("nothing moves"),
                    "{k}: {}",
                    step.sentence
                );
            } else {
                assert!(
                    step.sentence
                        .contains(&format!("{} of {total} partitions", d.moved)),
                    "step {k}: {} moved, but: {}",
                    d.moved,
                    step.sentence
                );
            }
            // who joined or left, and where range put them
            let prev = step.previous.as_ref().unwrap();
            for id in d
                .joined
                .iter()
                .filter(|id| !prev.members.iter().any(|m| &m.id == *id))
            {
                if k == 1 {
                    let pos = a
                        .order
                        .iter()
                        .position(|m| input.members[*m as usize].id == *id)
                        .unwrap()
                        + 1;
                    assert!(
                        step.sentence.contains(&ordinal(pos)),
                        "{k}: {}",
                        step.sentence
                    );
                    assert!(step.sentence.contains(&display_id(id)), "{k}");
                }
            }
            for id in d
                .left
                .iter()
                .filter(|id| !step.renames.iter().any(|(o, _)| o == *id))
            {
                let pin = prev.group_input();
                let pa = crate::assignor::range(&pin);
                let pos = pa
                    .order
                    .iter()
                    .position(|m| pin.members[*m as usize].id == *id)
                    .unwrap()
                    + 1;
                assert!(
                    step.sentence
                        .contains(&format!("The {} member", ordinal(pos))),
                    "{k}: {}",
                    step.sentence
                );
                assert!(step.sentence.contains(&display_id(id)), "{k}");
            }
            // who leads after the step's joins and leaves is the one the sentence names
            if !step.group_log.is_empty() {
                let h = crate::group::run_events(&step.group_log);
                let mut listed: Vec<&str> = step
                    .scenario
                    .members
                    .iter()
                    .map(|m| m.id.as_str())
                    .collect();
                let mut present: Vec<&str> = h.members.iter().map(|m| m.as_str()).collect();
                listed.sort();
                present.sort();
                assert_eq!(
                    listed, present,
                    "step {k}: the log ends with the step's members"
                );
                let leader = h.leader.unwrap();
                assert!(
                    step.sentence
                        .contains(&format!("the leader, {}", display_id(&leader))),
                    "{k}: {}",
                    step.sentence
                );
            }
            // the baseline is the previous group's assignment, members renamed
            assert_eq!(*base, renamed_baseline(prev, &step.renames), "step {k}");
            // and the per-assignor summary agrees for range
            let c = compare_assignors(prev, &step.renames, &step.scenario, &[AssignorKind::Range]);
            assert_eq!(c[0].moved, d.moved, "step {k}");
        }
    }

    /// A member leaving: cooperative-sticky revokes nothing from those who stay, but the
    /// leaver's partitions stop being consumed until the rebalance hands them over, so they
    /// are what it pauses (and range pauses everything it owned).
    #[test]
    fn a_member_leaving_pauses_its_partitions_under_cooperative_sticky() {
        let before = super::super::presets::preset("seven-three").unwrap();
        let mut after = before.clone();
        let gone = after.members.remove(0);
        let c = compare_assignors(&before, &[], &after, &AssignorKind::CLIENT);
        let (range, coop) = (&c[0], &c[3]);
        assert!(c.iter().all(|x| x.error.is_none()), "{c:?}");
        let was = before.assign(AssignorKind::CooperativeSticky).unwrap();
        let i = was.0.members.iter().position(|m| m.id == gone.id).unwrap();
        let owned = was.1.totals[i];
        assert!(owned > 0);
        assert_eq!(coop.paused, coop.moved, "{c:?}");
        assert!(coop.paused >= owned, "{c:?}");
        assert_eq!(range.paused, 7, "{c:?}");
    }

    /// Scaling out by one: range pauses every partition, cooperative-sticky only what moves,
    /// over two rebalances; sticky keeps at least as much in place as range.
    #[test]
    fn eager_and_cooperative_side_by_side() {
        let before = super::super::presets::preset("seven-three").unwrap();
        let mut after = before.clone();
        after.members.push(Member::new("consumer-0", &["orders"]));
        let c = compare_assignors(&before, &[], &after, &AssignorKind::CLIENT);
        assert_eq!(c.len(), 4);
        let (range, sticky, coop) = (&c[0], &c[2], &c[3]);
        assert!(c.iter().all(|x| x.error.is_none()), "{c:?}");
        // consumer-0 sorts first: range moves 4 of 7, and all 7 stop during the rebalance
        assert_eq!((range.moved, range.paused, range.rebalances), (4, 7, 1));
        assert!(sticky.moved <= range.moved, "{c:?}");
        assert_eq!(coop.paused, coop.moved, "{c:?}");
        assert!(coop.paused < range.paused);
        assert_eq!(coop.rebalances, 2);
        assert_eq!(coop.after, (2, 1), "balanced after the follow-up");
        assert_eq!(
            coop.cells().unwrap()[3],
            format!("{} over 2 rebalances", coop.paused)
        );
    }

    #[test]
    fn the_observed_baseline_is_what_members_own() {
        let mut s = super::super::presets::preset("seven-three").unwrap();
        // a owns 0 and 1 (and 1 again, 9 beyond the topic, -1, a topic not in metadata);
        // b claims 1 too: the first claim holds
        s.members[0]
            .owned
            .insert("orders".into(), vec![0, 1, 1, 9, -1]);
        s.members[0].owned.insert("gone".into(), vec![0]);
        s.members[1].owned.insert("orders".into(), vec![1, 2]);
        let b = Baseline::observed(&s);
        assert_eq!(b.members.len(), 3);
        assert_eq!(b.topics.len(), 1);
        let owners: Vec<Option<&str>> = (0..7).map(|p| b.owner("orders", p)).collect();
        let (a, bb) = (s.members[0].id.as_str(), s.members[1].id.as_str());
        assert_eq!(owners, [Some(a), Some(a), Some(bb), None, None, None, None]);
    }

    #[test]
    fn the_broker_assignors_reconcile_instead_of_rebalancing() {
        let mut before = super::super::presets::preset("seven-three").unwrap();
        let mut after = before.clone();
        after.members.push(Member::new("consumer-0", &["orders"]));
        let c = compare_assignors(&before, &[], &after, &AssignorKind::ALL);
        assert!(c.iter().all(|x| x.error.is_none()), "{c:?}");
        let (range, uniform, server_range) = (&c[0], &c[4], &c[5]);
        // server-range is the classic range's arithmetic and order: the same 4 of 7 move,
        // but only they pause (range: all 7 stop for the rebalance), for the three
        // heartbeats a partition given to a newcomer takes (revoke, acknowledge, take)
        assert_eq!(
            (server_range.moved, server_range.after),
            (range.moved, range.after)
        );
        assert_eq!((server_range.paused, server_range.rebalances), (4, 3));
        assert_eq!(
            server_range.cells().unwrap()[3],
            "4 until stable, after 3 heartbeats"
        );
        // uniform keeps what each member had up to its share: 7 over 4 moves one partition
        assert_eq!(
            (uniform.moved, uniform.paused, uniform.rebalances),
            (1, 1, 3)
        );
        assert_eq!(uniform.after, (2, 1));
        // nothing changes: nothing to reconcile
        before.assignor = AssignorKind::Uniform;
        let same = compare_assignors(&before, &[], &before, &[AssignorKind::Uniform]);
        assert_eq!((same[0].moved, same[0].rebalances), (0, 0), "{same:?}");
    }

    #[test]
    fn reconciliation_splits_each_member_into_kept_revoked_taken_and_waiting() {
        let mut s = super::super::presets::preset("seven-three").unwrap();
        s.assignor = AssignorKind::ServerRange;
        let base = Baseline::of(&s);
        s.members.remove(1);
        s.members.push(Member::new("consumer-0", &["orders"]));
        s.members.push(Member::new("consumer-9", &["orders"]));
        let input = s.group_input();
        let a = crate::assignor::server_range(&input);
        let r = reconciliation(&base, &input, &a);
        let flat = |p: &crate::group::reconcile::Partitions| -> Vec<(String, u32)> {
            let mut v: Vec<_> = p
                .iter()
                .flat_map(|(t, ps)| ps.iter().map(move |x| (t.clone(), *x)))
                .collect();
            v.sort();
            v
        };
        assert_eq!(r.members.len(), input.members.len());
        for (i, m) in r.members.iter().enumerate() {
            assert_eq!(m.member, input.members[i].id);
            let mut target = flat(&m.keep);
            target.extend(flat(&m.take_now));
            target.extend(flat(&m.wait));
            target.sort();
            let mut owned: Vec<(String, u32)> = a.topics[0]
                .owners
                .iter()
                .enumerate()
                .filter(|(_, o)| **o == i as u32)
                .map(|(p, _)| ("orders".to_string(), p as u32))
                .collect();
            owned.sort();
            assert_eq!(target, owned, "{m:?}");
            let mut had = flat(&m.keep);
            had.extend(flat(&m.revoke));
            had.sort();
            let was: Vec<(String, u32)> = (0..7)
                .filter(|p| base.owner("orders", *p) == Some(m.member.as_str()))
                .map(|p| ("orders".to_string(), p as u32))
                .collect();
            assert_eq!(had, was, "{m:?}");
        }
        // the partitions of the member that left are free at once: somebody takes one now
        assert!(r.members.iter().any(|m| !m.take_now.is_empty()), "{r:?}");
        assert!(r.heartbeats_until_stable.is_some());
    }
}
