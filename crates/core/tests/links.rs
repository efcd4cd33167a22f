//! The link reader against generated links: valid links written from random scenarios, then
//! damaged the ways links get damaged (cut short, a section or member duplicated, sections
//! reordered, a non-ASCII character typed in, a number made huge, a separator added or lost).
//! Whatever the text, the reader never panics, and every link it accepts writes back to a
//! link that reads the same state.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use rebalance_lab_core::assignor::{AssignorKind, LeaderClient};
use rebalance_lab_core::java::Uuid;
use rebalance_lab_core::protocol::encode_subscription;
use rebalance_lab_core::scenario::link::{from_fragment, to_fragment, LinkState};
use rebalance_lab_core::scenario::member_id::coordinator_member_id;
use rebalance_lab_core::scenario::whatif::Baseline;
use rebalance_lab_core::scenario::{Member, Scenario, Topic};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Non-empty names, from plain to hostile.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9._-]{1,12}",
        "\\PC{1,6}",
        Just("consumer-10".to_string()),
        Just("😀".to_string()),
        Just("<img src=x onerror=alert(1)>".to_string()),
        Just("a;b=c,d*e!f~g^h.i:j%k#l".to_string()),
        Just("\u{202E}evil".to_string()),
    ]
}

fn member_id() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => name(),
        2 => ("[a-z-]{1,10}", any::<u64>()).prop_map(|(c, seed)| coordinator_member_id(&c, seed)),
        1 => (0u64..4).prop_map(|seed| coordinator_member_id("consumer-orders-1", seed)),
    ]
}

#[derive(Debug, Clone)]
struct MemberPlan {
    id: String,
    instance_id: Option<String>,
    rack: Option<String>,
    subs: Vec<String>,
    generation: Option<i32>,
    owned: Vec<(String, Vec<i32>)>,
    /// Some(version): the member is written as subscription bytes at that version.
    bytes: Option<i16>,
    view_version: Option<i16>,
    /// None: the Java client's default strategy list.
    protocols: Option<Vec<String>>,
}

fn member_plan() -> impl Strategy<Value = MemberPlan> {
    (
        member_id(),
        prop::option::of(name()),
        prop::option::of(name()),
        prop::collection::vec(name(), 0..4),
        prop::option::of(any::<i32>()),
        prop::collection::vec((name(), prop::collection::vec(any::<i32>(), 0..4)), 0..2),
        prop::option::of(0i16..=3),
        prop::option::of(0i16..=3),
        prop::option::of(prop::collection::vec(
            prop_oneof![
                2 => prop::sample::select(vec!["range", "roundrobin", "cooperative-sticky", "sticky"])
                    .prop_map(String::from),
                1 => name(),
            ],
            0..4,
        )),
    )
        .prop_map(
            |(id, instance_id, rack, subs, generation, owned, bytes, view_version, protocols)| MemberPlan {
                id,
                instance_id,
                rack,
                subs,
                generation,
                owned,
                bytes,
                view_version,
                protocols,
            },
        )
}

