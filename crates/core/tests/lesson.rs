//! The range lesson: every step reads, its answers come from the real assignors, the checks
//! say right for the true answer and name the mistake for each wrong rule, and progress
//! round-trips through its text form.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rebalance_lab_core::assignor::{self, GroupInput, MemberMeta, TopicMeta};
use rebalance_lab_core::lesson::{
    answer_under, check, lesson, mistakes, Answer, Fact, Highlight, LoadedStep, Mistake, Outcome,
    Prediction, Progress, Question, Rule, Step, Verdict, LESSONS, MAX_PROGRESS_STEPS,
};
use rebalance_lab_core::protocol::{decode_subscription, FieldValue};
use rebalance_lab_core::scenario::link::{from_fragment, to_fragment};
use rebalance_lab_core::scenario::whatif::{diff, Baseline};
use std::collections::BTreeMap;

fn range_lesson() -> Vec<LoadedStep> {
    lesson("range")
        .expect("the range lesson")
        .steps
        .iter()
        .map(|s| LoadedStep::load(s).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn step<'a>(steps: &'a [LoadedStep], key: &str) -> &'a LoadedStep {
    steps
        .iter()
        .find(|s| s.step.key == key)
        .unwrap_or_else(|| panic!("no step {key}"))
}

fn cells(list: &[(&str, u32)]) -> Vec<(String, u32)> {
    list.iter().map(|(t, p)| (t.to_string(), *p)).collect()
}

#[test]
fn every_step_reads_and_keys_are_unique() {
    for l in LESSONS {
        let mut keys = Vec::new();
        for s in l.steps {
            let loaded = LoadedStep::load(s).unwrap_or_else(|e| panic!("{e}"));
            assert!(!keys.contains(&s.key), "{}: key twice", s.key);
            keys.push(s.key);
            // The fragments are links the app writes back to the same group.
            for f in std::iter::once(s.scenario).chain(s.before) {
                let st = from_fragment(f).unwrap();
                assert_eq!(from_fragment(&to_fragment(&st)).unwrap(), st, "{}", s.key);
            }
            assert_eq!(loaded.before.is_some(), s.before.is_some());
            assert!(!s.title.is_empty() && !s.text.is_empty());
        }
    }
}

/// The lesson's ideas in the seed's order, each with a prediction.
#[test]
fn the_steps_follow_the_seed() {
    let keys: Vec<&str> = lesson("range")
        .unwrap()
        .steps
        .iter()
        .map(|s| s.key)
        .collect();
    assert_eq!(
        keys,
        [
            "group",
            "subscription-bytes",
            "range-counts",
            "range-cells",
            "skew",
            "mistake-numeric-order",
            "mistake-arrival-order",
            "mistake-global",
            "mistake-no-metadata",
            "mistake-unsubscribed",
            "mistake-idle",
            "mistake-text",
            "round-robin",
            "what-if-join",
            "what-if-leave",
            "what-if-subscription",
            "what-if-partitions",
        ]
    );
    let steps = lesson("range").unwrap().steps;
    assert!(
        steps.iter().all(|s| s.question.is_some()),
        "a prediction per idea"
    );
    // every mistake is shown, each by one step
    for m in Mistake::ALL {
        assert_eq!(
            steps.iter().filter(|s| s.mistake == Some(m)).count(),
            1,
            "{m:?}"
        );
    }
    // every kind of question is asked
    assert!(steps
        .iter()
        .any(|s| matches!(s.question, Some(Question::Cells { .. }))));
    assert!(steps
        .iter()
        .any(|s| matches!(s.question, Some(Question::Counts))));
    assert!(steps
        .iter()
        .any(|s| matches!(s.question, Some(Question::Choice { .. }))));
    // the four triggers are what-ifs
    assert_eq!(steps.iter().filter(|s| s.before.is_some()).count(), 4);
}

