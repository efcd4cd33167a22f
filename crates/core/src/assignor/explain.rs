//! Plain-language explanations of an assignment, with the real numbers, and the common
//! mistakes where they apply.

use super::{Assignment, AssignorKind, GroupInput, TopicAssignment, UNASSIGNED};

/// One subscriber's row in a topic's arithmetic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Member id.
    pub member: String,
    /// True for a static member (group.instance.id set).
    pub is_static: bool,
    /// Position among the topic's subscribers.
    pub index: u32,
    /// First partition (range) when it gets any.
    pub first: Option<u32>,
    /// Partitions it gets.
    pub count: u32,
    /// The partitions, for display.
    pub partitions: Vec<u32>,
}

/// A topic's arithmetic and the mistakes worth pointing out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicExplanation {
    /// Topic name.
    pub topic: String,
    /// n, the partition count (0 when missing from metadata).
    pub partitions: u32,
    /// m, the number of subscribers.
    pub subscribers: u32,
    /// n div m.
    pub per_member: u32,
    /// n mod m.
    pub extra: u32,
    /// Subscribers in assignor order.
    pub rows: Vec<Row>,
    /// Sentences that explain the result.
    pub summary: Vec<String>,
    /// Common mistakes that apply here.
    pub mistakes: Vec<String>,
}

/// The trailing number of an id such as `consumer-10`.
fn trailing_number(s: &str) -> Option<(&str, u64)> {
    let digits = s.bytes().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 18 {
        return None;
    }
    let (head, tail) = s.split_at(s.len() - digits);
    Some((head, tail.parse().ok()?))
}

/// The first pair of `ids` (x before y) that string order puts against numeric order: the
/// same text before a trailing number, x's number larger (`consumer-10` before
/// `consumer-2`); y is the first such id after x. In one pass from the end and one from x:
/// with 10,000 members, every pair took 1.5 s when no pair exists, as with zero-padded or
/// UUID-suffixed ids.
fn against_numeric_order(ids: &[&str]) -> Option<(usize, usize)> {
    // Each head's smallest number after the id at hand, found through a map from the head
    // to its slot (a plain hash map the page already has: the order never shows).
    let mut slot: crate::collections::FastMap<&str, usize> = Default::default();
    let mut min_after: Vec<u64> = Vec::new();
    // (from the end: the last found is the first x)
    let mut x = None;
    for (i, id) in ids.iter().enumerate().rev() {
        let Some((head, n)) = trailing_number(id) else {
            continue;
        };
        let k = match slot.get(&head) {
            Some(&k) => k,
            None => {
                slot.insert(head, min_after.len());
                min_after.push(u64::MAX);
                min_after.len() - 1
            }
        };
        if min_after[k] < n {
            x = Some((i, head, n));
        }
        min_after[k] = min_after[k].min(n);
    }
    let (i, head, n) = x?;
    let y = (i + 1..ids.len())
        .find(|&j| trailing_number(ids[j]).is_some_and(|(h, m)| h == head && m < n))?;
    Some((i, y))
}