/// A random link state whose scenario is valid (unique, non-empty names).
fn link_state() -> impl Strategy<Value = LinkState> {
    (
        prop::collection::vec((name(), 0u32..2_000), 0..8),
        prop::collection::vec(member_plan(), 0..8),
        prop::sample::select(AssignorKind::ALL.to_vec()),
        any::<bool>(),
        prop::option::of(0usize..4),
        prop::collection::vec(
            (
                name(),
                prop::collection::vec(prop::collection::vec(name(), 0..3), 1..4),
            ),
            0..2,
        ),
        (
            prop::option::of(prop_oneof![name(), Just(String::new())]),
            prop_oneof![Just(50u32), 1u32..=i32::MAX as u32],
            any::<bool>(),
            any::<bool>(),
            // which topics carry an id of their own (the broker's assignors read them)
            any::<u8>(),
        ),
    )
        .prop_map(|(topics, members, assignor, pin, step, racks, group)| {
            let (group_id, offsets_partitions, assignor_by_vote, librdkafka, ids) = group;
            let mut s = Scenario {
                assignor,
                group_id,
                offsets_partitions,
                assignor_by_vote,
                leader_client: if librdkafka {
                    LeaderClient::Librdkafka
                } else {
                    LeaderClient::Java
                },
                ..Default::default()
            };
            for (n, p) in topics {
                if s.topic_index(&n).is_none() {
                    s.topics.push(Topic {
                        name: n,
                        partitions: p,
                    });
                }
            }
            for (t, parts) in racks {
                s.partition_racks.insert(t, parts);
            }
            for (i, t) in s.topics.iter().enumerate() {
                if ids >> (i % 8) & 1 == 1 {
                    let id =
                        rebalance_lab_core::assignor::derived_topic_id(&format!("\u{0}{}", t.name));
                    s.topic_ids.insert(t.name.clone(), id.to_string());
                }
            }
            let mut st = LinkState::default();
            for m in members {
                if s.members.iter().any(|o| o.id == m.id) {
                    continue;
                }
                let mut member = Member {
                    id: m.id,
                    instance_id: m.instance_id,
                    rack: m.rack,
                    topics: Default::default(),
                    generation: m.generation,
                    ..Default::default()
                };
                if let Some(p) = m.protocols {
                    member.protocols = p;
                }
                let topics = std::rc::Rc::make_mut(&mut member.topics);
                for t in m.subs {
                    if !topics.contains(&t) {
                        topics.push(t);
                    }
                }
                // A subscription travels as a set: listed topics in list order, then others.
                topics.sort_by_key(|t| s.topic_index(t).unwrap_or(usize::MAX));
                for (t, ps) in m.owned {
                    member.owned.insert(t, ps);
                }
                if let Some(v) = m.bytes {
                    let sub = member.fields_subscription();
                    let bytes = encode_subscription(&sub, v).unwrap().bytes;
                    let d = rebalance_lab_core::protocol::decode_subscription(&bytes);
                    member.subscription = Some(bytes);
                    member.apply_subscription(&d.message);
                }
                if let Some(v) = m.view_version {
                    st.versions.insert(s.members.len(), v);
                }
                s.members.push(member);
            }
            if pin {
                st.baseline = Some(Ok(Baseline::of(&s)));
                let mut was = s.clone();
                was.members.truncate(was.members.len() / 2);
                let renames = was
                    .members
                    .first()
                    .map(|m| vec![(m.id.clone(), format!("{}-restarted", m.id))])
                    .unwrap_or_default();
                st.pinned = Some((was, renames));
            }
            st.story_step = step;
            // an imported group's lag on some topics (up to 5 partitions each, some unknown)
            let mut lag = rebalance_lab_core::import::Lag::new();
            for (i, t) in s.topics.iter().enumerate() {
                if t.partitions > 0 && ids >> ((i + 3) % 8) & 1 == 1 {
                    let n = t.partitions.min(5) as i64;
                    lag.insert(
                        t.name.clone(),
                        (0..n).map(|k| (k % 3 != 2).then_some(k * 7 - 3)).collect(),
                    );
                }
            }
            st.lag = (!lag.is_empty()).then_some(lag);
            // what Kafka's tool said of it: any text, any cell absent or empty
            if ids & 4 == 4 {
                let any = |k: u8| match k % 3 {
                    0 => None,
                    1 => Some(String::new()),
                    _ => Some(format!("Preparing*Rebalance ~{k},!%.é")),
                };
                let said = rebalance_lab_core::import::Printed {
                    state: any(ids),
                    strategy: any(ids / 3),
                    warnings: (0..ids % 3)
                        .map(|k| rebalance_lab_core::import::Warning {
                            line: k as usize * 1000 + 1,
                            message: format!("Consumer group 'g.{k}' is rebalancing, ~*!,."),
                        })
                        .collect(),
                };
                st.printed = Some(said);
            }
            st.scenario = s;
            st
        })
}