/// Each answer, computed again straight from the assignor (and the decoder, and what-if's
/// diff), without the lesson module's own helpers.
#[test]
fn answers_are_the_real_assignors() {
    for l in range_lesson() {
        let Some(q) = l.step.question else { continue };
        let (input, a) = l.scenario.assign(l.scenario.assignor).unwrap();
        let map = a.to_map(&input);
        let got = l.answer().unwrap();
        match q {
            Question::Cells { member } => {
                let want: Vec<(String, u32)> = map[member]
                    .iter()
                    .flat_map(|(t, ps)| ps.iter().map(move |p| (t.clone(), *p as u32)))
                    .collect();
                let Answer::Cells(mut got) = got else {
                    panic!()
                };
                got.sort();
                assert_eq!(got, want, "{}", l.step.key);
            }
            Question::Counts => {
                let want: BTreeMap<String, u32> = map
                    .iter()
                    .map(|(m, ts)| (m.clone(), ts.values().map(|p| p.len() as u32).sum()))
                    .collect();
                let Answer::Counts(got) = got else { panic!() };
                assert_eq!(got.len(), l.scenario.members.len(), "every member");
                assert_eq!(
                    got.into_iter().collect::<BTreeMap<_, _>>(),
                    want,
                    "{}",
                    l.step.key
                );
            }
            Question::Choice { fact, options, .. } => {
                let want = match fact {
                    Fact::Idle => map.values().filter(|t| t.is_empty()).count().to_string(),
                    Fact::Moved => {
                        let before = l.before.as_ref().unwrap();
                        diff(&Baseline::of(before), &input, &a).moved.to_string()
                    }
                    Fact::Field { member, path } => {
                        let d = decode_subscription(l.bytes_of(member).unwrap());
                        let f = d.fields.iter().find(|f| f.path.to_string() == path);
                        match &f.unwrap().value {
                            FieldValue::Text(t) => t.clone(),
                            FieldValue::Null => "null".into(),
                            v => panic!("{v:?}"),
                        }
                    }
                    Fact::Total { member } => map[member]
                        .values()
                        .map(|p| p.len())
                        .sum::<usize>()
                        .to_string(),
                    Fact::Owner { topic, partition } => map
                        .iter()
                        .find(|(_, ts)| {
                            ts.get(topic)
                                .is_some_and(|p| p.contains(&(partition as i32)))
                        })
                        .map_or("nobody".to_string(), |(m, _)| m.clone()),
                    Fact::Timeline(t) => {
                        // the step's link carries its timeline; run it as the page does
                        let link =
                            rebalance_lab_core::scenario::link::from_fragment(l.step.scenario)
                                .unwrap();
                        let spec = link.timeline.expect("a timeline step's link carries xt");
                        let group =
                            rebalance_lab_core::timeline::Group::of_scenario(&link.scenario);
                        let run = rebalance_lab_core::timeline::simulate(
                            &group,
                            &spec.settings,
                            &spec.story,
                        )
                        .unwrap();
                        t.reads(&run.costs)
                    }
                };
                let Answer::Choice { index, value } = got else {
                    panic!()
                };
                assert_eq!(value, want, "{}", l.step.key);
                assert_eq!(options[index.unwrap()], want);
                assert_eq!(options.iter().filter(|o| **o == want).count(), 1);
            }
        }
    }
}

/// The seeds' own numbers.
#[test]
fn the_seeds_examples() {
    let steps = range_lesson();
    let counts = |key: &str| match step(&steps, key).answer() {
        Some(Answer::Counts(c)) => c.into_iter().collect::<BTreeMap<_, _>>(),
        a => panic!("{a:?}"),
    };
    let c = counts("range-counts");
    assert_eq!(
        (c["consumer-a"], c["consumer-b"], c["consumer-c"]),
        (3, 2, 2)
    );
    assert_eq!(
        step(&steps, "range-cells").answer(),
        Some(Answer::Cells(cells(&[("orders", 3), ("orders", 4)])))
    );
    let c = counts("skew");
    assert_eq!((c["C0"], c["C1"]), (6, 3));
    // the blog's round-robin example, both members
    let rr = step(&steps, "round-robin");
    assert_eq!(
        rr.answer(),
        Some(Answer::Cells(cells(&[("t0", 0), ("t0", 2), ("t1", 1)])))
    );
    assert_eq!(
        rr.owners.cells_of("C1"),
        cells(&[("t0", 1), ("t1", 0), ("t1", 2)])
    );
    // consumer-10 before consumer-2
    assert_eq!(
        step(&steps, "mistake-numeric-order").answer(),
        Some(Answer::Cells(cells(&[("events", 3), ("events", 4)])))
    );
    let c = counts("mistake-idle");
    assert_eq!(c["consumer-c"], 0);
}

