//! The second lesson, from the consumer notes among the teaching seeds: what triggers a
//! rebalance and what each costs (joins, leaves, crashes, session timeouts, static
//! membership, commits). Data only: each step's link carries its timeline (`xt`), and every
//! answer is computed by running it on the step's group.

use super::{Fact, Highlight, Lesson, Question, Step, TimelineFact};

/// Three members of a group reading `orders` (6 partitions), and the timeline to run.
macro_rules! group {
    ($timeline:literal) => {
        concat!("v1;a=r;t=orders*6;m=c1***B,c2***B,c3***B;xt=", $timeline)
    };
}

const REBALANCES: &[&str] = &["0", "1", "2", "3"];

/// The lesson on the group over time.
pub const OVER_TIME: Lesson = Lesson {
    key: "over-time",
    title: "Rebalances over time: what triggers them and what they cost",
    steps: &[
        Step {
            key: "join",
            title: "A member joins",
            text: "A new consumer's first JoinGroup only gets it a member id (MEMBER_ID_REQUIRED); its second starts a rebalance, and every member must send JoinGroup again, which each notices at its next heartbeat (every heartbeat.interval.ms, 3 s). With the Java client's default [range, cooperative-sticky] the group rebalances eagerly: every member gives up everything it owns before it rejoins.",
            scenario: group!("scale-out"),
            before: None,
            highlights: &[Highlight::Topic("orders")],
            question: Some(Question::Choice {
                prompt: "One member joins a group of three. How many rebalances does it start?",
                fact: Fact::Timeline(TimelineFact::Rebalances),
                options: REBALANCES,
            }),
            mistake: None,
        },
        Step {
            key: "join-cooperative",
            title: "The same join, cooperatively",
            text: "With cooperative-sticky alone, members keep what stays theirs. A partition that moves is revoked by its owner after the first rebalance, and handed to the new member only in a second one: nothing else stops, but it takes two rounds.",
            scenario: group!("scale-out.protocol%3Dcooperative"),
            before: None,
            highlights: &[Highlight::Topic("orders")],
            question: Some(Question::Choice {
                prompt: "The same join under cooperative-sticky. How many rebalances now?",
                fact: Fact::Timeline(TimelineFact::Rebalances),
                options: REBALANCES,
            }),
            mistake: None,
        },
        Step {
            key: "mixed-lists",
            title: "Half-way to cooperative-sticky",
            text: "A Java consumer rebalances cooperatively only when every assignor it lists supports it: cooperative-sticky alone. Here c1 and c2 list cooperative-sticky alone and c3 still lists [cooperative-sticky, range], so c3 rebalances eagerly and revokes everything before it rejoins, while the group runs cooperative-sticky, the one assignor every member lists. The member that joins lists what c3 lists.",
            scenario: "v1;a=r;t=orders*6;m=c1***B*scooperative-sticky,c2***B*scooperative-sticky,c3***B*scooperative-sticky:range;xt=scale-out.protocol%3Dlisted",
            before: None,
            highlights: &[Highlight::Topic("orders")],
            question: Some(Question::Choice {
                prompt: "A member joins this mixed group. c3 gives up its partitions at once; c1 and c2 would give up only what moves. How many rebalances does the join take?",
                fact: Fact::Timeline(TimelineFact::Rebalances),
                options: REBALANCES,
            }),
            mistake: None,
        },
        Step {
            key: "restart",
            title: "A deploy restarts one member",
            text: "A Java consumer's close() commits, then sends LeaveGroup: the coordinator rebalances at once. When the new process starts 20 s later it joins as a new member, with a new member id.",
            scenario: group!("replace"),
            before: None,
            highlights: &[],
            question: Some(Question::Choice {
                prompt: "c1 is restarted and is down for 20 s. How many rebalances does that cost?",
                fact: Fact::Timeline(TimelineFact::Rebalances),
                options: REBALANCES,
            }),
            mistake: None,
        },
        Step {
            key: "static",
            title: "Static members",
            text: "With group.instance.id set, a member sends no LeaveGroup when it closes, and the coordinator keeps its place and its assignment until session.timeout.ms (45 s) after its last heartbeat. Back in time, it gets its partitions again without a rebalance: only its own partitions wait, for its own downtime.",
            scenario: group!("rolling-restart.static%3D1"),
            before: None,
            highlights: &[],
            question: Some(Question::Choice {
                prompt: "Every member of a static group is restarted in turn, each down for 20 s. How many rebalances?",
                fact: Fact::Timeline(TimelineFact::Rebalances),
                options: REBALANCES,
            }),
            mistake: None,
        },
        Step {
            key: "crash",
            title: "A crash waits for the session timeout",
            text: "A process that dies says nothing. The coordinator notices only when the member's heartbeats stop for session.timeout.ms (10 s here), counted from its last heartbeat; the others then learn of the rebalance at their next heartbeat.",
            scenario: group!("crash.session%3D10000"),
            before: None,
            highlights: &[],
            question: Some(Question::Choice {
                prompt: "c1 crashes; session.timeout.ms is 10 s. For how many seconds are its partitions not consumed (rounded)?",
                fact: Fact::Timeline(TimelineFact::LongestPartitionStop),
                options: &["3", "10", "11", "20", "45"],
            }),
            mistake: None,
        },
        Step {
            key: "no-leave",
            title: "A new member waits for the old one",
            text: "A consumer with internal.leave.group.on.close=false (as Kafka Streams closes) sends no LeaveGroup. Its replacement joins, which starts a rebalance, and the coordinator waits for every member it knows to rejoin, the old one included, until that one's session times out. This group rebalances eagerly (the Java client's default), so the other members revoked everything meanwhile; Kafka Streams rebalances cooperatively, and only the old member's partitions would wait.",
            scenario: group!("replace.leave%3D0"),
            before: None,
            highlights: &[],
            question: Some(Question::Choice {
                prompt: "c1 is restarted without LeaveGroup and back after 20 s (session.timeout.ms 45 s). For how many seconds is no partition of the group consumed (rounded)?",
                fact: Fact::Timeline(TimelineFact::LongestGroupStop),
                options: &["0", "3", "21", "45"],
            }),
            mistake: None,
        },
        Step {
            key: "read-twice",
            title: "At least once: read twice",
            text: "With enable.auto.commit, offsets are committed every auto.commit.interval.ms (5 s). A member that dies has processed records since its last commit; the next owner starts from the committed offset and processes them again. Here 100 records a second arrive on each partition.",
            scenario: group!("crash"),
            before: None,
            highlights: &[],
            question: Some(Question::Choice {
                prompt: "c1 crashes half a second after its last auto-commit, owning 2 partitions. How many records are read twice?",
                fact: Fact::Timeline(TimelineFact::RecordsReadTwice),
                options: &["0", "99", "500", "1000"],
            }),
            mistake: None,
        },
        Step {
            key: "commit-after-batch",
            title: "Commit after each batch",
            text: "Committing with commitSync() after each batch is processed leaves nothing processed and uncommitted for long: a member that keeps up has little in flight when it dies. Committing before processing would go the other way: nothing read twice, but a batch committed and never processed (at most once).",
            scenario: group!("crash.commit%3Dafter-batch"),
            before: None,
            highlights: &[],
            question: Some(Question::Choice {
                prompt: "The same crash, committing after each batch. How many records are read twice?",
                fact: Fact::Timeline(TimelineFact::RecordsReadTwice),
                options: &["0", "99", "500", "1000"],
            }),
            mistake: None,
        },
    ],
};