#[derive(Debug, Clone)]
enum Damage {
    Cut(usize),
    DuplicateSection(usize),
    DuplicateMember(usize),
    SwapSections(usize, usize),
    InsertChar(usize, char),
    HugeNumber(usize, &'static str),
    DeleteChar(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    let ch = prop_oneof![
        prop::sample::select(vec![
            ';', ',', '*', '!', '~', '^', '.', ':', '=', '%', '#', 'x', 'b', 'g', 'o', 'v', '0',
            '9', '-', 's', 'l'
        ]),
        prop::sample::select(vec!['é', '😀', '\u{202E}', '\u{0}', 'Ω']),
    ];
    prop_oneof![
        any::<usize>().prop_map(Damage::Cut),
        any::<usize>().prop_map(Damage::DuplicateSection),
        any::<usize>().prop_map(Damage::DuplicateMember),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Damage::SwapSections(a, b)),
        (any::<usize>(), ch).prop_map(|(i, c)| Damage::InsertChar(i, c)),
        (
            any::<usize>(),
            prop::sample::select(vec![
                "99999999999999999999",
                "4294967296",
                "2147483648",
                "-1",
                "1000001",
                "0",
                "-2147483649",
                "18446744073709551616"
            ])
        )
            .prop_map(|(i, n)| Damage::HugeNumber(i, n)),
        any::<usize>().prop_map(Damage::DeleteChar),
    ]
}

fn char_boundary(s: &str, i: usize) -> usize {
    let mut i = if s.is_empty() { 0 } else { i % (s.len() + 1) };
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, d: &Damage) -> String {
    let sections: Vec<&str> = text.split(';').collect();
    match d {
        Damage::Cut(i) => text[..char_boundary(text, *i)].to_string(),
        Damage::DuplicateSection(i) => {
            let mut v = sections.clone();
            let k = i % v.len();
            v.insert(k, sections[k]);
            v.join(";")
        }
        Damage::DuplicateMember(i) => {
            let Some(at) = sections.iter().position(|s| s.starts_with("m=")) else {
                return text.to_string();
            };
            let members: Vec<&str> = sections[at][2..].split(',').collect();
            let mut m = members.clone();
            let k = i % m.len();
            m.insert(k, members[k]);
            let mut v: Vec<String> = sections.iter().map(|s| s.to_string()).collect();
            v[at] = format!("m={}", m.join(","));
            v.join(";")
        }
        Damage::SwapSections(a, b) => {
            let mut v = sections.clone();
            let n = v.len();
            v.swap(a % n, b % n);
            v.join(";")
        }
        Damage::InsertChar(i, c) => {
            let mut t = text.to_string();
            t.insert(char_boundary(text, *i), *c);
            t
        }
        Damage::HugeNumber(i, n) => {
            // Replace the i-th run of digits.
            let runs: Vec<(usize, usize)> = {
                let b = text.as_bytes();
                let mut out = Vec::new();
                let mut k = 0;
                while k < b.len() {
                    if b[k].is_ascii_digit() {
                        let start = k;
                        while k < b.len() && b[k].is_ascii_digit() {
                            k += 1;
                        }
                        out.push((start, k));
                    } else {
                        k += 1;
                    }
                }
                out
            };
            if runs.is_empty() {
                return text.to_string();
            }
            let (a, b) = runs[i % runs.len()];
            format!("{}{}{}", &text[..a], n, &text[b..])
        }
        Damage::DeleteChar(i) => {
            let mut t = text.to_string();
            let k = char_boundary(text, *i);
            if k < t.len() {
                t.remove(k);
            }
            t
        }
    }
}

static GENERATED: AtomicUsize = AtomicUsize::new(0);
static ACCEPTED: AtomicUsize = AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Every generated link reads back to exactly the state it was written from.
    #[test]
    fn written_links_read_back(st in link_state()) {
        let f = to_fragment(&st);
        let back = from_fragment(&f);
        prop_assert_eq!(back.as_ref(), Ok(&st), "{}", f);
    }

