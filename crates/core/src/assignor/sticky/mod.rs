//! Kafka's sticky assignors, as the Java client computes them (`AbstractStickyAssignor`,
//! `StickyAssignor`, `CooperativeStickyAssignor` at apache/kafka 1eb7644):
//! [`sticky`] (eager) and [`cooperative_sticky`] (two rounds: [`cooperative_sticky`], then
//! [`cooperative_follow_up`]).
//!
//! - All raw subscriptions equal: the constrained algorithm ([`constrained`]); otherwise the
//!   general one ([`general`]).
//! - The previous assignment is each member's [`MemberMeta::owned`] with its
//!   [`MemberMeta::generation`] (for StickyAssignor the user data, for cooperative-sticky the
//!   subscription's owned partitions and generation id).
//! - Every place where Java iterates a `HashMap` uses [`crate::java::JavaHashMap`]; member
//!   order elsewhere is the member id in Java `String` order (group.instance.id ignored).
//! - Java's quirks are reproduced and explained in [`Assignment::notes`]; where Java throws,
//!   a [`StickyError`] names the exception.
//!
//! [`MemberMeta::owned`]: super::MemberMeta::owned
//! [`MemberMeta::generation`]: super::MemberMeta::generation

mod constrained;
mod cooperative_sticky;
mod general;
mod input;
#[allow(clippy::module_inception)]
mod sticky;

pub use cooperative_sticky::{cooperative_follow_up, cooperative_sticky, follow_up_input};
pub use sticky::sticky;

use super::{Assignment, AssignorKind, GroupInput, TopicAssignment, UNASSIGNED};
use crate::collections::FastMap;
use crate::java::string_compare;
use input::{Lists, Prep, Racks, Tp, NONE};
use std::fmt;

/// Java's sticky assignor throws for this input: there is no assignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StickyError {
    /// The exception Java throws, with its message when it has one
    /// (`java.lang.IllegalStateException: No more unfilled consumers to be assigned.`).
    pub java_exception: String,
    /// Set when Java does not throw but answers something this tool refuses to show (see
    /// [`crate::assignor::AssignorError::java_throws`]); `java_exception` then says why.
    pub refused: bool,
}

impl StickyError {
    #[cold]
    #[inline(never)]
    fn java(e: impl Into<String>) -> StickyError {
        StickyError {
            java_exception: e.into(),
            refused: false,
        }
    }
}

impl From<crate::assignor::AssignorError> for StickyError {
    /// The broker's assignors throw too (an owned partition beyond its topic).
    fn from(e: crate::assignor::AssignorError) -> Self {
        StickyError {
            refused: !e.java_throws,
            ..StickyError::java(e.message)
        }
    }
}

impl fmt::Display for StickyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.refused {
            return write!(f, "no assignment is shown: {}", self.java_exception);
        }
        write!(
            f,
            "Kafka's assignor throws {} for this group, so the rebalance fails and nobody gets \
             an assignment",
            self.java_exception
        )
    }
}

impl std::error::Error for StickyError {}

/// What Java did that breaks an obvious rule, or where our answer stops short of Java's.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoteKind {
    /// A member got a partition of a topic it does not subscribe to.
    UnsubscribedTopic,
    /// A member with an empty subscription got partitions.
    EmptySubscription,
    /// A member got a partition that does not exist in the metadata.
    NonexistentPartition,
    /// Two members got the same partition.
    SharedPartition,
    /// Balancing stopped on our work bound; Java would have gone on (possibly forever).
    StoppedBalancing,
    /// Members with the same id: Java's map keeps only the last one.
    DuplicateMember,
}

/// A note for the reader: "this is what Java does, because ...".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Which rule was broken.
    pub kind: NoteKind,
    /// The sentence a UI can show.
    pub text: String,
}

/// A grant that [`TopicAssignment::owners`] cannot hold: a partition that does not exist in
/// the metadata, or a second member given the same partition (Java quirks, see
/// [`Assignment::notes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// Topic name.
    pub topic: String,
    /// Partition number as Java has it (may be outside the topic).
    pub partition: i32,
    /// The member (input index).
    pub member: u32,
}