/// The seed's bytes `00 00 | 00 00 00 01 | 00 01 61 | ff ff ff ff` decode to the fields the
/// steps name, at the bytes they name.
#[test]
fn the_seed_bytes_decode_to_the_named_fields() {
    let steps = range_lesson();
    let l = step(&steps, "subscription-bytes");
    let bytes = l.bytes_of("consumer-a").unwrap();
    assert_eq!(
        bytes,
        [0, 0, 0, 0, 0, 1, 0, 1, 0x61, 0xff, 0xff, 0xff, 0xff]
    );
    let d = decode_subscription(bytes);
    assert!(d.error.is_none() && d.notes.is_empty());
    let field = |path: &str| {
        d.fields
            .iter()
            .find(|f| f.path.to_string() == path)
            .unwrap_or_else(|| panic!("{path}"))
    };
    let named: Vec<&str> = l
        .step
        .highlights
        .iter()
        .filter_map(|h| match h {
            Highlight::Field { path, .. } => Some(*path),
            _ => None,
        })
        .collect();
    assert_eq!(named, ["version", "topics", "topics[0]", "user_data"]);
    let spans: Vec<(usize, usize, FieldValue)> = named
        .iter()
        .map(|p| {
            let f = field(p);
            (f.span().start, f.span().end, f.value.clone())
        })
        .collect();
    assert_eq!(
        spans,
        [
            (0, 2, FieldValue::Int(0)),
            (2, 9, FieldValue::Array(1)),
            (6, 9, FieldValue::Text("a".into())),
            (9, 13, FieldValue::Null),
        ]
    );
    // the text step points at the user_data bytes
    let t = step(&steps, "mistake-text");
    assert!(t.step.highlights.contains(&Highlight::Bytes {
        member: "consumer-a",
        start: field("user_data").span().start,
        end: field("user_data").span().end,
    }));
}

#[test]
fn the_true_answer_is_right() {
    for l in range_lesson() {
        let p = l.answer().unwrap().as_prediction().unwrap();
        let f = check(&l, &p);
        assert!(f.right, "{}: {f:?}", l.step.key);
        assert!(f.items.iter().all(|i| i.verdict == Verdict::Right));
        assert!(f.summary.starts_with("Right"), "{}", f.summary);
        assert!(f.mistakes.is_empty());
    }
}

/// Each mistake step: the wrong rule's answer differs from the real one, and checking it
/// says wrong, names the mistake and gives its reason.
#[test]
fn each_mistake_is_recognised() {
    for l in range_lesson() {
        let Some(m) = l.step.mistake else { continue };
        let (named, wrong) = l.wrong_answer().unwrap();
        assert_eq!(named, m);
        assert_ne!(Some(&wrong), l.answer().as_ref(), "{}", l.step.key);
        assert_eq!(answer_under(&l, Rule::Mistake(m)), Some(wrong.clone()));
        let f = check(&l, &wrong.as_prediction().unwrap());
        assert!(!f.right, "{}", l.step.key);
        assert_eq!(f.mistakes.first(), Some(&m), "{}: {f:?}", l.step.key);
        let reason = mistakes::reason(m, &l);
        assert!(f.summary.contains(&reason), "{}: {}", l.step.key, f.summary);
        let bad: Vec<_> = f
            .items
            .iter()
            .filter(|i| i.verdict != Verdict::Right)
            .collect();
        assert!(!bad.is_empty());
        // the reason is said once, in the summary; each item says what is so
        for i in bad {
            assert_eq!(i.mistake, Some(m), "{}: {i:?}", l.step.key);
            assert!(!i.why.contains(&reason), "{}: {}", l.step.key, i.why);
        }
    }
}