    /// Damaged links never panic; what the reader accepts survives its own round trip, and
    /// what it refuses is refused with a position inside the text.
    #[test]
    fn damaged_links(st in link_state(), damages in prop::collection::vec(damage(), 1..4)) {
        let mut f = to_fragment(&st);
        for d in &damages {
            f = apply(&f, d);
        }
        GENERATED.fetch_add(1, Ordering::Relaxed);
        match from_fragment(&f) {
            Ok(read) => {
                ACCEPTED.fetch_add(1, Ordering::Relaxed);
                let again = to_fragment(&read);
                let back = from_fragment(&again);
                prop_assert_eq!(back.as_ref(), Ok(&read), "{} -> {}", f, again);
            }
            Err(e) => {
                prop_assert!(e.position <= f.chars().count(), "{}: {}", f, e);
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    /// Hand-edited links never panic.
    #[test]
    fn arbitrary_fragments_never_panic(text in "(v1;)?\\PC{0,60}") {
        let _ = from_fragment(&text);
    }
}

/// The damage generator is only worth something if some damaged links are still read (the
/// round trip is then checked) and some refused: count both.
#[test]
fn damage_reaches_both_sides() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..2_000 {
        let st = link_state().new_tree(&mut runner).unwrap().current();
        let d = damage().new_tree(&mut runner).unwrap().current();
        let f = apply(&to_fragment(&st), &d);
        match from_fragment(&f) {
            Ok(read) => {
                accepted += 1;
                assert_eq!(
                    from_fragment(&to_fragment(&read)).as_ref(),
                    Ok(&read),
                    "{f}"
                );
            }
            Err(_) => refused += 1,
        }
    }
    println!("damaged links: {accepted} accepted (round trip checked), {refused} refused");
    assert!(accepted > 200, "{accepted} accepted");
    assert!(refused > 200, "{refused} refused");
}

/// Members that list the same topics share one list once read (a large group's link reads
/// and copies half a million names fewer), a member after one given as bytes reads its own,
/// and an edit of a shared list reaches every member that shares it and nobody else.
#[test]
fn members_listing_the_same_topics_share_one_list() {
    use rebalance_lab_core::scenario::edit;
    use std::rc::Rc;
    let mut s = Scenario {
        topics: vec![
            Topic {
                name: "orders".into(),
                partitions: 3,
            },
            Topic {
                name: "payments".into(),
                partitions: 2,
            },
        ],
        members: vec![
            Member::new("a", &["orders", "payments"]),
            Member::new("b", &["orders", "payments"]),
            Member::new("c", &["orders", "payments", "gone"]),
            Member::new("d", &["orders", "payments", "gone"]),
            Member::new("e", &["orders"]),
            Member::new("f", &["orders"]),
        ],
        ..Default::default()
    };
    // (e's topics from its bytes: f, listed like e's fields, reads its own)
    let bytes = encode_subscription(
        &rebalance_lab_core::protocol::Subscription {
            topics: vec!["payments".into()],
            ..Default::default()
        },
        1,
    )
    .unwrap();
    s.members[4].subscription = Some(bytes.bytes);
    s.members[4].topics = vec!["payments".to_string()].into();
    let link = to_fragment(&LinkState {
        scenario: s.clone(),
        ..Default::default()
    });
    let back = from_fragment(&link).unwrap().scenario;
    assert_eq!(back.members, s.members);
    let m = &back.members;
    assert!(Rc::ptr_eq(&m[0].topics, &m[1].topics));
    assert!(Rc::ptr_eq(&m[2].topics, &m[3].topics));
    assert!(!Rc::ptr_eq(&m[1].topics, &m[2].topics));
    assert_eq!(m[4].topics[..], ["payments"]);
    assert_eq!(m[5].topics[..], ["orders"]);
    // The group's input shares the scenario's lists.
    let input = back.group_input();
    assert!(Rc::ptr_eq(&input.members[0].topics, &m[0].topics));
    // An edit of one member's list leaves the members it shared it with as they were.
    let mut edited = back.clone();
    edit::set_subscribed(&mut edited, 0, "payments", false).unwrap();
    assert_eq!(edited.members[0].topics[..], ["orders"]);
    assert_eq!(edited.members[1].topics[..], ["orders", "payments"]);
    // A renamed topic is renamed in every list that names it, and in the owned partitions
    // of a member that does not subscribe to it.
    let mut renamed = back.clone();
    renamed.members[1].topics = vec!["payments".to_string()].into();
    renamed.members[1].owned.insert("orders".into(), vec![0, 2]);
    edit::rename_topic(&mut renamed, 0, "orders-v2").unwrap();
    assert_eq!(renamed.members[1].topics[..], ["payments"]);
    assert_eq!(renamed.members[1].owned.get("orders-v2"), Some(&vec![0, 2]));
    assert_eq!(renamed.members[1].owned.get("orders"), None);
    for m in [0, 2, 3, 5] {
        assert_eq!(renamed.members[m].topics[0], "orders-v2", "member {m}");
    }
    assert_eq!(
        renamed.members[2].topics[..],
        ["orders-v2", "payments", "gone"]
    );
    assert_eq!(back.members[0].topics[..], ["orders", "payments"]);
}

#[test]
fn topic_ids_are_typed_checked_carried_and_kept_through_renames() {
    use rebalance_lab_core::assignor::derived_topic_id;
    use rebalance_lab_core::scenario::edit;
    let mut s = rebalance_lab_core::scenario::presets::preset("three-topics").unwrap();
    s.assignor = AssignorKind::Uniform;
    let id = derived_topic_id("elsewhere").to_string();
    edit::set_topic_id(&mut s, 0, &format!(" {id} ")).unwrap();
    let name = s.topics[0].name.clone();
    assert_eq!(s.topic_ids.get(&name), Some(&id));
    // the group's input carries it: the broker's assignors order topics by it
    let input = s.group_input();
    assert!(input
        .topic_ids
        .iter()
        .any(|(n, u)| *n == name && u.to_string() == id));
    // refused: not an id, or another topic's (its derived id, or one given to it)
    let e = edit::set_topic_id(&mut s, 1, "not-an-id").unwrap_err();
    assert!(
        e.contains("Last unit does not have enough valid bits"),
        "{e}"
    );
    let other = derived_topic_id(&s.topics[2].name).to_string();
    let e = edit::set_topic_id(&mut s, 1, &other).unwrap_err();
    assert!(
        e.contains(&s.topics[2].name) && e.contains("names one topic"),
        "{e}"
    );
    let e = edit::set_topic_id(&mut s, 1, &id).unwrap_err();
    assert!(e.contains(&name), "{e}");
    // carried by the link, and read back the same
    let st = LinkState {
        scenario: s.clone(),
        ..Default::default()
    };
    let f = to_fragment(&st);
    assert!(f.contains(";xi="), "{f}");
    assert_eq!(from_fragment(&f).unwrap().scenario.topic_ids, s.topic_ids);
    // a renamed topic keeps its id; a removed one drops it; empty text gives back the
    // derived id
    edit::rename_topic(&mut s, 0, "renamed").unwrap();
    assert_eq!(s.topic_ids.get("renamed"), Some(&id));
    assert!(!s.topic_ids.contains_key(&name));
    edit::set_topic_id(&mut s, 0, "").unwrap();
    assert!(s.topic_ids.is_empty());
    edit::set_topic_id(&mut s, 1, &id).unwrap();
    edit::remove_topic(&mut s, 1);
    assert!(s.topic_ids.is_empty());
    // a damaged id in a link is refused with what and where
    let bad = f.replace(&id, &id[..20]);
    let e = from_fragment(&bad).unwrap_err();
    assert!(e.message.starts_with("topic ids: topic"), "{e}");
    assert!(
        bad[e.position..].starts_with("xi=") || bad[..e.position].ends_with("xi="),
        "{e} {bad}"
    );
    // two topics with one id, or an id for a topic the link does not have: refused
    let linked = from_fragment(&f).unwrap().scenario;
    let (t0, t1) = (&linked.topics[0].name, &linked.topics[1].name);
    let head = f.split(";xi=").next().unwrap();
    let e = from_fragment(&format!("{head};xi={t0}%21{id}%2C{t1}%21{id}")).unwrap_err();
    assert!(e.message.contains("both have the id"), "{e}");
    let e = from_fragment(&format!("{head};xi=nowhere%21{id}")).unwrap_err();
    assert!(e.message.contains("not one of the link's topics"), "{e}");
    // a rename to a name whose derived id another topic has typed: refused, nothing changed
    let mut r = s.clone();
    let taken = derived_topic_id("taken").to_string();
    edit::set_topic_id(&mut r, 1, &taken).unwrap();
    let kept = r.clone();
    let e = edit::rename_topic(&mut r, 0, "taken").unwrap_err();
    assert!(e.contains("a topic id names one topic"), "{e}");
    assert_eq!(r, kept);
    // the scenario's JSON carries the ids (the command-line tool reads them)
    let json = rebalance_lab_core::export::json::scenario_json(&r, None, None, None);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["topic_ids"][&r.topics[1].name], serde_json::json!(taken));
}

/// Topic ids as Java's `Uuid.fromString` reads them: the last character's unused bits and
/// padding are ignored, so such a text is taken, shown and written in Kafka's canonical form,
/// and is the same id as its canonical text (one topic per id); Kafka's reserved ids are
/// refused as the broker refuses them.
#[test]
fn topic_ids_are_read_as_java_reads_them() {
    use rebalance_lab_core::scenario::edit;
    let mut s = rebalance_lab_core::scenario::presets::preset("three-topics").unwrap();
    s.assignor = AssignorKind::Uniform;
    // (Java decodes both to the same 16 bytes: the last character's low 4 bits are unused)
    edit::set_topic_id(&mut s, 0, "T2-B4s3VTwiI5YHbPp6YUe").unwrap();
    let name = s.topics[0].name.clone();
    assert_eq!(s.topic_id_of(&name), "T2-B4s3VTwiI5YHbPp6YUQ");
    let e = edit::set_topic_id(&mut s, 1, "T2-B4s3VTwiI5YHbPp6YUQ==").unwrap_err();
    assert!(e.contains(&name) && e.contains("names one topic"), "{e}");
    // a scenario file may carry the id as typed: the assignor gets Java's Uuid, the link and
    // the JSON Kafka's canonical text, and the same id typed twice is one id
    let mut file = s.clone();
    file.topic_ids
        .insert(name.clone(), "T2-B4s3VTwiI5YHbPp6YUe".into());
    assert!(file.problems().is_empty(), "{:?}", file.problems());
    let input = file.group_input();
    assert_eq!(
        input.topic_ids,
        vec![(name.clone(), Uuid::parse("T2-B4s3VTwiI5YHbPp6YUQ").unwrap())]
    );
    let f = to_fragment(&LinkState {
        scenario: file.clone(),
        ..Default::default()
    });
    assert!(
        f.contains("T2-B4s3VTwiI5YHbPp6YUQ") && !f.contains("YUe"),
        "{f}"
    );
    let json = rebalance_lab_core::export::json::scenario_json(&file, None, None, None);
    assert!(json.contains("T2-B4s3VTwiI5YHbPp6YUQ"), "{json}");
    let other = file.topics[1].name.clone();
    file.topic_ids
        .insert(other.clone(), "T2-B4s3VTwiI5YHbPp6YUQ==".into());
    let (a, b, id) = file.topic_id_clash().expect("one id for two topics");
    assert_eq!(
        (a.as_str(), b.as_str(), id.as_str()),
        (name.as_str(), other.as_str(), "T2-B4s3VTwiI5YHbPp6YUQ")
    );
    // ... which a scenario file is refused for (the command-line tool reads its problems; an
    // id for a topic the file does not list is kept: Kafka's vectors name ids of topics absent
    // from the metadata)
    let problems = file.problems();
    assert!(
        problems
            .iter()
            .any(|p| p.at == format!("topic_ids[\"{other}\"]")
                && p.message.contains("a topic id names one topic")),
        "{problems:?}"
    );
    let mut stray = s.clone();
    stray
        .topic_ids
        .insert("nowhere".into(), "T2-B4s3VTwiI5YHbPp6YUQ".into());
    assert!(stray.problems().is_empty(), "{:?}", stray.problems());
    // Kafka's reserved ids: typed, in a file, in a link
    for (reserved, says) in [
        ("AAAAAAAAAAAAAAAAAAAAAA", "ZERO_UUID"),
        ("AAAAAAAAAAAAAAAAAAAAAQ", "METADATA_TOPIC_ID"),
    ] {
        let e = edit::set_topic_id(&mut s, 1, reserved).unwrap_err();
        assert!(e.contains(says), "{e}");
        let mut file = s.clone();
        file.topic_ids.insert(other.clone(), reserved.into());
        let problems = file.problems();
        assert!(
            problems
                .iter()
                .any(|p| p.at == format!("topic_ids[\"{other}\"]") && p.message.contains(says)),
            "{problems:?}"
        );
        // a link that carries one (pages before this one took them) opens, the topic on the
        // id derived from its name, as the broker never gives a topic a reserved id
        let head = f.split(";xi=").next().unwrap();
        let opened = from_fragment(&format!("{head};xi={other}%21{reserved}")).unwrap();
        assert!(
            opened.scenario.topic_ids.is_empty(),
            "{:?}",
            opened.scenario.topic_ids
        );
        assert_eq!(
            opened.scenario.topic_id_of(&other),
            rebalance_lab_core::assignor::derived_topic_id(&other).to_string()
        );
    }
}

#[test]
fn an_imported_group_s_lag_rides_in_the_link() {
    fn t0_name(s: &rebalance_lab_core::scenario::Scenario) -> &str {
        &s.topics[0].name
    }
    let s = rebalance_lab_core::scenario::presets::preset("three-topics").unwrap();
    let mut lag = rebalance_lab_core::import::Lag::new();
    lag.insert(s.topics[0].name.clone(), vec![Some(10), None, Some(-2)]);
    let st = LinkState {
        scenario: s.clone(),
        lag: Some(lag.clone()),
        ..Default::default()
    };
    let f = to_fragment(&st);
    assert!(f.contains(";xg="), "{f}");
    assert_eq!(from_fragment(&f).unwrap().lag, Some(lag));
    // a topic renamed, removed or shrunk since: the link stays readable
    let mut gone = st.clone();
    gone.scenario.topics[0].partitions = 2;
    let back = from_fragment(&to_fragment(&gone)).unwrap();
    assert_eq!(back.lag.unwrap()[t0_name(&s)], vec![Some(10), None]);
    gone.scenario.topics.remove(0);
    assert_eq!(from_fragment(&to_fragment(&gone)).unwrap().lag, None);
    // refused with what and where: a topic the link does not have, more lags than
    // partitions, a lag that is no number
    let head = f.split(";xg=").next().unwrap();
    let t = &s.topics[0].name;
    let many = vec!["1"; s.topics[0].partitions as usize + 1].join(".");
    for (bad, says) in [
        (
            format!("{head};xg=nowhere%211"),
            "not one of the link's topics",
        ),
        (format!("{head};xg={t}%21{many}"), "more lags"),
        (format!("{head};xg={t}%211.x"), "is not a lag"),
    ] {
        let e = from_fragment(&bad).unwrap_err();
        assert!(
            e.message.starts_with("lag: ") && e.message.contains(says),
            "{e}"
        );
    }
}

#[test]
fn what_kafka_s_tool_said_rides_in_the_link() {
    use rebalance_lab_core::import::{Printed, Warning};
    let s = rebalance_lab_core::scenario::presets::preset("three-topics").unwrap();
    let said = Printed {
        state: Some("PreparingRebalance".into()),
        strategy: Some(String::new()),
        warnings: vec![
            Warning {
                line: 3,
                message: "Warning: Consumer group 'orders, app' is rebalancing.".into(),
            },
            Warning {
                line: 12,
                message: "partition orders-1 is shown with two owners: a*b ~c!d".into(),
            },
        ],
    };
    let st = LinkState {
        scenario: s.clone(),
        printed: Some(said.clone()),
        ..Default::default()
    };
    let f = to_fragment(&st);
    assert!(f.contains(";xk=%7EPreparingRebalance%2A%7E%2A3."), "{f}");
    assert_eq!(from_fragment(&f).unwrap(), st);
    // nothing said (an import of the members alone): an empty part, read back as such; no
    // import: no part; a state alone
    let none = LinkState {
        printed: Some(Printed::default()),
        ..st.clone()
    };
    assert!(to_fragment(&none).contains(";xk=%2A%2A"));
    assert_eq!(from_fragment(&to_fragment(&none)).unwrap(), none);
    assert!(!to_fragment(&LinkState {
        printed: None,
        ..st.clone()
    })
    .contains(";xk="));
    let alone = LinkState {
        printed: Some(Printed {
            state: Some("Stable".into()),
            ..Default::default()
        }),
        ..st.clone()
    };
    assert_eq!(from_fragment(&to_fragment(&alone)).unwrap(), alone);
    // refused with what: too few parts, a cell without its '~', a message without its line,
    // a line that is no number (a huge one among them), a bad escape
    // (the part's value as the page writes it: escaped as a whole)
    let head = f.split(";xk=").next().unwrap();
    for (inner, says) in [
        ("~Stable", "expected state*strategy*warnings"),
        ("Stable**", "expected '~'"),
        ("**no-line", "expected line.message"),
        ("**x.message", "is not a line number"),
        ("**99999999999999999999999.message", "is not a line number"),
        ("~%zz**", "state"),
    ] {
        let mut bad = format!("{head};xk=");
        rebalance_lab_core::scenario::link::escape(inner, &mut bad);
        let e = from_fragment(&bad).unwrap_err();
        assert!(
            e.message.starts_with("Kafka's output") && e.message.contains(says),
            "{bad}: {e}"
        );
    }
}

#[test]
fn no_edit_gives_two_topics_one_id_and_every_link_written_reads_back() {
    use rebalance_lab_core::assignor::derived_topic_id;
    use rebalance_lab_core::scenario::edit;
    let reads_back = |s: &Scenario| {
        let st = LinkState {
            scenario: s.clone(),
            ..Default::default()
        };
        assert_eq!(
            from_fragment(&to_fragment(&st)).unwrap().scenario.topic_ids,
            s.topic_ids
        );
    };
    let mut s = rebalance_lab_core::scenario::presets::preset("three-topics").unwrap();
    let (a, b) = (s.topics[0].name.clone(), s.topics[1].name.clone());
    // a typed id on the first topic frees its derived id, which the second may then take;
    // clearing the first one's id would give both one id: refused, nothing changed
    edit::set_topic_id(&mut s, 0, &derived_topic_id("elsewhere").to_string()).unwrap();
    edit::set_topic_id(&mut s, 1, &derived_topic_id(&a).to_string()).unwrap();
    let kept = s.clone();
    let e = edit::set_topic_id(&mut s, 0, "").unwrap_err();
    assert!(e.contains(&b) && e.contains("names one topic"), "{e}");
    assert_eq!(s, kept);
    reads_back(&s);
    // a new topic never takes a name whose derived id a topic has been given
    let next = {
        let mut t = s.clone();
        edit::add_topic(&mut t)
    };
    edit::set_topic_id(&mut s, 2, &derived_topic_id(&next).to_string()).unwrap();
    let added = edit::add_topic(&mut s);
    assert_ne!(added, next);
    assert!(s.topic_id_clash().is_none());
    reads_back(&s);
    // a group read as it came with two topics on one id (the CLI's JSON may say so):
    // renaming any topic answers at once, whatever it answers
    let mut c = rebalance_lab_core::scenario::presets::preset("three-topics").unwrap();
    let id = derived_topic_id("same").to_string();
    c.topic_ids.insert(c.topics[0].name.clone(), id.clone());
    c.topic_ids.insert(c.topics[1].name.clone(), id);
    assert!(c.topic_id_clash().is_some());
    let _ = edit::rename_topic(&mut c, 2, "renamed");
    let _ = edit::rename_topic(&mut c, 0, "renamed-too");
}