/// max / min with two decimals, rounded half up, in integers (no float formatting).
pub fn ratio(max: u32, min: u32) -> String {
    if min == 0 {
        return "∞".into();
    }
    let hundredths = (max as u64 * 1000 / min as u64 + 5) / 10;
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

pub(crate) fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Partitions for reading: consecutive ones as a range (`0–2, 5, 7–9`), at most
/// [`LIST_ITEMS`] items, then how many there are in all (a topic can have a million).
pub fn partition_list(ps: &[u32]) -> String {
    if ps.is_empty() {
        return "none".into();
    }
    let mut out = String::new();
    let mut items = 0;
    let mut i = 0;
    while i < ps.len() {
        let mut j = i;
        while j + 1 < ps.len() && ps[j].checked_add(1) == Some(ps[j + 1]) {
            j += 1;
        }
        if items == LIST_ITEMS {
            out.push_str(&format!(", … ({} in all)", ps.len()));
            break;
        }
        if items > 0 {
            out.push_str(", ");
        }
        out.push_str(&ps[i].to_string());
        if j > i {
            out.push('–');
            out.push_str(&ps[j].to_string());
        }
        items += 1;
        i = j + 1;
    }
    out
}

/// How many items [`partition_list`] writes before it says how many there are.
pub const LIST_ITEMS: usize = 24;

/// Runs of consecutive partitions with the same owner: (owner, first, last). Range gives
/// one run per subscriber, so a topic of any size reads as a few lines.
pub fn owner_runs(owners: &[u32]) -> Vec<(u32, u32, u32)> {
    let mut runs: Vec<(u32, u32, u32)> = Vec::new();
    for (p, o) in owners.iter().enumerate() {
        match runs.last_mut() {
            Some(last) if last.0 == *o && last.2 + 1 == p as u32 => last.2 = p as u32,
            _ => runs.push((*o, p as u32, p as u32)),
        }
    }
    runs
}

/// What a grid row that draws only the first `shown` partitions of a topic says about the
/// rest: the whole topic as owner runs when there are few (range gives one per subscriber),
/// else how many of the partitions not drawn each subscriber owns.
pub fn rest_of_topic(input: &GroupInput, t: &TopicAssignment, shown: usize) -> String {
    const MAX_RUNS: usize = 12;
    const MAX_MEMBERS: usize = 8;
    let n = t.owners.len();
    let name = |o: u32| {
        input
            .members
            .get(o as usize)
            .map_or("nobody", |m| m.id.as_str())
    };
    let mut out = format!("Partitions {shown}–{} are not drawn.", n.saturating_sub(1));
    let runs = owner_runs(&t.owners);
    if runs.len() <= MAX_RUNS {
        out.push_str(" The whole topic: ");
        for (i, (o, first, last)) in runs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&format!("{} {first}–{last}", name(*o)));
        }
        out.push('.');
        return out;
    }
    let mut rest = vec![0u32; input.members.len()];
    for o in &t.owners[shown.min(n)..] {
        if let Some(c) = rest.get_mut(*o as usize) {
            *c += 1;
        }
    }
    let owners: Vec<(u32, u32)> = t
        .shares()
        .iter()
        .map(|s| (s.member, rest[s.member as usize]))
        .filter(|(_, c)| *c > 0)
        .collect();
    out.push_str(&format!(" Of those {}: ", n - shown.min(n)));
    for (i, (o, c)) in owners.iter().take(MAX_MEMBERS).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&format!("{} {c}", name(*o)));
    }
    if owners.len() > MAX_MEMBERS {
        out.push_str(&format!(
            ", and {} more members",
            owners.len() - MAX_MEMBERS
        ));
    }
    out.push('.');
    out
}

/// Explains one topic of an assignment.
pub fn explain_topic(input: &GroupInput, a: &Assignment, t: &TopicAssignment) -> TopicExplanation {
    let rows = rows_of(input, a, t);
    let n = t.partitions;
    let m = t.subscribers() as u32;
    let (div, rem) = (t.per_member(), t.extra());
    let mut summary = Vec::new();
    if n == 0 {
        summary.push(format!(
            "{} is subscribed to but missing from the cluster metadata (or has 0 partitions): Kafka skips it and nobody gets it.",
            t.topic
        ));
    } else if matches!(a.assignor, AssignorKind::Range | AssignorKind::ServerRange) {
        range_summary(a, t, &mut summary);
    } else if matches!(
        a.assignor,
        AssignorKind::Sticky | AssignorKind::CooperativeSticky
    ) {
        sticky_summary(input, a, t, &mut summary);
    } else if a.assignor == AssignorKind::Uniform {
        uniform_summary(input, a, &mut summary);
    } else {
        round_robin_summary(input, a, t, &mut summary);
    }
    // (uniform orders members as a Java HashMap of their ids does, not by string)
    let by_string = a.assignor != AssignorKind::Uniform;
    if by_string && rows.iter().any(|r| r.is_static) {
        summary.push("Static members (with a group.instance.id) come first, ordered by instance id; then dynamic members by member id.".into());
    }
    let mistakes = mistakes_of(input, a, t, &rows);
    TopicExplanation {
        topic: t.topic.clone(),
        partitions: n,
        subscribers: m,
        per_member: div,
        extra: rem,
        rows,
        summary,
        mistakes,
    }
}

