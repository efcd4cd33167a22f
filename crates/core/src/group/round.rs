//! One rebalance round of the classic protocol, step by step, as text with the real numbers:
//! FindCoordinator, JoinGroup, the leader's assignment, SyncGroup, Heartbeat; and what
//! eager and cooperative rebalancing stop while it runs.

use super::{Coordinator, ProtocolSelection};
use crate::protocol::hex::to_hex;
use crate::protocol::{
    encode_sticky_user_data, encode_subscription_parts, SubscriptionParts, TopicPartitions,
};

/// A member as the round sees it. [`round`] reads `metadata`, `assignment` and `assigned`
/// only for the members whose lines it shows; the other fields count every member.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundMember<'a> {
    /// Member id.
    pub id: String,
    /// The protocols its JoinGroup lists, in preference order.
    pub protocols: &'a [String],
    /// The metadata its JoinGroup carries for each of `protocols`, in the same order
    /// ([`join_metadata`]).
    pub metadata: Vec<Vec<u8>>,
    /// Its client rebalances eagerly (not every assignor it lists is cooperative), so it
    /// gave up what it owned before joining.
    pub eager: bool,
    /// Its ConsumerProtocolAssignment (what SyncGroup answers it).
    pub assignment: Vec<u8>,
    /// The partitions it is assigned.
    pub assigned: Vec<TopicPartitions>,
    /// The partitions it owned before the round (from the pinned baseline), per topic, as
    /// an assignor's input carries them.
    pub owned_before: &'a [(String, Vec<i32>)],
    /// What cooperative-sticky's first round gives it on the same change (what it keeps and
    /// takes at once; each topic's partitions ascending); `None` when that was not computed.
    pub cooperative: Option<Vec<TopicPartitions>>,
}

/// The protocols the Java client rebalances cooperatively with: every assignor listed must
/// support COOPERATIVE (`ConsumerCoordinator`: the highest protocol all its assignors
/// support); range, round-robin and sticky support only EAGER, and so does an assignor this
/// tool does not know (the interface's default).
pub fn rebalances_eagerly(protocols: &[String]) -> bool {
    protocols.is_empty() || protocols.iter().any(|p| p != "cooperative-sticky")
}

/// What a Java consumer's JoinGroup carries for each protocol it lists
/// (`ConsumerCoordinator.metadata`): its subscription written at `version`, with each
/// assignor's own user data (`subscriptionUserData`: none for range and round-robin; for
/// sticky its last assignment and generation once it has had one; for cooperative-sticky the
/// generation in 4 bytes), and its owned partitions only when it rebalances cooperatively (an
/// eager client revoked them in `onJoinPrepare`, before the join). `pasted`: the bytes the
/// member was given by hand, which stand for every entry.
pub fn join_metadata(
    sub: SubscriptionParts<'_>,
    protocols: &[String],
    pasted: Option<&[u8]>,
    version: i16,
) -> Vec<Vec<u8>> {
    let had = !sub.owned_partitions.is_empty() || sub.generation_id != -1;
    // the subscription every entry shares: the owned partitions only when cooperative
    let mut entry = sub;
    if rebalances_eagerly(protocols) {
        entry.owned_partitions = &[];
    }
    protocols
        .iter()
        .map(|p| {
            if let Some(b) = pasted {
                return b.to_vec();
            }
            let user_data = match p.as_str() {
                "cooperative-sticky" => Some(sub.generation_id.to_be_bytes().to_vec()),
                "sticky" if had => {
                    encode_sticky_user_data(sub.owned_partitions, sub.generation_id).ok()
                }
                _ => None,
            };
            let entry = SubscriptionParts {
                user_data: user_data.as_deref(),
                ..entry
            };
            encode_subscription_parts(entry, version)
                .map(|e| e.bytes)
                .unwrap_or_default()
        })
        .collect()
}