/// The reasons read in the lesson's terms.
#[test]
fn reasons_in_the_lesson_s_words() {
    let steps = range_lesson();
    let reason = |key: &str| {
        let l = step(&steps, key);
        mistakes::reason(l.step.mistake.unwrap(), l)
    };
    assert!(reason("mistake-numeric-order")
        .starts_with("consumer-10 sorts before consumer-2: member ids compare as strings"));
    assert!(reason("mistake-arrival-order")
        .starts_with("consumer-a comes first although consumer-c joined first"));
    assert!(reason("mistake-global").starts_with(
        "range works per topic: each topic is split on its own over its subscribers, so C0 gets the extra partition of every topic"
    ));
    assert!(reason("mistake-no-metadata").starts_with("audit is not in the cluster metadata"));
    // (the wrong answer's extra partition is accounted for: where consumer-a's 3 comes from)
    assert!(
        reason("mistake-no-metadata").ends_with(
            "Counting it as a topic of 1 partition gives that partition to consumer-a, first in range's order, one more than it really gets"
        ),
        "{}",
        reason("mistake-no-metadata")
    );
    assert!(reason("mistake-unsubscribed").starts_with("consumer-b did not subscribe to payments"));
    assert!(reason("mistake-idle").starts_with("consumer-c gets nothing but is still in the group"));
    assert!(reason("mistake-text").contains("ff ff ff ff is -1, which means null"));
    // the summary names the mistake and keeps the ids' case
    let l = step(&steps, "mistake-numeric-order");
    let wrong = l.wrong_answer().unwrap().1.as_prediction().unwrap();
    assert_eq!(
        check(l, &wrong).summary,
        "0 of 4 right. Sorting members numerically: consumer-10 sorts before consumer-2: member ids compare as strings, character by character, not as numbers."
    );
}

/// The wrong rules are wrong only in their one way: the plain rule they build on is the
/// assignor's range, on every range step and on random groups.
#[test]
fn the_plain_rule_under_the_mistakes_is_range() {
    for l in range_lesson() {
        if l.scenario.assignor == assignor::AssignorKind::Range {
            assert_eq!(mistakes::plain_range(&l.input), l.owners, "{}", l.step.key);
        }
    }
}

