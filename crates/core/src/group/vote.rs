//! Joining and the protocol vote: which joiners the group accepts and which assignor it
//! uses (`ClassicGroup.supportsProtocols`, `add`, `candidateProtocols`, `selectProtocol`,
//! `ClassicGroupMember.vote`).
//!
//! Every member is taken to have protocol type `consumer`. As in Kafka:
//! - An empty group accepts any non-empty protocol list. After that a joiner is accepted
//!   only if one of its protocol names is counted by every current member; otherwise it gets
//!   INCONSISTENT_GROUP_PROTOCOL and the group is unchanged.
//! - The broker counts, per protocol name, the members listing it (`supportedProtocols`, a
//!   `HashMap<String, Integer>`), one count per list entry: a name listed twice by one member
//!   counts twice, which Kafka's collection of protocols allows. Candidates are the names
//!   whose count equals the member count.
//! - Each member, in the members `HashMap`'s iteration order, votes for its first listed
//!   candidate; votes go into a fresh `HashMap<String, Integer>`; `Stream.max` over its
//!   entries keeps the first of the equal maxima, so ties go to the name that iterates first.

use crate::java::hash_map::spread;
use crate::java::{JavaHash, JavaHashMap};
use std::fmt;

/// A JoinGroup request, as far as the vote goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct JoinRequest {
    /// Member id.
    pub id: String,
    /// Protocol (assignor) names, in the member's preference order.
    pub protocols: Vec<String>,
}

impl JoinRequest {
    /// A request from `id` listing `protocols`.
    pub fn new(id: impl Into<String>, protocols: &[&str]) -> Self {
        JoinRequest {
            id: id.into(),
            protocols: protocols.iter().map(|p| p.to_string()).collect(),
        }
    }
}

/// The error a refused joiner gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum JoinError {
    /// INCONSISTENT_GROUP_PROTOCOL (error code 23).
    InconsistentGroupProtocol,
}

impl JoinError {
    /// Kafka's name of the error.
    pub fn name(self) -> &'static str {
        match self {
            JoinError::InconsistentGroupProtocol => "INCONSISTENT_GROUP_PROTOCOL",
        }
    }
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A joiner the group accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admission {
    /// Member id.
    pub id: String,
    /// Why it was accepted.
    pub why: String,
}

/// A joiner the group refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Member id.
    pub id: String,
    /// The error in its JoinGroup response.
    pub error: JoinError,
    /// Why.
    pub why: String,
}

/// One member's vote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberVote {
    /// Member id.
    pub id: String,
    /// The protocol it votes for, with its position in the member's list (0 first); `None`
    /// when it lists no candidate (Java then throws).
    pub vote: Option<(String, usize)>,
    /// Why this vote.
    pub why: String,
}

/// Votes counted in a Java `HashMap<String, Integer>`, and the winner `Stream.max` picks.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tally {
    /// Protocol name and votes, in the map's iteration order.
    pub counts: Vec<(String, u32)>,
    /// Bucket of each name (same order as `counts`).
    pub buckets: Vec<usize>,
    /// The map's table size.
    pub capacity: usize,
    /// The most voted name, the first in iteration order among equals.
    pub winner: Option<String>,
    /// The names with the winner's count, in iteration order (more than one: a tie).
    pub tied: Vec<String>,
}

impl Tally {
    /// Votes for `name`.
    pub fn votes(&self, name: &str) -> u32 {
        self.counts
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, c)| *c)
    }

    /// Why the winner won, in words.
    pub fn why(&self) -> String {
        let Some(w) = &self.winner else {
            return "no votes".into();
        };
        let top = self.votes(w);
        if self.tied.len() < 2 {
            return format!("{w} has the most votes ({top})");
        }
        let bucket_of = |n: &str| {
            self.counts
                .iter()
                .position(|(x, _)| x == n)
                .map_or(0, |i| self.buckets[i])
        };
        let placed: Vec<String> = self
            .tied
            .iter()
            .map(|n| format!("{n} in bucket {}", bucket_of(n)))
            .collect();
        let mut why = format!(
            "tie at {top} vote(s) between {}: Java's Stream.max keeps the first in the tally \
             HashMap's iteration order (capacity {}: {}), so {w} wins",
            self.tied.join(", "),
            self.capacity,
            placed.join(", ")
        );
        if self
            .tied
            .iter()
            .skip(1)
            .any(|n| bucket_of(n) == bucket_of(w))
        {
            why.push_str(
                "; names in one bucket iterate in the order they got their first vote, \
                 and members vote in the members HashMap's iteration order",
            );
        }
        why
    }
}

