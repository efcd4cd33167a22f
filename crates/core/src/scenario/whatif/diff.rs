//! What moved between the baseline and the assignment now.

use super::baseline::Baseline;
use crate::assignor::{Assignment, GroupInput, UNASSIGNED};
use std::collections::BTreeMap;

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
    pub changes: BTreeMap<String, (u32, u32)>,
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
    for (m, (g, l)) in changes {
        let c = d.changes.entry(m).or_default();
        c.0 += g;
        c.1 += l;
    }
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
pub(super) fn ids_with<'a>(
    ids: impl Iterator<Item = &'a str>,
    counts: Vec<u32>,
) -> BTreeMap<&'a str, u32> {
    let mut by_id = BTreeMap::new();
    for (i, id) in ids.enumerate() {
        *by_id.entry(id).or_default() += counts.get(i).copied().unwrap_or(0);
    }
    by_id
}
