//! `import` and `export` over the fixtures in crates/core/tests/fixtures/kafka-consumer-groups/ (see its
//! README for where each layout comes from), through the library and the binary.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rebalance_lab_core::assignor::AssignorKind;
use rebalance_lab_core::export;
use rebalance_lab_core::import::{self, ErrorKind, Import, Observed};
use rebalance_lab_core::scenario::{Member, Scenario, Topic};
use std::collections::BTreeMap;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_rebalance-lab");
const A: &str = "consumer-orders-app-1-6f0c2a1e-2b1d-4c55-9a34-0d2f1b7e9c11";
const B: &str = "consumer-orders-app-2-0b7d54f3-97aa-4b0e-8d0c-5a8f3c2e1d20";

fn path(name: &str) -> String {
    format!(
        "{}/../core/tests/fixtures/kafka-consumer-groups/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn fixture(name: &str) -> Import {
    let text = std::fs::read_to_string(path(name)).unwrap();
    import::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn owned(i: &Import, member: &str) -> Vec<(String, Vec<i32>)> {
    i.assignment[member]
        .iter()
        .map(|(t, p)| (t.clone(), p.clone()))
        .collect()
}

fn tp(list: &[(&str, &[i32])]) -> Vec<(String, Vec<i32>)> {
    list.iter()
        .map(|(t, p)| (t.to_string(), p.to_vec()))
        .collect()
}

fn topics(i: &Import) -> Vec<(String, u32)> {
    i.scenario
        .topics
        .iter()
        .map(|t| (t.name.clone(), t.partitions))
        .collect()
}

#[test]
fn scala_views_alone_and_together_give_one_group() {
    for name in [
        "2.8-offsets.txt",
        "2.8-members-verbose.txt",
        "3.x-all-views.txt",
    ] {
        let i = fixture(name);
        assert_eq!(i.group_id.as_deref(), Some("orders-app"), "{name}");
        assert_eq!(
            owned(&i, A),
            tp(&[("orders", &[0, 1, 2]), ("payments", &[0])]),
            "{name}"
        );
        assert_eq!(
            owned(&i, B),
            tp(&[("orders", &[3, 4, 5]), ("payments", &[1])]),
            "{name}"
        );
        assert!(i.warnings.is_empty(), "{name}: {:?}", i.warnings);
    }
    let i = fixture("3.x-all-views.txt");
    assert_eq!(
        topics(&i),
        [("orders".to_string(), 7), ("payments".to_string(), 2)]
    );
    assert_eq!(
        i.lag["orders"],
        [
            Some(10),
            Some(10),
            Some(10),
            Some(10),
            Some(10),
            Some(10),
            Some(42)
        ]
    );
    assert_eq!(i.assignor, Some(AssignorKind::RoundRobin));
    assert_eq!(
        i.scenario.members[0].client_id.as_deref(),
        Some("consumer-orders-app-1")
    );
    assert_eq!(i.scenario.members[0].topics[..], ["orders", "payments"]);
    // Unowned orders-6 is in the topic count and nobody's.
    assert!(i
        .assignment
        .iter()
        .all(|(_, a)| !a.get("orders").is_some_and(|p| p.contains(&6))));
}

/// A partition nobody ever committed is printed with its log end and `-` for its current
/// offset and lag (Kafka's `ConsumerGroupCommand`): the import says so, with what the log
/// end means for its next consumer, once per topic, and does not count it as a lag of 0.
/// What each member lists in partition.assignment.strategy is not printed: the members list
/// the strategy the group chose (so the vote picks it), or keep the Java default without
/// `--state`.
#[test]
fn uncommitted_partitions_and_unprinted_strategies_are_said() {
    let text = "GROUP  TOPIC     PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID
g      payments  8          -               160741976       -    c-1          /h    c
g      payments  9          -               5               -    c-1          /h    c
g      payments  0          7               9               2    c-2          /h    c
g      orders    0          -               -               -    c-2          /h    c
";
    let i = import::parse(text).unwrap();
    assert_eq!(i.lag["payments"][8], None);
    assert_eq!(i.lag["payments"][0], Some(2));
    assert_eq!(i.warnings.len(), 1, "{:?}", i.warnings);
    let w = &i.warnings[0];
    assert_eq!(w.line, 2);
    assert!(
        w.message.starts_with(
            "payments: partitions 8 (log end 160,741,976), 9 (log end 5) have no committed offset"
        ),
        "{}",
        w.message
    );
    assert!(
        w.message.contains("skips the 160,741,981 records"),
        "{}",
        w.message
    );
    // without --state: the Java client's default list, as the page says
    assert_eq!(
        i.scenario.members[0].protocols,
        rebalance_lab_core::scenario::java_protocols()
    );
    let state = "\nGROUP  COORDINATOR (ID)  ASSIGNMENT-STRATEGY  STATE   #MEMBERS
g      b:9092 (1)        roundrobin           Stable  2
";
    let i = import::parse(&format!("{text}{state}")).unwrap();
    for m in &i.scenario.members {
        assert_eq!(m.protocols, ["roundrobin"], "{}", m.id);
    }
    assert_eq!(i.scenario.voted_assignor(), Some(AssignorKind::RoundRobin));
}

#[test]
fn members_without_verbose_and_state_alone() {
    let i = fixture("2.8-members.txt");
    assert_eq!(i.scenario.members.len(), 2);
    assert!(i.scenario.topics.is_empty());
    let i = fixture("2.8-state.txt");
    assert_eq!(
        (i.assignor, i.state.as_deref()),
        (Some(AssignorKind::Range), Some("Stable"))
    );
    let i = fixture("4.x-state.txt");
    assert_eq!(i.strategy.as_deref(), Some("uniform"));
    // the broker's uniform assignor is modelled since KIP-848 landed
    assert_eq!(i.assignor, Some(AssignorKind::Uniform));
    assert!(
        i.warnings
            .iter()
            .all(|w| !w.message.contains("not one this version models")),
        "{:?}",
        i.warnings
    );
}

#[test]
fn wide_columns_static_members_and_numeric_order() {
    let i = fixture("3.x-wide-offsets.txt");
    assert_eq!(
        owned(&i, "consumer-static-1-9a1f"),
        tp(&[("clickstream.events.v2-with-a-long-name", &[2, 10])])
    );
    let i = fixture("3.x-static-members-verbose.txt");
    let m = &i.scenario.members[0];
    assert_eq!(
        (m.id.as_str(), m.instance_id.as_deref()),
        ("consumer-static-1-9a1f", Some("instance-eu-1"))
    );
    assert_eq!(i.scenario.members[1].instance_id, None);
    assert_eq!(
        topics(&i)[0],
        ("clickstream.events.v2-with-a-long-name".to_string(), 11)
    );
}

#[test]
fn ids_with_spaces_and_unicode() {
    let u1 = "client ünï 1-3c1e";
    let u2 = "日本 consumer 😀-77aa";
    for name in ["3.x-unicode-offsets.txt", "3.x-unicode-members-verbose.txt"] {
        let i = fixture(name);
        assert_eq!(i.group_id.as_deref(), Some("my group é"), "{name}");
        assert_eq!(owned(&i, u1), tp(&[("orders", &[0, 1])]), "{name}");
        assert_eq!(owned(&i, u2), tp(&[("orders", &[2])]), "{name}");
        assert_eq!(
            i.scenario.members[1].client_id.as_deref(),
            Some("日本 consumer 😀"),
            "{name}"
        );
    }
}

#[test]
fn no_active_members_rebalancing_and_missing_groups_are_reported() {
    let i = fixture("3.x-no-active-members.txt");
    assert!(i
        .warnings
        .iter()
        .any(|w| w.line == 2 && w.message.contains("no active members")));
    assert!(i.scenario.members.is_empty());
    assert_eq!(i.lag["orders"], [Some(2); 3]);
    assert_eq!(
        (i.strategy.as_deref(), i.state.as_deref()),
        (Some(""), Some("Empty"))
    );
    let i = fixture("3.x-rebalancing.txt");
    assert!(i.warnings.iter().any(|w| w.message.contains("rebalancing")));
    assert_eq!(owned(&i, B), tp(&[]));
    assert_eq!(topics(&i)[1], ("payments".to_string(), 2));
    assert_eq!(i.lag["payments"], [Some(10), None]);
    for name in ["2.8-does-not-exist.txt", "3.8-does-not-exist.txt"] {
        let i = fixture(name);
        assert_eq!(i.group_id.as_deref(), Some("nope"), "{name}");
        assert!(i.warnings[0].message.contains("does not exist"), "{name}");
    }
}

#[test]
fn java_3_8_unnamed_lists_take_their_topics_from_the_offsets_view() {
    let i = fixture("3.8-all-views.txt");
    assert!(i.warnings.is_empty(), "{:?}", i.warnings);
    assert_eq!(
        owned(&i, A),
        tp(&[("orders", &[2, 10]), ("payments", &[0])])
    );
    assert_eq!(owned(&i, B), tp(&[("orders", &[0, 1])]));
    // Alone, the lists cannot be placed: said, not guessed.
    let i = fixture("3.8-members-verbose-alone.txt");
    assert_eq!(i.warnings.len(), 3, "{:?}", i.warnings);
    assert!(i.warnings[0].message.contains("without their topic"));
}

#[test]
fn new_protocol_columns_are_tolerated() {
    let i = fixture("4.x-members-verbose-consumer-protocol.txt");
    assert_eq!(
        owned(&i, "Zx1vN0p8S0y3Vd5kQ2m9Ag"),
        tp(&[("orders", &[0, 1, 10]), ("payments", &[0])])
    );
    assert_eq!(
        owned(&i, "b3RoZXItbWVtYmVyLWlkXw"),
        tp(&[("orders", &[2, 3])])
    );
    let i = fixture("4.x-offsets.txt");
    assert_eq!(i.lag["orders"][6], Some(3));
}

#[test]
fn truncated_and_garbled_input_says_where() {
    let text = std::fs::read_to_string(path("2.8-offsets.txt")).unwrap();
    // Cut in the middle of a row.
    let cut = &text[..text.find("10              consumer-orders-app-1").unwrap() - 20];
    let e = import::parse(cut).unwrap_err();
    assert_eq!(e.line, 3);
    assert!(matches!(e.kind, ErrorKind::Truncated { .. }), "{e}");
    // Every prefix and every single-byte change: an answer or an error, never a panic.
    for k in 0..text.len() {
        if text.is_char_boundary(k) {
            let _ = import::parse(&text[..k]);
        }
    }
    let mut bytes = text.clone().into_bytes();
    for k in (0..bytes.len()).step_by(7) {
        let keep = bytes[k];
        for b in [b'x', b' ', b'(', b'\n', b'9'] {
            bytes[k] = b;
            if let Ok(t) = std::str::from_utf8(&bytes) {
                let _ = import::parse(t);
            }
        }
        bytes[k] = keep;
    }
    let garbled = text.replacen("orders          1 ", "orders          x ", 1);
    let e = import::parse(&garbled).unwrap_err();
    assert_eq!((e.line, e.column), (4, 33), "{e}");
    assert_eq!(
        e.to_string(),
        "line 4, column 33: PARTITION \"x\" is neither a number nor -"
    );
    let e = import::parse("hello\nworld").unwrap_err();
    assert_eq!((e.line, e.kind), (1, ErrorKind::UnknownLine));
    let e = import::parse("").unwrap_err();
    assert_eq!(e.kind, ErrorKind::NotConsumerGroups);
    // A partition number beyond the limit is refused before anything is allocated for it.
    let huge = text.replacen("orders          1 ", "orders          999999999 ", 1);
    assert!(matches!(
        import::parse(&huge).unwrap_err().kind,
        ErrorKind::PartitionTooLarge { .. }
    ));
    let bad = "\nGROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     ASSIGNMENT\ng               c               /h              c               1               orders(0,\n";
    let e = import::parse(bad).unwrap_err();
    assert_eq!((e.line, e.column), (3, 90), "{e}");
    let two = format!("{text}\nConsumer group 'other' has no active members.\n");
    assert!(matches!(
        import::parse(&two).unwrap_err().kind,
        ErrorKind::SecondGroup { .. }
    ));
}

fn arb_id() -> impl Strategy<Value = String> {
    // Spaces inside, unicode (an emoji is two UTF-16 units), never at the ends.
    proptest::string::string_regex("[a-zé日😀][a-z0-9é日😀 .-]{0,20}[a-z0-9😀]")
        .unwrap()
        .prop_filter("no trailing space", |s| !s.ends_with(' '))
}

fn arb_scenario() -> impl Strategy<Value = (String, Scenario)> {
    (
        arb_id(),
        prop::collection::vec(1u32..12, 1..4),
        prop::collection::btree_set(arb_id(), 0..5),
        any::<u64>(),
    )
        .prop_map(|(group, counts, ids, seed)| {
            let topics: Vec<Topic> = counts
                .iter()
                .enumerate()
                .map(|(i, &n)| Topic {
                    name: format!("t{i}.x_y-{i}"),
                    partitions: n,
                })
                .collect();
            let ids: Vec<String> = ids.into_iter().collect();
            let mut members: Vec<Member> = ids
                .iter()
                .enumerate()
                .map(|(i, id)| Member {
                    id: id.clone(),
                    client_id: (i % 2 == 0).then(|| format!("{id} client")),
                    ..Default::default()
                })
                .collect();
            // Each partition: a member or nobody, from the seed.
            let mut s = seed;
            for t in &topics {
                for p in 0..t.partitions {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let k = (s >> 33) as usize % (members.len() + 1);
                    if k < members.len() {
                        members[k]
                            .owned
                            .entry(t.name.clone())
                            .or_default()
                            .push(p as i32);
                    }
                }
            }
            for m in &mut members {
                m.topics = topics
                    .iter()
                    .filter(|t| m.owned.contains_key(&t.name))
                    .map(|t| t.name.clone())
                    .collect::<Vec<_>>()
                    .into();
            }
            (
                group,
                Scenario {
                    topics,
                    members,
                    ..Default::default()
                },
            )
        })
}

proptest! {
    #[test]
    fn rendered_offsets_import_back_to_the_same_scenario((group, s) in arb_scenario()) {
        let a: Observed = export::owned_assignment(&s);
        let lag: import::Lag = s.topics.iter().map(|t| (t.name.clone(), (0..t.partitions).map(|p| (p % 3 != 0).then_some(p as i64 * 7)).collect())).collect();
        let text = import::render_offsets(&group, &s, &a, Some(&lag));
        let back = import::parse(&text).unwrap();
        prop_assert_eq!(&back.scenario, &s, "{}", text);
        prop_assert_eq!(back.group_id.as_deref(), Some(group.as_str()));
        prop_assert_eq!(&back.assignment, &a);
        prop_assert_eq!(&back.lag, &lag);
        prop_assert!(back.warnings.is_empty());
    }

    #[test]
    fn svg_has_one_cell_per_partition((group, s) in arb_scenario()) {
        let svg = export::svg::grid_svg(&s, &export::owned_assignment(&s), &export::About { group_id: Some(&group), ..Default::default() });
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let cells: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("cell")).collect();
        let total: u32 = s.topics.iter().map(|t| t.partitions).sum();
        prop_assert_eq!(cells.len() as u32, total);
        for c in &cells {
            let t = c.attribute("data-topic").unwrap();
            let p: i32 = c.attribute("data-partition").unwrap().parse().unwrap();
            let owner = s.members.iter().find(|m| m.owned.get(t).is_some_and(|ps| ps.contains(&p)));
            prop_assert_eq!(c.attribute("data-member"), owner.map(|m| m.id.as_str()));
        }
        let legend = doc.descendants().filter(|n| n.attribute("class") == Some("member")).count();
        prop_assert_eq!(legend, s.members.len() + 1);
    }
}

/// Past the palette's 8 colours a member wears the app's pattern over its colour, in the
/// cells and the legend, so two members never look alike; the heading says whether the
/// picture is computed or observed and whether it is a what-if; a cell's title has its lag.
#[test]
fn svg_tells_members_apart_past_eight_and_says_what_it_shows() {
    let topic = Topic {
        name: "t".into(),
        partitions: 10,
    };
    let mut s = Scenario {
        topics: vec![topic],
        ..Default::default()
    };
    for i in 0..10 {
        let mut m = Member::new(&format!("m{i}"), &["t"]);
        m.owned = [("t".to_string(), vec![i])].into_iter().collect();
        s.members.push(m);
    }
    let lag: import::Lag = [("t".to_string(), vec![Some(7); 10])].into_iter().collect();
    let svg = export::svg::grid_svg(
        &s,
        &export::owned_assignment(&s),
        &export::About {
            group_id: Some("g"),
            computed_by: None,
            what_if: Some("10 members; the pinned group has 9"),
            lag: Some(&lag),
            colour_slots: None,
        },
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(
        title.text(),
        Some("Assignment of group g, as observed (what-if, not the running group: 10 members; the pinned group has 9)")
    );
    // m0 and m8 share a colour: m8 (and m9) wear pattern 1 over it, cells and legend alike
    let patterns: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("pattern"))
        .filter_map(|n| n.attribute("fill"))
        .collect();
    assert_eq!(patterns, ["url(#p1)"; 4], "{svg}");
    let fill = |id: &str| {
        doc.descendants()
            .find(|n| n.attribute("data-member") == Some(id))
            .and_then(|n| n.attribute("fill"))
    };
    assert_eq!(fill("m0"), fill("m8"));
    assert!(doc
        .descendants()
        .any(|n| n.has_tag_name("pattern") && n.attribute("id") == Some("p1")));
    let cell_title = doc
        .descendants()
        .find(|n| n.attribute("data-member") == Some("m3"))
        .and_then(|n| n.first_element_child())
        .and_then(|t| t.text());
    assert_eq!(cell_title, Some("t-3: m3, lag 7"));
    // the Markdown says the same, with the lag per member
    let md = export::markdown::assignment_markdown(
        &s,
        &export::owned_assignment(&s),
        &export::About {
            group_id: Some("g"),
            computed_by: Some(AssignorKind::Range),
            what_if: None,
            lag: Some(&lag),
            colour_slots: None,
        },
    );
    assert!(
        md.starts_with("Assignment of group g, computed by range\n"),
        "{md}"
    );
    assert!(md.contains("| m3 |  | t 3 | 1 | 7 |"), "{md}");
}

/// The picture colours members as the page does: by each member's colour slot, which
/// follows the member whatever its place in the list (so a member moved to the head of the
/// list keeps its colour in the export too).
#[test]
fn svg_colours_follow_the_page_s_slots() {
    let s = Scenario {
        topics: vec![Topic {
            name: "t".into(),
            partitions: 2,
        }],
        members: vec![Member::new("a", &["t"]), Member::new("b", &["t"])],
        ..Default::default()
    };
    let a = export::owned_assignment(&Scenario {
        members: vec![
            Member {
                owned: [("t".to_string(), vec![0])].into_iter().collect(),
                ..Member::new("a", &["t"])
            },
            Member {
                owned: [("t".to_string(), vec![1])].into_iter().collect(),
                ..Member::new("b", &["t"])
            },
        ],
        ..s.clone()
    });
    let fill = |svg: &str, member: &str| {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let cell = doc
            .descendants()
            .find(|n| {
                n.attribute("class") == Some("cell") && n.attribute("data-member") == Some(member)
            })
            .unwrap();
        (
            cell.attribute("fill").unwrap().to_string(),
            cell.attribute("data-slot").unwrap().to_string(),
        )
    };
    let in_order = export::svg::grid_svg(&s, &a, &export::About::default());
    let swapped = export::svg::grid_svg(
        &s,
        &a,
        &export::About {
            colour_slots: Some(&[1, 0]),
            ..Default::default()
        },
    );
    assert_eq!(fill(&swapped, "a"), fill(&in_order, "b"));
    assert_eq!(fill(&swapped, "b"), fill(&in_order, "a"));
    assert_ne!(fill(&in_order, "a"), fill(&in_order, "b"));
}

#[test]
fn svg_escapes_names_and_uses_the_app_palette() {
    let mut s = Scenario {
        topics: vec![Topic {
            name: "t".into(),
            partitions: 2,
        }],
        ..Default::default()
    };
    let mut m = Member::new("<a & \"b\" 'c'>", &["t"]);
    m.owned = [("t".to_string(), vec![1])]
        .into_iter()
        .collect::<BTreeMap<_, _>>();
    s.members.push(m);
    let svg = export::svg::grid_svg(
        &s,
        &export::owned_assignment(&s),
        &export::About {
            group_id: Some("g</svg>"),
            ..Default::default()
        },
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let cell = doc
        .descendants()
        .find(|n| n.attribute("data-partition") == Some("1"))
        .unwrap();
    assert_eq!(cell.attribute("data-member"), Some("<a & \"b\" 'c'>"));
    let css = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../styles/tokens.css"
    ))
    .unwrap();
    for (k, (fill, ink)) in export::svg::COLOURS.iter().enumerate() {
        assert!(
            css.contains(&format!("--member-{k}: {fill}; --member-{k}-ink: {ink};")),
            "{k}"
        );
    }
}