/// Counts `votes` (protocol names, in the order members cast them) as `selectProtocol` does.
pub fn tally<'a>(votes: impl IntoIterator<Item = &'a str>) -> Tally {
    let mut map: JavaHashMap<&str, u32> = JavaHashMap::new();
    for v in votes {
        let n = map.get(&v).copied().unwrap_or(0);
        map.insert(v, n + 1);
    }
    let capacity = map.capacity();
    let counts: Vec<(String, u32)> = map.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let buckets = counts
        .iter()
        .map(|(k, _)| spread(k.java_hash()) as usize & capacity.saturating_sub(1))
        .collect();
    // Stream.max = reduce((a, b) -> compare(a, b) >= 0 ? a : b): the first maximum stays.
    let mut winner: Option<&(String, u32)> = None;
    for e in &counts {
        if winner.is_none_or(|w| e.1 > w.1) {
            winner = Some(e);
        }
    }
    let tied = winner.map_or(Vec::new(), |w| {
        counts
            .iter()
            .filter(|e| e.1 == w.1)
            .map(|e| e.0.clone())
            .collect()
    });
    Tally {
        winner: winner.map(|w| w.0.clone()),
        counts,
        buckets,
        capacity,
        tied,
    }
}

/// The whole join-and-vote, with reasons.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProtocolSelection {
    /// Accepted joiners, in join order (the first one leads).
    pub accepted: Vec<Admission>,
    /// Refused joiners, in join order.
    pub refused: Vec<Refusal>,
    /// Member ids in the members `HashMap`'s iteration order: the order they vote in.
    pub member_order: Vec<String>,
    /// Per protocol name, how many list entries of members name it, in the
    /// `supportedProtocols` map's order.
    pub supported: Vec<(String, u32)>,
    /// Names every member lists (`candidateProtocols`), in `supportedProtocols` order.
    pub candidates: Vec<String>,
    /// Each member's vote, in `member_order`.
    pub votes: Vec<MemberVote>,
    /// The counted votes and the winner.
    pub tally: Tally,
    /// The selected protocol; `None` when no member was accepted or Java throws.
    pub selected: Option<String>,
    /// Why `selected` (or why none).
    pub why: String,
    /// The exception Java's `selectProtocol` throws instead of selecting, if it does.
    pub java_exception: Option<String>,
}

impl ProtocolSelection {
    /// Accepted member ids, in join order.
    pub fn accepted_ids(&self) -> Vec<&str> {
        self.accepted.iter().map(|a| a.id.as_str()).collect()
    }
}

/// An input the broker could never see: two joiners with one member id (the coordinator
/// generates unique ids).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateMemberId(pub String);

impl fmt::Display for DuplicateMemberId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "member id {} joins twice; the coordinator gives every member its own id",
            super::quoted(&self.0)
        )
    }
}

impl std::error::Error for DuplicateMemberId {}

fn list(names: &[String]) -> String {
    format!("[{}]", names.join(", "))
}

/// Members join in `requests` order; the group accepts or refuses each, then votes.
pub fn select_protocol(requests: &[JoinRequest]) -> Result<ProtocolSelection, DuplicateMemberId> {
    let borrowed: Vec<Join<'_>> = requests
        .iter()
        .map(|r| Join {
            id: &r.id,
            protocols: &r.protocols,
        })
        .collect();
    select(&borrowed)
}

/// A join request borrowed from where it is kept (a scenario's members: at 10,000 of them,
/// copying each id and list for the vote was 40,000 allocations).
#[derive(Debug, Clone, Copy)]
pub struct Join<'a> {
    /// Member id.
    pub id: &'a str,
    /// Protocol (assignor) names, in the member's preference order.
    pub protocols: &'a [String],
}