/// A row per subscriber of `t`, in assignor order: its partitions (one pass over the
/// topic), and for range where its run starts.
fn rows_of(input: &GroupInput, a: &Assignment, t: &TopicAssignment) -> Vec<Row> {
    // Each subscriber's partitions, in one pass over the topic.
    let mut position = vec![usize::MAX; input.members.len()];
    for (i, s) in t.shares().iter().enumerate() {
        position[s.member as usize] = i;
    }
    let mut owned: Vec<Vec<u32>> = vec![Vec::new(); t.subscribers()];
    for (p, o) in t.owners.iter().enumerate() {
        if let Some(list) = position.get(*o as usize).and_then(|i| owned.get_mut(*i)) {
            list.push(p as u32);
        }
    }
    t.shares()
        .iter()
        .zip(owned)
        .map(|(s, partitions)| {
            let m = &input.members[s.member as usize];
            Row {
                member: m.id.clone(),
                is_static: m.instance_id.is_some(),
                index: s.index,
                first: if matches!(a.assignor, AssignorKind::Range | AssignorKind::ServerRange) {
                    partitions.first().copied()
                } else {
                    None
                },
                count: partitions.len() as u32,
                partitions,
            }
        })
        .collect()
}

/// Range's arithmetic for `t`: n div m each, the first n mod m one more, where member i
/// starts; more subscribers than partitions; the broker's range; rack awareness.
fn range_summary(a: &Assignment, t: &TopicAssignment, summary: &mut Vec<String>) {
    let (n, m) = (t.partitions, t.subscribers() as u32);
    let (div, rem) = (t.per_member(), t.extra());
    summary.push(if rem == 0 {
        format!("{n} partitions over {m} subscribers: {n} div {m} = {div} each, and {n} mod {m} = 0, so they split evenly.")
    } else {
        format!(
            "{n} partitions over {m} subscribers: {n} div {m} = {div} each, and {n} mod {m} = {rem}, so the first {} one more.",
            plural(rem, "subscriber gets", "subscribers get")
        )
    });
    if rem > 0 {
        summary.push(format!(
            "Member i starts at partition {div} × i + min(i, {rem}). The first members in the order get the extra partitions because range hands out the remainder from the front of the sorted list."
        ));
    }
    if div == 0 {
        summary.push(format!(
            "There are more subscribers than partitions: {} get nothing from this topic.",
            plural(m - n, "subscriber", "subscribers")
        ));
    }
    if a.assignor == AssignorKind::ServerRange {
        summary.push("The broker computes this (KIP-848, group.protocol=consumer, group.remote.assignor=range), not a member: the arithmetic is the classic RangeAssignor's, topic by topic, members in the same order (static first by instance id, then by member id), but it ignores the previous assignment (it is not sticky), places no partition by rack, and the members' partition.assignment.strategy plays no part.".into());
    }
    if t.rack_aware {
        summary.push("Rack awareness applied (KIP-881): members first took partitions with a replica on their own rack, within the same quotas, then the plain rule placed the rest.".into());
    }
}

/// Round-robin's deal for `t`: the circle in assignor order, and where the deal of this
/// topic starts.
fn round_robin_summary(
    input: &GroupInput,
    a: &Assignment,
    t: &TopicAssignment,
    summary: &mut Vec<String>,
) {
    summary.push(format!(
        "Round-robin deals every partition of every subscribed topic, topics in name order, to the members in a circle, skipping members not subscribed to {}.",
        t.topic
    ));
    let circle: Vec<&str> = a
        .order
        .iter()
        .map(|m| input.members[*m as usize].id.as_str())
        .collect();
    summary.push(format!(
        "The circle, in assignor order: {}.",
        circle.join(", ")
    ));
    let position = a
        .topics
        .iter()
        .position(|x| x.topic == t.topic)
        .unwrap_or(0);
    if let Some(first) = t.owners.first().filter(|o| **o != UNASSIGNED) {
        let who = &input.members[*first as usize].id;
        summary.push(if position == 0 {
            format!("{} is the first topic in name order, so the deal starts with {who}.", t.topic)
        } else {
            format!(
                "The deal goes on from where the previous topic ({}) stopped, so {}-0 goes to {who}.",
                a.topics[position - 1].topic,
                t.topic
            )
        });
    }
}

