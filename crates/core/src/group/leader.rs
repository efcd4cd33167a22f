//! The group leader (`ClassicGroup.add` and `remove`): the first member added leads; when
//! the leader leaves, the first key of the members `HashMap<String, ClassicGroupMember>`
//! (member id keys) leads, which is neither the second joiner nor random; with nobody left,
//! nobody leads.

use crate::java::hash_map::spread;
use crate::java::{JavaHash, JavaHashMap};

/// Something that changes the members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupEvent {
    /// A member joins (is added).
    Join(String),
    /// A member leaves (is removed).
    Leave(String),
}

/// The group after one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderStep {
    /// The event.
    pub event: GroupEvent,
    /// The leader after it.
    pub leader: Option<String>,
    /// True when the event changed the leader.
    pub changed: bool,
    /// Member ids in the members map's iteration order, after the event: recorded after a
    /// leave and after a change of leader, empty after any other join (and always empty from
    /// [`run_events_briefly`]).
    pub members: Vec<String>,
    /// Why the leader is who it is.
    pub why: String,
}

/// The leader through a sequence of events.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LeaderHistory {
    /// One step per event.
    pub steps: Vec<LeaderStep>,
    /// The leader at the end.
    pub leader: Option<String>,
    /// Who would lead if the leader left now: the first other key of the members map.
    pub next_leader: Option<String>,
    /// Member ids in the members map's iteration order at the end.
    pub members: Vec<String>,
    /// The members map's table size at the end (it never shrinks).
    pub capacity: usize,
}

fn bucket(id: &str, capacity: usize) -> usize {
    spread(id.java_hash()) as usize & capacity.saturating_sub(1)
}

/// Runs `events` on an empty group, with the members map's order after every leave and
/// every change of leader ([`LeaderStep::members`]).
pub fn run_events(events: &[GroupEvent]) -> LeaderHistory {
    history(events, true)
}

/// [`run_events`] without the per-step member lists (each is a copy of every member id: a
/// long history of a large group, a rolling restart of thousands, would copy them
/// quadratically); the end state, the leader and each step's reason are the same.
pub fn run_events_briefly(events: &[GroupEvent]) -> LeaderHistory {
    history(events, false)
}

fn history(events: &[GroupEvent], snapshots: bool) -> LeaderHistory {
    // Keyed by the events' ids, valued 0: the same map type as the vote's (one in the page).
    let mut members: JavaHashMap<&str, u32> = JavaHashMap::new();
    let mut leader: Option<String> = None;
    let mut steps = Vec::with_capacity(events.len());
    for e in events {
        // (set where the leader changes, instead of a copy of the leader per event to
        // compare with)
        let mut changed = false;
        let q = |id: &str| super::quoted(id);
        let why = match e {
            GroupEvent::Join(id) => {
                if members.contains_key(&id.as_str()) {
                    format!("{} is already a member: no change", q(id))
                } else {
                    members.insert(id.as_str(), 0);
                    if leader.is_none() {
                        leader = Some(id.clone());
                        changed = true;
                        format!("{} is the first member added: it leads", q(id))
                    } else {
                        format!("{} joins; the leader stays", q(id))
                    }
                }
            }
            GroupEvent::Leave(id) => {
                if members.remove(&id.as_str()).is_none() {
                    format!("{} was not a member: no change", q(id))
                } else if leader.as_deref() == Some(id.as_str()) {
                    leader = members.keys().next().map(|k| k.to_string());
                    changed = true;
                    match &leader {
                        Some(n) => format!(
                            "the leader {} left: {} leads, the first key of the members \
                             HashMap (capacity {}, bucket {})",
                            q(id),
                            q(n),
                            members.capacity(),
                            bucket(n, members.capacity())
                        ),
                        None => format!(
                            "the leader {} left and the group is empty: no leader",
                            q(id)
                        ),
                    }
                } else {
                    format!("{} leaves; the leader stays", q(id))
                }
            }
        };
        steps.push(LeaderStep {
            event: e.clone(),
            changed,
            leader: leader.clone(),
            // After a leave or a change of leader only: a snapshot after every join would make
            // a 10,000-member group's history quadratic (seconds in the page).
            members: if snapshots && (matches!(e, GroupEvent::Leave(_)) || changed) {
                members.keys().map(|k| k.to_string()).collect()
            } else {
                Vec::new()
            },
            why,
        });
    }
    let next_leader = members
        .keys()
        .find(|k| Some(**k) != leader.as_deref())
        .map(|k| k.to_string());
    LeaderHistory {
        steps,
        next_leader,
        leader,
        members: members.keys().map(|k| k.to_string()).collect(),
        capacity: members.capacity(),
    }
}

/// All `joins` first, then the `leaves` in order (the vectors' shape).
pub fn leader_after(joins: &[String], leaves: &[String]) -> LeaderHistory {
    let events: Vec<GroupEvent> = joins
        .iter()
        .map(|j| GroupEvent::Join(j.clone()))
        .chain(leaves.iter().map(|l| GroupEvent::Leave(l.clone())))
        .collect();
    run_events(&events)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn not_the_second_joiner() {
        let h = leader_after(&ids(&["z", "y", "x"]), &ids(&["z"]));
        assert_eq!(h.leader.as_deref(), Some("x"));
        assert!(h.steps[3].changed);
        assert!(h.steps[3].why.contains("bucket 8"), "{}", h.steps[3].why);
        assert_eq!(h.next_leader.as_deref(), Some("y"));
    }

    #[test]
    fn next_leader_before_the_leader_leaves() {
        let h = leader_after(&ids(&["z", "y", "x"]), &[]);
        assert_eq!(h.leader.as_deref(), Some("z"));
        assert_eq!(h.next_leader.as_deref(), Some("x"));
        let after = leader_after(&ids(&["z", "y", "x"]), &ids(&["z"]));
        assert_eq!(after.leader, h.next_leader);
    }

    #[test]
    fn empty_and_unknown() {
        let h = leader_after(&ids(&["a"]), &ids(&["b", "a"]));
        assert!(!h.steps[1].changed);
        assert_eq!(h.leader, None);
        assert_eq!(h.next_leader, None);
        // the first joiner after the group emptied leads
        let h = run_events(&[
            GroupEvent::Join("a".into()),
            GroupEvent::Leave("a".into()),
            GroupEvent::Join("b".into()),
        ]);
        assert_eq!(h.leader.as_deref(), Some("b"));
    }
}