/// [`select_protocol`] of borrowed requests.
pub fn select(requests: &[Join<'_>]) -> Result<ProtocolSelection, DuplicateMemberId> {
    // (Every Java map here is keyed by name with a u32 value: one JavaHashMap type in the
    // page. A repeated id is found with a plain hash map: its order does not matter, and at
    // 10,000 members a Java one was a fifth of the vote.)
    let mut seen: crate::collections::FastMap<&str, usize> = Default::default();
    for r in requests {
        if seen.insert(r.id, 0).is_some() {
            return Err(DuplicateMemberId(r.id.to_string()));
        }
    }
    let mut out = ProtocolSelection::default();
    // ClassicGroup.members: member id -> its request.
    let mut members: JavaHashMap<&str, u32> = JavaHashMap::new();
    // ClassicGroup.supportedProtocols.
    let mut supported: JavaHashMap<&str, u32> = JavaHashMap::new();
    for (ri, r) in requests.iter().enumerate() {
        let count = |name: &str| supported.get(&name).copied().unwrap_or(0);
        let n = members.len() as u32;
        if members.is_empty() {
            // isInState(EMPTY): any non-empty protocol list (of a non-empty type) will do.
            if r.protocols.is_empty() {
                out.refused.push(Refusal {
                    id: r.id.to_string(),
                    error: JoinError::InconsistentGroupProtocol,
                    why: "it lists no protocol; even an empty group needs one".into(),
                });
                continue;
            }
            out.accepted.push(Admission {
                id: r.id.to_string(),
                why: format!(
                    "the group was empty, and an empty group accepts any non-empty list ({})",
                    list(r.protocols)
                ),
            });
        } else {
            // (the names every member lists, written straight into the reason: at 10,000
            // members no list of them is built per member)
            let mut why = String::from("every member lists ");
            let mut shared = 0;
            for p in r.protocols.iter().filter(|p| count(p) == n) {
                if shared > 0 {
                    why.push_str(", ");
                }
                why.push_str(p);
                shared += 1;
            }
            if shared == 0 {
                let counts: Vec<String> = r
                    .protocols
                    .iter()
                    .map(|p| format!("{p} by {}", count(p)))
                    .collect();
                out.refused.push(Refusal {
                    id: r.id.to_string(),
                    error: JoinError::InconsistentGroupProtocol,
                    why: if r.protocols.is_empty() {
                        "it lists no protocol".into()
                    } else {
                        format!(
                            "none of {} is listed by all {n} member(s) ({}); the group is unchanged",
                            list(r.protocols),
                            counts.join(", ")
                        )
                    },
                });
                continue;
            }
            out.accepted.push(Admission {
                id: r.id.to_string(),
                why,
            });
        }
        members.insert(r.id, ri as u32);
        for p in r.protocols {
            let c = supported.get(&p.as_str()).copied().unwrap_or(0);
            supported.insert(p.as_str(), c + 1);
        }
    }
    out.member_order = members.keys().map(|k| k.to_string()).collect();
    out.supported = supported.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    if members.is_empty() {
        out.why = "no member was accepted: there is nothing to select".into();
        out.java_exception =
            Some("IllegalStateException: Cannot select protocol for empty group".into());
        return Ok(out);
    }
    let n = members.len() as u32;
    // candidateProtocols: a HashSet of the names whose count is the member count.
    let mut candidates: JavaHashMap<&str, u32> = JavaHashMap::new();
    for (name, c) in supported.iter() {
        if *c == n {
            candidates.insert(*name, 0);
        }
    }
    out.candidates = candidates.keys().map(|k| k.to_string()).collect();
    let mut cast: Vec<&str> = Vec::new();
    for (id, ri) in members.iter() {
        let r = &requests[*ri as usize];
        let pick = r
            .protocols
            .iter()
            .enumerate()
            .find(|(_, p)| candidates.contains_key(&p.as_str()));
        let why = match pick {
            Some((0, p)) => format!("its first choice, {p}, is listed by every member"),
            Some((i, p)) => format!(
                "its first choice(s) {} are not listed by every member; {p} is",
                r.protocols[..i].join(", ")
            ),
            None => "it lists none of the candidates".into(),
        };
        out.votes.push(MemberVote {
            id: id.to_string(),
            vote: pick.map(|(i, p)| (p.clone(), i)),
            why,
        });
        match pick {
            Some((_, p)) => cast.push(p.as_str()),
            None => {
                out.why = format!(
                    "member {} lists no candidate (a name it lists twice counts twice), \
                     so Java throws instead of selecting",
                    super::quoted(id)
                );
                out.java_exception = Some(
                    "IllegalArgumentException: Member does not support any of the candidate \
                     protocols"
                        .into(),
                );
                return Ok(out);
            }
        }
    }
    out.tally = tally(cast);
    out.selected = out.tally.winner.clone();
    out.why = out.tally.why();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tie_goes_to_the_lower_bucket() {
        let s = select_protocol(&[
            JoinRequest::new("a", &["cooperative-sticky", "range"]),
            JoinRequest::new("b", &["range", "cooperative-sticky"]),
        ])
        .unwrap();
        assert_eq!(s.selected.as_deref(), Some("range"));
        assert_eq!(s.tally.tied, ["range", "cooperative-sticky"]);
        assert!(s.why.contains("range in bucket 9"), "{}", s.why);
    }

    #[test]
    fn same_bucket_tie_follows_member_order() {
        // roundrobin and custom-v1 share bucket 10; "a" iterates before "b".
        for (first, second, want) in [("a", "b", "roundrobin"), ("b", "a", "custom-v1")] {
            let s = select_protocol(&[
                JoinRequest::new(first, &["roundrobin", "custom-v1"]),
                JoinRequest::new(second, &["custom-v1", "roundrobin"]),
            ])
            .unwrap();
            assert_eq!(s.member_order, ["a", "b"]);
            assert_eq!(s.selected.as_deref(), Some(want));
            assert!(s.why.contains("one bucket"), "{}", s.why);
        }
    }

    #[test]
    fn refusals_say_why() {
        let s = select_protocol(&[
            JoinRequest::new("a", &["range"]),
            JoinRequest::new("b", &["range", "roundrobin"]),
            JoinRequest::new("c", &["roundrobin"]),
        ])
        .unwrap();
        assert_eq!(s.accepted_ids(), ["a", "b"]);
        assert_eq!(s.refused[0].id, "c");
        assert!(
            s.refused[0].why.contains("roundrobin by 1"),
            "{}",
            s.refused[0].why
        );
        assert_eq!(s.votes[1].vote, Some(("range".into(), 0)));
    }

    #[test]
    fn second_choice_vote() {
        let s = select_protocol(&[
            JoinRequest::new("a", &["sticky", "range"]),
            JoinRequest::new("b", &["range"]),
        ])
        .unwrap();
        let a = s.votes.iter().find(|v| v.id == "a").unwrap();
        assert_eq!(a.vote, Some(("range".into(), 1)));
        assert!(a.why.contains("sticky"));
    }

    #[test]
    fn a_name_listed_twice_counts_twice() {
        // supportedProtocols counts list entries: one member listing range twice makes its
        // count 2 with one member, so range is no candidate and Java's vote throws.
        let s = select_protocol(&[JoinRequest::new("a", &["range", "range"])]).unwrap();
        assert!(s.candidates.is_empty());
        assert!(s.selected.is_none());
        assert!(s
            .java_exception
            .as_deref()
            .unwrap()
            .starts_with("IllegalArgument"));
        // and a later joiner listing range once is refused: 2 != 1 member
        let s = select_protocol(&[
            JoinRequest::new("a", &["range", "range"]),
            JoinRequest::new("b", &["range"]),
        ])
        .unwrap();
        assert_eq!(s.refused.len(), 1);
    }

    #[test]
    fn empty_group_selects_nothing() {
        let s = select_protocol(&[JoinRequest::new("a", &[])]).unwrap();
        assert!(s.accepted.is_empty() && s.selected.is_none());
        assert!(s.java_exception.is_some());
        assert!(
            select_protocol(&[JoinRequest::new("a", &["x"]), JoinRequest::new("a", &["x"])])
                .is_err()
        );
    }
}