/// The common mistakes that apply to `t`: numeric order, one assignment across topics,
/// members not subscribed, idle members.
fn mistakes_of(
    input: &GroupInput,
    a: &Assignment,
    t: &TopicAssignment,
    rows: &[Row],
) -> Vec<String> {
    let mut mistakes = Vec::new();
    let by_string = a.assignor != AssignorKind::Uniform;
    let (n, rem) = (t.partitions, t.extra());
    // Numeric instead of string order.
    let dynamic: Vec<&str> = rows
        .iter()
        .filter(|r| !r.is_static)
        .map(|r| r.member.as_str())
        .collect();
    if let Some((x, y)) = against_numeric_order(&dynamic).filter(|_| by_string) {
        mistakes.push(format!(
            "Order is by member id as a string, not as a number: \"{}\" comes before \"{}\".",
            dynamic[x], dynamic[y]
        ));
    }
    // One assignment across all topics instead of one per topic.
    if matches!(a.assignor, AssignorKind::Range | AssignorKind::ServerRange) && rem > 0 {
        let others = a
            .topics
            .iter()
            .filter(|o| {
                o.topic != t.topic
                    && o.extra() > 0
                    && o.shares().first().map(|s| s.member) == t.shares().first().map(|s| s.member)
            })
            .count();
        if others > 0 {
            mistakes.push(format!(
                "Range works per topic, not across all topics: {} again gets an extra partition in {} other {}, so the skew adds up.",
                rows[0].member,
                others,
                if others == 1 { "topic" } else { "topics" }
            ));
        }
    }
    // Members not subscribed to this topic.
    let outsiders: Vec<&str> = input
        .members
        .iter()
        .filter(|mm| !mm.topics.contains(&t.topic))
        .map(|mm| mm.id.as_str())
        .collect();
    if !outsiders.is_empty() && n > 0 {
        mistakes.push(format!(
            "{} {} not subscribed to {}, so {} none of its partitions, whatever {} load elsewhere.",
            outsiders.join(", "),
            if outsiders.len() == 1 { "is" } else { "are" },
            t.topic,
            if outsiders.len() == 1 {
                "it gets"
            } else {
                "they get"
            },
            if outsiders.len() == 1 { "its" } else { "their" }
        ));
    }
    // Idle members.
    let idle: Vec<&str> = input
        .members
        .iter()
        .enumerate()
        .filter(|(i, _)| a.totals[*i] == 0)
        .map(|(_, mm)| mm.id.as_str())
        .collect();
    if !idle.is_empty() {
        mistakes.push(format!(
            "{} {} nothing at all but {} still in the group (and in the result).",
            idle.join(", "),
            if idle.len() == 1 { "gets" } else { "get" },
            if idle.len() == 1 { "is" } else { "are" }
        ));
    }
    mistakes
}

