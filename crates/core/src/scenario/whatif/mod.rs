//! What-if: pin an assignment as the baseline, change the group, and see exactly what moved;
//! plus stories that step through the changes people ask about. In parts:
//! - `baseline`: the pinned assignment;
//! - `diff`: what moved since it, who joined, left, became idle or busy;
//! - `reconcile`: a consumer-protocol group reconciling with a new target, heartbeat by
//!   heartbeat;
//! - `changes`: the same change under each assignor, the previous assignment the sticky
//!   assignors read, and the page's bounds for them;
//! - `story`: rolling restarts and the story of joins, leaves and restarts.

mod baseline;
mod changes;
mod diff;
mod reconcile;
mod story;

pub use baseline::*;
pub use changes::*;
pub use diff::*;
pub use reconcile::*;
pub use story::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::{AssignorKind, LeaderClient};
    use crate::scenario::member_id::{client_id_of, display_id};
    use crate::scenario::{Member, Scenario};

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
        assert_eq!(
            steps.len(),
            STORY_STEPS,
            "the count the link and the page use"
        );
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
