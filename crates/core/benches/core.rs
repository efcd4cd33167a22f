//! Benchmarks of the core (run with `cargo bench --bench core`): decoding, hex reading and
//! the assignors at Kafka's benchmark scale. Prints the median of repeated runs.

use rebalance_lab_core::assignor::{benchmark_input, range, round_robin};
use rebalance_lab_core::protocol::{
    decode_subscription, encode_subscription, hex, Subscription, TopicPartitions,
};
use std::hint::black_box;
use std::time::Instant;

fn median_us(runs: usize, mut f: impl FnMut()) -> f64 {
    f(); // warm up
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    t.sort_by(|a, b| a.total_cmp(b));
    t[t.len() / 2]
}

fn big_subscription() -> Vec<u8> {
    // ~64 KiB: 40 topics, and 15,000 owned partitions over them.
    let topics: Vec<String> = (0..40)
        .map(|i| format!("orders.region-{i:02}.v1"))
        .collect();
    let owned = topics
        .iter()
        .map(|t| TopicPartitions {
            topic: t.clone(),
            partitions: (0..390).collect(),
        })
        .collect();
    let sub = Subscription {
        topics,
        user_data: Some(vec![7; 512]),
        owned_partitions: owned,
        generation_id: 42,
        rack_id: Some("eu-west-1a".into()),
    };
    encode_subscription(&sub, 3).unwrap().bytes
}