/// What the sticky assignors did with one topic: they balance each member's total over all
/// its topics, keep what members owned up to that balance, and move only the rest.
/// What the broker's uniform assignor did, with the group's numbers.
fn uniform_summary(input: &GroupInput, a: &Assignment, out: &mut Vec<String>) {
    let total: u32 = a.totals.iter().sum();
    let members = input.members.len() as u32;
    let (max, min) = a.max_min();
    out.push("The broker computes this (KIP-848, group.protocol=consumer, its default uniform assignor), not a member: there is no leader, and the members' partition.assignment.strategy plays no part.".into());
    if super::coordinator::subscription_type(input) == "HOMOGENEOUS" && members > 0 {
        let (div, rem) = (total / members, total % members);
        // Who gets one more: the first `rem` members in the broker's member order.
        let order = super::coordinator::member_order(&input.members);
        let extra: Vec<&str> = order
            .iter()
            .take(rem.min(5) as usize)
            .map(|m| input.members[*m as usize].id.as_str())
            .collect();
        out.push(format!(
            "Every member subscribes to the same topics, so uniform balances each member's total over all {total} partitions, not each topic: {total} div {members} = {div} each, and {total} mod {members} = {rem}{}. Unlike the classic RangeAssignor, which gives each topic's extra partitions to the same first members, no member is more than one ahead (max {max}, min {min}).",
            if rem == 0 {
                String::new()
            } else {
                format!(
                    ", so {} one more: the first in the broker's member order, a Java HashMap of member ids ({}{})",
                    plural(rem, "member gets", "members get"),
                    extra.join(", "),
                    if rem > 5 { ", …" } else { "" }
                )
            }
        ));
    } else {
        out.push(format!(
            "Members subscribe to different topics, so uniform balances their totals as far as each one's topics allow (max {max}, min {min}): topics with the most partitions per subscriber first, each partition to the least loaded of its subscribers, ties to the first in the broker's member order (a Java HashMap of member ids)."
        ));
    }
    out.push("It is sticky: each member keeps its previous target assignment (the pinned baseline, or the partitions it owns) up to its share; only the rest moves, and members then reconcile heartbeat by heartbeat, with no rebalance.".into());
}

fn sticky_summary(input: &GroupInput, a: &Assignment, t: &TopicAssignment, out: &mut Vec<String>) {
    let total: u32 = a.totals.iter().sum();
    let members = input.members.len() as u32;
    let (max, min) = a.max_min();
    out.push(format!(
        "{} balances each member's total over all its topics, not each topic: {} over {}, max {max}, min {min}. Members keep what they owned up to that balance; the rest goes, one at a time, to the member with the fewest.",
        if a.assignor == AssignorKind::Sticky {
            "StickyAssignor"
        } else {
            "CooperativeStickyAssignor"
        },
        plural(total, "partition", "partitions"),
        plural(members, "member", "members"),
    ));
    // Who owned each partition of this topic before; a partition several members claimed
    // (conflicting claims, which Java settles by generation) is marked and counts as kept
    // when it is now with any of them.
    const SEVERAL: u32 = UNASSIGNED - 1;
    let mut before = vec![UNASSIGNED; t.partitions as usize];
    let mut claimed = false;
    for (i, m) in input.members.iter().enumerate() {
        for (topic, ps) in &m.owned {
            if *topic != t.topic {
                continue;
            }
            for p in ps {
                if let Some(b) = usize::try_from(*p).ok().and_then(|p| before.get_mut(p)) {
                    *b = if *b == UNASSIGNED || *b == i as u32 {
                        i as u32
                    } else {
                        SEVERAL
                    };
                    claimed = true;
                }
            }
        }
    }
    if !claimed {
        out.push(format!(
            "Nobody owned {} before: a fresh assignment (pin a baseline, then change the group, to see what stays).",
            t.topic
        ));
        return;
    }
    let claimed_by = |m: u32, p: usize| {
        input.members.get(m as usize).is_some_and(|mm| {
            mm.owned
                .iter()
                .any(|(topic, ps)| *topic == t.topic && ps.iter().any(|x| *x as i64 == p as i64))
        })
    };
    let withheld = a.withheld.iter().filter(|w| w.topic == t.topic).count() as u32;
    let (mut kept, mut moved, mut fresh) = (0u32, 0u32, 0u32);
    for (p, now) in t.owners.iter().enumerate() {
        match before[p] {
            UNASSIGNED => fresh += u32::from(*now != UNASSIGNED),
            SEVERAL if claimed_by(*now, p) => kept += 1,
            b if b == *now => kept += 1,
            _ => moved += 1,
        }
    }
    let moved = moved.saturating_sub(withheld);
    let mut line = format!(
        "Of {}'s {}, {} stayed with the member that owned {}",
        t.topic,
        plural(t.partitions, "partition", "partitions"),
        kept,
        if kept == 1 { "it" } else { "them" },
    );
    if moved > 0 {
        line.push_str(&format!(", {moved} changed owner"));
    }
    if withheld > 0 {
        line.push_str(&format!(
            ", {withheld} {} revoked and waiting for the follow-up rebalance",
            if withheld == 1 { "is" } else { "are" }
        ));
    }
    if fresh > 0 {
        line.push_str(&format!(", {fresh} had no previous owner"));
    }
    line.push('.');
    out.push(line);
}

