//! The scenario as a classic group: its coordinator, the members' protocol vote (members
//! join in list order), the leader, and the assignor the vote picks.

use super::{Scenario, DEFAULT_GROUP_ID};
use crate::assignor::AssignorKind;
use crate::group::{self, Coordinator, ProtocolSelection};

impl Scenario {
    /// The group id, or [`DEFAULT_GROUP_ID`] when none is set.
    pub fn group_id_or_default(&self) -> &str {
        self.group_id.as_deref().unwrap_or(DEFAULT_GROUP_ID)
    }

    /// The coordinator arithmetic for the group id (the partition count is kept in range
    /// by every edit and by the link reader; an out-of-range one counts as 50).
    pub fn coordinator(&self) -> Coordinator {
        let id = self.group_id_or_default();
        group::coordinator(id, self.offsets_partitions as u64)
            .or_else(|_| group::coordinator(id, group::DEFAULT_OFFSETS_PARTITIONS as u64))
            .expect("50 partitions is in range")
    }

    /// The join and the vote, each member's JoinGroup request read where the member keeps
    /// its id and protocol list, in list order (the order they join); a group with a
    /// repeated member id selects nothing, with why: the scenario's problems already say it.
    pub fn vote(&self) -> ProtocolSelection {
        let joins: Vec<group::Join<'_>> = self
            .members
            .iter()
            .map(|m| group::Join {
                id: &m.id,
                protocols: &m.protocols,
            })
            .collect();
        group::select(&joins).unwrap_or_else(|e| ProtocolSelection {
            why: e.to_string(),
            ..Default::default()
        })
    }

    /// The assignor the vote picks, when it picks one this crate knows.
    pub fn voted_assignor(&self) -> Option<AssignorKind> {
        assignor_of(&self.vote())
    }

    /// When the assignor follows the vote, sets it to the vote's outcome (an outcome that
    /// is no assignor this crate knows leaves it as it is).
    pub fn follow_vote(&mut self) {
        if self.assignor_by_vote {
            if let Some(k) = self.voted_assignor() {
                self.assignor = k;
            }
        }
    }
}

/// The assignor a vote picked ([`Scenario::voted_assignor`] of a vote already run: at
/// 10,000 members a vote takes milliseconds).
pub fn assignor_of(vote: &ProtocolSelection) -> Option<AssignorKind> {
    // The classic group's protocols are the clients' assignors: a vote for "uniform" or
    // "server-range" names no client assignor (those run on the broker, KIP-848).
    vote.selected.as_deref().and_then(AssignorKind::of_protocol)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Member;

    #[test]
    fn the_vote_picks_the_assignor_unless_overridden() {
        let mut s = Scenario {
            members: vec![Member::new("a", &[]), Member::new("b", &[])],
            assignor: AssignorKind::RoundRobin,
            ..Default::default()
        };
        assert_eq!(s.coordinator().group_id, "my-group");
        s.follow_vote();
        assert_eq!(s.assignor, AssignorKind::RoundRobin, "overridden stays");
        s.assignor_by_vote = true;
        s.follow_vote();
        assert_eq!(s.assignor, AssignorKind::Range);
        for m in &mut s.members {
            m.protocols = vec!["roundrobin".into(), "range".into()];
        }
        s.follow_vote();
        assert_eq!(s.assignor, AssignorKind::RoundRobin);
        s.members[0].protocols = vec!["custom".into()];
        s.members[1].protocols = vec!["custom".into()];
        s.follow_vote();
        assert_eq!(
            s.assignor,
            AssignorKind::RoundRobin,
            "unknown winner keeps it"
        );
    }
}