/// Cooperative-sticky, round 1: a partition that changes owner, so Java leaves it
/// unassigned until its previous owner has revoked it (the follow-up rebalance gives it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withheld {
    /// Topic name.
    pub topic: String,
    /// Partition number.
    pub partition: i32,
    /// The member that gets it in the follow-up rebalance (input index).
    pub to: u32,
    /// The members that claimed it as owned (who must revoke it first).
    pub from: Vec<u32>,
}

/// What the algorithms produce before conversion: Java's per-member lists.
struct Raw {
    /// Each member's list: `lists`, then its entries of `log` in order.
    lists: Lists,
    /// The constrained algorithm's new partitions with their members, in order. Each exists and is given once:
    /// when a kept partition may be given again (`rewalked`), the log is merged into
    /// `lists` before anything reads it.
    log: Vec<(Tp, u32)>,
    withheld: Vec<(Tp, u32)>,
    stopped_early: bool,
}

impl Raw {
    /// Appends every member's log entries to its list.
    fn merge_log(&mut self) {
        for (tp, m) in std::mem::take(&mut self.log) {
            self.lists.push(m, tp);
        }
    }
}

fn run(prep: &Prep<'_>, cooperative: bool) -> Result<Raw, StickyError> {
    let racks = Racks::new(prep);
    let mut claims = input::claims(prep);
    if claims.all_equal {
        let b = constrained::build(prep, &racks, &mut claims)?;
        let mut raw = Raw {
            lists: b.lists,
            log: b.log,
            withheld: Vec::new(),
            stopped_early: false,
        };
        if b.rewalked {
            // a kept partition may be given again: each member's whole list in one place
            raw.merge_log();
        }
        if cooperative && !b.transferring.is_empty() {
            raw.withheld = b.transferring.into_iter().collect();
            if b.rewalked {
                withhold(&mut raw.lists, &raw.withheld);
            } else {
                // `adjustAssignment`: every partition changing owner is a new one, given once
                let going: FastMap<Tp, u32> = raw.withheld.iter().copied().collect();
                raw.log.retain(|(tp, m)| going.get(tp) != Some(m));
            }
        }
        Ok(raw)
    } else {
        let g = general::build(prep, &racks, &claims)?;
        let mut lists = Lists::from_vecs(g.lists);
        let mut withheld = Vec::new();
        if cooperative {
            withheld = transferring(prep, &lists, &g.final_order);
            withhold(&mut lists, &withheld);
        }
        Ok(Raw {
            lists,
            log: Vec::new(),
            withheld,
            stopped_early: g.stopped_early,
        })
    }
}

/// `adjustAssignment`: each partition changing owner leaves its new owner's list.
fn withhold(lists: &mut Lists, withheld: &[(Tp, u32)]) {
    for (tp, m) in withheld {
        lists.remove_first(*m, *tp);
    }
}

/// `computePartitionsTransferringOwnership` (general algorithm): partitions some member
/// gets that it did not own, and that some member owned and does not get.
fn transferring(prep: &Prep<'_>, lists: &Lists, order: &[u32]) -> Vec<(Tp, u32)> {
    // one map type (`Tp` to `u32`) for all the sets here: fewer copies of the hash table
    let mut added: FastMap<Tp, u32> = FastMap::default();
    let mut revoked: FastMap<Tp, u32> = FastMap::default();
    for &m in order {
        let owned: FastMap<Tp, u32> = prep.member_data[m as usize]
            .iter()
            .map(|t| (*t, 0))
            .collect();
        let assigned: FastMap<Tp, u32> = lists[m as usize].iter().map(|t| (*t, 0)).collect();
        for tp in &lists[m as usize] {
            if !owned.contains_key(tp) {
                added.insert(*tp, m);
            }
        }
        for tp in &prep.member_data[m as usize] {
            if !assigned.contains_key(tp) {
                revoked.insert(*tp, 0);
            }
        }
    }
    added.retain(|tp, _| revoked.contains_key(tp));
    added.into_iter().collect()
}

