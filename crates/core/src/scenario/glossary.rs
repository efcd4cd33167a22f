//! The words the app uses, each in a few sentences: a glossary the page keeps one click away
//! and links from where each word first appears.

/// One entry: a stable key (for the page's links), the term, and what it means.
pub struct Entry {
    /// Stable key: the element id is `g-<key>`.
    pub key: &'static str,
    /// The term.
    pub term: &'static str,
    /// What it means, in plain words.
    pub text: &'static str,
}

/// Every entry, in the order a newcomer meets them.
pub const GLOSSARY: &[Entry] = &[
    Entry {
        key: "group",
        term: "consumer group",
        text: "The consumers that share one group.id and split a set of topics between them: each partition is read by exactly one member of the group at a time, so adding members spreads the work (up to one member per partition).",
    },
    Entry {
        key: "partition",
        term: "partition",
        text: "A topic is split into numbered partitions (0, 1, 2, ...): the unit of parallelism. Within a group, a partition has one owner; a member can own many.",
    },
    Entry {
        key: "member",
        term: "member",
        text: "One consumer in the group, known by the member id the group coordinator gives it when it joins (client.id, a dash and a UUID for the Java client). A member with nothing assigned is still a member: it sits idle.",
    },
    Entry {
        key: "static",
        term: "static and dynamic members",
        text: "A dynamic member gets a new member id every time it (re)joins. A static member also sets group.instance.id: the coordinator recognises it after a restart, and range and round-robin order static members first, by instance id, so a restart changes nothing.",
    },
    Entry {
        key: "assignment",
        term: "assignment",
        text: "Which member owns which partitions. The group's leader computes it with the assignor the group agreed on (range by default) and the coordinator hands each member its share.",
    },
    Entry {
        key: "leader",
        term: "leader",
        text: "One member of the group (the first to join) that runs the assignor for everyone during a rebalance. It is an ordinary consumer; the broker only passes the result on.",
    },
    Entry {
        key: "rebalance",
        term: "rebalance",
        text: "The group working out a new assignment. Triggers: a member joins, leaves or misses its session timeout (session.timeout.ms), a member changes its subscription, or a subscribed topic gains partitions. Cost: with the eager assignors (range, round-robin, sticky) every member stops consuming until the new assignment arrives; cooperative-sticky only pauses the partitions that move, over two rebalances.",
    },
    Entry {
        key: "generation",
        term: "generation",
        text: "A counter the coordinator bumps at every rebalance. A member reports the generation of what it owns, so when two members claim one partition the newer claim wins (sticky assignors).",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_texts_say_something() {
        for (i, e) in GLOSSARY.iter().enumerate() {
            assert!(GLOSSARY[..i].iter().all(|o| o.key != e.key), "{}", e.key);
            assert!(e.text.len() > 60, "{}", e.key);
            // the page writes keys and terms into attributes and ids as they are
            let plain = |s: &str| !s.contains(['"', '<', '>', '&', '\'']);
            assert!(
                plain(e.key) && plain(e.term) && !e.key.contains(' '),
                "{}",
                e.key
            );
        }
        let rebalance = GLOSSARY.iter().find(|e| e.key == "rebalance").unwrap();
        for trigger in ["joins", "leaves", "subscription", "gains partitions"] {
            assert!(rebalance.text.contains(trigger), "{trigger}");
        }
    }
}