fn group() -> impl Strategy<Value = GroupInput> {
    let topics = prop::collection::vec(0u32..6, 1..4);
    (topics, prop::collection::vec((0u32..30, 0u8..16), 0..6)).prop_map(|(ts, ms)| {
        let names: Vec<String> = (0..ts.len()).map(|i| format!("t{i}")).collect();
        let mut seen = Vec::new();
        GroupInput {
            topics: ts
                .iter()
                .enumerate()
                .map(|(i, n)| TopicMeta {
                    name: names[i].clone(),
                    partitions: *n,
                    racks: vec![],
                })
                .collect(),
            members: ms
                .into_iter()
                .filter(|(id, _)| {
                    let fresh = !seen.contains(id);
                    seen.push(*id);
                    fresh
                })
                .map(|(id, mask)| MemberMeta {
                    id: format!("consumer-{id}"),
                    topics: names
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, n)| n.clone())
                        .chain((mask & 8 != 0).then(|| "missing".to_string()))
                        .collect::<Vec<_>>()
                        .into(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    })
}

proptest! {
    #[test]
    fn plain_range_matches_the_assignor(input in group()) {
        let a = assignor::range(&input);
        let real = rebalance_lab_core::lesson::Owners::of_assignment(&input, &a);
        prop_assert_eq!(mistakes::plain_range(&input), real);
    }

    #[test]
    fn progress_round_trips(step in 0usize..MAX_PROGRESS_STEPS, outcomes in prop::collection::vec(0u8..3, 0..40)) {
        let outcomes = outcomes.into_iter().map(|o| match o {
            0 => Outcome::Unanswered,
            1 => Outcome::Right,
            _ => Outcome::Wrong,
        }).collect();
        let p = Progress::new(step, outcomes).unwrap();
        let text = p.to_string();
        prop_assert!(text.bytes().all(|b| b.is_ascii_digit() || b"rw-.".contains(&b)));
        prop_assert_eq!(Progress::parse(&text), Ok(p));
    }

    #[test]
    fn progress_refuses_garbage_with_a_position(text in "\\PC{0,12}|[0-9.rwx:,-]{0,12}") {
        match Progress::parse(&text) {
            Ok(p) => prop_assert_eq!(Progress::parse(&p.to_string()), Ok(p)),
            Err(e) => {
                prop_assert!(e.position <= text.chars().count(), "{}: {}", text, e);
                prop_assert!(!e.message.is_empty());
            }
        }
    }
}

#[test]
fn progress_for_the_range_lesson() {
    let l = lesson("range").unwrap();
    let n = l.steps.len();
    let mut p = Progress::default();
    p.record(0, Outcome::Right);
    p.record(2, Outcome::Wrong);
    p.go_to(3);
    assert_eq!(p.to_string(), "4.r-w");
    assert_eq!(p.fits(l), Ok(()));
    assert_eq!(p.tally(), (1, 1));
    let past = Progress::parse(&format!("{}", n + 1)).unwrap();
    assert!(past.fits(l).unwrap_err().contains("does not exist"));
    let long = Progress::parse(&format!("1.{}", "r".repeat(n + 1))).unwrap();
    assert!(long.fits(l).is_err());
}

#[test]
fn partial_and_odd_predictions() {
    let steps = range_lesson();
    // 7 x 3, consumer-b: one right, one wrong, one missed
    let l = step(&steps, "range-cells");
    let f = check(
        l,
        &Prediction::Cells(cells(&[("orders", 3), ("orders", 5), ("orders", 3)])),
    );
    assert!(!f.right);
    let verdicts: Vec<(&str, Verdict)> = f
        .items
        .iter()
        .map(|i| (i.item.as_str(), i.verdict))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("orders-3", Verdict::Right),
            ("orders-5", Verdict::Wrong),
            ("orders-4", Verdict::Missed),
        ]
    );
    assert!(f.items[1].why.starts_with("orders-5 goes to consumer-c"));
    assert!(f.summary.starts_with("1 of 3 right."), "{}", f.summary);
    // arrival order recognised on a step that does not name it: consumer-b joined last
    let f = check(
        l,
        &Prediction::Cells(cells(&[("orders", 5), ("orders", 6)])),
    );
    assert!(f.mistakes.contains(&Mistake::ArrivalOrder), "{f:?}");
    // counts: an unknown member, one given twice, one missing
    let l = step(&steps, "skew");
    let f = check(
        l,
        &Prediction::Counts(vec![("C0".into(), 5), ("C0".into(), 6), ("C9".into(), 1)]),
    );
    let why: Vec<&str> = f.items.iter().map(|i| i.why.as_str()).collect();
    assert!(
        why.iter().any(|w| w.starts_with("C0 gets 6, not 5")),
        "{why:?}"
    );
    assert!(why.contains(&"C0 is given twice"));
    assert!(why.contains(&"there is no member C9 in this group"));
    assert!(why
        .iter()
        .any(|w| w.starts_with("C1 is a member too, with 3")));
    // C0 5 is what one global range gives
    assert!(f.mistakes.contains(&Mistake::OneGlobalRange), "{f:?}");
    // a choice out of range, and the wrong kind of prediction
    let l = step(&steps, "group");
    let f = check(l, &Prediction::Choice(9));
    assert!(!f.right && f.items[0].why.contains("no option 9"));
    let f = check(l, &Prediction::Counts(vec![]));
    assert!(!f.right && f.summary.contains("another kind of answer"));
    // an empty prediction where cells are asked: every cell missed
    let f = check(step(&steps, "round-robin"), &Prediction::Cells(vec![]));
    assert_eq!(f.items.len(), 3);
    assert!(f.items.iter().all(|i| i.verdict == Verdict::Missed));
}

/// A teacher's mistakes in a step are refused with the step and the reason.
#[test]
fn broken_steps_say_why() {
    let good = lesson("range").unwrap().steps[2];
    let cases: Vec<(Step, &str)> = vec![
        (
            Step {
                scenario: "v1;a=r;t=x*",
                ..good
            },
            "scenario: link",
        ),
        (
            Step {
                highlights: &[Highlight::Member("nobody")],
                ..good
            },
            "no member",
        ),
        (
            Step {
                highlights: &[Highlight::Partitions {
                    topic: "orders",
                    partitions: &[7],
                }],
                ..good
            },
            "no partition 7",
        ),
        (
            Step {
                highlights: &[Highlight::Field {
                    member: "consumer-a",
                    path: "version",
                }],
                ..good
            },
            "no subscription bytes",
        ),
        (
            Step {
                question: Some(Question::Choice {
                    prompt: "?",
                    fact: Fact::Idle,
                    options: &["5", "6"],
                }),
                ..good
            },
            "no option reads",
        ),
        (
            Step {
                question: Some(Question::Choice {
                    prompt: "?",
                    fact: Fact::Moved,
                    options: &["0"],
                }),
                ..good
            },
            "needs a before",
        ),
        (
            // sorting as numbers changes nothing when no id has a number
            Step {
                mistake: Some(Mistake::NumericOrder),
                ..good
            },
            "gives the right answer here",
        ),
        (
            Step {
                question: None,
                mistake: Some(Mistake::ArrivalOrder),
                ..good
            },
            "needs a question",
        ),
    ];
    for (s, want) in cases {
        let e = LoadedStep::load(&s).expect_err(want);
        assert_eq!(e.step, "range-counts");
        assert!(e.to_string().contains(want), "{want}: {e}");
    }
}

