//! A pinned assignment: the baseline every change is compared with.

use crate::assignor::{Assignment, GroupInput, UNASSIGNED};
use crate::scenario::Scenario;

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
