//! An [`Assignment`] of range or round-robin as one list of `u32`, the form a Web Worker
//! hands back to the page (a `Uint32Array`, transferred, not copied): the page computes a
//! large group's assignments off its main thread (src/worker.rs) and reads them back
//! here. Shares shared between topics (one `Rc` for every topic with the same subscribers)
//! are written once and shared again when read.
//!
//! Layout: the assignor; the member order; the totals; the distinct share lists (each: its
//! length, then member, index, quota and first partition + 1, 0 for none); the topics
//! (each: its name as a length and its UTF-8 bytes, one to a word, partitions, rack-aware, its
//! share list, its owners). Every length is checked against what is left, so a short or
//! garbled list is refused (`None`), never read past or allocated from.

use super::{Assignment, AssignorKind, Share, Shares, TopicAssignment};
use std::rc::Rc;

/// `a` as one list, or `None` when it holds what only the sticky assignors give (notes,
/// extra grants, withheld partitions, or shares counted from the owners).
pub fn encode(a: &Assignment) -> Option<Vec<u32>> {
    if !(a.notes.is_empty() && a.extra.is_empty() && a.withheld.is_empty()) {
        return None;
    }
    let kind = AssignorKind::CLIENT.iter().position(|k| *k == a.assignor)? as u32;
    let mut out = vec![kind];
    list(&mut out, &a.order);
    list(&mut out, &a.totals);
    let mut lists: Vec<&Rc<[Share]>> = Vec::new();
    let mut of_topic = Vec::with_capacity(a.topics.len());
    for t in &a.topics {
        let Shares::Given(s) = &t.shares else {
            return None;
        };
        of_topic.push(match lists.iter().position(|l| Rc::ptr_eq(l, s)) {
            Some(i) => i,
            None => {
                lists.push(s);
                lists.len() - 1
            }
        });
    }
    out.push(lists.len() as u32);
    for l in &lists {
        out.push(l.len() as u32);
        for s in l.iter() {
            out.extend([s.member, s.index, s.quota, s.first.map_or(0, |f| f + 1)]);
        }
    }
    out.push(a.topics.len() as u32);
    for (t, l) in a.topics.iter().zip(of_topic) {
        // (a word per byte: names are short, and the page's code for it is shorter)
        out.push(t.topic.len() as u32);
        out.extend(t.topic.bytes().map(u32::from));
        out.extend([t.partitions, t.rack_aware as u32, l as u32]);
        list(&mut out, &t.owners);
    }
    Some(out)
}

/// Writes `v` as its length followed by its words ([`Words::list`] reads it back).
pub(crate) fn list(out: &mut Vec<u32>, v: &[u32]) {
    out.push(v.len() as u32);
    out.extend_from_slice(v);
}

/// A cursor over the words; every read checks what is left.
pub(crate) struct Words<'a>(pub(crate) &'a [u32]);

impl<'a> Words<'a> {
    fn one(&mut self) -> Option<u32> {
        let (w, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(*w)
    }
    fn take(&mut self, n: usize) -> Option<&'a [u32]> {
        if n > self.0.len() {
            return None;
        }
        let (w, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(w)
    }
    /// A length followed by that many words.
    pub(crate) fn list(&mut self) -> Option<&'a [u32]> {
        let n = self.one()? as usize;
        self.take(n)
    }
}

/// The assignment [`encode`] wrote, or `None` when `words` is not one.
pub fn decode(words: &[u32]) -> Option<Assignment> {
    let mut w = Words(words);
    let assignor = *AssignorKind::CLIENT.get(w.one()? as usize)?;
    let order = w.list()?.to_vec();
    let totals = w.list()?.to_vec();
    let n = w.one()? as usize;
    // (each list takes at least one word: a count read off the list never allocates more)
    let mut lists: Vec<Rc<[Share]>> = Vec::with_capacity(n.min(w.0.len()));
    for _ in 0..n {
        let len = w.one()? as usize;
        let flat = w.take(len.checked_mul(4)?)?;
        let shares: Vec<Share> = flat
            .chunks_exact(4)
            .map(|s| Share {
                member: s[0],
                index: s[1],
                quota: s[2],
                first: s[3].checked_sub(1),
            })
            .collect();
        lists.push(shares.into());
    }
    let n = w.one()? as usize;
    // (each topic takes at least five words)
    let mut topics = Vec::with_capacity(n.min(w.0.len() / 5));
    for _ in 0..n {
        let bytes: Vec<u8> = w
            .list()?
            .iter()
            .map(|&b| u8::try_from(b).ok())
            .collect::<Option<_>>()?;
        let topic = String::from_utf8(bytes).ok()?;
        let partitions = w.one()?;
        let rack_aware = w.one()? != 0;
        let shares = Shares::Given(lists.get(w.one()? as usize)?.clone());
        let owners = w.list()?.to_vec();
        topics.push(TopicAssignment {
            topic,
            partitions,
            owners,
            shares,
            rack_aware,
        });
    }
    w.0.is_empty().then_some(Assignment {
        assignor,
        order,
        topics,
        totals,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::{range_with, round_robin_with, GroupInput, LeaderClient};
    use crate::scenario::{Member, Scenario, Topic};

    fn group() -> GroupInput {
        let mut s = Scenario {
            topics: vec![
                Topic {
                    name: "orders".into(),
                    partitions: 7,
                },
                Topic {
                    name: "pαyments".into(),
                    partitions: 3,
                },
                Topic {
                    name: "empty".into(),
                    partitions: 0,
                },
            ],
            ..Default::default()
        };
        for (i, topics) in [
            &["orders", "pαyments"][..],
            &["orders", "missing"],
            &["orders", "pαyments", "empty"],
            &[],
        ]
        .iter()
        .enumerate()
        {
            let mut m = Member::new(&format!("consumer-{}", 10 - i), topics);
            m.rack = (i % 2 == 0).then(|| "r1".to_string());
            s.members.push(m);
        }
        s.group_input()
    }

    #[test]
    fn range_and_round_robin_read_back_as_written() {
        let input = group();
        for client in [LeaderClient::Java, LeaderClient::Librdkafka] {
            for a in [range_with(&input, client), round_robin_with(&input, client)] {
                let words = encode(&a).expect("range and round-robin encode");
                let back = decode(&words).expect("decodes");
                assert_eq!(back, a);
                // shared share lists stay shared
                for (x, y) in back.topics.iter().zip(&back.topics[1..]) {
                    if let (Shares::Given(p), Shares::Given(q)) = (&x.shares, &y.shares) {
                        if p == q {
                            assert!(Rc::ptr_eq(p, q), "{} and {}", x.topic, y.topic);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_cut_or_grown_list_is_refused() {
        let words = encode(&range_with(&group(), LeaderClient::Java)).unwrap();
        for n in 0..words.len() {
            assert_eq!(decode(&words[..n]), None, "cut at {n}");
        }
        let mut grown = words.clone();
        grown.push(0);
        assert_eq!(decode(&grown), None);
        // a huge count read off the list allocates nothing
        for i in 0..words.len() {
            let mut bad = words.clone();
            bad[i] = u32::MAX;
            let _ = decode(&bad);
        }
    }
}