#[test]
fn markdown_and_command_exports() {
    let i = fixture("3.x-all-views.txt");
    let md = export::markdown::assignment_markdown(
        &i.scenario,
        &i.assignment,
        &export::About {
            group_id: i.group_id.as_deref(),
            ..Default::default()
        },
    );
    assert!(
        md.contains(&format!("| {} | consumer\\-orders\\-app\\-1 |", A))
            || md.contains(&format!(
                "| {A} | consumer-orders-app-1 | orders 0, 1, 2; payments 0 | 4 |"
            )),
        "{md}"
    );
    assert!(md.contains("| *unassigned* |  | orders 6 | 1 |"), "{md}");
    assert_eq!(export::markdown::escape("a|b*c"), "a\\|b\\*c");
    let cmd = export::command::assign_command(&i.scenario);
    assert!(cmd.starts_with("printf '%s\\n' '{"), "{cmd}");
    assert!(cmd.ends_with("' | rebalance-lab assign -"), "{cmd}");
}

fn run(args: &[&str], stdin: Option<&str>) -> std::process::Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn the_binary_imports_exports_and_links() {
    let out = run(&["import", &path("3.x-all-views.txt")], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["group_id"], "orders-app");
    assert_eq!(v["assignor"], "roundrobin");
    assert_eq!(v["topics"]["orders"], 7);
    assert_eq!(v["lag"]["orders"][6], 42);
    assert_eq!(v["members"][0]["id"], A);
    assert_eq!(v["members"][0]["client_id"], "consumer-orders-app-1");
    assert_eq!(
        v["members"][0]["owned"]["orders"],
        serde_json::json!([0, 1, 2])
    );
    assert!(v["members"][0]["instance_id"].is_null());
    // The scenario it prints is one `assign` reads.
    let json = String::from_utf8(out.stdout).unwrap();
    let out = run(&["assign", "-"], Some(&json));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Warnings on stderr; unknown lag is null.
    let out = run(
        &["import", "-"],
        Some(&std::fs::read_to_string(path("3.x-rebalancing.txt")).unwrap()),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("warning: line 2: the group is rebalancing")
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["lag"]["payments"][1].is_null());
    assert!(v.get("assignor").is_none());
    // Bad input: exit 1, line and column on stderr.
    let out = run(&["import", "-"], Some("\nGROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID\ng t"));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3, column"), "{err}");
    // link takes the same text.
    let out = run(&["link", &path("2.8-offsets.txt")], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("#v1;"));
    // export: SVG parses with one cell per partition; the file is named after the group.
    let out = run(
        &["export", &path("2.8-offsets.txt"), "--format", "svg"],
        None,
    );
    let svg = String::from_utf8(out.stdout).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("cell"))
            .count(),
        9
    );
    let dir = std::env::temp_dir().join(format!("rebalance-lab-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = run(
        &[
            "export",
            &path("2.8-offsets.txt"),
            "--format",
            "markdown",
            "--output-dir",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = dir.join("rebalance-lab-orders-app.md");
    assert!(std::fs::read_to_string(&written)
        .unwrap()
        .contains("| Member |"));
    std::fs::remove_dir_all(&dir).unwrap();
    let out = run(
        &["export", "-", "--format", "command"],
        Some(&std::fs::read_to_string(path("2.8-offsets.txt")).unwrap()),
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("printf"));
}