/// After a step's member lines (`lines`, `total` had every member had one): how many
/// were left out, if any.
fn more(lines: &mut Vec<String>, total: usize) {
    if total > lines.len() {
        lines.push(format!(
            "… {} more (show all members above)",
            total - lines.len()
        ));
    }
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

/// Whether `tps` holds partition `p` of `topic`; `tps` is an assignment (each topic's
/// partitions ascending, as the page builds them), searched by halves: a member keeping a
/// million partitions made a scan per owned partition hang.
fn owns(tps: &[TopicPartitions], topic: &str, p: i32) -> bool {
    tps.iter()
        .any(|t| t.topic == topic && t.partitions.binary_search(&p).is_ok())
}

/// What each protocol stops: eager revokes everything owned; cooperative (cooperative-sticky
/// on the same change, its first round) only what leaves the member.
pub fn revocations(members: &[RoundMember]) -> Revocations {
    let mut r = Revocations::default();
    for m in members {
        let n = m.owned_before.iter().map(|(_, ps)| ps.len() as u32).sum();
        if n > 0 {
            r.eager.push((m.id.clone(), n));
        }
        let Some(keeps) = &m.cooperative else {
            continue;
        };
        let mut moving = 0;
        let mut which = Vec::new();
        for (topic, partitions) in m.owned_before {
            let gone: Vec<u32> = partitions
                .iter()
                .filter(|p| !owns(keeps, topic, **p))
                .map(|p| *p as u32)
                .collect();
            if !gone.is_empty() {
                moving += gone.len() as u32;
                which.push(format!(
                    "{} {}",
                    topic,
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

/// What the leader runs in the round: the assignor's name, whether it is the vote's winner
/// (else it was set by hand), and how many partitions it withholds for a follow-up round
/// (cooperative-sticky).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundAssignor {
    /// The assignor's protocol name.
    pub name: String,
    /// It is the vote's winner.
    pub by_vote: bool,
    /// It follows the vote, but the vote chose a protocol the tool does not run (or none), so
    /// the assignor already on screen is kept.
    pub kept: bool,
    /// Partitions it leaves unassigned until their owners have revoked them.
    pub withheld: u32,
}

/// The round: coordinator, the vote's outcome, the leader, what it runs and the members'
/// bytes. Each step has a line for each of its first `shown` members, then one saying how
/// many more there are: only those members' `metadata` and `assignment` are read (a large
/// group's page computes only the bytes it shows).
pub fn round(
    c: &Coordinator,
    vote: &ProtocolSelection,
    leader: Option<&str>,
    runs: &RoundAssignor,
    members: &[RoundMember],
    shown: usize,
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
    for m in members.iter().take(shown) {
        let mut line = format!("{} lists {} protocol(s):", m.id, m.protocols.len());
        for (p, b) in m.protocols.iter().zip(&m.metadata) {
            line.push_str(&format!(" {p} ({} bytes)", b.len()));
        }
        if m.eager && !m.owned_before.is_empty() {
            line.push_str(
                "; its client rebalances eagerly, so it gave up its partitions before joining",
            );
        }
        if let Some(r) = vote.refused.iter().find(|r| r.id == m.id) {
            line.push_str(&format!(": refused, {}", r.error.name()));
        }
        join.push(line);
    }
    more(&mut join, members.len());
    join.push(format!(
        "each entry is the member's ConsumerProtocolSubscription with that assignor's user \
         data (none for range and roundrobin, the generation for cooperative-sticky, the last \
         assignment for sticky); the coordinator waits for all, selects {protocol} and answers \
         the leader ({}) with every member's metadata for {protocol}, the others with none",
        leader.unwrap_or("none")
    ));
    steps.push(RoundStep {
        name: "JoinGroup",
        lines: join,
    });
    let mut lead = vec![format!(
        "{} decodes the subscriptions and runs {}{}",
        leader.unwrap_or("no leader"),
        runs.name,
        match (runs.by_vote, runs.kept, &vote.selected) {
            (true, _, _) => " (the vote's winner)".to_string(),
            (_, _, None) => " (the vote selected no protocol)".to_string(),
            (_, true, _) => format!(" (the vote chose {protocol}, which this tool does not run)"),
            _ => format!(" (set by hand here; the vote chose {protocol})"),
        }
    )];
    let accepted_n = members.iter().filter(|m| accepted(&m.id)).count();
    // the accepted among the first `shown` members (the ones whose bytes were built)
    let shown_members = &members[..shown.min(members.len())];
    for m in shown_members.iter().filter(|m| accepted(&m.id)) {
        lead.push(format!("{}: {} partition(s)", m.id, count(&m.assigned)));
    }
    more(&mut lead, accepted_n + 1);
    let eager = members
        .iter()
        .filter(|m| m.eager && accepted(&m.id))
        .count();
    if runs.name == "cooperative-sticky" && eager > 0 {
        // Not modelled: the assignment on screen is cooperative-sticky's with every member's
        // previous partitions; say where Kafka differs.
        lead.push(format!(
            "{eager} member(s) list an eager assignor too (range, roundrobin or sticky), so in \
             Kafka their clients rebalance eagerly: they revoke everything before joining, \
             cooperative-sticky sees no partitions of theirs as owned and keeps none for them; \
             this page runs it as if every member rebalanced cooperatively (set their \
             partition.assignment.strategy to cooperative-sticky alone, the last step of the \
             upgrade)"
        ));
    }
    if runs.withheld > 0 {
        lead.push(format!(
            "{} partition(s) change owner and are withheld: their owners revoke them and \
             rejoin at once, and a second round (the same five steps) hands them over",
            runs.withheld
        ));
    }
    steps.push(RoundStep {
        name: "Assignment",
        lines: lead,
    });
    let mut sync =
        vec!["the leader sends every assignment; the others send none and wait".to_string()];
    for m in shown_members.iter().filter(|m| accepted(&m.id)) {
        sync.push(format!(
            "{} gets {} bytes: {}",
            m.id,
            m.assignment.len(),
            to_hex(&m.assignment)
        ));
    }
    more(&mut sync, accepted_n + 1);
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
    use crate::protocol::Subscription;

    fn tp(t: &str, ps: &[i32]) -> TopicPartitions {
        TopicPartitions {
            topic: t.into(),
            partitions: ps.to_vec(),
        }
    }

    #[test]
    fn cooperative_stops_only_what_moves() {
        let (a, b) = (
            vec![("t".to_string(), vec![0, 1, 2])],
            vec![("t".to_string(), vec![3])],
        );
        let members = vec![
            RoundMember {
                id: "a".into(),
                owned_before: &a,
                assigned: vec![tp("t", &[0])],
                cooperative: Some(vec![tp("t", &[0, 1])]),
                ..Default::default()
            },
            RoundMember {
                id: "b".into(),
                owned_before: &b,
                assigned: vec![tp("t", &[1, 2, 3])],
                cooperative: Some(vec![tp("t", &[3])]),
                ..Default::default()
            },
        ];
        let r = revocations(&members);
        assert_eq!(r.eager, [("a".to_string(), 3), ("b".to_string(), 1)]);
        // what cooperative-sticky's first round takes away, not what the assignor on
        // screen moves
        assert_eq!(r.cooperative, [("a".to_string(), 1, "t 2".to_string())]);
        let none = revocations(&[RoundMember {
            cooperative: None,
            ..members[0].clone()
        }]);
        assert!(none.cooperative.is_empty());
    }

    fn java_default() -> Vec<String> {
        vec!["range".into(), "cooperative-sticky".into()]
    }

    #[test]
    fn each_protocol_carries_its_own_user_data() {
        let sub = Subscription {
            topics: vec!["orders".into()],
            user_data: None,
            owned_partitions: vec![tp("orders", &[0, 1])],
            generation_id: 4,
            rack_id: None,
        };
        // Java's default lists range: the client is eager, its owned partitions are gone
        assert!(rebalances_eagerly(&java_default()));
        let m = join_metadata(SubscriptionParts::of(&sub), &java_default(), None, 3);
        let range = crate::protocol::decode_subscription(&m[0])
            .into_result()
            .unwrap();
        assert_eq!(range.user_data, None);
        assert!(range.owned_partitions.is_empty());
        assert_eq!(range.generation_id, 4);
        let coop = crate::protocol::decode_subscription(&m[1])
            .into_result()
            .unwrap();
        assert_eq!(coop.user_data.as_deref(), Some(&[0, 0, 0, 4][..]));
        // only cooperative-sticky: cooperative, it keeps what it owns while joining
        let only = vec!["cooperative-sticky".to_string()];
        assert!(!rebalances_eagerly(&only));
        let m = join_metadata(SubscriptionParts::of(&sub), &only, None, 3);
        let coop = crate::protocol::decode_subscription(&m[0])
            .into_result()
            .unwrap();
        assert_eq!(coop.owned_partitions, sub.owned_partitions);
        // sticky: its last assignment and generation, as StickyAssignor's user data
        let m = join_metadata(
            SubscriptionParts::of(&sub),
            &["sticky".to_string()],
            None,
            3,
        );
        let sticky = crate::protocol::decode_subscription(&m[0])
            .into_result()
            .unwrap();
        let ud = crate::protocol::sticky::decode_sticky_user_data(&sticky.user_data.unwrap());
        assert_eq!(
            ud,
            Some(crate::protocol::sticky::StickyUserData::Sticky {
                previous: vec![tp("orders", &[0, 1])],
                generation: Some(4),
            })
        );
        // never assigned: sticky sends no user data
        let fresh = Subscription {
            owned_partitions: Vec::new(),
            generation_id: -1,
            ..sub.clone()
        };
        let m = join_metadata(
            SubscriptionParts::of(&fresh),
            &["sticky".to_string()],
            None,
            3,
        );
        let s = crate::protocol::decode_subscription(&m[0])
            .into_result()
            .unwrap();
        assert_eq!(s.user_data, None);
        // bytes given by hand stand for every entry
        let m = join_metadata(
            SubscriptionParts::of(&sub),
            &java_default(),
            Some(&[1, 2, 3]),
            3,
        );
        assert_eq!(m, vec![vec![1, 2, 3], vec![1, 2, 3]]);
    }

    #[test]
    fn steps_carry_the_numbers() {
        let c = coordinator("orders", 50).unwrap();
        let v = select_protocol(&[
            JoinRequest::new("a", &["range"]),
            JoinRequest::new("b", &["roundrobin"]),
        ])
        .unwrap();
        let (range, roundrobin) = (vec!["range".to_string()], vec!["roundrobin".to_string()]);
        let members = vec![
            RoundMember {
                id: "a".into(),
                protocols: &range,
                metadata: vec![vec![0; 7]],
                assignment: vec![0, 3],
                ..Default::default()
            },
            RoundMember {
                id: "b".into(),
                protocols: &roundrobin,
                ..Default::default()
            },
        ];
        let runs = RoundAssignor {
            name: "range".into(),
            by_vote: true,
            ..Default::default()
        };
        let s = round(&c, &v, Some("a"), &runs, &members, usize::MAX);
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
        assert!(s[2].lines[0].ends_with("runs range (the vote's winner)"));
        // set by hand, and withholding: both said
        let runs = RoundAssignor {
            name: "cooperative-sticky".into(),
            withheld: 3,
            ..Default::default()
        };
        let s = round(&c, &v, Some("a"), &runs, &members, usize::MAX);
        assert!(s[2].lines[0]
            .ends_with("runs cooperative-sticky (set by hand here; the vote chose range)"));
        assert!(s[2]
            .lines
            .last()
            .unwrap()
            .starts_with("3 partition(s) change owner"));
        // following a vote for a protocol the tool does not run: said, not "by hand"
        let kept = RoundAssignor {
            name: "range".into(),
            kept: true,
            ..Default::default()
        };
        let s = round(&c, &v, Some("a"), &kept, &members, usize::MAX);
        assert!(s[2].lines[0].ends_with("(the vote chose range, which this tool does not run)"));
        // members whose lists name an eager assignor: where Kafka differs is said
        let eager = vec![RoundMember {
            eager: true,
            ..members[0].clone()
        }];
        let s = round(&c, &v, Some("a"), &runs, &eager, usize::MAX);
        assert!(s[2]
            .lines
            .iter()
            .any(|l| l.starts_with("1 member(s) list an eager assignor too")));
    }

    #[test]
    fn a_large_group_has_lines_for_the_members_shown_and_a_count_of_the_rest() {
        let c = coordinator("g", 50).unwrap();
        let ids: Vec<String> = (0..5).map(|i| format!("m{i}")).collect();
        let requests: Vec<JoinRequest> = ids
            .iter()
            .map(|i| JoinRequest::new(i, &["range"]))
            .collect();
        let v = select_protocol(&requests).unwrap();
        let range = vec!["range".to_string()];
        let owned: Vec<Vec<(String, Vec<i32>)>> = (0..ids.len())
            .map(|i| vec![("t".to_string(), vec![i as i32])])
            .collect();
        let members: Vec<RoundMember> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| RoundMember {
                id: id.clone(),
                protocols: &range,
                // only the members shown carry bytes, as the page builds them
                metadata: if i < 2 { vec![vec![0; 9]] } else { Vec::new() },
                eager: true,
                owned_before: &owned[i],
                ..Default::default()
            })
            .collect();
        let runs = RoundAssignor {
            name: "cooperative-sticky".into(),
            ..Default::default()
        };
        let all = round(&c, &v, Some("m0"), &runs, &members, usize::MAX);
        let cut = round(&c, &v, Some("m0"), &runs, &members, 2);
        // JoinGroup: two member lines, the count of the rest, the summary
        assert_eq!(cut[1].lines.len(), 4, "{:?}", cut[1]);
        assert_eq!(cut[1].lines[..2], all[1].lines[..2]);
        assert_eq!(cut[1].lines[2], "… 3 more (show all members above)");
        assert_eq!(cut[1].lines.last(), all[1].lines.last());
        // the leader's lines: header, two members, the rest counted, and what counts every
        // member (five eager clients) still counts them all
        assert_eq!(cut[2].lines[3], "… 3 more (show all members above)");
        assert!(cut[2].lines[4].starts_with("5 member(s) list an eager assignor too"));
        assert_eq!(cut[3].lines.len(), 4);
        assert_eq!(cut[3].lines[3], "… 3 more (show all members above)");
        // nothing left out: no count line
        assert!(!all
            .iter()
            .flat_map(|s| &s.lines)
            .any(|l| l.contains("more (show all")));
        // a refused member among those shown: the steps after the vote show the accepted
        // among the same members, never one whose bytes were not built
        let mut requests = requests.clone();
        requests[1] = JoinRequest::new("m1", &["roundrobin"]);
        let refused = select_protocol(&requests).unwrap();
        assert_eq!(refused.refused.len(), 1, "{refused:?}");
        let cut = round(&c, &refused, Some("m0"), &runs, &members, 3);
        // SyncGroup: the header, m0 and m2 (m1 refused), then m3 and m4 counted
        assert_eq!(cut[3].lines.len(), 4, "{:?}", cut[3]);
        assert!(cut[3].lines[1].starts_with("m0 gets"), "{:?}", cut[3]);
        assert!(cut[3].lines[2].starts_with("m2 gets"), "{:?}", cut[3]);
        assert_eq!(cut[3].lines[3], "… 2 more (show all members above)");
    }
}
