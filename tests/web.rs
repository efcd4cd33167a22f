//! Browser tests (wasm-bindgen-test in headless Chromium): the app mounted in a real page,
//! read back through the DOM a person sees, plus the repaint benchmark at teaching scale.
#![cfg(target_arch = "wasm32")]

use rebalance_lab::App;
use rebalance_lab_core::scenario::link::{to_fragment, LinkState};
use rebalance_lab_core::scenario::{Member, Scenario, Topic};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Mounts the app on a fresh element with `fragment` in the URL, and waits for the task
/// after its first paint (the group panel is drawn there: a person sees the whole page once
/// it has run).
async fn mount(fragment: &str) -> web_sys::Element {
    let root = first_paint(fragment).await;
    gloo_timers::future::TimeoutFuture::new(0).await;
    yew::scheduler::flush().await;
    root
}

/// Mounts the app on a fresh element with `fragment` in the URL: its first paint only.
async fn first_paint(fragment: &str) -> web_sys::Element {
    let w = web_sys::window().unwrap();
    w.history()
        .unwrap()
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("#{fragment}")),
        )
        .unwrap();
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    root
}

/// Mounts the app with `s` in the URL, as a link would open it.
async fn mount_scenario(s: Scenario) -> web_sys::Element {
    mount(&to_fragment(&LinkState {
        scenario: s,
        ..Default::default()
    }))
    .await
}

fn owners(root: &web_sys::Element, topic: &str) -> Vec<Option<String>> {
    let cells = root
        .query_selector_all(&format!(".cell[data-topic='{topic}']"))
        .unwrap();
    (0..cells.length())
        .map(|i| {
            cells
                .item(i)
                .unwrap()
                .dyn_into::<web_sys::Element>()
                .unwrap()
                .get_attribute("data-owner")
        })
        .collect()
}

/// The element `selector` finds under `root`, as the element type the test needs.
fn find<T: JsCast>(root: &web_sys::Element, selector: &str) -> T {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"))
        .dyn_into::<T>()
        .unwrap_or_else(|_| panic!("{selector} is not the expected element"))
}

fn click(root: &web_sys::Element, selector: &str) {
    find::<web_sys::HtmlElement>(root, selector).click();
}

/// Chooses `value` in the select `selector` finds, as a person would (a change event).
fn choose(root: &web_sys::Element, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = find(root, selector);
    select.set_value(value);
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
}

/// `s` with member i subscribed to every other topic, from topic i mod 2: subscriptions
/// differ (the sticky assignors' general algorithm).
fn on_half_the_topics(mut s: Scenario) -> Scenario {
    let n = s.topics.len();
    for (i, m) in s.members.iter_mut().enumerate() {
        m.topics = (0..n)
            .filter(|t| (t + i) % 2 == 0)
            .map(|t| format!("topic-{t}"))
            .collect::<Vec<_>>()
            .into();
    }
    s
}

fn scenario(topics: usize, partitions: u32, members: usize) -> Scenario {
    let topics: Vec<Topic> = (0..topics)
        .map(|i| Topic {
            name: format!("topic-{i}"),
            partitions,
        })
        .collect();
    let names: Vec<&str> = topics.iter().map(|t| t.name.as_str()).collect();
    Scenario {
        members: (0..members)
            .map(|i| Member::new(&format!("c-{i:02}"), &names))
            .collect(),
        topics: topics.clone(),
        ..Default::default()
    }
}

#[wasm_bindgen_test]
async fn seven_partitions_three_members() {
    let root = mount("v1;a=r;t=orders*7;m=consumer-c***B,consumer-a***B,consumer-b***B").await;
    let got = owners(&root, "orders");
    let want: Vec<Option<String>> = [
        "consumer-a",
        "consumer-a",
        "consumer-a",
        "consumer-b",
        "consumer-b",
        "consumer-c",
        "consumer-c",
    ]
    .iter()
    .map(|s| Some(s.to_string()))
    .collect();
    assert_eq!(got, want);
    let total = root
        .query_selector("[data-member='consumer-a'][data-total]")
        .unwrap()
        .unwrap()
        .get_attribute("data-total");
    assert_eq!(total.as_deref(), Some("3"));
    root.remove();
}

/// Close to a million partitions (the most a link may carry) open without freezing the
/// page: the row draws its first cells and says who owns the rest; the explanation lists
/// ranges, not every partition. Prints how long opening the link takes.
#[wasm_bindgen_test]
async fn a_million_partitions_are_summarized() {
    let perf = web_sys::window().unwrap().performance().unwrap();
    let start = perf.now();
    let root =
        mount("v1;a=r;t=big*999000,small*5;m=consumer-c***D,consumer-a***D,consumer-b***D").await;
    console_log!(
        "BENCH open a link with 999,005 partitions: {:.0} ms",
        perf.now() - start
    );
    let big = owners(&root, "big");
    assert_eq!(big.len(), rebalance_lab::components::grid::CELLS_PER_TOPIC);
    assert!(big.iter().all(|o| o.as_deref() == Some("consumer-a")));
    assert_eq!(owners(&root, "small").len(), 5);
    let rest = root
        .query_selector(".rest[data-rest-topic='big']")
        .unwrap()
        .expect("the big row says who owns the rest")
        .text_content()
        .unwrap();
    assert!(
        rest.ends_with("consumer-b 333000–665999, consumer-c 666000–998999."),
        "{rest}"
    );
    assert!(root
        .query_selector(".rest[data-rest-topic='small']")
        .unwrap()
        .is_none());
    let row = root
        .query_selector("[data-explain-member='consumer-c']")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert!(row.ends_with("666000–998999"), "{row}");
    // consumer-a's assignment is 1.3 MB: its bytes view paints the first 16 KiB and says so.
    let start = perf.now();
    click(&root, "[data-show-bytes='consumer-a']");
    yew::scheduler::flush().await;
    console_log!(
        "BENCH open the bytes of a member with 333,002 partitions (1.3 MB): {:.0} ms",
        perf.now() - start
    );
    let bytes = root
        .query_selector_all("[data-view='assignment'] .byte")
        .unwrap()
        .length() as usize;
    assert_eq!(bytes, rebalance_lab::components::bytes::BYTES_DRAWN);
    let cut = root
        .query_selector("[data-cut='assignment']")
        .unwrap()
        .expect("the assignment view says what it leaves out")
        .text_content()
        .unwrap();
    assert!(cut.contains("of 1332038 bytes"), "{cut}");
    root.remove();
}

