//! The scenario's URL form: the fragment after `#`, versioned and compact.
//!
//! ```text
//! v1;a=r;t=orders*6,payments*3;m=c0***D,c1*~static-1*~eu-west-1a*B*g4*oorders!0:1
//! ```
//! - sections split by `;`, each `key=value`; `v1` comes first and says the format version.
//!   Each of `a`, `t`, `m`, `p`, `g`, `l` appears at most once.
//! - `a`: assignor, `r` (range), `o` (round-robin), `s` (sticky), `c` (cooperative-sticky),
//!   `u` (uniform), `g` (server-range, the group coordinator's).
//! - `t`: topics, `name*count` split by `,`.
//! - `m`: members split by `,`, each `id*instance*rack*subscriptions*options...`: instance
//!   and rack are empty when absent and `~value` when present; subscriptions are a base64url
//!   bitmask over the topic list, then `!name` for each subscribed topic not in the list;
//!   options are `g<generation>`, `o<topic>!p:p:p` (owned partitions), `b<base64url bytes>`
//!   (raw subscription, which then alone gives the topics, generation and owned partitions),
//!   `v<version>` (the version its bytes view shows) and `s<name>:<name>...` (its
//!   partition.assignment.strategy, the protocols its JoinGroup lists in preference order;
//!   absent means the Java client's `range:cooperative-sticky`, `s` alone an empty list). A member id may start with `^.`
//!   (the previous member's id without its UUID) or `^N.` (the first N bytes of the previous
//!   member's id) and end with `~` and 22 base64url characters (a coordinator UUID:
//!   `-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`); see [`ids`].
//! - `p`: partition racks, `topic*racks!racks!...` with racks split by `:`.
//! - `g`: the group, `~group.id*partitions` (the group id empty when not set, shown as
//!   `my-group`; `partitions` is offsets.topic.num.partitions, 1 to 2147483647), then `*v`
//!   when the assignor follows the members' vote (absent: the `a` section was chosen by
//!   hand). Absent: no group id, 50 partitions, the assignor chosen by hand.
//! - `l`: the leader's client, `java` (absent) or `librdkafka` (its member order for range
//!   and round-robin).
//! - `x<key>=<value>`: the app's state: `xb` the pinned baseline ([`baseline`]), `xs` the
//!   story step, `xh<i>` hex still being typed for member `i`, `xc` the members' colour
//!   slots (`.`-separated, in member order; only when not 0, 1, 2, ...), `xp` the pinned group
//!   (itself a link fragment: its `t`, `m` and `p` sections), `xr` renames since the pin
//!   (`old!new` pairs split by `,`, names percent-encoded), `xj` the group's joins and leaves
//!   since the members were listed, when a member was removed ([`log`]: who leads depends
//!   on them); `xi` the topics' ids (`name!id` pairs split by `,`, each id in Kafka's
//!   canonical form), `xg` an imported group's lag (`topic!lag.lag...` split by `,`, empty
//!   where not shown), `xk` what Kafka's tool said of an imported group
//!   (`[~state]*[~strategy]*line.message,...`, each text escaped, a cell empty when not
//!   printed), `xl` the lesson on screen and the learner's progress in it; other keys are
//!   kept verbatim.
//!
//! Names are percent-encoded except `A-Z a-z 0-9 - . _`, so every separator is unambiguous,
//! a browser never rewrites the fragment, and a link is ASCII. Names are never empty. Every
//! link the reader accepts writes back to a link that reads the same state. One
//! implementation serves the app and `rebalance-lab link`.

pub mod baseline;
mod ids;
pub mod log;
mod reader;
mod text;
mod writer;

pub use reader::{from_fragment, MAX_MEMBERS};
pub use text::{escape, unescape};
pub use writer::{
    fragment_of, link_with_fragment, scenario_fragment, subscription_mask_len, to_fragment,
    to_link, writable,
};

