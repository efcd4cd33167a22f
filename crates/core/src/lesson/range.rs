//! The range lesson, from the teaching notes: the group, the subscription bytes,
//! the range rule, its skew, the common mistakes, round-robin, and what triggers a
//! rebalance. Data only: every answer is computed from the step's group.

use super::{Fact, Highlight, Lesson, Mistake, Question, Step};

/// The seed's example subscription: version 0, one topic "a", null user_data
/// (`00 00 | 00 00 00 01 | 00 01 61 | ff ff ff ff`), as a link member's bytes.
const SEED_BYTES_GROUP: &str = "v1;a=r;t=a*3;m=consumer-a****bAAAAAAABAAFh_____w";

/// The skew example: 3 topics of 3 partitions, 2 members subscribed to all.
const THREE_BY_THREE: &str = "v1;a=r;t=t0*3,t1*3,t2*3;m=C0***H,C1***H";

/// 7 partitions and 3 members, listed in the order they joined (not range's order).
const SEVEN_BY_THREE: &str = "v1;a=r;t=orders*7;m=consumer-c***B,consumer-a***B,consumer-b***B";

/// Two partitions, three members: one sits idle.
const IDLE_GROUP: &str = "v1;a=r;t=payments*2;m=consumer-a***B,consumer-b***B,consumer-c***B";