/// A link over the 2 MiB Chromium keeps of an address is said beside it: the browser never
/// stores it (a reload opens the link before it) and no browser opens its copy. A link under
/// it says nothing.
#[wasm_bindgen_test]
async fn a_link_over_2_mb_is_said() {
    let root = mount_scenario(scenario(1, 1, 3)).await;
    assert!(root.query_selector("#link-too-long").unwrap().is_none());
    root.remove();
    // 10,000 members whose ids are 230 characters: a link of about 2.3 MB
    let mut s = scenario(1, 1, 10_000);
    for (i, m) in s.members.iter_mut().enumerate() {
        m.id = format!("{i:05}-{}", "x".repeat(224));
    }
    let root = mount_scenario(s).await;
    let link: web_sys::HtmlInputElement = find(&root, "#link");
    assert!(link.value().len() > 2 << 20, "{}", link.value().len());
    let said = find::<web_sys::Element>(&root, "#link-too-long")
        .text_content()
        .unwrap();
    assert!(said.contains("over the 2 MB"), "{said}");
    root.remove();
}

/// A large group draws its first 50 members in each per-member list until asked for all;
/// the grid still shows every partition's owner.
#[wasm_bindgen_test]
async fn large_groups_show_50_members_until_asked() {
    let perf = web_sys::window().unwrap().performance().unwrap();
    let start = perf.now();
    let root = mount_scenario(scenario(10, 100, 10_000)).await;
    console_log!(
        "BENCH open a link with 10,000 members and 10 topics: {:.0} ms",
        perf.now() - start
    );
    assert_eq!(root.query_selector_all(".member-row").unwrap().length(), 50);
    root.remove();
    let root = mount_scenario(scenario(2, 500, 450)).await;
    let count = |sel: &str| root.query_selector_all(sel).unwrap().length();
    assert_eq!(count(".member-row"), 50);
    assert_eq!(count("[data-member][data-total]"), 50);
    assert_eq!(count("#compare [data-compare-member]"), 50);
    assert_eq!(count("#compare-broker [data-compare-member]"), 50);
    assert_eq!(count("[data-vote-member]"), 50);
    assert_eq!(count("[data-count-member]"), 50);
    // the round's JoinGroup step: a line per member shown, the rest counted, the summary
    click(&root, ".round > button:last-of-type");
    yew::scheduler::flush().await;
    assert_eq!(count(".round-lines li"), 52);
    let lines: web_sys::Element = find(&root, ".round-lines");
    assert!(lines
        .text_content()
        .unwrap()
        .contains("… 400 more (show all members above)"));
    assert_eq!(owners(&root, "topic-1").len(), 500);
    click(&root, "[data-show-all='totals']");
    yew::scheduler::flush().await;
    assert_eq!(count("[data-member][data-total]"), 450);
    assert_eq!(count(".member-row"), 50, "each list has its own toggle");
    click(&root, "[data-show-all='editor']");
    click(&root, "[data-show-all='compare']");
    yew::scheduler::flush().await;
    assert_eq!(count(".member-row"), 450);
    assert_eq!(count("#compare [data-compare-member]"), 450);
    assert_eq!(count("#compare-broker [data-compare-member]"), 450);
    // Range pinned, round-robin now: most members gain or lose, and what moved lists 50
    // of them until asked.
    click(&root, "#pin");
    yew::scheduler::flush().await;
    choose(&root, "#assignor", "roundrobin");
    yew::scheduler::flush().await;
    assert_eq!(count(".moved-members li"), 50);
    click(&root, "[data-show-all='moved']");
    yew::scheduler::flush().await;
    assert!(count(".moved-members li") > 50);
    root.remove();
}

#[wasm_bindgen_test]
async fn clicking_add_member_and_switching_assignor() {
    let root = mount("v1;a=r;t=t0*3,t1*3;m=C0***D,C1***D").await;
    click(&root, "#add-member");
    yew::scheduler::flush().await;
    // The newcomer has the id a real Java consumer gets: consumer-<group>-<n>-<uuid>.
    let o = owners(&root, "t0");
    assert_eq!(o[..2], [Some("C0".into()), Some("C1".into())]);
    let new = o[2].clone().unwrap_or_default();
    assert!(new.starts_with("consumer-my-group-1-"), "{new}");
    // The URL is written in a task after the repaint (the id's client.id, in the link).
    until("the link to follow the edit", || {
        web_sys::window()
            .unwrap()
            .location()
            .hash()
            .unwrap()
            .contains("consumer-my-group-1~")
    })
    .await;
    root.remove();
}

async fn time_edits(s: Scenario, label: &str) -> f64 {
    let root = mount_scenario(s).await;
    let perf = web_sys::window().unwrap().performance().unwrap();
    let mut times = Vec::new();
    for _ in 0..9 {
        let t0 = perf.now();
        click(&root, "#add-member");
        yew::scheduler::flush().await;
        times.push(perf.now() - t0);
        drain().await;
    }
    times.sort_by(|a, b| a.total_cmp(b));
    console_log!("BENCH {label}: median {:.1} ms", times[times.len() / 2]);
    root.remove();
    times[times.len() / 2]
}

/// Lets the tasks an edit leaves behind (the URL and storage write) run; not timed.
async fn drain() {
    gloo_timers::future::TimeoutFuture::new(10).await;
}