/// Converts Java's lists into the shared [`Assignment`], with notes on Java's quirks.
fn convert(prep: &Prep<'_>, raw: Raw, kind: AssignorKind) -> Assignment {
    let input = prep.input;
    let n = input.members.len();
    let names = &prep.subs.names;
    let (sorted, slot) = names_in_java_order(names);
    // (when every member lists the same topics, each topic's subscribers are all of them)
    let shared = prep.subs.one_list;
    let mut subscribers = if shared {
        Vec::new()
    } else {
        subscribers_by_topic(prep, &slot)
    };
    // Every partition's owner by dense index (topics in Java name order, as `sorted`),
    // split into the topics at the end.
    let mut owners = vec![UNASSIGNED; prep.total as usize];
    let mut totals = vec![0u32; n];
    let mut extra = Vec::new();
    let mut notes = Vec::new();
    // (member rank, topic, partition) in grant order, grouped below by (member, topic)
    let mut unsubscribed: Vec<(u32, u32, i32)> = Vec::new();
    let mut subscribed = vec![false; prep.topics.len()];
    let own_topics = |m: u32| {
        prep.subs
            .of(m)
            .iter()
            .map(|id| prep.topic_of_name[*id as usize])
            .filter(|t| *t != NONE)
    };
    // `subscribed` holds this member's topics (marked again only when its list differs)
    let mut marked: Option<u32> = None;
    let mut raw = raw;
    if !prep.subs.one_list {
        // members on different lists: each member's partitions in one place, so that its
        // topics are marked once (the log is left for members all on one list)
        raw.merge_log();
    }
    for &m in &prep.map_order {
        let list = &raw.lists[m as usize];
        if marked.is_none_or(|p| !prep.subs.same(p, m)) {
            for t in marked.into_iter().flat_map(own_topics) {
                subscribed[t as usize] = false;
            }
            for t in own_topics(m) {
                subscribed[t as usize] = true;
            }
            marked = Some(m);
        }
        for tp in list {
            totals[m as usize] += 1;
            let t = &prep.topics[tp.t as usize];
            if !subscribed[tp.t as usize] {
                unsubscribed.push((prep.rank[m as usize], tp.t, tp.p));
            }
            let o = prep.dense(*tp).map(|d| &mut owners[d]);
            match o {
                Some(o) if *o == UNASSIGNED => *o = m,
                _ => {
                    let member = &input.members[m as usize].id;
                    notes.push(match o {
                        Some(first) => Note {
                            kind: NoteKind::SharedPartition,
                            text: format!(
                                "{}-{} goes to both {} and {member}: this is what Java does, because \
                                 a kept partition that no longer exists stops Java's walk over the \
                                 kept partitions from matching, so partitions already kept are \
                                 handed out again",
                                t.name, tp.p, input.members[*first as usize].id
                            ),
                        },
                        None => Note {
                            kind: NoteKind::NonexistentPartition,
                            text: format!(
                                "{member} gets {}-{}, which does not exist ({} has {} partitions): \
                                 this is what Java does, because it checks only that an owned \
                                 partition's topic exists, not its number",
                                t.name, tp.p, t.name, t.partitions
                            ),
                        },
                    });
                    extra.push(Grant {
                        topic: t.name.to_string(),
                        partition: tp.p,
                        member: m,
                    });
                }
            }
        }
    }
    // The new partitions: each exists and is given once, and every member is on the one
    // list `subscribed` holds now.
    for (tp, m) in raw.log.iter() {
        totals[*m as usize] += 1;
        if !subscribed[tp.t as usize] {
            unsubscribed.push((prep.rank[*m as usize], tp.t, tp.p));
        }
        if let Some(d) = prep.dense(*tp) {
            owners[d] = *m;
        }
    }
    notes.extend(unsubscribed_notes(prep, &mut unsubscribed));
    notes.extend(run_notes(prep, raw.stopped_early));
    let withheld = withheld_of(prep, &mut raw.withheld);
    let rack_aware = Racks::new(prep).rack_aware;
    // Each topic's shares are counted from its owners when first read (`Shares::counted`);
    // everyone on one list: one list of subscribers for every topic.
    let everyone: std::rc::Rc<[u32]> = if shared {
        prep.by_rank.as_slice().into()
    } else {
        std::rc::Rc::from([])
    };
    let topics = sorted
        .iter()
        .map(|s| {
            let t = prep.topic_of_name[*s];
            let owners = match prep.topics.get(t as usize) {
                Some(t) => owners[t.offset as usize..(t.offset + t.partitions) as usize].to_vec(),
                None => Vec::new(),
            };
            let subscribers = if shared {
                everyone.clone()
            } else {
                std::mem::take(&mut subscribers[slot[*s]]).into()
            };
            TopicAssignment {
                topic: names[*s].to_string(),
                partitions: owners.len() as u32,
                owners,
                shares: super::Shares::counted(subscribers),
                rack_aware,
            }
        })
        .collect();
    let mut order = prep.by_rank.clone();
    order.extend((0..n as u32).filter(|m| prep.rank[*m as usize] == u32::MAX));
    Assignment {
        assignor: kind,
        order,
        topics,
        totals,
        notes,
        extra,
        withheld,
    }
}

