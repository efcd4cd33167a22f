//! One rebalance round of the classic protocol, step by step, as text with the real numbers:
//! FindCoordinator, JoinGroup, the leader's assignment, SyncGroup, Heartbeat; and what
//! eager and cooperative rebalancing stop while it runs.

use super::{Coordinator, ProtocolSelection};
use crate::protocol::hex::to_hex;
use crate::protocol::TopicPartitions;

/// A member as the round sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundMember {
    /// Member id.
    pub id: String,
    /// The protocols its JoinGroup lists, in preference order.
    pub protocols: Vec<String>,
    /// Its ConsumerProtocolSubscription (the metadata of every protocol it lists).
    pub subscription: Vec<u8>,
    /// Its ConsumerProtocolAssignment (what SyncGroup answers it).
    pub assignment: Vec<u8>,
    /// The partitions it is assigned.
    pub assigned: Vec<TopicPartitions>,
    /// The partitions it owned before the round (from the pinned baseline).
    pub owned_before: Vec<TopicPartitions>,
}

/// One step of the round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundStep {
    /// The request, as Kafka names it.
    pub name: &'static str,
    /// What happens, a line each.
    pub lines: Vec<String>,
}

/// Who stops consuming what, and for how long, under each rebalance protocol.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Revocations {
    /// Eager: each member and how many partitions it stops (all it owned), for one round
    /// trip (JoinGroup to SyncGroup).
    pub eager: Vec<(String, u32)>,
    /// Cooperative: each member that gives partitions away, how many, and which; they stop
    /// from the end of the first round to the end of the second (two round trips), the
    /// others never stop.
    pub cooperative: Vec<(String, u32, String)>,
}

fn count(tps: &[TopicPartitions]) -> u32 {
    tps.iter().map(|t| t.partitions.len() as u32).sum()
}

fn owns(tps: &[TopicPartitions], topic: &str, p: i32) -> bool {
    tps.iter()
        .any(|t| t.topic == topic && t.partitions.contains(&p))
}

/// What each protocol stops: eager revokes everything owned, cooperative only what moves.
pub fn revocations(members: &[RoundMember]) -> Revocations {
    let mut r = Revocations::default();
    for m in members {
        let n = count(&m.owned_before);
        if n > 0 {
            r.eager.push((m.id.clone(), n));
        }
        let mut moving = 0;
        let mut which = Vec::new();
        for t in &m.owned_before {
            let gone: Vec<u32> = t
                .partitions
                .iter()
                .filter(|p| !owns(&m.assigned, &t.topic, **p))
                .map(|p| *p as u32)
                .collect();
            if !gone.is_empty() {
                moving += gone.len() as u32;
                which.push(format!(
                    "{} {}",
                    t.topic,
                    crate::assignor::explain::partition_list(&gone)
                ));
            }
        }
        if moving > 0 {
            r.cooperative.push((m.id.clone(), moving, which.join("; ")));
        }
    }
    r
}