/// Facts the range lesson does not ask about yet, on a step a teacher might add.
#[test]
fn owner_and_total_facts() {
    let base = lesson("range").unwrap().steps[2]; // 7 partitions, consumer-c, -a, -b
    let owner = Step {
        question: Some(Question::Choice {
            prompt: "Who owns orders-5?",
            fact: Fact::Owner {
                topic: "orders",
                partition: 5,
            },
            options: &["consumer-a", "consumer-b", "consumer-c", "nobody"],
        }),
        highlights: &[Highlight::Partitions {
            topic: "orders",
            partitions: &[5],
        }],
        mistake: Some(Mistake::ArrivalOrder),
        ..base
    };
    let l = LoadedStep::load(&owner).unwrap();
    assert_eq!(
        l.answer(),
        Some(Answer::Choice {
            index: Some(2),
            value: "consumer-c".into()
        })
    );
    // joined c, a, b: arrival order gives orders-5 to consumer-b
    let (_, wrong) = l.wrong_answer().unwrap();
    assert_eq!(
        wrong,
        Answer::Choice {
            index: Some(1),
            value: "consumer-b".into()
        }
    );
    let f = check(&l, &Prediction::Choice(1));
    assert_eq!(f.mistakes, [Mistake::ArrivalOrder]);
    let total = Step {
        question: Some(Question::Choice {
            prompt: "How many partitions does consumer-a get?",
            fact: Fact::Total {
                member: "consumer-a",
            },
            options: &["2", "3"],
        }),
        mistake: None,
        ..base
    };
    let l = LoadedStep::load(&total).unwrap();
    assert_eq!(
        l.answer().unwrap().as_prediction(),
        Some(Prediction::Choice(1))
    );
    // a partition of a topic missing from the metadata: nobody
    let missing = Step {
        scenario: "v1;a=r;t=orders*4;m=consumer-a***B!audit",
        question: Some(Question::Choice {
            prompt: "Who owns audit-0?",
            fact: Fact::Owner {
                topic: "audit",
                partition: 0,
            },
            options: &["consumer-a", "nobody"],
        }),
        mistake: Some(Mistake::TopicWithoutMetadata),
        ..base
    };
    let l = LoadedStep::load(&missing).unwrap();
    assert_eq!(
        l.answer().unwrap().as_prediction(),
        Some(Prediction::Choice(1))
    );
    let f = check(&l, &Prediction::Choice(0));
    assert_eq!(f.mistakes, [Mistake::TopicWithoutMetadata]);
}

/// The over-time lesson's rebalance counts are the ones Kafka's rules give
/// (KAFKA-SEMANTICS.md, "Rebalance timing"): a join is one eager rebalance or two
/// cooperative ones, and one when the partitions that move are an eager member's (it freed
/// them before joining, so no cooperative member revokes); a restart with LeaveGroup is one
/// on leaving and one on returning; static members back within their session cause none.
#[test]
fn the_over_time_lesson_counts_rebalances_as_kafka_s_rules_do() {
    let lesson = rebalance_lab_core::lesson::lesson("over-time").unwrap();
    for (key, want) in [
        ("join", "1"),
        ("join-cooperative", "2"),
        ("mixed-lists", "1"),
        ("restart", "2"),
        ("static", "0"),
    ] {
        let step = lesson.steps.iter().find(|s| s.key == key).unwrap();
        let loaded = LoadedStep::load(step).unwrap();
        let Some(Answer::Choice { value, .. }) = loaded.answer() else {
            panic!("{key}")
        };
        assert_eq!(value, want, "{key}");
    }
}