#[cfg(test)]
mod tests {
    use super::super::range;
    use super::*;
    use crate::scenario::presets::preset;

    #[test]
    fn the_broker_assignors_say_what_the_broker_does() {
        let mut s = preset("seven-three").unwrap();
        s.members
            .push(crate::scenario::Member::new("consumer-2", &["orders"]));
        s.members
            .push(crate::scenario::Member::new("consumer-10", &["orders"]));
        let input = s.group_input();
        // server-range: the classic range's arithmetic, with the broker's sentence
        let a = super::super::server_range(&input);
        let e = explain_topic(&input, &a, &a.topics[0]);
        assert!(e.rows.iter().all(|r| r.first.is_some() || r.count == 0));
        assert!(
            e.summary[0].starts_with("7 partitions over 5 subscribers"),
            "{e:?}"
        );
        assert!(e
            .summary
            .iter()
            .any(|l| l.contains("group.remote.assignor=range")));
        assert!(
            e.mistakes.iter().any(|l| l.contains("as a string")),
            "{e:?}"
        );
        // uniform: totals over the group, the extra partitions in the broker's member order,
        // never the string-order mistake (uniform does not sort by string)
        let a = super::super::uniform(&input).unwrap();
        let e = explain_topic(&input, &a, &a.topics[0]);
        let order = super::super::coordinator::member_order(&input.members);
        let first = &input.members[order[0] as usize].id;
        let text = e.summary.join(" ");
        assert!(
            text.contains("7 div 5 = 1 each, and 7 mod 5 = 2, so 2 members get one more"),
            "{text}"
        );
        assert!(
            text.contains(&format!("a Java HashMap of member ids ({first}, ")),
            "{text}"
        );
        assert!(e.rows.iter().all(|r| r.first.is_none()));
        assert!(
            !e.mistakes.iter().any(|l| l.contains("as a string")),
            "{e:?}"
        );
        // the two members the broker's order puts first have two partitions each
        for m in &order[..2] {
            assert_eq!(a.totals[*m as usize], 2, "{:?}", a.totals);
        }
    }

