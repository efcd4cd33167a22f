//! The scale planner: partitions per member, largest and smallest, against the
//! member count, for each assignor the page runs, the group growing or shrinking as "members:
//! N" does ([`super::edit::set_member_count`]: leavers from the end, joiners subscribed as the
//! last member is).

use super::{edit, Scenario};
use crate::assignor::{try_assign_with, AssignorKind};

/// One assignor at one member count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// Members.
    pub members: u32,
    /// Largest and smallest member total.
    pub max: u32,
    /// See `max`.
    pub min: u32,
    /// Members with nothing.
    pub idle: u32,
}

/// One assignor's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The assignor.
    pub kind: AssignorKind,
    /// A point per member count, from 1 (none where the assignor gives no answer).
    pub points: Vec<Point>,
}

/// The largest member count the planner draws for `s`: the largest topic's partition count
/// plus three, or the group's own size plus three when larger, at most `cap`.
pub fn last_count(s: &Scenario, cap: u32) -> u32 {
    let largest = s.topics.iter().map(|t| t.partitions).max().unwrap_or(0);
    (largest.max(s.members.len() as u32).saturating_add(3)).clamp(1, cap)
}

/// The seed of the joiners' ids the planner uses for `s` (the page's chart and the what-if
/// its click applies use the same: the same joiners).
pub fn seed_for(s: &Scenario) -> u64 {
    (s.members.len() as u64).wrapping_mul(2_654_435_761) ^ 0x5eed
}

/// The group `s` grown or shrunk to `n` members, as "members: N" does with `seed`.
pub fn with_members(s: &Scenario, n: u32, seed: u64) -> Scenario {
    let mut g = s.clone();
    // (n is at most the cap the caller gives: never refused)
    let _ = edit::set_member_count(&mut g, &n.to_string(), seed);
    g
}

/// Each assignor of `kinds` over 1 to `last` members (fresh: nobody owns anything, as when
/// a group of that size starts), each group the one [`with_members`] gives: built one from
/// the other, a member at a time past the group's own size (`set_member_count` adds its
/// joiners one by one the same way), so the whole plan costs a few assignments' time each.
pub fn plan(s: &Scenario, kinds: &[AssignorKind], last: u32, seed: u64) -> Vec<Line> {
    let mut lines: Vec<Line> = kinds
        .iter()
        .map(|k| Line {
            kind: *k,
            points: Vec::new(),
        })
        .collect();
    let own = s.members.len() as u32;
    let mut g = s.clone();
    for m in &mut g.members {
        m.owned = Default::default();
        m.generation = None;
    }
    let all = g.members.clone();
    for n in 1..=last {
        if n <= own {
            g.members = all[..n as usize].to_vec();
        } else {
            edit::add_member(&mut g, seed.wrapping_add(u64::from(n - 1 - own) * 7919));
        }
        let input = g.group_input();
        for line in &mut lines {
            if let Ok(a) = try_assign_with(line.kind, &input, g.leader_client) {
                let (max, min) = a.max_min();
                line.points.push(Point {
                    members: n,
                    max,
                    min,
                    idle: a.totals.iter().filter(|t| **t == 0).count() as u32,
                });
            }
        }
    }
    lines
}

/// The first member count at which some member of `line` gets nothing, if any.
pub fn idle_from(line: &Line) -> Option<u32> {
    line.points.iter().find(|p| p.idle > 0).map(|p| p.members)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets::preset;

    #[test]
    fn each_point_is_the_assignment_of_a_group_that_size() {
        let s = preset("seven-three").unwrap();
        let kinds = [AssignorKind::Range, AssignorKind::RoundRobin];
        let last = last_count(&s, 1_100);
        assert_eq!(last, 10, "7 partitions + 3");
        let lines = plan(&s, &kinds, last, 42);
        for line in &lines {
            assert_eq!(line.points.len(), 10);
            for p in &line.points {
                let g = with_members(&s, p.members, 42);
                assert_eq!(g.members.len() as u32, p.members);
                let (input, a) = g.assign(line.kind).unwrap();
                assert_eq!((p.max, p.min), a.max_min(), "{:?} {}", line.kind, p.members);
                assert_eq!(input.members.len() as u32, p.members);
            }
        }
        // one topic of 7: from 8 members on, somebody sits idle; 7 over 3 is 3 and 2
        assert_eq!(idle_from(&lines[0]), Some(8));
        assert_eq!((lines[0].points[2].max, lines[0].points[2].min), (3, 2));
        // the cap holds
        assert_eq!(last_count(&s, 5), 5);
    }
}
