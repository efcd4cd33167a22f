//! Deliberately wrong rules: each common mistake of the range lesson, implemented so its
//! answer can be shown beside the real assignor's, and so [`super::check`] can recognise it.
//!
//! Every rule here is wrong on purpose in exactly one way and right otherwise: it uses the
//! real member order (static members first, then Java string order) and the real topic order
//! unless its mistake is about them. None of them is ever the answer to a question; the
//! answer always comes from [`crate::assignor`].

use super::step::{field_value, LoadedStep, Owners};
use super::Mistake;
use crate::assignor::{self, AssignorKind, GroupInput};
use crate::java::string_compare;
use crate::protocol::decode_subscription;
use std::cmp::Ordering;

/// The partition count [`assign_unknown_topics`] invents for a topic missing from the
/// metadata: a program that assigns such a topic has to make one up, and one is the least.
pub const ASSUMED_PARTITIONS: u32 = 1;

/// The owners under `mistake`'s rule (`None` for a mistake that is not about owners).
pub fn owners(mistake: Mistake, input: &GroupInput) -> Option<Owners> {
    Some(match mistake {
        Mistake::NumericOrder => numeric_order(input),
        Mistake::ArrivalOrder => arrival_order(input),
        Mistake::OneGlobalRange => one_global_range(input),
        Mistake::TopicWithoutMetadata => assign_unknown_topics(input),
        Mistake::UnsubscribedTopic => ignore_subscriptions(input),
        Mistake::ForgetIdle => forget_idle(input),
        Mistake::UnsignedLength => return None,
    })
}

/// The real member order (the Java client's), as member indices.
fn real_order(input: &GroupInput) -> Vec<usize> {
    assignor::assign(AssignorKind::Range, input)
        .map(|a| a.order.iter().map(|i| *i as usize).collect())
        .unwrap_or_default()
}

/// Topics someone subscribes to, in Java name order, with their partition count from the
/// metadata (0 when missing).
fn subscribed_topics(input: &GroupInput) -> Vec<(String, u32)> {
    let mut names: Vec<&str> = Vec::new();
    for m in &input.members {
        for t in m.topics.iter() {
            if !names.contains(&t.as_str()) {
                names.push(t);
            }
        }
    }
    crate::collections::sort_by(&mut names, |a, b| string_compare(a, b));
    names
        .into_iter()
        .map(|n| {
            let p = input
                .topics
                .iter()
                .find(|t| t.name == n)
                .map_or(0, |t| t.partitions);
            (n.to_string(), p)
        })
        .collect()
}

/// Range's arithmetic over `n` partitions and `m` members: member `i`'s (start, count).
fn share(n: u32, m: u32, i: u32) -> (u32, u32) {
    let (per, extra) = (n / m, n % m);
    (per * i + i.min(extra), per + u32::from(i < extra))
}

/// Range, topic by topic over `topics`, with members in `order`; each topic split over its
/// subscribers, or over every member when `subscribed_only` is false.
fn range_over(
    input: &GroupInput,
    order: &[usize],
    topics: &[(String, u32)],
    subscribed_only: bool,
) -> Owners {
    let mut out = Owners {
        members: input.members.iter().map(|m| m.id.clone()).collect(),
        topics: Vec::new(),
    };
    for (name, n) in topics {
        if *n == 0 {
            continue;
        }
        let subs: Vec<usize> = order
            .iter()
            .copied()
            .filter(|i| !subscribed_only || input.members[*i].topics.contains(name))
            .collect();
        let mut owners = vec![None; *n as usize];
        for (i, member) in subs.iter().enumerate() {
            let (start, count) = share(*n, subs.len() as u32, i as u32);
            for o in &mut owners[start as usize..(start + count) as usize] {
                *o = Some(input.members[*member].id.clone());
            }
        }
        out.topics.push((name.clone(), owners));
    }
    out
}

/// The real range rule, written out plainly; the wrong rules below differ from it in one
/// way each (a test checks it gives the assignor's answer).
pub fn plain_range(input: &GroupInput) -> Owners {
    range_over(input, &real_order(input), &subscribed_topics(input), true)
}