/// The range lesson.
pub const RANGE: Lesson = Lesson {
    key: "range",
    title: "Consumer groups and range assignment",
    steps: &[
        Step {
            key: "group",
            title: "One owner per partition",
            text: "A consumer group is a set of consumers that share the work of a set of topics under one group.id. The rule that makes it work: each partition is owned by exactly one member of the group at a time. A group with more members than partitions leaves the extra members idle, but they are still members.",
            scenario: IDLE_GROUP,
            before: None,
            highlights: &[Highlight::Topic("payments")],
            question: Some(Question::Choice {
                prompt: "payments has 2 partitions and the group 3 members. How many members sit idle?",
                fact: Fact::Idle,
                options: &["0", "1", "2", "3"],
            }),
            mistake: None,
        },
        Step {
            key: "subscription-bytes",
            title: "What a member says it wants, in bytes",
            text: "In a rebalance every member sends JoinGroup with a ConsumerProtocolSubscription. consumer-a, subscribed to one topic with no user data, sends 00 00 (version 0), 00 00 00 01 (one topic), then the topic's name as a string: two bytes of length, then the name's bytes in UTF-8, and last ff ff ff ff (user_data = null). The leader, a client, reads everyone's and decides the assignment.",
            scenario: SEED_BYTES_GROUP,
            before: None,
            highlights: &[
                Highlight::Field {
                    member: "consumer-a",
                    path: "version",
                },
                Highlight::Field {
                    member: "consumer-a",
                    path: "topics",
                },
                Highlight::Field {
                    member: "consumer-a",
                    path: "topics[0]",
                },
                Highlight::Field {
                    member: "consumer-a",
                    path: "user_data",
                },
            ],
            question: Some(Question::Choice {
                prompt: "Which topic does 00 01 61 name?",
                fact: Fact::Field {
                    member: "consumer-a",
                    path: "topics[0]",
                },
                options: &["a", "61", "1"],
            }),
            mistake: None,
        },
        Step {
            key: "range-counts",
            title: "The range rule: how many each",
            text: "For every topic on its own: take its subscribers sorted by member id as strings. With n partitions and m members, each gets n div m, and the first n mod m get one more. Here 7 div 3 = 2 and 7 mod 3 = 1.",
            scenario: SEVEN_BY_THREE,
            before: None,
            highlights: &[Highlight::Topic("orders")],
            question: Some(Question::Counts),
            mistake: None,
        },
        Step {
            key: "range-cells",
            title: "The range rule: which ones",
            text: "The shares are consecutive: member i (counting from 0, in member id order) starts at partition (n div m) * i + min(i, n mod m). With 8 partitions and 3 members, say: member 0 gets 0 1 2, member 1 gets 3 4 5, member 2 gets 6 7.",
            scenario: SEVEN_BY_THREE,
            before: None,
            highlights: &[Highlight::Member("consumer-b")],
            question: Some(Question::Cells {
                member: "consumer-b",
            }),
            mistake: None,
        },
        Step {
            key: "skew",
            title: "Topics do not know about each other",
            text: "Range splits each topic on its own, so the first member gets the extra partition of every topic. With 3 topics of 3 partitions and 2 members, that adds up. This skew is the reason round-robin and sticky assignors exist.",
            scenario: THREE_BY_THREE,
            before: None,
            highlights: &[Highlight::Member("C0")],
            question: Some(Question::Counts),
            mistake: None,
        },
        Step {
            key: "mistake-numeric-order",
            title: "Mistake: sorting member ids as numbers",
            text: "Member ids are sorted as strings, character by character: '1' comes before '2', so consumer-10 comes before consumer-2.",
            scenario: "v1;a=r;t=events*7;m=consumer-1***B,consumer-2***B,consumer-10***B",
            before: None,
            highlights: &[
                Highlight::Member("consumer-10"),
                Highlight::Member("consumer-2"),
            ],
            question: Some(Question::Cells {
                member: "consumer-10",
            }),
            mistake: Some(Mistake::NumericOrder),
        },
        Step {
            key: "mistake-arrival-order",
            title: "Mistake: taking members as they joined",
            text: "The order members joined in never matters: range sorts them by member id. consumer-c joined first here.",
            scenario: "v1;a=r;t=events*7;m=consumer-c***B,consumer-a***B,consumer-b***B",
            before: None,
            highlights: &[Highlight::Member("consumer-c")],
            question: Some(Question::Cells {
                member: "consumer-c",
            }),
            mistake: Some(Mistake::ArrivalOrder),
        },
        Step {
            key: "mistake-global",
            title: "Mistake: one assignment across all topics",
            text: "The most likely mistake: computing one global assignment across topics instead of one per topic.",
            scenario: THREE_BY_THREE,
            before: None,
            highlights: &[Highlight::Member("C1")],
            question: Some(Question::Cells { member: "C1" }),
            mistake: Some(Mistake::OneGlobalRange),
        },
        Step {
            key: "mistake-no-metadata",
            title: "Mistake: assigning a topic nobody has metadata for",
            text: "The leader only knows partition counts for topics in the cluster metadata. Both members also subscribe to audit: see what the grid says of it.",
            scenario: "v1;a=r;t=orders*4;m=consumer-a***B!audit,consumer-b***B!audit",
            before: None,
            highlights: &[Highlight::Topic("audit")],
            question: Some(Question::Counts),
            mistake: Some(Mistake::TopicWithoutMetadata),
        },
        Step {
            key: "mistake-unsubscribed",
            title: "Mistake: giving a member a topic it did not subscribe to",
            text: "Range assignment is per topic, over that topic's subscribers only. consumer-b subscribes to orders, not to payments.",
            scenario: "v1;a=r;t=orders*4,payments*2;m=consumer-a***D,consumer-b***B",
            before: None,
            highlights: &[
                Highlight::Member("consumer-b"),
                Highlight::Topic("payments"),
            ],
            question: Some(Question::Cells {
                member: "consumer-b",
            }),
            mistake: Some(Mistake::UnsubscribedTopic),
        },
        Step {
            key: "mistake-idle",
            title: "Mistake: forgetting members with nothing assigned",
            text: "A member with no partitions still exists in the group, and the leader's result still lists it, with nothing.",
            scenario: IDLE_GROUP,
            before: None,
            highlights: &[Highlight::Topic("payments")],
            question: Some(Question::Counts),
            mistake: Some(Mistake::ForgetIdle),
        },
        Step {
            key: "mistake-text",
            title: "Mistake: treating the metadata as text",
            text: "The subscription is binary: lengths are big-endian signed 32-bit integers, and a nullable field needs a way to say null as well as empty.",
            scenario: SEED_BYTES_GROUP,
            before: None,
            highlights: &[Highlight::Bytes {
                member: "consumer-a",
                start: 9,
                end: 13,
            }],
            question: Some(Question::Choice {
                prompt: "What is user_data in ff ff ff ff?",
                fact: Fact::Field {
                    member: "consumer-a",
                    path: "user_data",
                },
                options: &["null", "0 bytes", "4294967295 bytes"],
            }),
            mistake: Some(Mistake::UnsignedLength),
        },
        Step {
            key: "round-robin",
            title: "Round-robin",
            text: "Round-robin lays out all partitions of all topics (topics in name order, then by partition) and deals them to the members in a circle. Two members C0 and C1, topics t0 and t1 with 3 partitions each.",
            scenario: "v1;a=o;t=t0*3,t1*3;m=C0***D,C1***D",
            before: None,
            highlights: &[Highlight::Member("C0")],
            question: Some(Question::Cells { member: "C0" }),
            mistake: None,
        },
        Step {
            key: "what-if-join",
            title: "A member joins",
            text: "When a member joins, the group rebalances: range recomputes every topic over the new set of subscribers.",
            scenario: "v1;a=r;t=orders*6;m=consumer-a***B,consumer-b***B,consumer-c***B",
            before: Some("v1;a=r;t=orders*6;m=consumer-a***B,consumer-b***B"),
            highlights: &[Highlight::Member("consumer-c")],
            question: Some(Question::Cells {
                member: "consumer-c",
            }),
            mistake: None,
        },
        Step {
            key: "what-if-leave",
            title: "A member leaves",
            text: "When a member leaves (or misses session.timeout.ms), the group rebalances and the members after it in range's order shift up.",
            scenario: "v1;a=r;t=orders*6;m=consumer-a***B,consumer-c***B",
            before: Some("v1;a=r;t=orders*6;m=consumer-a***B,consumer-b***B,consumer-c***B"),
            highlights: &[Highlight::Member("consumer-c")],
            question: Some(Question::Choice {
                prompt: "consumer-b leaves. How many partitions change owner among those owned before and after?",
                fact: Fact::Moved,
                options: &["0", "1", "2", "3", "4"],
            }),
            mistake: None,
        },
        Step {
            key: "what-if-subscription",
            title: "A subscription changes",
            text: "When members change what they subscribe to, the group rebalances. Both members now subscribe to payments as well.",
            scenario: "v1;a=r;t=orders*4,payments*2;m=consumer-a***D,consumer-b***D",
            before: Some("v1;a=r;t=orders*4,payments*2;m=consumer-a***B,consumer-b***B"),
            highlights: &[Highlight::Topic("payments")],
            question: Some(Question::Cells {
                member: "consumer-b",
            }),
            mistake: None,
        },
        Step {
            key: "what-if-partitions",
            title: "A topic gains partitions",
            text: "When a subscribed topic gains partitions, the group rebalances, and partitions that existed before can change owner too. orders grows from 4 to 6 partitions.",
            scenario: "v1;a=r;t=orders*6;m=consumer-a***B,consumer-b***B,consumer-c***B",
            before: Some("v1;a=r;t=orders*4;m=consumer-a***B,consumer-b***B,consumer-c***B"),
            highlights: &[Highlight::Topic("orders")],
            question: Some(Question::Choice {
                prompt: "How many of the 4 old partitions change owner?",
                fact: Fact::Moved,
                options: &["0", "1", "2", "3", "4"],
            }),
            mistake: None,
        },
    ],
};