    #[test]
    fn the_first_pair_against_numeric_order_as_every_pair_finds_it() {
        // every pair, in order: the rule the fast way must give
        fn by_pairs(ids: &[&str]) -> Option<(usize, usize)> {
            for (i, x) in ids.iter().enumerate() {
                for (j, y) in ids.iter().enumerate().skip(i + 1) {
                    if let (Some((hx, nx)), Some((hy, ny))) =
                        (trailing_number(x), trailing_number(y))
                    {
                        if hx == hy && nx > ny {
                            return Some((i, j));
                        }
                    }
                }
            }
            None
        }
        let cases: &[&[&str]] = &[
            &["consumer-1", "consumer-10", "consumer-2"],
            &["a-3", "b-9", "b-1", "a-1", "a-2"],
            &["b-9", "a-3", "a-1", "b-1"],
            &["c-00001", "c-00002", "c-00010"],
            &["x", "y-2", "y-1x", "y-1", "z7", "z12", "z3"],
            &[],
        ];
        for ids in cases {
            assert_eq!(against_numeric_order(ids), by_pairs(ids), "{ids:?}");
        }
        // and over many generated lists
        let heads = ["c-", "d-", "c-x", ""];
        let mut seed = 7u64;
        for _ in 0..2_000 {
            let n = (seed % 9) as usize;
            let ids: Vec<String> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let h = heads[(seed >> 33) as usize % heads.len()];
                    format!("{h}{}", (seed >> 40) % 12)
                })
                .collect();
            let ids: Vec<&str> = ids.iter().map(|s| s.as_str()).collect();
            assert_eq!(against_numeric_order(&ids), by_pairs(&ids), "{ids:?}");
        }
    }

    #[test]
    fn partition_lists_collapse_runs_and_stop() {
        assert_eq!(partition_list(&[]), "none");
        assert_eq!(partition_list(&[0, 1, 2, 5, 7, 8, 9]), "0–2, 5, 7–9");
        assert_eq!(
            partition_list(&[u32::MAX - 1, u32::MAX]),
            "4294967294–4294967295"
        );
        assert_eq!(
            partition_list(&(0..333_334).collect::<Vec<_>>()),
            "0–333333"
        );
        let every_third: Vec<u32> = (0..1000).map(|p| p * 3).collect();
        let text = partition_list(&every_third);
        assert!(text.starts_with("0, 3, 6, "), "{text}");
        assert!(text.ends_with("69, … (1000 in all)"), "{text}");
        assert_eq!(
            owner_runs(&[2, 2, 2, 0, 0, 1, UNASSIGNED]),
            vec![(2, 0, 2), (0, 3, 4), (1, 5, 5), (UNASSIGNED, 6, 6)]
        );
    }

    #[test]
    fn the_rest_of_a_big_topic() {
        let mut s = preset("seven-three").unwrap();
        s.topics[0].partitions = 1_000_000;
        let input = s.group_input();
        let a = range(&input);
        let text = rest_of_topic(&input, &a.topics[0], 2000);
        assert_eq!(
            text,
            "Partitions 2000–999999 are not drawn. The whole topic: consumer-a 0–333333, \
             consumer-b 333334–666666, consumer-c 666667–999999."
        );
        let a = crate::assignor::round_robin(&input);
        let text = rest_of_topic(&input, &a.topics[0], 2000);
        assert_eq!(
            text,
            "Partitions 2000–999999 are not drawn. Of those 998000: consumer-a 332667, \
             consumer-b 332666, consumer-c 332667."
        );
    }

    #[test]
    fn ratios() {
        assert_eq!(ratio(6, 3), "2.00");
        assert_eq!(ratio(3, 2), "1.50");
        assert_eq!(ratio(2, 3), "0.67");
        assert_eq!(ratio(7, 0), "∞");
    }

    #[test]
    fn string_order_mistake() {
        let s = preset("string-order").unwrap();
        let input = s.group_input();
        let a = range(&input);
        let e = explain_topic(&input, &a, &a.topics[0]);
        let order: Vec<&str> = e.rows.iter().map(|r| r.member.as_str()).collect();
        assert_eq!(order, vec!["consumer-1", "consumer-10", "consumer-2"]);
        assert!(
            e.mistakes[0].contains("\"consumer-10\" comes before \"consumer-2\""),
            "{:?}",
            e.mistakes
        );
        assert_eq!((e.per_member, e.extra), (1, 2));
    }

    #[test]
    fn round_robin_tells_where_the_deal_starts() {
        let s = preset("round-robin").unwrap();
        let input = s.group_input();
        let a = crate::assignor::round_robin(&input);
        let e = explain_topic(&input, &a, &a.topics[1]);
        assert!(
            e.summary
                .iter()
                .any(|l| l == "The circle, in assignor order: C0, C1."),
            "{:?}",
            e.summary
        );
        assert!(
            e.summary
                .iter()
                .any(|l| l.contains("(t0) stopped, so t1-0 goes to C1")),
            "{:?}",
            e.summary
        );
        assert_eq!(e.rows[0].partitions, vec![1]);
    }

    #[test]
    fn per_topic_skew_and_idle() {
        let s = preset("three-topics").unwrap();
        let input = s.group_input();
        let a = range(&input);
        let e = explain_topic(&input, &a, &a.topics[0]);
        assert!(
            e.mistakes.iter().any(|m| m.contains("2 other topics")),
            "{:?}",
            e.mistakes
        );
        let s = preset("idle").unwrap();
        let input = s.group_input();
        let a = range(&input);
        let e = explain_topic(&input, &a, &a.topics[0]);
        assert!(
            e.mistakes.iter().any(|m| m.contains("m3, m4 get nothing")),
            "{:?}",
            e.mistakes
        );
    }
}