/// Every subscribed topic name's index in Java's name order (`String.compareTo`), and each
/// name's place in that order.
fn names_in_java_order(names: &[&str]) -> (Vec<usize>, Vec<usize>) {
    let mut ids: Vec<u32> = (0..names.len() as u32).collect();
    input::sort_ids(&mut ids, &|a, b| {
        string_compare(names[a as usize], names[b as usize])
    });
    let sorted: Vec<usize> = ids.into_iter().map(|i| i as usize).collect();
    let mut slot = vec![0usize; names.len()];
    for (i, s) in sorted.iter().enumerate() {
        slot[*s] = i;
    }
    (sorted, slot)
}

/// Each topic's subscribers (by its place in Java's name order, `slot`), in member id
/// order.
fn subscribers_by_topic(prep: &Prep<'_>, slot: &[usize]) -> Vec<Vec<u32>> {
    let mut subscribers = vec![Vec::new(); slot.len()];
    for &m in &prep.by_rank {
        for id in prep.subs.of(m) {
            let s = &mut subscribers[slot[*id as usize]];
            if s.last() != Some(&m) {
                s.push(m);
            }
        }
    }
    subscribers
}

/// A note per member and topic it got without subscribing to it (`unsubscribed`: member
/// rank, topic, partition, in grant order): Java's empty-subscription and previous-owner
/// quirks.
fn unsubscribed_notes(prep: &Prep<'_>, unsubscribed: &mut [(u32, u32, i32)]) -> Vec<Note> {
    let input = prep.input;
    let mut notes = Vec::new();
    crate::collections::sort_by(unsubscribed, |a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    for group in unsubscribed.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let (r, t, _) = group[0];
        let member = &input.members[prep.by_rank[r as usize] as usize];
        let topic = prep.topics[t as usize].name;
        let list = group
            .iter()
            .map(|g| g.2.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        notes.push(if member.topics.is_empty() {
            Note {
                kind: NoteKind::EmptySubscription,
                text: format!(
                    "{} subscribes to nothing but gets {topic} [{list}]: this is what Java does, \
                     because its equal-subscriptions check starts over when it meets an empty \
                     subscription, so the group counts as equally subscribed and every member \
                     gets a share",
                    member.id
                ),
            }
        } else {
            Note {
                kind: NoteKind::UnsubscribedTopic,
                text: format!(
                    "{} gets {topic} [{list}] without subscribing to {topic}: this is what Java \
                     does, because balancing gives a partition back to its previous owner (from \
                     an older generation) without checking that it still subscribes",
                    member.id
                ),
            }
        });
    }
    notes
}

/// What the run itself says: balancing stopped early, or members sharing an id.
fn run_notes(prep: &Prep<'_>, stopped_early: bool) -> Vec<Note> {
    let mut notes = Vec::new();
    if stopped_early {
        notes.push(Note {
            kind: NoteKind::StoppedBalancing,
            text: "balancing stopped after a bounded amount of work: Java's balancing loop \
                   would have gone on, possibly forever, so this is the assignment at that point"
                .into(),
        });
    }
    if prep.map_order.len() < prep.input.members.len() {
        notes.push(Note {
            kind: NoteKind::DuplicateMember,
            text: "some members share an id: Java keys members by id, so only the last of them \
                   takes part"
                .into(),
        });
    }
    notes
}

/// The partitions cooperative-sticky withholds this round, in (topic name, partition)
/// order, each with who gets it next round and who claimed it (members in map order).
fn withheld_of(prep: &Prep<'_>, raw_withheld: &mut [(Tp, u32)]) -> Vec<Withheld> {
    // in (topic name, partition) order: topic indices are in Java name order
    crate::collections::sort_by(raw_withheld, |a, b| a.0.cmp(&b.0));
    let mut withheld: Vec<Withheld> = raw_withheld
        .iter()
        .map(|(tp, to)| Withheld {
            topic: prep.topics[tp.t as usize].name.to_string(),
            partition: tp.p,
            to: *to,
            from: Vec::new(),
        })
        .collect();
    // Who claimed each withheld partition, members in map order: one pass over the owned
    // lists, each partition looked up in the sorted withheld ones (not a scan of every
    // member's list per partition: quadratic when many partitions move).
    if !withheld.is_empty() {
        for &m in &prep.map_order {
            for tp in &prep.member_data[m as usize] {
                if let Ok(k) = raw_withheld.binary_search_by(|x| x.0.cmp(tp)) {
                    let from = &mut withheld[k].from;
                    if from.last() != Some(&m) {
                        from.push(m);
                    }
                }
            }
        }
    }
    withheld
}

/// Shared by both assignors: runs and converts.
fn assign(input: &GroupInput, kind: AssignorKind) -> Result<Assignment, StickyError> {
    let prep = Prep::new(input);
    let raw = run(&prep, kind == AssignorKind::CooperativeSticky)?;
    Ok(convert(&prep, raw, kind))
}

#[cfg(test)]
mod tests {
    use super::StickyError;
    use crate::assignor::AssignorError;

    /// Each topic's shares name every member once, in member id order, with the partitions
    /// of that topic it got (counted when first read: none is before).
    #[test]
    fn shares_count_each_topics_partitions() {
        use crate::assignor::{benchmark_input, one_leaves, try_assign, AssignorKind, Shares};
        for kind in [AssignorKind::Sticky, AssignorKind::CooperativeSticky] {
            let fresh = benchmark_input(60, 10, 12);
            let left = one_leaves(&fresh, kind).unwrap();
            for input in [&fresh, &left] {
                let a = try_assign(kind, input).unwrap();
                assert!(a.topics.iter().all(|t| matches!(
                    &t.shares,
                    Shares::Counted { counted, .. } if counted.get().is_none()
                )));
                for t in &a.topics {
                    let members: Vec<u32> = t.shares().iter().map(|s| s.member).collect();
                    assert_eq!(members, a.order);
                    for (i, s) in t.shares().iter().enumerate() {
                        let got = t.owners.iter().filter(|o| **o == s.member).count();
                        assert_eq!(
                            (s.index as usize, s.quota as usize),
                            (i, got),
                            "{}",
                            t.topic
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_refusal_is_not_called_a_java_exception() {
        let thrown = StickyError::from(AssignorError {
            message: "owned partition 9 of topic \"t\" is beyond its 3 partitions".into(),
            java_throws: true,
        });
        assert!(thrown
            .to_string()
            .starts_with("Kafka's assignor throws owned partition 9"));
        let refused = StickyError::from(AssignorError {
            message: "partition 1 of topic \"t\" was owned by two members".into(),
            java_throws: false,
        });
        assert_eq!(
            refused.to_string(),
            "no assignment is shown: partition 1 of topic \"t\" was owned by two members"
        );
    }
}