fn main() {
    // as the command-line tool runs: the allocator keeps freed memory (crates/cli,
    // keep_freed_memory)
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets allocator parameters only; it has no memory-safety preconditions.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let want = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));

    let bytes = big_subscription();
    if want("decode") {
        let us = median_us(200, || {
            let d = decode_subscription(black_box(&bytes));
            assert!(d.error.is_none());
            black_box(d);
        });
        println!(
            "decode subscription: {} bytes, 15,600 owned partitions: median {us:.1} µs",
            bytes.len()
        );
    }
    if want("hex") {
        // xxd-style dump of 128 KiB of text.
        let mut dump = String::new();
        let mut i = 0;
        while dump.len() < 128 * 1024 {
            let line = &bytes[i % (bytes.len() - 16)..][..16];
            dump.push_str(&format!("{:08x}: ", i));
            for pair in line.chunks(2) {
                dump.push_str(&hex::to_hex(pair));
                dump.push(' ');
            }
            dump.push(' ');
            dump.extend(line.iter().map(|b| {
                if b.is_ascii_graphic() {
                    *b as char
                } else {
                    '.'
                }
            }));
            dump.push('\n');
            i += 16;
        }
        let us = median_us(200, || {
            black_box(hex::parse_hex(black_box(&dump)).unwrap());
        });
        println!(
            "read hex dump: {} bytes of xxd text: median {us:.1} µs",
            dump.len()
        );
        let plain = hex::to_hex(&bytes);
        let us = median_us(200, || {
            black_box(hex::parse_hex(black_box(&plain)).unwrap());
        });
        println!(
            "read plain hex: {} characters: median {us:.1} µs",
            plain.len()
        );
    }
    if want("explain") {
        // 10,000 members whose ids are in numeric order as well as string order (zero-padded,
        // as UUID-suffixed ids mostly are too): nothing to report, and the numeric-order
        // check must still not compare every pair (1.5 s before stop 34).
        let mut input = benchmark_input(10_000, 50, 10_000);
        for (i, m) in input.members.iter_mut().enumerate() {
            m.id = format!("consumer-{i:05}");
        }
        for (name, run) in [
            ("range", range as fn(&_) -> _),
            ("round-robin", round_robin),
        ] {
            let a = run(&input);
            let us = median_us(11, || {
                black_box(rebalance_lab_core::assignor::explain::explain_topic(
                    black_box(&input),
                    &a,
                    &a.topics[0],
                ));
            });
            println!(
                "explain one topic under {name}, 10,000 members × 50 topics × 10,000 partitions: median {:.2} ms",
                us / 1000.0
            );
        }
    }
    if want("link") {
        // Opening Kafka's largest benchmark group from its link: 10,000 members, each
        // subscribed to 50 topics of 10,000 partitions (the page reads it on opening).
        use rebalance_lab_core::scenario::link::{from_fragment, to_fragment, LinkState};
        let names: Vec<String> = (0..50).map(|i| format!("topic-{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let s = rebalance_lab_core::scenario::Scenario {
            topics: names
                .iter()
                .map(|n| rebalance_lab_core::scenario::Topic {
                    name: n.clone(),
                    partitions: 10_000,
                })
                .collect(),
            members: (0..10_000)
                .map(|i| rebalance_lab_core::scenario::Member::new(&format!("c-{i:05}"), &refs))
                .collect(),
            ..Default::default()
        };
        let f = to_fragment(&LinkState {
            scenario: s,
            ..Default::default()
        });
        let us = median_us(21, || {
            black_box(from_fragment(black_box(&f)).unwrap());
        });
        println!(
            "read the link of 10,000 members x 500,000 partitions ({} bytes): median {:.2} ms",
            f.len(),
            us / 1000.0
        );
    }
    if want("vote") {
        // The group panel's vote at 10,000 members, each listing the Java client's default
        // (range, cooperative-sticky): every render of the panel at that size runs it.
        let names = ["orders"];
        let s = rebalance_lab_core::scenario::Scenario {
            members: (0..10_000)
                .map(|i| rebalance_lab_core::scenario::Member::new(&format!("c-{i:05}"), &names))
                .collect(),
            ..Default::default()
        };
        let us = median_us(21, || {
            black_box(black_box(&s).vote());
        });
        println!(
            "the classic group's vote, 10,000 members: median {:.2} ms",
            us / 1000.0
        );
        // and who leads after those 10,000 joins (the panel's round reads it)
        let joins: Vec<rebalance_lab_core::group::GroupEvent> = s
            .members
            .iter()
            .map(|m| rebalance_lab_core::group::GroupEvent::Join(m.id.clone()))
            .collect();
        let us = median_us(21, || {
            black_box(rebalance_lab_core::group::run_events_briefly(black_box(
                &joins,
            )));
        });
        println!(
            "the group's leader after 10,000 joins: median {:.2} ms",
            us / 1000.0
        );
    }
    if want("speed") {
        // The page's speed cases natively, timed as the page times them (tests/web.rs,
        // bench_speed_cases_in_wasm).
        use rebalance_lab_core::assignor::{median_run_ms, speed_cases, try_assign};
        let start = Instant::now();
        let now = || start.elapsed().as_secs_f64() * 1e3;
        for (kind, label, input) in speed_cases().unwrap() {
            let ms = median_run_ms(now, || {
                let a = try_assign(kind, black_box(&input));
                assert!(!black_box(a).unwrap().totals.is_empty());
            });
            println!("SPEED native {} {label}: median {ms:.3} ms", kind.name());
        }
    }
    if want("speed") {
        // The timeline's speed cases, as the page times them (tests/web.rs).
        use rebalance_lab_core::assignor::median_run_ms;
        use rebalance_lab_core::timeline::{simulate, speed_cases};
        let start = Instant::now();
        let now = || start.elapsed().as_secs_f64() * 1e3;
        for (name, size, group, settings, story) in speed_cases() {
            let ms = median_run_ms(now, || {
                let run = simulate(black_box(&group), &settings, &story).unwrap();
                assert!(black_box(run).costs.rebalances > 0 || settings.client.static_membership);
            });
            println!("SPEED native {name} {size}: median {ms:.3} ms");
        }
    }
    if want("timeline-large") {
        // A rolling restart of 1,000 members over 100,000 partitions, once per protocol,
        // beside what the assignments alone take: the run computes one per rebalance round
        // (classic) or group epoch (consumer), each over all 100,000 partitions, as Kafka
        // does; timed here on the benchmark's group with one member gone.
        use rebalance_lab_core::assignor::{one_leaves, try_assign, AssignorKind};
        use rebalance_lab_core::timeline::{benchmark_group, simulate, Protocol, Settings, Story};
        let group = benchmark_group(1_000, 100_000);
        let input = benchmark_input(1_000, 1, 100_000);
        for (protocol, kind) in [
            (Protocol::Eager, AssignorKind::Range),
            (Protocol::Cooperative, AssignorKind::CooperativeSticky),
            (Protocol::Consumer, AssignorKind::Uniform),
        ] {
            let settings = Settings {
                protocol,
                keep_tenures: false,
                max_events: u64::MAX,
                ..Settings::default()
            };
            let t = Instant::now();
            let run = simulate(&group, &settings, &Story::default()).unwrap();
            assert!(
                run.notes.iter().all(|n| !n.contains("stopped after")),
                "the whole story"
            );
            let took = t.elapsed().as_secs_f64();
            let left = one_leaves(&input, kind).unwrap();
            let one_ms = median_us(11, || {
                black_box(try_assign(kind, black_box(&left)).unwrap());
            }) / 1e3;
            let assignments = run.work.assignments;
            println!(
                "BENCH timeline rolling restart, 1,000 members x 100,000 partitions, {}: {took:.2} s ({} rebalances; {} events, a partition given to a new consumer {} times: {:.0} ns per event; {assignments} assignments, {}'s alone {one_ms:.2} ms each: {:.2} s)",
                protocol.name(),
                run.costs.rebalances,
                run.work.events,
                run.work.partition_starts,
                took * 1e9 / run.work.events as f64,
                kind.name(),
                assignments as f64 * one_ms / 1e3,
            );
        }
    }
    if want("range") || want("roundrobin") {
        let input = benchmark_input(1000, 50, 200);
        if want("range") {
            let us = median_us(101, || {
                black_box(range(black_box(&input)));
            });
            println!("range, 1,000 members × 50 topics × 200 partitions: median {us:.1} µs");
        }
        if want("roundrobin") {
            let us = median_us(101, || {
                black_box(round_robin(black_box(&input)));
            });
            println!("roundrobin, 1,000 members × 50 topics × 200 partitions: median {us:.1} µs");
        }
        // As the page's input: every member holds its own copy of the same list (the names
        // are read and compared, not shared).
        let mut copied = input.clone();
        #[cfg_attr(target_arch = "wasm32", allow(clippy::useless_conversion))]
        for m in &mut copied.members {
            m.topics = m.topics.to_vec().into();
        }
        for (name, run) in [
            ("range", range as fn(&_) -> _),
            ("roundrobin", round_robin as fn(&_) -> _),
        ] {
            if want(name) {
                let us = median_us(101, || {
                    black_box(run(black_box(&copied)));
                });
                println!("{name}, 1,000 members × 50 topics × 200 partitions, each member its own copy of the list (the page's input): median {us:.1} µs");
            }
        }
        let input = benchmark_input(10_000, 1000, 500);
        if want("range") {
            let us = median_us(11, || {
                black_box(range(black_box(&input)));
            });
            println!(
                "range, 10,000 members × 1,000 topics × 500 partitions (500,000): median {:.2} ms",
                us / 1000.0
            );
        }
        if want("roundrobin") {
            let us = median_us(11, || {
                black_box(round_robin(black_box(&input)));
            });
            println!("roundrobin, 10,000 members × 1,000 topics × 500 partitions (500,000): median {:.2} ms", us / 1000.0);
        }
    }
    if want("sticky") {
        use rebalance_lab_core::assignor::{one_leaves, try_assign, AssignorKind};
        for kind in [AssignorKind::Sticky, AssignorKind::CooperativeSticky] {
            let fresh = benchmark_input(1000, 50, 200);
            let left = one_leaves(&fresh, kind).unwrap();
            for (what, input) in [("fresh", &fresh), ("one member left", &left)] {
                let us = median_us(51, || {
                    black_box(try_assign(kind, black_box(input)).unwrap());
                });
                println!(
                    "{}, 1,000 members × 50 topics × 200 partitions, {what}: median {us:.1} µs",
                    kind.name()
                );
            }
            // Java's general algorithm (subscriptions differ) at the page's bound: 100 members,
            // each on half of 100 topics of 1,000 (5,000,000 member-partition pairs). One full
            // isBalanced walk per move made it 4.6 s fresh; Java takes minutes.
            let fresh = rebalance_lab_core::assignor::server_benchmark_input(100, 100, 1000, true);
            let left = one_leaves(&fresh, kind).unwrap();
            for (what, input) in [("fresh", &fresh), ("one member left", &left)] {
                let us = median_us(5, || {
                    black_box(try_assign(kind, black_box(input)).unwrap());
                });
                println!(
                    "{}, 100 members × half of 100 topics × 1,000 partitions, {what}: median {:.1} ms",
                    kind.name(),
                    us / 1000.0
                );
            }
            let big = one_leaves(&benchmark_input(10_000, 50, 10_000), kind).unwrap();
            let us = median_us(5, || {
                black_box(try_assign(kind, black_box(&big)).unwrap());
            });
            println!(
                "{}, 10,000 members × 50 topics × 10,000 partitions (500,000), one member left: median {:.1} ms",
                kind.name(),
                us / 1000.0
            );
        }
    }
    if want("uniform") || want("server-range") {
        use rebalance_lab_core::assignor::{
            one_leaves_target, server_benchmark_input, server_range, uniform,
        };
        // Kafka's ServerSideAssignorBenchmark (same machine, warm): uniform 1.3 / 0.5 ms
        // homogeneous, 11 / 10 ms heterogeneous; server-range 3.6 / 1.6 and 6.8 / 5.0 ms.
        for heterogeneous in [false, true] {
            let fresh = server_benchmark_input(1000, 50, 200, heterogeneous);
            let shape = if heterogeneous {
                "heterogeneous (each member half the topics)"
            } else {
                "homogeneous"
            };
            for (name, run) in [
                ("uniform", (|i| uniform(i).unwrap()) as fn(&_) -> _),
                ("server-range", server_range as fn(&_) -> _),
            ] {
                if !want(name) {
                    continue;
                }
                let next = one_leaves_target(&fresh, &run(&fresh));
                for (label, input) in [("fresh", &fresh), ("one member gone", &next)] {
                    let us = median_us(101, || {
                        black_box(run(black_box(input)));
                    });
                    println!("{name}, {shape}, {label}, 1,000 members × 50 topics × 200 partitions: median {us:.1} µs");
                }
            }
        }
    }
    if want("diff") {
        // What-if at scale: range pinned, round-robin now (most partitions change owner).
        use rebalance_lab_core::scenario::whatif::{diff, Baseline};
        let input = benchmark_input(1000, 50, 200);
        let baseline = Baseline::pin(&input, &range(&input));
        let now = round_robin(&input);
        let us = median_us(51, || {
            black_box(diff(black_box(&baseline), &input, &now));
        });
        println!("what-if diff, 1,000 members × 10,000 partitions, range then round-robin: median {us:.1} µs");
    }
}