/// Compares ids as a person reading numbers would: runs of digits by their value, the rest
/// as text (`consumer-2` before `consumer-10`).
pub fn numeric_cmp(a: &str, b: &str) -> Ordering {
    fn runs(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let b = s.as_bytes();
        for i in 1..=b.len() {
            if i == b.len() || b[i].is_ascii_digit() != b[i - 1].is_ascii_digit() {
                out.push((b[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (ra, rb) = (runs(a), runs(b));
    for (x, y) in ra.iter().zip(&rb) {
        let o = match (x.0, y.0) {
            (true, true) => {
                let (x, y) = (x.1.trim_start_matches('0'), y.1.trim_start_matches('0'));
                x.len().cmp(&y.len()).then_with(|| x.cmp(y))
            }
            _ => x.1.cmp(y.1),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    ra.len().cmp(&rb.len())
}

/// Mistake: members sorted by the numbers in their ids (`consumer-2` before `consumer-10`)
/// instead of as strings. Otherwise range.
pub fn numeric_order(input: &GroupInput) -> Owners {
    let mut order: Vec<usize> = (0..input.members.len()).collect();
    crate::collections::sort_by(&mut order, |a, b| {
        numeric_cmp(&input.members[*a].id, &input.members[*b].id)
    });
    range_over(input, &order, &subscribed_topics(input), true)
}

/// Mistake: members taken in the order they joined (the group's list order) instead of by
/// member id. Otherwise range.
pub fn arrival_order(input: &GroupInput) -> Owners {
    let order: Vec<usize> = (0..input.members.len()).collect();
    range_over(input, &order, &subscribed_topics(input), true)
}

/// Mistake: one range across all partitions of all subscribed topics (topics in name order,
/// then partition order) over every member that subscribes to anything, instead of one range
/// per topic over its subscribers.
pub fn one_global_range(input: &GroupInput) -> Owners {
    let cells: Vec<(String, u32)> = subscribed_topics(input)
        .into_iter()
        .flat_map(|(t, n)| (0..n).map(move |p| (t.clone(), p)))
        .collect();
    let members: Vec<usize> = real_order(input)
        .into_iter()
        .filter(|i| !input.members[*i].topics.is_empty())
        .collect();
    let mut out = Owners {
        members: input.members.iter().map(|m| m.id.clone()).collect(),
        topics: Vec::new(),
    };
    for (t, n) in subscribed_topics(input) {
        if n > 0 {
            out.topics.push((t, vec![None; n as usize]));
        }
    }
    let n = cells.len() as u32;
    for (i, member) in members.iter().enumerate() {
        let (start, count) = share(n, members.len() as u32, i as u32);
        for (t, p) in &cells[start as usize..(start + count) as usize] {
            if let Some((_, owners)) = out.topics.iter_mut().find(|(name, _)| name == t) {
                owners[*p as usize] = Some(input.members[*member].id.clone());
            }
        }
    }
    out
}

/// Mistake: a subscribed topic missing from the cluster metadata is assigned anyway, as if
/// it had [`ASSUMED_PARTITIONS`] partitions. Otherwise range.
pub fn assign_unknown_topics(input: &GroupInput) -> Owners {
    let topics: Vec<(String, u32)> = subscribed_topics(input)
        .into_iter()
        .map(|(t, n)| (t, if n == 0 { ASSUMED_PARTITIONS } else { n }))
        .collect();
    range_over(input, &real_order(input), &topics, true)
}

/// Mistake: each topic split over every member of the group, subscribed to it or not.
/// Otherwise range.
pub fn ignore_subscriptions(input: &GroupInput) -> Owners {
    range_over(input, &real_order(input), &subscribed_topics(input), false)
}

/// Mistake: the result lists only members that got something. Otherwise range.
pub fn forget_idle(input: &GroupInput) -> Owners {
    let mut o = plain_range(input);
    let idle: Vec<String> = o.idle().into_iter().map(str::to_string).collect();
    o.members.retain(|m| !idle.contains(m));
    o
}

/// Mistake: a length prefix read as an unsigned number, so `ff ff ff ff` is 4294967295
/// rather than -1 (null). The field at `path` as it would then read; a field without a
/// negative length reads as it really does.
pub fn unsigned_length(bytes: &[u8], path: &str) -> Option<String> {
    let d = decode_subscription(bytes);
    let f = d.fields.iter().find(|f| f.path.to_string() == path)?;
    let real = field_value(bytes, path)?;
    let Some(prefix) = f.prefix else {
        return Some(real);
    };
    let raw = bytes.get(prefix.start..prefix.end)?;
    let unsigned = raw.iter().fold(0u64, |acc, b| acc << 8 | u64::from(*b));
    let signed_negative = raw.first().is_some_and(|b| b & 0x80 != 0);
    Some(if signed_negative {
        format!("{unsigned} bytes")
    } else {
        real
    })
}

/// Why `mistake` is wrong, in the lesson's words and with this step's members and topics.
pub fn reason(mistake: Mistake, step: &LoadedStep) -> String {
    let input = &step.input;
    let order = real_order(input);
    let id = |i: usize| input.members[i].id.as_str();
    match mistake {
        Mistake::NumericOrder => {
            for (x, a) in order.iter().enumerate() {
                for b in &order[x + 1..] {
                    let (a, b) = (id(*a), id(*b));
                    if numeric_cmp(a, b) == Ordering::Greater {
                        return format!(
                            "{a} sorts before {b}: member ids compare as strings, character by character, not as numbers"
                        );
                    }
                }
            }
            "member ids compare as strings, character by character, not as numbers".into()
        }
        Mistake::ArrivalOrder => match (order.first(), input.members.first()) {
            (Some(first), Some(arrived)) if id(*first) != arrived.id => format!(
                "{} comes first although {} joined first: arrival order never matters, range sorts members by member id as strings",
                id(*first),
                arrived.id
            ),
            _ => "arrival order never matters: range sorts members by member id as strings"
                .into(),
        },
        Mistake::OneGlobalRange => {
            let first = order.first().map_or("the first member", |i| id(*i));
            let total: u32 = step.owners.topics.iter().map(|(_, o)| o.len() as u32).sum();
            format!(
                "range works per topic: each topic is split on its own over its subscribers, so {first} gets the extra partition of every topic; the {total} partitions are not split as one list"
            )
        }
        Mistake::TopicWithoutMetadata => {
            let missing: Vec<String> = subscribed_topics(input)
                .into_iter()
                .filter(|(_, n)| *n == 0)
                .map(|(t, _)| t)
                .collect();
            if missing.is_empty() {
                return "a topic missing from the cluster metadata is skipped: nobody gets it"
                    .into();
            }
            // Where the wrong count comes from: the invented partition goes to the topic's
            // first subscriber in range's order.
            let first = |topic: &String| {
                order
                    .iter()
                    .map(|i| &input.members[*i])
                    .find(|m| m.topics.contains(topic))
                    .map_or("its first subscriber", |m| m.id.as_str())
            };
            match missing.as_slice() {
                [one] => format!(
                    "{one} is not in the cluster metadata: the leader does not know its partitions, so nobody gets it. \
                     Counting it as a topic of {ASSUMED_PARTITIONS} partition gives that partition to {}, first in range's order, one more than it really gets",
                    first(one)
                ),
                _ => format!(
                    "{} are not in the cluster metadata: the leader does not know their partitions, so nobody gets them. \
                     Counting each as a topic of {ASSUMED_PARTITIONS} partition gives its partition to its first subscriber in range's order ({}), one more than each really gets",
                    missing.join(", "),
                    missing.iter().map(|t| format!("{t}: {}", first(t))).collect::<Vec<_>>().join(", ")
                ),
            }
        }
        Mistake::UnsubscribedTopic => {
            for (t, _) in subscribed_topics(input) {
                let subs: Vec<&str> = order
                    .iter()
                    .map(|i| &input.members[*i])
                    .filter(|m| m.topics.contains(&t))
                    .map(|m| m.id.as_str())
                    .collect();
                if let Some(m) = input.members.iter().find(|m| !m.topics.contains(&t)) {
                    return format!(
                        "{} did not subscribe to {t}: range splits {t} over its subscribers only ({})",
                        m.id,
                        subs.join(", ")
                    );
                }
            }
            "range splits each topic over its subscribers only".into()
        }
        Mistake::ForgetIdle => {
            let idle = step.owners.idle();
            if idle.is_empty() {
                "every member is in the result, even with nothing assigned".into()
            } else {
                format!(
                    "{} {} nothing but {} still in the group: the result lists {} with no partitions",
                    idle.join(", "),
                    if idle.len() == 1 { "gets" } else { "get" },
                    if idle.len() == 1 { "is" } else { "are" },
                    if idle.len() == 1 { "it" } else { "them" }
                )
            }
        }
        Mistake::UnsignedLength => "lengths are big-endian signed integers: ff ff ff ff is -1, which means null, not 4294967295 bytes".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_cmp_reads_numbers() {
        assert_eq!(numeric_cmp("consumer-2", "consumer-10"), Ordering::Less);
        assert_eq!(numeric_cmp("consumer-10", "consumer-10"), Ordering::Equal);
        assert_eq!(numeric_cmp("a", "a1"), Ordering::Less);
        assert_eq!(numeric_cmp("c-007", "c-8"), Ordering::Less);
        assert_eq!(numeric_cmp("", "x"), Ordering::Less);
    }

    #[test]
    fn share_is_the_seed_s_formula() {
        // 7 partitions, 3 members: 0 1 2 | 3 4 | 5 6
        assert_eq!(share(7, 3, 0), (0, 3));
        assert_eq!(share(7, 3, 1), (3, 2));
        assert_eq!(share(7, 3, 2), (5, 2));
    }
}