/// The round: coordinator, the vote's outcome, the leader and the members' bytes.
pub fn round(
    c: &Coordinator,
    vote: &ProtocolSelection,
    leader: Option<&str>,
    members: &[RoundMember],
) -> Vec<RoundStep> {
    let protocol = vote.selected.as_deref().unwrap_or("(none)");
    // (a set: a linear search per member made a 10,000-member round quadratic)
    let ids: crate::collections::Names = vote.accepted.iter().map(|a| (a.id.clone(), 0)).collect();
    let accepted = |id: &str| ids.contains_key(id);
    let mut steps = Vec::with_capacity(5);
    steps.push(RoundStep {
        name: "FindCoordinator",
        lines: vec![format!(
            "each member asks any broker for the coordinator of {}: partition {} of \
             __consumer_offsets (abs({}) % {}); the broker leading it answers",
            super::quoted(&c.group_id),
            c.partition,
            c.hash_code,
            c.offsets_partitions
        )],
    });
    let mut join = Vec::new();
    for m in members {
        let mut line = format!("{} lists {}", m.id, m.protocols.len());
        line.push_str(" protocol(s):");
        for p in &m.protocols {
            line.push_str(&format!(" {p} ({} bytes)", m.subscription.len()));
        }
        if let Some(r) = vote.refused.iter().find(|r| r.id == m.id) {
            line.push_str(&format!(": refused, {}", r.error.name()));
        }
        join.push(line);
    }
    join.push(format!(
        "every entry carries the same ConsumerProtocolSubscription; the coordinator waits for \
         all, selects {protocol} and answers the leader ({}) with every member's metadata for \
         {protocol}, the others with none",
        leader.unwrap_or("none")
    ));
    steps.push(RoundStep {
        name: "JoinGroup",
        lines: join,
    });
    let mut lead = vec![format!(
        "{} decodes the subscriptions and runs {protocol}",
        leader.unwrap_or("no leader")
    )];
    for m in members.iter().filter(|m| accepted(&m.id)) {
        lead.push(format!("{}: {} partition(s)", m.id, count(&m.assigned)));
    }
    steps.push(RoundStep {
        name: "Assignment",
        lines: lead,
    });
    let mut sync =
        vec!["the leader sends every assignment; the others send none and wait".to_string()];
    for m in members.iter().filter(|m| accepted(&m.id)) {
        sync.push(format!(
            "{} gets {} bytes: {}",
            m.id,
            m.assignment.len(),
            to_hex(&m.assignment)
        ));
    }
    steps.push(RoundStep {
        name: "SyncGroup",
        lines: sync,
    });
    steps.push(RoundStep {
        name: "Heartbeat",
        lines: vec![
            "each member heartbeats (heartbeat.interval.ms, 3 s by default); while the group \
             is stable the answer is NONE, during the next rebalance REBALANCE_IN_PROGRESS, \
             which sends every member back to JoinGroup"
                .to_string(),
        ],
    });
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::{coordinator, select_protocol, JoinRequest};

    fn tp(t: &str, ps: &[i32]) -> TopicPartitions {
        TopicPartitions {
            topic: t.into(),
            partitions: ps.to_vec(),
        }
    }

    #[test]
    fn cooperative_stops_only_what_moves() {
        let members = vec![
            RoundMember {
                id: "a".into(),
                owned_before: vec![tp("t", &[0, 1, 2])],
                assigned: vec![tp("t", &[0, 1])],
                ..Default::default()
            },
            RoundMember {
                id: "b".into(),
                owned_before: vec![tp("t", &[3])],
                assigned: vec![tp("t", &[2, 3])],
                ..Default::default()
            },
        ];
        let r = revocations(&members);
        assert_eq!(r.eager, [("a".to_string(), 3), ("b".to_string(), 1)]);
        assert_eq!(r.cooperative, [("a".to_string(), 1, "t 2".to_string())]);
    }

    #[test]
    fn steps_carry_the_numbers() {
        let c = coordinator("orders", 50).unwrap();
        let v = select_protocol(&[
            JoinRequest::new("a", &["range"]),
            JoinRequest::new("b", &["roundrobin"]),
        ])
        .unwrap();
        let members = vec![
            RoundMember {
                id: "a".into(),
                protocols: vec!["range".into()],
                subscription: vec![0; 7],
                assignment: vec![0, 3],
                ..Default::default()
            },
            RoundMember {
                id: "b".into(),
                protocols: vec!["roundrobin".into()],
                ..Default::default()
            },
        ];
        let s = round(&c, &v, Some("a"), &members);
        let names: Vec<_> = s.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            [
                "FindCoordinator",
                "JoinGroup",
                "Assignment",
                "SyncGroup",
                "Heartbeat"
            ]
        );
        assert!(s[0].lines[0].contains("partition 31"), "{:?}", s[0]);
        assert!(s[1].lines[0].contains("range (7 bytes)"));
        assert!(s[1].lines[1].contains("INCONSISTENT_GROUP_PROTOCOL"));
        // a refused member gets no assignment
        assert_eq!(s[3].lines.len(), 2);
        assert!(s[3].lines[1].ends_with("0003"), "{:?}", s[3]);
    }
}