use super::whatif::Baseline;
use super::Scenario;
use std::collections::BTreeMap;
use std::fmt;

/// The format version this build writes and reads.
pub const LINK_VERSION: u32 = 1;

/// Why a link cannot be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkError {
    /// Character index in the fragment (after `#`) where the problem starts.
    pub position: usize,
    /// What failed.
    pub message: String,
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "link, character {}: {}", self.position, self.message)
    }
}

impl std::error::Error for LinkError {}

/// A part of a link that could not be read while the rest could: kept verbatim, so writing
/// the link again loses nothing, with why it was not read. Two are the same part when their
/// text is (the position of the error moves with the sections around it).
#[derive(Debug, Clone, Eq)]
pub struct BadPart {
    /// The part's text as the link carried it (unescaped).
    pub raw: String,
    /// Why it could not be read.
    pub error: LinkError,
}

impl PartialEq for BadPart {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}

/// A scenario and the app's state, as a link carries them. Per-member entries are keyed by
/// the member's position in the link's member list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LinkState {
    /// The scenario.
    pub scenario: Scenario,
    /// Subscription view version chosen per member (index), when not the default.
    pub versions: BTreeMap<usize, i16>,
    /// The pinned baseline, or the text of one that could not be read.
    pub baseline: Option<Result<Baseline, BadPart>>,
    /// The story step on screen.
    pub story_step: Option<usize>,
    /// The lesson on screen (its key) and the learner's place and outcomes in it.
    pub lesson: Option<(&'static str, crate::lesson::Progress)>,
    /// An imported group's lag per partition (`xg`).
    pub lag: Option<crate::import::Lag>,
    /// What Kafka's tool said of an imported group (`xk`): its state, its strategy and its
    /// messages.
    pub printed: Option<crate::import::Printed>,
    /// Hex being typed per member (index) that is not whole bytes yet.
    pub hex_drafts: BTreeMap<usize, String>,
    /// Colour slot per member (index), when not simply 0, 1, 2, ... in list order.
    pub colours: Option<Vec<u32>>,
    /// The group as pinned, and members that came back under new ids since (old, new).
    pub pinned: Option<(Scenario, Vec<(String, String)>)>,
    /// The group's joins and leaves, when a member was removed (empty: the members joined
    /// in list order and nobody left).
    pub group_log: Vec<crate::group::GroupEvent>,
    /// The timeline on screen: its story and settings (`xt`).
    pub timeline: Option<crate::timeline::spec::Spec>,
    /// App state from a newer build of the same format, kept in order.
    pub extra: Vec<(String, String)>,
    /// The person's own group, kept while the story or a lesson shows its own (`xo`): a link
    /// of its own, without a story, a lesson or an own group inside.
    pub own: Option<Box<LinkState>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::AssignorKind;
    use crate::scenario::{Member, Topic};

    fn sample() -> Scenario {
        Scenario {
            topics: vec![
                Topic {
                    name: "orders".into(),
                    partitions: 6,
                },
                Topic {
                    name: "<img src=x onerror=alert(1)>".into(),
                    partitions: 3,
                },
            ],
            partition_racks: [(
                "orders".to_string(),
                vec![vec!["a".into(), "b:c".into()], vec![]],
            )]
            .into_iter()
            .collect(),
            members: vec![
                Member {
                    id: "consumer-1 é".into(),
                    instance_id: Some("".into()),
                    rack: Some("eu*1".into()),
                    client_id: None,
                    topics: vec!["orders".into(), "gone".into()].into(),
                    owned: [("orders".to_string(), vec![0, -1])].into_iter().collect(),
                    generation: Some(-7),
                    subscription: None,
                    protocols: vec!["roundrobin".into(), "my:assignor*1".into()],
                },
                Member::new("c2", &[]),
            ],
            assignor: AssignorKind::RoundRobin,
            group_id: Some("orders app;1".into()),
            offsets_partitions: 150,
            leader_client: crate::assignor::LeaderClient::Librdkafka,
            assignor_by_vote: true,
            ..Default::default()
        }
    }

    #[test]
    fn round_trip() {
        let st = LinkState {
            scenario: sample(),
            versions: [(1, 2)].into_iter().collect(),
            baseline: Some(Ok(crate::scenario::whatif::Baseline::of(&sample()))),
            story_step: Some(2),
            timeline: crate::timeline::spec::preset("rolling-static"),
            lesson: Some(("range", crate::lesson::Progress::parse("4.rw-r").unwrap())),
            hex_drafts: [(0, "00 0".to_string())].into_iter().collect(),
            colours: Some(vec![1, 0]),
            pinned: Some((
                Scenario {
                    members: vec![Member::new("old", &["orders"])],
                    ..sample()
                },
                vec![("old".into(), "new".into())],
            )),
            group_log: vec![
                crate::group::GroupEvent::Join("gone".into()),
                crate::group::GroupEvent::Join("c2".into()),
                crate::group::GroupEvent::Leave("gone".into()),
            ],
            lag: None,
            printed: None,
            extra: vec![("base".into(), "x;y=z".into())],
            // the person's own group, with a pin of its own (a link in a link in a link)
            own: Some(Box::new(LinkState {
                scenario: sample(),
                baseline: Some(Ok(crate::scenario::whatif::Baseline::of(&sample()))),
                pinned: Some((sample(), Vec::new())),
                colours: Some(vec![1, 0]),
                ..Default::default()
            })),
        };
        let f = to_fragment(&st);
        assert!(f.contains(";xl=range.4.rw-r"), "{f}");
        assert_eq!(from_fragment(&f).unwrap(), st);
        assert_eq!(from_fragment(&format!("http://h/#{f}")).unwrap(), st);
    }

    /// The person's own group is a plain group: one that carries a story, a lesson or an
    /// own group of its own is refused, and an error inside it says both positions.
    #[test]
    fn an_own_group_is_a_plain_group() {
        let base = "v1;a=r;t=orders*7;m=c***B;xl=range.2";
        let own = |inner: &str| {
            let mut v = String::new();
            text::escape(inner, &mut v);
            from_fragment(&format!("{base};xo={v}"))
        };
        let ok = own("v1;a=o;t=mine*3;m=me***B").unwrap();
        assert_eq!(ok.own.unwrap().scenario.topics[0].name, "mine");
        for inner in [
            "v1;a=o;t=mine*3;m=me***B;xl=range.2",
            "v1;a=o;t=mine*3;m=me***B;xs=1",
        ] {
            let e = own(inner).unwrap_err();
            assert!(e.message.contains("cannot carry a story, a lesson"), "{e}");
            assert_eq!(e.position, base.len() + ";xo=".len());
        }
        let e = own("v1;a=o;t=mine*3;m=me***Z").unwrap_err();
        assert!(
            e.message.starts_with("your own group (xo), its character "),
            "{e}"
        );
    }

    /// A lesson part that cannot be read is refused with its position and what is wrong.
    #[test]
    fn a_bad_lesson_part_says_where() {
        let base = "v1;a=r;t=orders*7;m=c***B";
        let at = base.len() + ";xl=".len();
        for (part, pos, says) in [
            ("nosuch.2", at, "there is no lesson \"nosuch\""),
            ("range.0", at + 6, "steps count from 1"),
            ("range.99", at, "step 99 does not exist"),
            ("range.3.rwq", at + 10, "'q' is not an outcome"),
            ("range", at + 6, "expected a step number"),
            ("range.2x", at + 7, "expected '.'"),
        ] {
            let e = from_fragment(&format!("{base};xl={part}")).unwrap_err();
            assert_eq!(e.position, pos, "{part}: {e}");
            assert!(e.message.contains(says), "{part}: {e}");
        }
        let ok = from_fragment(&format!("{base};xl=range.17.r")).unwrap();
        assert_eq!(ok.lesson.unwrap().1.step(), 16);
    }

    #[test]
    fn bytes_survive() {
        let mut s = sample();
        let bytes = crate::protocol::hex::parse_hex(
            "00030000000100057330312d610000000000000000ffffffff0000",
        )
        .unwrap();
        s.members[1].subscription = Some(bytes.clone());
        s.members[1].apply_subscription(&crate::protocol::decode_subscription(&bytes).message);
        let st = LinkState {
            scenario: s,
            ..Default::default()
        };
        let back = from_fragment(&to_fragment(&st)).unwrap();
        assert_eq!(
            back.scenario.members[1].subscription.as_deref(),
            Some(&bytes[..])
        );
        assert_eq!(
            back.scenario.members[1].topics[..],
            vec!["s01-a".to_string()]
        );
    }

    #[test]
    fn broken_links_say_where() {
        let f = to_fragment(&LinkState {
            scenario: sample(),
            ..Default::default()
        });
        for cut in 1..f.len() {
            if !f.is_char_boundary(cut) {
                continue;
            }
            // Never panics; either reads (a cut that still parses) or says where.
            let _ = from_fragment(&f[..cut]);
        }
        let e = from_fragment("v9;a=r;t=;m=").unwrap_err();
        assert!(e.message.contains("newer"), "{e}");
        let e = from_fragment("v1;a=r;t=a*99999999999;m=").unwrap_err();
        assert!(e.message.contains("above the limit"), "{e}");
        assert_eq!(e.position, 11);
        let e = from_fragment("v1;a=r;t=a*1").unwrap_err();
        assert!(e.message.contains("cut short"), "{e}");
        let e = from_fragment("v1;a=r;t=a*900000,b*900000;m=").unwrap_err();
        assert!(e.message.contains("add up to more than"), "{e}");
        let e = from_fragment("hello").unwrap_err();
        assert!(e.message.contains("format version"), "{e}");
        // every non-empty fragment that is not a scenario is reported, '#' alone included
        for f in ["#", "##", "###", "#v", "v1", "v1;", "v01x"] {
            assert!(from_fragment(f).is_err(), "{f}");
        }
    }

    /// Each kind of input that once broke the reader: it must not panic, and what it accepts
    /// must write back to a link that reads the same state.
    #[test]
    fn regressions() {
        let must_refuse = [
            // a multi-byte character after a member's fields: once a panic (slicing inside it)
            ("v1;a=r;t=;m=a****\u{e9}", "percent-encoded"),
            ("v1;a=r;t=;m=a****g\u{e9}", "percent-encoded"),
            ("v1;a=r;t=a*1;m=\u{1F600}***", "%F0%9F%98%80"),
            // empty names would multiply or vanish on the way back
            ("v1;a=r;t=*3;m=", "cannot be empty"),
            ("v1;a=r;t=a*3;m=x***!", "cannot be empty"),
            ("v1;a=r;t=a*3;m=***", "cannot be empty"),
            ("v1;a=r;t=a*3;p=a*x::y;m=", "cannot be empty"),
            // bytes and spelled-out fields together are ambiguous
            ("v1;a=r;t=t7*1;m=consumer1***B*bAAA", "come from the bytes"),
            (
                "v1;a=r;t=t7*1;m=consumer1****g5*bAAA",
                "come from the bytes",
            ),
            (
                "v1;a=r;t=t7*1;m=consumer1****bAAA*g0",
                "come from the bytes",
            ),
            (
                "v1;a=r;t=t7*1;m=consumer1****ot7!0*bAAA",
                "come from the bytes",
            ),
            ("v1;a=r;t=;m=a****bAAA*bAAB", "twice"),
            ("v1;a=r;t=;m=a****g1*g2", "twice"),
            ("v1;a=r;t=t*1;m=a****ot!0*ot!1", "twice"),
            // a section given twice: the second would silently win
            ("v1;a=r;t=a*1;m=;m=x***", "appears twice"),
            ("v1;a=r;a=o;t=;m=", "appears twice"),
            // huge numbers
            ("v1;a=r;t=a*1;m=x****g99999999999", "int32"),
            ("v1;a=r;t=a*1;m=x****v+3", "not a number"),
            ("v1;a=r;t=a*1;m=x***;xs=99", "does not exist"),
            ("v1;a=r;t=a*1;m=x***;xh5=00", "1 members"),
            ("v1;a=r;t=a*1;m=x***,y***;xc=1.1", "twice"),
            ("v1;a=r;t=a*1;m=x***,y***;xc=1", "1 given for 2"),
            ("v1;a=r;t=a*1;m=x***;xc=99999999", "not a colour"),
            // the group, the leader's client and the strategy lists
            ("v1;a=r;t=;m=;g=~g*0", "not from 1"),
            ("v1;a=r;t=;m=;g=~g*2147483648", "not from 1"),
            (
                "v1;a=r;t=;m=;g=~g*99999999999",
                "offsets.topic.num.partitions",
            ),
            ("v1;a=r;t=;m=;g=~g", "expected ~group.id*partitions"),
            ("v1;a=r;t=;m=;g=~g*5*x", "is not v"),
            ("v1;a=r;t=;m=;g=~g*5*v*v", "expected ~group.id"),
            ("v1;a=r;t=;m=;g=g*5", "~"),
            ("v1;a=r;t=;m=;g=*5;g=*6", "appears twice"),
            ("v1;a=r;t=;m=;l=kafka", "java or librdkafka"),
            ("v1;a=r;t=;m=;l=java;l=java", "appears twice"),
            (
                "v1;a=r;t=;m=a****srange::x",
                "protocol name cannot be empty",
            ),
            ("v1;a=r;t=;m=a****srange*sx", "twice"),
            ("v1;a=r;t=;m=a****s%zz", "hex digits"),
        ];
        for (f, want) in must_refuse {
            let e = from_fragment(f).expect_err(f);
            assert!(e.message.contains(want), "{f}: {e}");
            assert!(e.position <= f.chars().count(), "{f}: {e}");
        }
        let must_read_back = [
            // an extra subscription naming a listed topic counts as its bit; repeats once
            "v1;a=r;t=t7*1,t8*1,t9*1;m=consumer1**~b*B!t7!t8!t9!t7!zz!zz",
            "v1;a=r;t=t7*1;m=c***!t7",
            // a member whose subscription bytes carry no generation (v0), and bytes that do
            // not decode
            "v1;a=r;t=s*1;m=a****bAAAAAAAAAAAAAA,b**~r**bAAA",
            // a broken baseline is kept verbatim, with why
            "v1;a=r;t=t*1;m=a***;xb=a%7Ct%3A7",
            // an unknown app key from a newer build is kept
            "v1;a=r;t=t*1;m=a***;xzz=1",
            // the group's keys, written or not
            "v1;a=o;t=t*1;m=a****s,b****srange:cooperative-sticky,c****sroundrobin:range;g=~*7*v;l=librdkafka",
            "v1;a=r;t=;m=;g=*50;l=java",
        ];
        for f in must_read_back {
            let st = from_fragment(f).expect(f);
            assert_eq!(from_fragment(&to_fragment(&st)).as_ref(), Ok(&st), "{f}");
        }
        let st = from_fragment(must_read_back[0]).unwrap();
        assert_eq!(st.scenario.members[0].topics[..], ["t7", "t8", "t9", "zz"]);
        let st = from_fragment(must_read_back[2]).unwrap();
        assert_eq!(st.scenario.members[0].generation, None);
        assert!(st.scenario.members[1].topics.is_empty());
        assert_eq!(st.scenario.members[1].rack.as_deref(), Some("r"));
        let st = from_fragment(must_read_back[5]).unwrap();
        let s = &st.scenario;
        assert!(s.members[0].protocols.is_empty());
        assert!(crate::scenario::is_java_protocols(&s.members[1].protocols));
        assert_eq!(s.members[2].protocols, ["roundrobin", "range"]);
        assert_eq!(s.group_id.as_deref(), Some(""));
        assert_eq!((s.offsets_partitions, s.assignor_by_vote), (7, true));
        // the defaults are written as nothing
        assert_eq!(
            to_fragment(&from_fragment(must_read_back[6]).unwrap()),
            "v1;a=r;t=;m="
        );
        let st = from_fragment(must_read_back[3]).unwrap();
        let bad = st.baseline.unwrap().unwrap_err();
        assert_eq!(bad.raw, "a|t:7");
        assert!(bad.error.message.contains("owner 7"));
    }

    /// A link from before the group's keys opens as it did: no group id (shown as
    /// my-group), 50 partitions, the Java leader, the assignor as given (not by the vote),
    /// every member with the Java client's strategy list; and it writes back unchanged.
    #[test]
    fn old_links_open_unchanged() {
        let old = "v1;a=o;t=a*3;m=x***B,y*~s**B*g3";
        let st = from_fragment(old).unwrap();
        let s = &st.scenario;
        assert_eq!(s.assignor, AssignorKind::RoundRobin);
        assert_eq!((s.group_id.as_deref(), s.offsets_partitions), (None, 50));
        assert_eq!(s.leader_client, crate::assignor::LeaderClient::Java);
        assert!(!s.assignor_by_vote);
        for m in &s.members {
            assert_eq!(m.protocols, ["range", "cooperative-sticky"]);
        }
        assert_eq!(to_fragment(&st), old);
    }

    /// Members with these ids, all subscribed to 20 topics of 12 partitions.
    fn twenty_topics(ids: &[String]) -> Scenario {
        let topics: Vec<Topic> = (0..20)
            .map(|i| Topic {
                name: format!("topic-{i}"),
                partitions: 12,
            })
            .collect();
        let names: Vec<&str> = topics.iter().map(|t| t.name.as_str()).collect();
        let members = ids.iter().map(|id| Member::new(id, &names)).collect();
        Scenario {
            topics,
            members,
            ..Default::default()
        }
    }

    #[test]
    fn coordinator_member_ids_are_compact() {
        let ids: Vec<String> = (0..50)
            .map(|i| crate::scenario::member_id::coordinator_member_id("consumer-orders-1", i))
            .collect();
        let mut scenario = twenty_topics(&ids);
        scenario.members.push(Member::new("ab", &[]));
        scenario.members.push(Member::new(
            "x-0123456789ABCDEF-0123-4567-89ab-cdef01234567",
            &[],
        ));
        let st = LinkState {
            scenario,
            ..Default::default()
        };
        let link = to_link("http://127.0.0.1:8080/", &st);
        assert!(link.len() < 2000, "{}", link.len());
        assert_eq!(from_fragment(&link).unwrap(), st);
        assert!(from_fragment("v1;a=r;t=;m=^9.x***")
            .unwrap_err()
            .message
            .contains("shorter"));
        assert!(from_fragment("v1;a=r;t=;m=^.***")
            .unwrap_err()
            .message
            .contains("there is none"));
        assert!(from_fragment("v1;a=r;t=;m=a~AAAA***")
            .unwrap_err()
            .message
            .contains("a UUID has 16"));
    }

    #[test]
    fn fifty_members_twenty_topics_fit() {
        let ids: Vec<String> = (0..50).map(|i| format!("consumer-{i}")).collect();
        let st = LinkState {
            scenario: twenty_topics(&ids),
            ..Default::default()
        };
        let link = to_link("http://127.0.0.1:8080/", &st);
        assert!(link.len() < 2000, "{}", link.len());
    }
}
