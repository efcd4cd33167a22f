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

/// max / min with two decimals, rounded half up, in integers (no float formatting).
pub fn ratio(max: u32, min: u32) -> String {
    if min == 0 {
        return "∞".into();
    }
    let hundredths = (max as u64 * 1000 / min as u64 + 5) / 10;
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Explains one topic of an assignment.
pub fn explain_topic(input: &GroupInput, a: &Assignment, t: &TopicAssignment) -> TopicExplanation {
    let rows: Vec<Row> = t
        .shares
        .iter()
        .map(|s| {
            let m = &input.members[s.member as usize];
            let partitions: Vec<u32> = t
                .owners
                .iter()
                .enumerate()
                .filter(|(_, o)| **o == s.member)
                .map(|(p, _)| p as u32)
                .collect();
            Row {
                member: m.id.clone(),
                is_static: m.instance_id.is_some(),
                index: s.index,
                first: if a.assignor == AssignorKind::Range {
                    partitions.first().copied()
                } else {
                    None
                },
                count: partitions.len() as u32,
                partitions,
            }
        })
        .collect();
    let n = t.partitions;
    let m = t.shares.len() as u32;
    let (div, rem) = (t.per_member(), t.extra());
    let mut summary = Vec::new();
    let mut mistakes = Vec::new();
    if n == 0 {
        summary.push(format!(
            "{} is subscribed to but missing from the cluster metadata (or has 0 partitions): Kafka skips it and nobody gets it.",
            t.topic
        ));
    } else if a.assignor == AssignorKind::Range {
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
        if t.rack_aware {
            summary.push("Rack awareness applied (KIP-881): members first took partitions with a replica on their own rack, within the same quotas, then the plain rule placed the rest.".into());
        }
    } else {
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
    if rows.iter().any(|r| r.is_static) {
        summary.push("Static members (with a group.instance.id) come first, ordered by instance id; then dynamic members by member id.".into());
    }

    // Numeric instead of string order.
    let dynamic: Vec<&Row> = rows.iter().filter(|r| !r.is_static).collect();
    'outer: for (i, x) in dynamic.iter().enumerate() {
        for y in &dynamic[i + 1..] {
            if let (Some((hx, nx)), Some((hy, ny))) =
                (trailing_number(&x.member), trailing_number(&y.member))
            {
                if hx == hy && nx > ny {
                    mistakes.push(format!(
                        "Order is by member id as a string, not as a number: \"{}\" comes before \"{}\".",
                        x.member, y.member
                    ));
                    break 'outer;
                }
            }
        }
    }
    // One assignment across all topics instead of one per topic.
    if a.assignor == AssignorKind::Range && rem > 0 {
        let others = a
            .topics
            .iter()
            .filter(|o| {
                o.topic != t.topic
                    && o.extra() > 0
                    && o.shares.first().map(|s| s.member) == t.shares.first().map(|s| s.member)
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

#[cfg(test)]
mod tests {
    use super::super::range;
    use super::*;
    use crate::scenario::presets::preset;

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