/// Polls `f` until it holds, for at most two seconds.
async fn until(what: &str, f: impl Fn() -> bool) {
    for _ in 0..200 {
        if f() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    panic!("timed out waiting for {what}");
}

#[wasm_bindgen_test]
async fn bench_parts() {
    time_edits(scenario(20, 100, 2), "2000 cells, 2 members").await;
    time_edits(scenario(20, 2, 50), "40 cells, 50 members").await;
}

/// The repaint benchmark (issue: an edit at teaching scale repaints within one frame).
/// Not a timed assertion: it prints the figure.
#[wasm_bindgen_test]
async fn bench_repaint_at_teaching_scale() {
    // 20 topics × 100 partitions = 2,000 cells, 51 members, every list showing all of them
    // (past 50 a list shows its first 50 until asked), so each added member's rows are drawn.
    let s = scenario(20, 100, 51);
    let root = mount_scenario(s).await;
    assert_eq!(root.query_selector_all(".cell").unwrap().length(), 2000);
    click(&root, "[data-show-all='editor']");
    yew::scheduler::flush().await;
    click(&root, "[data-show-all='group']");
    yew::scheduler::flush().await;
    let perf = web_sys::window().unwrap().performance().unwrap();
    let mut times = Vec::new();
    for _ in 0..15 {
        let t0 = perf.now();
        click(&root, "#add-member");
        yew::scheduler::flush().await;
        times.push(perf.now() - t0);
        drain().await;
    }
    // every added member's rows are drawn (the lists show all: see above)
    let removes = root.query_selector_all(".remove-member").unwrap().length();
    assert_eq!(removes, 66);
    assert_eq!(
        root.query_selector_all("[data-vote-member]")
            .unwrap()
            .length(),
        66
    );
    times.sort_by(|a, b| a.total_cmp(b));
    console_log!(
        "BENCH repaint after adding a member, 2000 cells: median {:.1} ms, max {:.1} ms over {} edits",
        times[times.len() / 2],
        times[times.len() - 1],
        times.len()
    );
    root.remove();
}

/// Decoding and repainting a 4 KiB subscription as one types (issue: within one frame).
/// Prints the figure.
#[wasm_bindgen_test]
async fn bench_typing_in_a_4k_subscription() {
    use rebalance_lab_core::protocol::{encode_subscription, hex, Subscription, TopicPartitions};
    let topics: Vec<String> = (0..64).map(|i| format!("orders.region-{i:02}")).collect();
    let sub = Subscription {
        owned_partitions: topics
            .iter()
            .take(20)
            .map(|t| TopicPartitions {
                topic: t.clone(),
                partitions: (0..30).collect(),
            })
            .collect(),
        topics,
        generation_id: 5,
        rack_id: Some("eu-west-1a".into()),
        user_data: Some(vec![0; 16]),
    };
    let bytes = encode_subscription(&sub, 3).unwrap().bytes;
    assert!(bytes.len() >= 4000 && bytes.len() < 4600, "{}", bytes.len());
    let mut s = scenario(2, 10, 3);
    s.members[0].subscription = Some(bytes.clone());
    let root = mount_scenario(s).await;
    click(&root, ".show-bytes");
    yew::scheduler::flush().await;
    let area: web_sys::HtmlTextAreaElement = find(&root, "#subscription-hex");
    let full = hex::to_hex(&bytes);
    let perf = web_sys::window().unwrap().performance().unwrap();
    let mut times = Vec::new();
    // Type the last bytes one digit at a time: incomplete, then whole again.
    for cut in (full.len() - 16..=full.len())
        .rev()
        .step_by(1)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        area.set_value(&full[..cut]);
        let t0 = perf.now();
        area.dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
        yew::scheduler::flush().await;
        times.push(perf.now() - t0);
        drain().await;
    }
    let fields = root
        .query_selector_all("[data-view='subscription'] [data-field]")
        .unwrap()
        .length();
    assert!(fields > 600, "{fields}");
    times.sort_by(|a, b| a.total_cmp(b));
    console_log!(
        "BENCH typing in a {} byte subscription ({} fields): median {:.1} ms, max {:.1} ms over {} keystrokes",
        bytes.len(),
        fields,
        times[times.len() / 2],
        times[times.len() - 1],
        times.len()
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn replica_racks_make_range_rack_aware() {
    // RangeAssignorTest-style: two members on racks a and b, partitions with one replica each.
    let root = mount("v1;a=r;t=t*4;m=c1**~a*B,c2**~b*B").await;
    assert_eq!(
        owners(&root, "t"),
        vec![
            Some("c1".into()),
            Some("c1".into()),
            Some("c2".into()),
            Some("c2".into())
        ]
    );
    let input: web_sys::HtmlInputElement = find(&root, "#topic-0-racks");
    input.set_value("b;b;a;a");
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    // Each member now takes the partitions whose replica is on its rack.
    assert_eq!(
        owners(&root, "t"),
        vec![
            Some("c2".into()),
            Some("c2".into()),
            Some("c1".into()),
            Some("c1".into())
        ]
    );
    root.remove();
}

/// The time of one run of `f` in milliseconds, as the native benchmark times it
/// ([`rebalance_lab_core::assignor::median_run_ms`], on the page's clock).
fn median_ms(perf: &web_sys::Performance, f: impl FnMut()) -> f64 {
    rebalance_lab_core::assignor::median_run_ms(|| perf.now(), f)
}

/// The page's speed cases ([`rebalance_lab_core::assignor::speed_cases`]: every assignor on
/// Kafka's benchmark group, fresh and after one member leaves) timed in WebAssembly as the
/// native benchmark times them; the test command prints the two side by side. Not a timed
/// assertion: it prints SPEED lines.
#[wasm_bindgen_test]
fn bench_speed_cases_in_wasm() {
    use rebalance_lab_core::assignor::{speed_cases, try_assign};
    let perf = web_sys::window().unwrap().performance().unwrap();
    for (kind, label, input) in speed_cases().unwrap() {
        let ms = median_ms(&perf, || {
            assert!(!try_assign(kind, &input).unwrap().totals.is_empty());
        });
        console_log!("SPEED wasm {} {label}: median {ms:.3} ms", kind.name());
    }
}

/// The timeline's speed cases ([`rebalance_lab_core::timeline::speed_cases`]: a rolling
/// restart of 100 members over 10,000 partitions under each protocol) timed in WebAssembly as
/// the native benchmark times them. Not a timed assertion: it prints SPEED lines.
#[wasm_bindgen_test]
fn bench_timeline_in_wasm() {
    use rebalance_lab_core::timeline::{simulate, speed_cases};
    let perf = web_sys::window().unwrap().performance().unwrap();
    for (name, size, group, settings, story) in speed_cases() {
        let ms = median_ms(&perf, || {
            assert!(simulate(&group, &settings, &story).is_ok());
        });
        console_log!("SPEED wasm {name} {size}: median {ms:.3} ms");
    }
}

/// Each client assignor's compute time in WebAssembly (this build), warm, fresh and after one
/// member leaves, on the page's own scenarios (every member its own topic list) and at the
/// page's bound for the sticky assignors. Not a timed assertion: it prints BENCH lines.
#[wasm_bindgen_test]
fn bench_assignors_in_wasm() {
    use rebalance_lab_core::assignor::{one_leaves, try_assign, AssignorKind};
    let perf = web_sys::window().unwrap().performance().unwrap();
    for (members, topics, partitions, half) in [
        (1_000usize, 50usize, 200u32, false),
        (1_000, 50, 200, true),
        (100, 10, 100, false),
        // the page's bound for the general algorithm (5,000,000 member-partition pairs)
        (100, 100, 1_000, true),
    ] {
        let mut s = scenario(topics, partitions, members);
        if half {
            // Each member subscribes to every other topic (the general algorithm).
            for (i, m) in s.members.iter_mut().enumerate() {
                m.topics = (0..topics)
                    .filter(|t| (t + i) % 2 == 0)
                    .map(|t| format!("topic-{t}"))
                    .collect::<Vec<_>>()
                    .into();
            }
        }
        let input = s.group_input();
        for kind in AssignorKind::CLIENT {
            let leaves = one_leaves(&input, kind).unwrap();
            for (label, input) in [("fresh", &input), ("one-leaves", &leaves)] {
                let ms = median_ms(&perf, || {
                    assert!(!try_assign(kind, input).unwrap().totals.is_empty());
                });
                console_log!(
                    "BENCH wasm {} {label}, {members} members x {} partitions{}: median {:.3} ms",
                    kind.name(),
                    topics as u32 * partitions,
                    if half {
                        ", each subscribed to half the topics"
                    } else {
                        ""
                    },
                    ms
                );
            }
        }
    }
}

/// Above the page's bound for the sticky assignors (it runs them on its main thread), the
/// page says so and what runs any size, instead of freezing.
#[wasm_bindgen_test]
async fn sticky_above_the_bound_is_refused_plainly() {
    let mut s = scenario(50, 200, 1_001);
    s.assignor = rebalance_lab_core::assignor::AssignorKind::CooperativeSticky;
    let root = mount_scenario(s).await;
    let msg = root
        .query_selector("#assignor-error")
        .unwrap()
        .expect("the refusal")
        .text_content()
        .unwrap();
    assert!(
        msg.contains(
            "runs the cooperative-sticky assignor on up to 10000000 member-partition pairs"
        ) && msg.contains("this group has 10010000")
            && msg.contains("rebalance-lab assign FILE --assignor cooperative-sticky"),
        "{msg}"
    );
    root.remove();
}

/// Forces style and layout, so that a timing includes what the browser does with the DOM
/// before it can paint (the same for the app and for the floor).
fn settle(root: &web_sys::Element) {
    let _ = root.scroll_height();
}

/// Waits until the grid's rows painted after the repaint are all on the page (each is
/// `aria-busy` until then; `app::components::grid::CELLS_AT_ONCE`), at the next task each
/// time, then settles: a timing then covers the whole grid, not its first rows.
async fn painted(root: &web_sys::Element) {
    settle(root);
    let perf = web_sys::window().unwrap().performance().unwrap();
    let t0 = perf.now();
    while root
        .query_selector(".grid-row[aria-busy='true']")
        .unwrap()
        .is_some()
    {
        assert!(
            perf.now() - t0 < 20_000.0,
            "a grid row was still busy after 20 s"
        );
        gloo_timers::future::TimeoutFuture::new(0).await;
    }
    settle(root);
}

/// The floor: 10,000 cells written as plain markup, the grid's own cell markup (class with
/// colour and pattern, role, accessible name, topic, partition, owner), laid out.
fn plain_cells(perf: &web_sys::Performance) -> f64 {
    let mut html = String::with_capacity(10_000 * 80);
    for t in 0..50 {
        // (a row as the grid writes one: with the page's stylesheets, the same rules apply)
        html.push_str(&format!(
            "<div class=\"grid-row\"><div class=\"topic-head\">topic-{t}</div><div class=\"cells\">"
        ));
        for p in 0..200 {
            let m = (t * 200 + p) % 1000;
            html.push_str(&format!(
                "<span class=\"cell c{} p{}\" role=\"gridcell\" aria-label=\"topic-{t} partition {p}: c-{m:02}\" data-topic=\"topic-{t}\" data-partition=\"{p}\" data-owner=\"c-{m:02}\">{p}</span>",
                m % 8,
                m / 8 % 4
            ));
        }
        html.push_str("</div></div>");
    }
    let div = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&div).unwrap();
    let t0 = perf.now();
    div.set_inner_html(&html);
    settle(&div);
    let t = perf.now() - t0;
    div.remove();
    t
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Issue 16's figures at 1,000 members, everyone subscribed to 50 topics of 200 partitions
/// (10,000 cells), each beside its floor measured in the same run: opening the link against
/// (a 3-member link's start-up + 10,000 plain cells), switching the assignor and adding a
/// member against 10,000 plain cells. Prints BENCH lines with the ratios; asserts nothing
/// about time.
#[wasm_bindgen_test]
async fn bench_a_thousand_members_beside_the_floor() {
    // As the figures were first taken (this test page has no stylesheet: every cell an inline
    // span), then with the page's own stylesheets (the built app's cells, their patterns, and
    // the grid's rows out of view skipped: styles/grid.css), floor and app alike.
    thousand("").await;
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(concat!(
        include_str!("../styles/tokens.css"),
        include_str!("../styles/layout.css"),
        include_str!("../styles/grid.css"),
        include_str!("../styles/hex.css"),
    )));
    document().head().unwrap().append_child(&style).unwrap();
    thousand(", with the page's stylesheets").await;
    style.remove();
}

async fn thousand(styled: &str) {
    let perf = web_sys::window().unwrap().performance().unwrap();
    let mut floor = Vec::new();
    let mut small = Vec::new();
    for _ in 0..5 {
        floor.push(plain_cells(&perf));
        let t0 = perf.now();
        let root = mount("v1;a=r;t=orders*7;m=c0***B,c1***B,c2***B").await;
        settle(&root);
        small.push(perf.now() - t0);
        root.remove();
    }
    let (floor, small) = (median(floor), median(small));
    // Opened three times (the median): one opening moved by half from run to run.
    let mut open = Vec::new();
    let mut last: Option<web_sys::Element> = None;
    for _ in 0..3 {
        if let Some(r) = last.take() {
            r.remove();
            drain().await;
        }
        // the link is written before the clock starts: a person opens a link made already
        let link = to_fragment(&LinkState {
            scenario: scenario(50, 200, 1000),
            ..Default::default()
        });
        let t0 = perf.now();
        let root = mount(&link).await;
        painted(&root).await;
        open.push(perf.now() - t0);
        assert_eq!(root.query_selector_all(".cell").unwrap().length(), 10_000);
        last = Some(root);
    }
    let (first, open, root) = (open[0], median(open), last.unwrap());
    let mut switch = Vec::new();
    let mut add = Vec::new();
    for k in 0..3 {
        let t0 = perf.now();
        choose(
            &root,
            "#assignor",
            if k % 2 == 0 { "roundrobin" } else { "range" },
        );
        yew::scheduler::flush().await;
        painted(&root).await;
        switch.push(perf.now() - t0);
        drain().await;
        let t0 = perf.now();
        click(&root, "#add-member");
        yew::scheduler::flush().await;
        painted(&root).await;
        add.push(perf.now() - t0);
        drain().await;
    }
    let (switch, add) = (median(switch), median(add));
    console_log!(
        "BENCH floor: 10,000 plain cells written and laid out{styled}: median {floor:.1} ms"
    );
    console_log!("BENCH floor: a 3-member link opened{styled}: median {small:.1} ms");
    console_log!(
        "BENCH open 1,000 members x 10,000 partitions{styled}: median {open:.0} ms of 3 (the first {first:.0} ms), {:.1}x (3-member start-up + 10,000 plain cells; goal 3x)",
        open / (small + floor)
    );
    console_log!(
        "BENCH switch the assignor at 1,000 x 10,000{styled}: median {switch:.0} ms, {:.1}x 10,000 plain cells (goal 3x)",
        switch / floor
    );
    console_log!(
        "BENCH add a member at 1,000 x 10,000{styled}: median {add:.0} ms, {:.1}x 10,000 plain cells (goal 3x)",
        add / floor
    );
    root.remove();
}

/// Issue 16's figure at Kafka's largest benchmark size, 10,000 members x 500,000 partitions
/// (50 topics of 10,000, everyone subscribed): the longest main-thread task the browser
/// reports (the Long Tasks API: tasks of 50 ms or more) while the link opens, a member is
/// added and the assignor is switched, the link and storage writes after each included.
/// Prints the BENCH line; asserts that the browser reports long tasks at all and that the
/// page followed the edits.
#[wasm_bindgen_test]
async fn bench_the_longest_task_of_an_edit_at_500000_partitions() {
    let window = web_sys::window().unwrap();
    let supported = js_sys::Reflect::get(&window, &"PerformanceObserver".into())
        .and_then(|o| js_sys::Reflect::get(&o, &"supportedEntryTypes".into()))
        .map(|t| js_sys::Array::from(&t).includes(&"longtask".into(), 0))
        .unwrap_or(false);
    assert!(supported, "this browser does not report long tasks");
    let perf = window.performance().unwrap();
    // the link is made in a task of its own, before the observer starts
    let link = to_fragment(&LinkState {
        scenario: scenario(50, 10_000, 10_000),
        ..Default::default()
    });
    drain().await;
    observe_long_tasks(true);
    let t0 = perf.now();
    let root = mount(&link).await;
    settle(&root);
    let open = perf.now() - t0;
    computed(&root).await;
    let open_task = longest_task_since().await;
    click(&root, "#add-member");
    yew::scheduler::flush().await;
    settle(&root);
    computed(&root).await;
    let add_task = longest_task_since().await;
    choose(&root, "#assignor", "roundrobin");
    yew::scheduler::flush().await;
    settle(&root);
    computed(&root).await;
    let switch_task = longest_task_since().await;
    observe_long_tasks(false);
    let toggle: web_sys::Element = find(&root, "[data-show-all='editor']");
    assert!(
        toggle.text_content().unwrap().contains("10001"),
        "{:?}",
        toggle.text_content()
    );
    console_log!(
        "BENCH longest main-thread task at 10,000 members x 500,000 partitions: opening {open_task:.0} ms (opened in {open:.0} ms), adding a member {add_task:.0} ms, switching the assignor {switch_task:.0} ms (goal 200 ms; 0: none of 50 ms or more)"
    );
    root.remove();
}

/// The sticky assignors at the page's bound for the general algorithm (subscriptions differ:
/// 5,000,000 member-partition pairs): 100 members, each on half of 100 topics of 1,000. The
/// longest main-thread task while the link opens, the group is pinned, a member is added
/// (the what-if: every assignor before and after the change, cooperative-sticky's follow-up
/// round) and the assignor is switched; under cooperative-sticky (then sticky) and, for the
/// floor, under range (then round-robin), in the same run.
#[wasm_bindgen_test]
async fn bench_the_longest_task_of_an_edit_at_the_sticky_bound() {
    use rebalance_lab_core::assignor::AssignorKind;
    for (kind, then) in [
        (AssignorKind::Range, "roundrobin"),
        (AssignorKind::CooperativeSticky, "sticky"),
    ] {
        let mut s = on_half_the_topics(scenario(100, 1_000, 99));
        s.assignor = kind;
        let link = to_fragment(&LinkState {
            scenario: s,
            ..Default::default()
        });
        drain().await;
        observe_long_tasks(true);
        let root = mount(&link).await;
        settle(&root);
        computed(&root).await;
        let open_task = longest_task_since().await;
        click(&root, "#pin");
        yew::scheduler::flush().await;
        settle(&root);
        computed(&root).await;
        let pin_task = longest_task_since().await;
        click(&root, "#add-member");
        yew::scheduler::flush().await;
        settle(&root);
        computed(&root).await;
        let add_task = longest_task_since().await;
        choose(&root, "#assignor", then);
        yew::scheduler::flush().await;
        settle(&root);
        computed(&root).await;
        let switch_task = longest_task_since().await;
        observe_long_tasks(false);
        assert!(root.query_selector("#assignor-error").unwrap().is_none());
        console_log!(
            "BENCH longest main-thread task at the sticky bound (100 members on half of 100 topics x 1,000) under {}: opening {open_task:.0} ms, pinning {pin_task:.0} ms, adding a member {add_task:.0} ms, switching to {then} {switch_task:.0} ms (goal 200 ms; 0: none of 50 ms or more)",
            kind.name()
        );
        root.remove();
    }
}

/// Starts (or stops) the long-task observer that [`longest_task_since`] reads.
fn observe_long_tasks(on: bool) {
    js_sys::Function::new_no_args(if on {
        "window.__longest = 0; window.__longObserver = new PerformanceObserver(l => { \
         for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }); \
         window.__longObserver.observe({type: 'longtask'});"
    } else {
        "window.__longObserver.disconnect();"
    })
    .call0(&wasm_bindgen::JsValue::NULL)
    .unwrap();
}

/// Waits (up to 20 s) until the page has computed what a large group leaves for after the
/// repaint (the result panel is `aria-busy` until then).
async fn computed(root: &web_sys::Element) {
    for _ in 0..2_000 {
        if root.query_selector("[aria-busy='true']").unwrap().is_none() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    panic!("the page was still computing after 20 s");
}

/// The longest task the long-task observer (above) reported since the last call: polled
/// until one is (a task is reported after it ends), for at most a second (a step without a
/// task of 50 ms or more gives 0), then the tasks the step leaves behind (the URL write) are
/// let run and reported too.
async fn longest_task_since() -> f64 {
    let longest = || {
        js_sys::Reflect::get(&web_sys::window().unwrap(), &"__longest".into())
            .unwrap()
            .as_f64()
            .unwrap_or(0.0)
    };
    for _ in 0..100 {
        if longest() > 0.0 {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    drain().await;
    drain().await;
    let t = longest();
    js_sys::Reflect::set(&web_sys::window().unwrap(), &"__longest".into(), &0.into()).unwrap();
    t
}

/// More than ten topics: each member's subscription is one line until opened; opened, a
/// checkbox per topic that edits it as before; closed again, the line counts what it
/// subscribes to.
#[wasm_bindgen_test]
async fn many_topics_make_one_line_per_member_until_opened() {
    let root = mount_scenario(scenario(12, 2, 3)).await;
    let count = |sel: &str| root.query_selector_all(sel).unwrap().length();
    assert_eq!(count("input.subscribe"), 0);
    let line: web_sys::HtmlElement = find(&root, "[data-subs-open='c-01']");
    assert_eq!(line.text_content().unwrap(), "all 12 topics");
    assert_eq!(
        line.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    line.click();
    yew::scheduler::flush().await;
    assert_eq!(count("input.subscribe"), 12);
    let b: web_sys::HtmlInputElement = find(
        &root,
        "[data-subscribe-member='c-01'][data-subscribe-topic='topic-3']",
    );
    b.set_checked(false);
    b.dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    // c-01 no longer owns anything of topic-3 (two subscribers left: c-00 and c-02)
    let o = owners(&root, "topic-3");
    assert!(!o.contains(&Some("c-01".into())), "{o:?}");
    click(&root, "[data-subs-open='c-01']");
    yew::scheduler::flush().await;
    assert_eq!(count("input.subscribe"), 0);
    let line: web_sys::HtmlElement = find(&root, "[data-subs-open='c-01']");
    assert_eq!(line.text_content().unwrap(), "11 of 12 topics");
    // ten topics or fewer: the checkboxes as always
    root.remove();
    let root = mount_scenario(scenario(10, 2, 2)).await;
    assert_eq!(
        root.query_selector_all("input.subscribe").unwrap().length(),
        20
    );
    assert!(root.query_selector("[data-subs-open]").unwrap().is_none());
    root.remove();
}

/// A large group's what-if (members x partitions above a million) is computed after the
/// repaint, one assignment per task: right after the link opens the table says it is still
/// computing and the result panel is busy; once done, every line is the one the core computes
/// in one go, and so is the group panel's cooperative column.
#[wasm_bindgen_test]
async fn a_large_group_s_what_if_comes_after_the_repaint_and_is_the_same() {
    use rebalance_lab_core::assignor::AssignorKind;
    use rebalance_lab_core::scenario::whatif::{compare_assignors, PENDING};
    let pinned = on_half_the_topics(scenario(20, 1_000, 100));
    let mut now = pinned.clone();
    now.members.remove(7);
    now.members
        .push(Member::new("c-new", &["topic-1", "topic-2", "topic-3"]));
    let root = mount(&pinned_then(&pinned, &now)).await;
    let busy = root
        .query_selector(".result[aria-busy='true']")
        .unwrap()
        .is_some();
    let caption: web_sys::Element = find(&root, "#assignor-changes caption");
    let said = caption.text_content().unwrap_or_default();
    assert!(busy && said.contains("computing"), "{busy} {said}");
    // the lines still to come carry no figures yet
    let pending = root
        .query_selector_all("#assignor-changes tr[data-pending]")
        .unwrap()
        .length();
    assert!(pending > 0);
    assert!(
        root.query_selector("#assignor-changes tr[data-pending][data-moved]")
            .unwrap()
            .is_none(),
        "a line still computing shows no figures"
    );
    computed(&root).await;
    assert!(root
        .query_selector("#assignor-changes tr[data-pending]")
        .unwrap()
        .is_none());
    let caption: web_sys::Element = find(&root, "#assignor-changes caption");
    assert!(!caption.text_content().unwrap().contains("computing"));
    assert_lines_are(
        &root,
        &compare_assignors(&pinned, &[], &now, &AssignorKind::ALL),
    );
    // the group panel's cooperative column, computed last: what each member gives up, e.g.
    // "c-01: 20 (topic-1 0–19)"
    let stops: web_sys::Element = find(&root, ".protocols-side td:last-child");
    let stops = stops.text_content().unwrap_or_default();
    assert!(
        !stops.contains(PENDING) && stops.contains(" (topic-"),
        "{stops}"
    );
    root.remove();
}

/// Every line of the what-if's table on screen reads as `expected` computes it: the
/// assignor, the figures in the row's attributes, the cells' text, and none still computing.
fn assert_lines_are(
    root: &web_sys::Element,
    expected: &[rebalance_lab_core::scenario::whatif::AssignorChange],
) {
    use rebalance_lab_core::scenario::whatif::PENDING;
    let rows = root
        .query_selector_all("#assignor-changes tbody tr")
        .unwrap();
    assert_eq!(rows.length() as usize, expected.len());
    for (i, e) in expected.iter().enumerate() {
        let row: web_sys::Element = rows.item(i as u32).unwrap().dyn_into().unwrap();
        let attr = |n: &str| row.get_attribute(n).unwrap_or_default();
        assert_eq!(attr("data-assignor"), e.kind.name());
        assert_eq!(attr("data-moved"), e.moved.to_string(), "{}", e.kind.name());
        assert_eq!(
            attr("data-paused"),
            e.paused.to_string(),
            "{}",
            e.kind.name()
        );
        assert_eq!(attr("data-idle"), e.idle.to_string(), "{}", e.kind.name());
        let text = row.text_content().unwrap_or_default();
        assert!(e.error.is_none() && !text.contains(PENDING), "{text}");
        let cells = e.cells().unwrap();
        assert!(
            cells.iter().all(|c| text.contains(c.as_str())),
            "{text} {cells:?}"
        );
    }
}

/// The link of `pinned` pinned, then changed to `now`.
fn pinned_then(pinned: &Scenario, now: &Scenario) -> String {
    use rebalance_lab_core::scenario::whatif::Baseline;
    to_fragment(&LinkState {
        scenario: now.clone(),
        baseline: Some(Ok(Baseline::now(pinned, None))),
        pinned: Some((pinned.clone(), Vec::new())),
        ..Default::default()
    })
}

/// An edit while a large group's what-if is still computing: the lines on screen are then
/// the newer group's (nothing moves: the member that joined left again), every one computed,
/// none left pending by the older computation that the edit replaced.
#[wasm_bindgen_test]
async fn an_edit_while_the_what_if_computes_shows_the_newer_group_s_lines() {
    use rebalance_lab_core::assignor::AssignorKind;
    use rebalance_lab_core::scenario::whatif::compare_assignors;
    let pinned = on_half_the_topics(scenario(20, 1_000, 100));
    let mut now = pinned.clone();
    now.members
        .push(Member::new("c-new", &["topic-1", "topic-2", "topic-3"]));
    let root = mount(&pinned_then(&pinned, &now)).await;
    let caption: web_sys::Element = find(&root, "#assignor-changes caption");
    assert!(caption
        .text_content()
        .unwrap_or_default()
        .contains("computing"));
    // the member that joined leaves again (the last listed) before its lines are done:
    // nothing moves
    let count: web_sys::HtmlInputElement = find(&root, "#member-count");
    count.set_value("100");
    count
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    computed(&root).await;
    let expected = compare_assignors(&pinned, &[], &pinned, &AssignorKind::ALL);
    assert!(expected.iter().all(|e| e.moved == 0));
    assert_lines_are(&root, &expected);
    root.remove();
}

/// The panels' buttons and choices, each with its own handler: the glossary's "?", the
/// story's start, Forward, Back and Leave, the round's Forward and its bytes buttons, the
/// bytes panel's version and Close, the explanation's topic, Follow the vote, adding a topic
/// and a member, and a broken link's Dismiss.
#[wasm_bindgen_test]
async fn the_panels_buttons_do_what_they_say() {
    let root = mount("v1;a=r;t=t0*3,t1*3;m=C0***D,C1***D").await;
    let count = |sel: &str| root.query_selector_all(sel).unwrap().length();
    let attr = |sel: &str, a: &str| {
        find::<web_sys::Element>(&root, sel)
            .get_attribute(a)
            .unwrap_or_default()
    };
    click(&root, ".term-link[data-term='group']");
    assert!(document()
        .get_element_by_id("glossary")
        .unwrap()
        .has_attribute("open"));
    // the round: Forward to JoinGroup, then a member's bytes
    click(&root, "#round-forward");
    yew::scheduler::flush().await;
    assert_eq!(attr(".round", "data-round-step"), "JoinGroup");
    click(&root, "[data-round-bytes='C1']");
    yew::scheduler::flush().await;
    assert_eq!(attr("#bytes-panel", "data-bytes-member"), "C1");
    choose(&root, "#subscription-version", "1");
    yew::scheduler::flush().await;
    let version: web_sys::HtmlSelectElement = find(&root, "#subscription-version");
    assert_eq!(version.value(), "1");
    click(&root, "#bytes-close");
    yew::scheduler::flush().await;
    assert_eq!(count("#bytes-panel"), 0);
    choose(&root, "#explain select", "t1");
    yew::scheduler::flush().await;
    assert_eq!(attr("#explain", "data-explain-topic"), "t1");
    // the assignor chosen by hand over the vote, then the vote followed again
    choose(&root, "#assignor", "roundrobin");
    yew::scheduler::flush().await;
    assert_eq!(count("#follow-vote"), 1);
    click(&root, "#follow-vote");
    yew::scheduler::flush().await;
    assert_eq!(
        attr("[data-assignor-source]", "data-assignor-source"),
        "vote"
    );
    let members = count(".member-row");
    let topics = count(".topics > li");
    click(&root, "#add-topic");
    click(&root, "#add-member");
    yew::scheduler::flush().await;
    assert_eq!(
        (count(".topics > li"), count(".member-row")),
        (topics + 1, members + 1)
    );
    // the story last: leaving it keeps its group
    click(&root, "#story-start");
    yew::scheduler::flush().await;
    assert_eq!(attr("#story", "data-story-step"), "0");
    click(&root, "#story-forward");
    yew::scheduler::flush().await;
    click(&root, "#story-forward");
    yew::scheduler::flush().await;
    click(&root, "#story-back");
    yew::scheduler::flush().await;
    assert_eq!(attr("#story", "data-story-step"), "1");
    click(&root, "#story-exit");
    yew::scheduler::flush().await;
    assert_eq!(count("#story"), 0);
    assert_eq!(count("#story-start"), 1);
    root.remove();
    let root = mount("v1;zzz").await;
    assert_eq!(root.query_selector_all("#link-error").unwrap().length(), 1);
    let raw: web_sys::HtmlTextAreaElement = find(&root, "#link-error-raw");
    assert_eq!(raw.value(), "v1;zzz");
    click(&root, "#link-error-dismiss");
    yew::scheduler::flush().await;
    assert_eq!(root.query_selector_all("#link-error").unwrap().length(), 0);
    root.remove();
}

/// A grid of more cells than it draws at once (`CELLS_AT_ONCE`) paints its first rows with
/// the repaint and each later row in a task of its own after it: those rows are `aria-busy`
/// and empty until then, and then hold the assignment's owners, cell for cell. An edit made
/// before they are painted is what they show, not the group before it.
#[wasm_bindgen_test]
async fn a_large_grid_paints_its_later_rows_after_the_repaint() {
    use rebalance_lab::components::grid::CELLS_AT_ONCE;
    use rebalance_lab_core::assignor;
    let s = scenario(10, 1_000, 7);
    let root = first_paint(&to_fragment(&LinkState {
        scenario: s.clone(),
        ..Default::default()
    }))
    .await;
    let count = |sel: &str| root.query_selector_all(sel).unwrap().length() as usize;
    // rows of 1,000: the first CELLS_AT_ONCE cells at once, the rest later
    assert_eq!(count(".cell"), CELLS_AT_ONCE);
    assert_eq!(
        count(".grid-row[aria-busy='true']"),
        10 - CELLS_AT_ONCE / 1_000
    );
    assert_eq!(count(".grid-row[aria-busy='true'] .cell"), 0);
    // a member added before the later rows are painted
    click(&root, "#add-member");
    yew::scheduler::flush().await;
    painted(&root).await;
    assert_eq!(count(".cell"), 10_000);
    assert_eq!(count("[aria-busy='true']"), 0);
    // the group the page now holds, as its link says (written after the repaint)
    let hash = web_sys::window().unwrap().location().hash().unwrap();
    let now = rebalance_lab_core::scenario::link::from_fragment(hash.trim_start_matches('#'))
        .unwrap()
        .scenario;
    assert_eq!(now.members.len(), 8);
    let input = now.group_input();
    let expected = assignor::range(&input);
    assert_eq!(expected.topics.len(), 10);
    for t in &expected.topics {
        let want: Vec<Option<String>> = t
            .owners
            .iter()
            .map(|o| Some(input.members[*o as usize].id.clone()))
            .collect();
        assert_eq!(owners(&root, &t.topic), want, "{}", t.topic);
    }
    root.remove();
}

/// 10,000 cells as the grid writes them (class, role, accessible name, data attributes), each
/// a virtual node of a yew component.
#[derive(yew::Properties, PartialEq)]
struct NodeCellsProps {
    /// Added to every owner: a new shift repaints every cell, as a switch of assignor does.
    shift: usize,
}

#[yew::function_component]
fn NodeCells(p: &NodeCellsProps) -> yew::Html {
    use yew::html;
    html! {
        <div>{ for (0..50).map(|t| html! {
            <div class="grid-row">
                <div class="topic-head">{ format!("topic-{t}") }</div>
                <div class="cells">{ for (0..200).map(|q| {
                    let m = (t * 200 + q + p.shift) % 1000;
                    html! {
                        <span class={format!("cell c{} p{}", m % 8, m / 8 % 4)} role="gridcell"
                            aria-label={format!("topic-{t} partition {q}: c-{m:02}")} data-topic={format!("topic-{t}")}
                            data-partition={q.to_string()} data-owner={format!("c-{m:02}")}>{ q }</span>
                    }
                }) }</div>
            </div>
        }) }</div>
    }
}

/// Why the grid's cells, and nothing else on the page, are written as markup: 10,000 cells
/// as one virtual node each (a yew component, first drawn and then with every owner
/// changed) beside the same cells written as markup, with the page's stylesheets. Prints
/// BENCH lines (the figures are in the grid's doc comment); asserts nothing about time.
#[wasm_bindgen_test]
async fn bench_cells_as_virtual_nodes_beside_markup() {
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(concat!(
        include_str!("../styles/tokens.css"),
        include_str!("../styles/layout.css"),
        include_str!("../styles/grid.css"),
    )));
    document().head().unwrap().append_child(&style).unwrap();
    let perf = web_sys::window().unwrap().performance().unwrap();
    let (mut markup, mut first, mut repaint) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..5 {
        markup.push(plain_cells(&perf));
        let root = document().create_element("div").unwrap();
        document().body().unwrap().append_child(&root).unwrap();
        let t0 = perf.now();
        let mut app = yew::Renderer::<NodeCells>::with_root_and_props(
            root.clone(),
            NodeCellsProps { shift: 0 },
        )
        .render();
        yew::scheduler::flush().await;
        settle(&root);
        first.push(perf.now() - t0);
        assert_eq!(root.query_selector_all(".cell").unwrap().length(), 10_000);
        drain().await;
        let t0 = perf.now();
        app.update(NodeCellsProps { shift: 1 });
        yew::scheduler::flush().await;
        settle(&root);
        repaint.push(perf.now() - t0);
        app.destroy();
        root.remove();
        drain().await;
    }
    let (markup, first, repaint) = (median(markup), median(first), median(repaint));
    console_log!(
        "BENCH 10,000 cells as virtual nodes, with the page's stylesheets: first drawn {first:.0} ms, every owner changed {repaint:.0} ms; as markup {markup:.1} ms ({:.1}x and {:.1}x)",
        first / markup,
        repaint / markup
    );
    style.remove();
}
