//! The timeline's invariants and the numbers Kafka's rules fix (KAFKA-SEMANTICS.md, "Rebalance
//! timing as the code decides it"); the coordinator's decisions themselves are checked
//! against Kafka's in timeline_oracle.rs.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rebalance_lab_core::timeline::broker_trace::Line;
use rebalance_lab_core::timeline::story::STORY_START_MS;
use rebalance_lab_core::timeline::{
    classic, simulate, CommitPolicy, Group, Protocol, Run, Settings, Story, StoryKind,
};

fn group(members: usize, topics: &[u32]) -> Group {
    let names: Vec<String> = (0..topics.len()).map(|i| format!("t{i}")).collect();
    Group {
        topics: names.iter().cloned().zip(topics.iter().copied()).collect(),
        members: (0..members)
            .map(|i| (format!("m{i}"), names.clone()))
            .collect(),
        ..Group::default()
    }
}

/// Every partition has at most one consumer at any instant, and every partition is consumed
/// when the run ends.
fn one_consumer_at_a_time(run: &Run) -> Result<(), String> {
    if run.overlaps > 0 {
        return Err(format!(
            "{} times a partition had two consumers",
            run.overlaps
        ));
    }
    for (p, list) in run.tenures.iter().enumerate() {
        for w in list.windows(2) {
            if w[1].start_ms < w[0].end_ms {
                return Err(format!("partition {p}: {:?} overlaps {:?}", w[0], w[1]));
            }
        }
        if list.last().is_none_or(|t| t.end_ms != run.end_ms) {
            return Err(format!(
                "partition {p} is not consumed when the run ends: {list:?}"
            ));
        }
    }
    Ok(())
}

/// A group and a story's numbers: (members, each topic's partitions, downtime, gap, count).
fn group_and_story(
    max_downtime_ms: i64,
) -> impl Strategy<Value = (usize, Vec<u32>, i64, i64, u32)> {
    (
        1usize..6,
        prop::collection::vec(1u32..8, 1..3),
        0..max_downtime_ms,
        0i64..20_000,
        1u32..3,
    )
}

/// The default settings under `protocol`, with static members or not.
fn settings(protocol: Protocol, static_membership: bool) -> Settings {
    let mut s = Settings {
        protocol,
        ..Settings::default()
    };
    s.client.static_membership = static_membership;
    s
}

fn all_protocols() -> [(Protocol, bool); 6] {
    [
        (Protocol::Eager, false),
        (Protocol::Cooperative, false),
        (Protocol::Eager, true),
        (Protocol::Cooperative, true),
        (Protocol::Consumer, false),
        (Protocol::Consumer, true),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_partition_has_one_consumer_at_a_time_and_every_story_settles(
        (members, topics, downtime, gap, count) in group_and_story(90_000),
        story in 0usize..8,
        which in 0usize..6,
        commit in 0usize..3,
        max_poll in 10_000i64..300_000,
        assignor in 0usize..4,
    ) {
        use rebalance_lab_core::assignor::AssignorKind as A;
        let kind = StoryKind::ALL[story];
        // the scenario's assignor: each protocol runs range, round-robin, sticky or the
        // broker's range where it can
        let g = Group { assignor: [A::Range, A::RoundRobin, A::Sticky, A::ServerRange][assignor], ..group(members, &topics) };
        let (protocol, static_membership) = all_protocols()[which];
        let mut s = settings(protocol, static_membership);
        s.client.commit = [CommitPolicy::Auto { interval_ms: 5_000 }, CommitPolicy::AfterBatch, CommitPolicy::BeforeProcessing][commit];
        s.client.max_poll_interval_ms = max_poll;
        let mut st = Story::new(kind);
        st.downtime_ms = downtime;
        st.gap_ms = gap;
        st.count = count.min(members as u32);
        if kind == StoryKind::ScaleIn && members < 2 {
            return Ok(());
        }
        if kind == StoryKind::ScaleIn {
            st.count = st.count.min(members as u32 - 1);
        }
        let run = simulate(&g, &s, &st).map_err(|e| TestCaseError::fail(e.to_string()))?;
        one_consumer_at_a_time(&run).map_err(TestCaseError::fail)?;
        let c = run.costs;
        let partitions: u32 = topics.iter().sum();
        let span = (run.end_ms - STORY_START_MS) as f64 / 1000.0;
        prop_assert!(c.partition_seconds_paused <= f64::from(partitions) * span + 1e-6);
        prop_assert!(c.longest_group_stop_ms <= c.longest_partition_stop_ms);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Each owner's start offset is a committed one: never past what was produced by then,
    /// and never before where the last owner started (a commit never goes back).
    #[test]
    fn each_owner_starts_from_a_committed_offset(
        members in 1usize..5,
        topics in prop::collection::vec(1u32..6, 1..3),
        story in 0usize..8,
        which in 0usize..6,
        commit in 0usize..3,
        rate in 1u32..50,
    ) {
        let kind = StoryKind::ALL[story];
        if kind == StoryKind::ScaleIn && members < 2 {
            return Ok(());
        }
        let g = group(members, &topics);
        let (protocol, static_membership) = all_protocols()[which];
        let mut s = settings(protocol, static_membership);
        s.client.commit = [CommitPolicy::Auto { interval_ms: 5_000 }, CommitPolicy::AfterBatch, CommitPolicy::BeforeProcessing][commit];
        s.records_per_second = f64::from(rate) + 0.3;
        s.keep_tenures = true;
        let run = simulate(&g, &s, &Story::new(kind)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let per_ms = s.records_per_second / 1000.0;
        for tenures in &run.tenures {
            for (k, t) in tenures.iter().enumerate() {
                let produced = per_ms * t.start_ms as f64;
                prop_assert!(t.start_offset as f64 <= produced + 0.5, "{t:?} starts past the log's end {produced}");
                if k > 0 {
                    let before = &tenures[k - 1];
                    prop_assert!(t.start_offset >= before.start_offset, "{t:?} starts before {before:?}");
                }
            }
        }
    }
}

/// Under eager with auto-commit, a member commits before it revokes and before it closes:
/// in a rolling restart each new owner starts exactly where the last one stopped. After a
/// crash, the new owner starts from the crashed one's last auto-commit, within
/// `auto.commit.interval.ms` before it died, and reads again what came after.
#[test]
fn a_new_owner_starts_where_the_last_commit_left_the_partition() {
    let g = group(3, &[6]);
    let s = Settings {
        records_per_second: 10.0,
        keep_tenures: true,
        ..Settings::default()
    };
    let per_ms = s.records_per_second / 1000.0;
    let run = simulate(&g, &s, &Story::new(StoryKind::RollingRestart)).unwrap();
    let mut handovers = 0;
    for tenures in &run.tenures {
        for w in tenures.windows(2) {
            assert_eq!(
                w[1].start_offset,
                (per_ms * w[0].end_ms as f64).round() as u64,
                "{w:?}"
            );
            handovers += 1;
        }
    }
    assert!(handovers >= 6, "{handovers} handovers");
    assert_eq!(run.costs.records_read_twice, 0);

    let mut st = Story::new(StoryKind::Crash);
    st.downtime_ms = 60_000;
    let run = simulate(&g, &s, &st).unwrap();
    let crashed = run
        .happenings
        .iter()
        .find(|h| h.kind == "crash")
        .expect("a crash");
    let died = crashed.time_ms;
    let mut after_crash = 0;
    for tenures in &run.tenures {
        for w in tenures.windows(2) {
            if w[0].end_ms == died {
                let at_death = per_ms * died as f64;
                let interval = 5_000.0 * per_ms;
                let start = w[1].start_offset as f64;
                assert!(
                    start < at_death && start >= at_death - interval - 0.5,
                    "{w:?}"
                );
                after_crash += 1;
            }
        }
    }
    assert!(after_crash > 0, "{:#?}", run.tenures);
    assert!(run.costs.records_read_twice > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Static members restarted one by one, each back within its session timeout (a
    /// heartbeat interval and a margin short of it): no rebalance, and a partition stops
    /// only while its own member is down, and is taken up again by that member.
    #[test]
    fn static_members_back_within_the_session_timeout_cause_no_rebalance_and_pause_only_their_own(
        (members, topics, downtime, gap, count) in group_and_story(40_000),
        protocol in 0usize..3,
    ) {
        let protocol = [Protocol::Eager, Protocol::Cooperative, Protocol::Consumer][protocol];
        let g = group(members, &topics);
        let mut s = Settings { protocol, ..Settings::default() };
        s.client.static_membership = true;
        let mut st = Story::new(StoryKind::RollingRestart);
        st.downtime_ms = downtime;
        st.gap_ms = gap;
        st.count = count.min(members as u32);
        let run = simulate(&g, &s, &st).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(run.costs.rebalances, 0, "{:#?}", run.happenings);
        one_consumer_at_a_time(&run).map_err(TestCaseError::fail)?;
        // the rejoin's round trips: a JoinGroup and a SyncGroup, or a heartbeat and its answer
        let slack = 4 * s.round_trip_ms;
        for (p, tenures) in run.tenures.iter().enumerate() {
            for w in tenures.windows(2) {
                let (before, after) = (&w[0], &w[1]);
                // (the group forming, before the story, hands partitions out)
                if after.start_ms == before.end_ms || before.end_ms < run.start_ms {
                    continue;
                }
                prop_assert_eq!(before.member, after.member, "partition {} changed hands", p);
                let down = run.downtime[before.member]
                    .iter()
                    .find(|(from, to)| *from <= after.start_ms && *to >= before.end_ms);
                prop_assert!(
                    down.is_some_and(|(from, to)| before.end_ms >= *from - slack && after.start_ms <= *to + slack),
                    "partition {}: stopped {}..{} ms, its member down {:?}",
                    p, before.end_ms, after.start_ms, run.downtime[before.member]
                );
            }
        }
        prop_assert!(run.costs.longest_partition_stop_ms <= downtime + slack);
        // (the loop above had stops to look at: every member was down once)
        prop_assert!(run.costs.partitions_paused > 0);
    }
}

#[test]
fn a_dynamic_crash_stops_its_partitions_until_the_session_times_out() {
    let g = group(3, &[6]);
    let s = Settings::default();
    let run = simulate(&g, &s, &Story::new(StoryKind::Crash)).unwrap();
    // the crash falls half-way between heartbeats: the member is removed at its last
    // heartbeat + session.timeout.ms, 1.5 s short of 45 s after the crash
    let expected = s.client.session_timeout_ms - s.client.heartbeat_interval_ms / 2;
    let stop = run.costs.longest_partition_stop_ms;
    assert!(
        (expected..expected + 10).contains(&stop),
        "{stop} ms, {:#?}",
        run.happenings
    );
}

#[test]
fn a_run_counts_its_work_in_events_partitions_handed_out_and_assignments() {
    let g = group(4, &[6, 2]);
    for (protocol, static_membership) in all_protocols() {
        let s = settings(protocol, static_membership);
        let run = simulate(&g, &s, &Story::default()).unwrap();
        // each partition move opens one tenure
        let tenures: usize = run.tenures.iter().map(Vec::len).sum();
        assert_eq!(run.work.partition_starts, tenures as u64, "{protocol:?}");
        // its events are the steps its budget counts: exactly enough to finish, and one
        // fewer cuts it short
        let cut = |run: &Run| run.notes.iter().any(|n| n.contains("stopped after"));
        assert!(!cut(&run), "{protocol:?}");
        let events = run.work.events;
        for (max_events, cut_short) in [(events, false), (events - 1, true)] {
            let s = Settings { max_events, ..s };
            let again = simulate(&g, &s, &Story::default()).unwrap();
            assert_eq!(cut(&again), cut_short, "{protocol:?}, {max_events} events");
        }
    }
    // an eager rebalance stops and starts every partition
    let run = simulate(&g, &Settings::default(), &Story::default()).unwrap();
    let generations = 1 + u64::from(run.costs.rebalances);
    assert_eq!(run.work.partition_starts, 8 * generations);
    // and its leader computes one assignment per generation
    assert_eq!(run.work.assignments, generations);
}

#[test]
fn each_partition_s_peak_lag_is_what_waited_for_it() {
    // cooperative-sticky: only the dead member's partitions stop, each until the session
    // times out and another member takes it
    let g = group(3, &[6]);
    let s = Settings {
        protocol: Protocol::Cooperative,
        ..Settings::default()
    };
    let run = simulate(&g, &s, &Story::new(StoryKind::Crash)).unwrap();
    let lags = &run.partition_peak_lag;
    assert_eq!(lags.len(), 6);
    assert_eq!(lags.iter().max(), Some(&run.costs.peak_lag_records));
    let per_ms = s.records_per_second / 1000.0;
    for (p, tenures) in run.tenures.iter().enumerate() {
        let stopped: i64 = tenures
            .windows(2)
            .map(|w| w[1].start_ms - w[0].end_ms)
            .max()
            .unwrap_or(0);
        // what was produced while it stopped, and what its dead owner had processed
        // since its last auto-commit (read again from the committed offset)
        let produced = per_ms * stopped as f64;
        let since_commit = per_ms * 5_000.0;
        let lag = lags[p] as f64;
        assert!(
            (produced - 1.0..=produced + since_commit + 1.0).contains(&lag),
            "partition {p}: {lag} records, stopped {stopped} ms"
        );
    }
    assert!(lags.iter().any(|l| *l > 0) && lags.contains(&0), "{lags:?}");
}

#[test]
fn a_run_uses_the_scenario_s_assignor_where_its_protocol_runs_it() {
    use rebalance_lab_core::assignor::AssignorKind as A;
    // two members on two topics of one partition each: range gives both partitions to the
    // first member (topic by topic), round-robin one each (across topics)
    let g = |assignor| Group {
        assignor,
        ..group(2, &[1, 1])
    };
    let owners = |g: &Group, protocol| {
        let s = Settings {
            protocol,
            ..Settings::default()
        };
        let run = simulate(g, &s, &Story::new(StoryKind::Crash)).unwrap();
        let at = run.start_ms - 1;
        let owners: Vec<usize> = run
            .tenures
            .iter()
            .map(|t| {
                t.iter()
                    .find(|x| x.start_ms <= at && at < x.end_ms)
                    .unwrap()
                    .member
            })
            .collect();
        (run.assignor, owners, run.notes)
    };
    let (a, o, notes) = owners(&g(A::Range), Protocol::Eager);
    assert_eq!((a, o[0] == o[1]), (A::Range, true), "{notes:?}");
    let (a, o, notes) = owners(&g(A::RoundRobin), Protocol::Eager);
    assert_eq!((a, o[0] != o[1]), (A::RoundRobin, true), "{notes:?}");
    assert!(notes.is_empty(), "{notes:?}");
    // the consumer protocol's broker: uniform balances, its range goes topic by topic
    let (a, o, _) = owners(&g(A::Uniform), Protocol::Consumer);
    assert_eq!((a, o[0] != o[1]), (A::Uniform, true));
    let (a, o, notes) = owners(&g(A::ServerRange), Protocol::Consumer);
    assert_eq!((a, o[0] == o[1]), (A::ServerRange, true), "{notes:?}");
    // an assignor the protocol does not run is said, with the one the run uses
    let (a, _, notes) = owners(&g(A::Sticky), Protocol::Eager);
    assert_eq!(a, A::Sticky);
    assert!(notes.is_empty(), "{notes:?}");
    let (a, _, notes) = owners(&g(A::CooperativeSticky), Protocol::Eager);
    assert_eq!(a, A::Range);
    assert!(
        notes.iter().any(|n| n.contains("cooperative-sticky")),
        "{notes:?}"
    );
    let (a, _, notes) = owners(&g(A::RoundRobin), Protocol::Cooperative);
    assert_eq!(a, A::CooperativeSticky);
    assert!(notes.iter().any(|n| n.contains("roundrobin")), "{notes:?}");
    // the members list what they run: round-robin alone, or the Java client's default
    let listed = |assignor| -> Vec<Vec<String>> {
        let run = classic::run_traced(&g(assignor), &Settings::default(), &Story::default(), true)
            .unwrap();
        run.wire
            .iter()
            .filter_map(|l| match l {
                Line::Request { request, .. } if !request.protocols.is_empty() => {
                    Some(request.protocols.iter().map(|(n, _)| n.clone()).collect())
                }
                _ => None,
            })
            .collect()
    };
    for (assignor, names) in [
        (A::RoundRobin, &["roundrobin"][..]),
        (A::Sticky, &["sticky"]),
        (A::Range, &["range", "cooperative-sticky"]),
    ] {
        let listed = listed(assignor);
        assert!(
            !listed.is_empty() && listed.iter().all(|l| l == names),
            "{listed:?}"
        );
    }
}

#[test]
fn a_member_with_its_own_group_instance_id_is_static_among_dynamic_ones() {
    // the scenario gives the first of three members a group.instance.id: its restart is
    // no rebalance, each other member's is two (it leaves, it joins)
    let g = Group {
        instance_ids: vec![Some("orders-0".into())],
        ..group(3, &[6])
    };
    for protocol in [Protocol::Eager, Protocol::Cooperative, Protocol::Consumer] {
        let s = Settings {
            protocol,
            ..Settings::default()
        };
        let mixed = simulate(&g, &s, &Story::default()).unwrap();
        let dynamic = simulate(&group(3, &[6]), &s, &Story::default()).unwrap();
        let per_restart = dynamic.costs.rebalances / 3;
        assert_eq!(
            mixed.costs.rebalances,
            2 * per_restart,
            "{protocol:?}: {:#?}",
            mixed.happenings
        );
        assert!(
            mixed
                .happenings
                .iter()
                .any(|h| h.member.as_deref() == Some("m0") && h.detail.contains("static")),
            "{protocol:?}"
        );
        one_consumer_at_a_time(&mixed).unwrap();
    }
    // two members with one instance id would fence each other at every join: refused
    let shared = Group {
        instance_ids: vec![Some("orders-0".into()), None, Some("orders-0".into())],
        ..group(3, &[6])
    };
    let e = simulate(&shared, &Settings::default(), &Story::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("m0 and m2") && e.contains("orders-0"), "{e}");
}

#[test]
fn a_replaced_streams_instance_stops_an_eager_group_until_the_dead_member_expires() {
    // no LeaveGroup on close: the new member's JoinGroup starts a rebalance that waits for
    // the old member until its session times out; eager members revoke everything meanwhile
    let g = group(3, &[6]);
    let mut s = Settings::default();
    s.client.leave_on_close = false;
    let mut st = Story::new(StoryKind::Crash);
    st.downtime_ms = 10_000;
    let run = simulate(&g, &s, &st).unwrap();
    let whole = run.costs.longest_group_stop_ms;
    let expiry = s.client.session_timeout_ms - s.client.heartbeat_interval_ms / 2;
    let waits = expiry - st.downtime_ms;
    assert!(
        whole > waits - s.client.heartbeat_interval_ms && whole <= waits + 10,
        "{whole} ms"
    );
    assert_eq!(run.costs.rebalances, 1, "{:#?}", run.happenings);
}

#[test]
fn cooperative_members_keep_consuming_what_stays_theirs() {
    let g = group(3, &[6, 6]);
    let eager = simulate(&g, &Settings::default(), &Story::new(StoryKind::ScaleOut)).unwrap();
    let s = Settings {
        protocol: Protocol::Cooperative,
        ..Settings::default()
    };
    let coop = simulate(&g, &s, &Story::new(StoryKind::ScaleOut)).unwrap();
    // cooperative stops only what moves: fewer partitions stop, in two rebalances
    assert!(
        coop.costs.partitions_paused < eager.costs.partitions_paused,
        "{:?} {:?}",
        coop.costs,
        eager.costs
    );
    assert_eq!(coop.costs.rebalances, 2);
    assert_eq!(eager.costs.rebalances, 1);
}

/// Under the consumer protocol a run says each target the broker computes: for the group,
/// how many partitions change member, and for each member whose target changed, what it
/// gains and gives up. A scale-out by one from 3 members over 12 partitions moves 3 (the
/// newcomer's quota of 12 / 4), and the three members each give one up.
#[test]
fn the_consumer_protocol_says_each_target() {
    let g = group(3, &[6, 6]);
    let s = Settings {
        protocol: Protocol::Consumer,
        ..Settings::default()
    };
    let run = simulate(&g, &s, &Story::new(StoryKind::ScaleOut)).unwrap();
    let targets: Vec<&str> = run
        .happenings
        .iter()
        .filter(|h| h.kind == "target" && h.time_ms >= run.start_ms)
        .map(|h| h.detail.as_str())
        .collect();
    assert!(
        targets
            .iter()
            .any(|t| t.contains(": 3 partitions change member")),
        "{targets:?}"
    );
    let newcomer = run
        .happenings
        .iter()
        .filter(|h| h.kind == "target" && h.time_ms >= run.start_ms)
        .find(|h| h.member.as_deref() == run.members.last().map(String::as_str))
        .expect("the newcomer's target is said");
    assert!(
        newcomer
            .detail
            .ends_with(": 3 partitions (gains 3, gives up 0)."),
        "{}",
        newcomer.detail
    );
}

#[test]
fn committing_before_processing_loses_records_and_reads_none_twice() {
    let g = group(2, &[4]);
    let mut s = Settings::default();
    s.client.processing_ms_per_record = 5.0; // behind after the pause: batches of 2.5 s
    s.client.commit = CommitPolicy::BeforeProcessing;
    let mut st = Story::new(StoryKind::RollingRestart);
    st.downtime_ms = 1_000;
    st.gap_ms = 500;
    let run = simulate(&g, &s, &st).unwrap();
    assert_eq!(run.costs.records_read_twice, 0);
    s.client.commit = CommitPolicy::Auto { interval_ms: 5_000 };
    let crash = simulate(&g, &s, &Story::new(StoryKind::Crash)).unwrap();
    assert!(crash.costs.records_read_twice > 0);
    assert_eq!(crash.costs.records_missed, 0);
}

#[test]
fn bad_settings_and_stories_are_refused_with_a_message() {
    let g = group(2, &[4]);
    let mut s = Settings::default();
    s.client.heartbeat_interval_ms = 60_000;
    let e = simulate(&g, &s, &Story::default()).unwrap_err().to_string();
    assert!(e.contains("heartbeat.interval.ms"), "{e}");
    let mut st = Story::new(StoryKind::ScaleIn);
    st.count = 2;
    let e = simulate(&g, &Settings::default(), &st)
        .unwrap_err()
        .to_string();
    assert!(e.contains("scale in"), "{e}");
    let empty = Group::default();
    assert!(simulate(&empty, &Settings::default(), &Story::default()).is_err());
    let st = Story {
        downtime_ms: i64::MAX,
        ..Story::default()
    };
    assert!(simulate(&g, &Settings::default(), &st).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A quiet member's heartbeats are sent only when something may depend on them; the run
    /// is the same as with every heartbeat sent.
    #[test]
    fn quiet_heartbeats_change_nothing(
        members in 1usize..6,
        partitions in 1u32..10,
        story in 0usize..8,
        downtime in 0i64..90_000,
        gap in 0i64..20_000,
        cooperative in any::<bool>(),
        static_membership in any::<bool>(),
        session in 6_000i64..60_000,
        heartbeat in 500i64..5_000,
    ) {
        use rebalance_lab_core::timeline::classic::{run, run_traced};
        let kind = StoryKind::ALL[story];
        if kind == StoryKind::ScaleIn && members < 2 {
            return Ok(());
        }
        let g = group(members, &[partitions]);
        let protocol = if cooperative { Protocol::Cooperative } else { Protocol::Eager };
        let mut s = settings(protocol, static_membership);
        s.client.session_timeout_ms = session;
        s.client.heartbeat_interval_ms = heartbeat.min(session - 1);
        let mut st = Story::new(kind);
        st.downtime_ms = downtime;
        st.gap_ms = gap;
        let quiet = run(&g, &s, &st).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let every = run_traced(&g, &s, &st, true).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&quiet.happenings, &every.happenings);
        prop_assert_eq!(&quiet.tenures, &every.tenures);
        prop_assert_eq!(quiet.costs, every.costs);
        prop_assert_eq!(quiet.end_ms, every.end_ms);
    }
}

#[test]
fn a_group_slow_to_form_starts_its_story_once_it_has() {
    let g = group(3, &[6]);
    let mut s = Settings::default();
    s.broker.initial_rebalance_delay_ms = 30_000;
    let run = simulate(&g, &s, &Story::new(StoryKind::Crash)).unwrap();
    // the join phase ends at 30 s (no member joined after the first window), Stable just after
    assert!(run.start_ms > 30_000, "{}", run.start_ms);
    // the crashed member owned partitions, which wait for its session to time out
    assert!(
        run.costs.longest_partition_stop_ms > 40_000,
        "{:?}",
        run.costs
    );
    assert_eq!(run.costs.partitions_paused, 6);
}

#[test]
fn the_consumer_protocol_s_settings_are_held_to_the_broker_s_bounds() {
    let g = group(2, &[4]);
    let mut s = Settings {
        protocol: Protocol::Consumer,
        ..Settings::default()
    };
    s.consumer_group.heartbeat_interval_ms = 1;
    let e = simulate(&g, &s, &Story::default()).unwrap_err().to_string();
    assert!(e.contains("5,000 to 15,000"), "{e}");
    s.consumer_group.heartbeat_interval_ms = 5_000;
    s.consumer_group.session_timeout_ms = 1_000;
    let e = simulate(&g, &s, &Story::default()).unwrap_err().to_string();
    assert!(e.contains("45,000 to 60,000"), "{e}");
}

#[test]
fn a_batch_slower_than_max_poll_interval_stops_its_partitions_from_its_start() {
    for protocol in [Protocol::Eager, Protocol::Consumer] {
        let g = group(3, &[6]);
        let mut s = Settings {
            protocol,
            ..Settings::default()
        };
        s.client.max_poll_interval_ms = 20_000;
        let mut st = Story::new(StoryKind::SlowPoll);
        st.downtime_ms = 60_000;
        let run = simulate(&g, &s, &st).unwrap();
        // stuck in its batch, the member consumes nothing from the batch's start until the
        // poll timeout hands its partitions on (20 s, then a rebalance)
        assert!(
            run.costs.longest_partition_stop_ms >= 20_000,
            "{protocol:?}: {:?}",
            run.costs
        );
        one_consumer_at_a_time(&run).unwrap();
    }
}

/// Every time a partition stops being consumed, its consumer has a reason the run names at
/// that instant: it closed, crashed or was cut off, its batch stalled, it revoked or lost its
/// partitions, it left on a poll timeout, or the coordinator fenced it.
fn every_pause_has_a_cause(run: &Run) -> Result<(), String> {
    const CAUSES: &[&str] = &[
        "close",
        "crash",
        "network cut",
        "slow batch",
        "revoke",
        "lost",
        "poll timeout",
        "reset",
        "assigned",
        "fatal",
        "expired",
        "fenced",
    ];
    for (p, list) in run.tenures.iter().enumerate() {
        for t in list.iter().filter(|t| t.end_ms < run.end_ms) {
            let who = &run.members[t.member];
            let named = run.happenings.iter().any(|h| {
                h.time_ms == t.end_ms
                    && h.member.as_deref().is_none_or(|m| m == who)
                    && CAUSES.contains(&h.kind)
            }) || run
                .overlap_log
                .iter()
                .any(|o| (o.time_ms, o.partition, o.consumer) == (t.end_ms, p, t.member));
            if !named {
                return Err(format!(
                    "partition {p} stops at {} ms with {who} and no cause",
                    t.end_ms
                ));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_partition_stops_only_for_a_reason(
        members in 1usize..5,
        partitions in 1u32..9,
        story in 0usize..8,
        downtime in 0i64..90_000,
        which in 0usize..6,
        max_poll in 10_000i64..300_000,
    ) {
        let kind = StoryKind::ALL[story];
        if kind == StoryKind::ScaleIn && members < 2 {
            return Ok(());
        }
        let (protocol, static_membership) = all_protocols()[which];
        let mut s = settings(protocol, static_membership);
        s.client.max_poll_interval_ms = max_poll;
        let mut st = Story::new(kind);
        st.downtime_ms = downtime;
        let run = simulate(&group(members, &[partitions]), &s, &st).map_err(|e| TestCaseError::fail(e.to_string()))?;
        every_pause_has_a_cause(&run).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn a_run_past_its_event_budget_stops_and_says_so() {
    let g = group(5, &[10]);
    let s = Settings {
        max_events: 50,
        ..Settings::default()
    };
    let run = simulate(&g, &s, &Story::default()).unwrap();
    assert!(
        run.notes
            .iter()
            .any(|n| n.contains("stopped after 50 events")),
        "{:?}",
        run.notes
    );
}

#[test]
fn under_the_consumer_protocol_a_member_behind_revokes_between_batches() {
    // m1 takes m0's partitions after m0's crash with 45 s of records waiting, and is behind
    // for a while (25 records/s per partition in, 200/s processed); m0 comes back, and m1
    // must give two partitions back: it does so in its poll(), when its batch is done.
    let g = group(2, &[4]);
    let run_with = |ms_per_record: f64| {
        let mut s = Settings {
            protocol: Protocol::Consumer,
            records_per_second: 25.0,
            ..Settings::default()
        };
        s.client.max_poll_records = 100;
        s.client.processing_ms_per_record = ms_per_record;
        let mut st = Story::new(StoryKind::Crash);
        st.downtime_ms = 60_000;
        simulate(&g, &s, &st).unwrap()
    };
    let at = |run: &Run, kind: &str| -> Vec<i64> {
        run.happenings
            .iter()
            .filter(|h| h.member.as_deref() == Some("m1") && h.kind == kind)
            .map(|h| h.time_ms)
            .collect()
    };
    let (slow, fast) = (run_with(5.0), run_with(0.001));
    one_consumer_at_a_time(&slow).unwrap();
    let (slow_revoke, fast_revoke) = (at(&slow, "revoke"), at(&fast, "revoke"));
    let taken = *at(&slow, "assigned").last().unwrap();
    let revoked = *slow_revoke.last().unwrap();
    assert!(
        revoked > *fast_revoke.last().unwrap(),
        "{slow_revoke:?} {fast_revoke:?}"
    );
    // batches of 100 records at 5 ms each, one after another from when it took them; the
    // reconciliation starts between two of them with an auto-commit, and the callbacks run
    // when the commit is answered, a round trip later
    let round_trip = Settings::default().round_trip_ms;
    assert_eq!((revoked - round_trip - taken) % 500, 0, "{taken} {revoked}");
}

/// `lists.len()` members, each listing its own `partition.assignment.strategy`.
fn listed(lists: &[&[&str]], topics: &[u32]) -> Group {
    Group {
        strategies: lists
            .iter()
            .map(|l| l.iter().map(|n| n.to_string()).collect())
            .collect(),
        ..group(lists.len(), topics)
    }
}

fn listed_settings() -> Settings {
    Settings {
        protocol: Protocol::Listed,
        ..Settings::default()
    }
}

/// Each partition's owner when the story starts and when the run ends.
fn owners_before_and_after(run: &Run) -> Vec<(usize, usize)> {
    let at = |list: &[rebalance_lab_core::timeline::Tenure], t: i64| {
        list.iter()
            .find(|x| x.start_ms <= t && t < x.end_ms)
            .map_or(usize::MAX, |x| x.member)
    };
    run.tenures
        .iter()
        .map(|list| (at(list, run.start_ms - 1), at(list, run.end_ms - 1)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Members mid-upgrade list different assignors (all with cooperative-sticky among
    /// them): the invariants hold whoever wins the vote and however each member rebalances.
    #[test]
    fn members_listing_their_own_assignors_keep_the_invariants(
        picks in prop::collection::vec(0usize..6, 1..5),
        partitions in 1u32..9,
        story in 0usize..8,
        downtime in 0i64..60_000,
    ) {
        const LISTS: [&[&str]; 6] = [
            &["range", "cooperative-sticky"],
            &["cooperative-sticky", "range"],
            &["cooperative-sticky"],
            &["roundrobin", "cooperative-sticky"],
            &["sticky", "cooperative-sticky"],
            &["cooperative-sticky", "sticky"],
        ];
        let kind = StoryKind::ALL[story];
        if kind == StoryKind::ScaleIn && picks.len() < 2 {
            return Ok(());
        }
        let lists: Vec<&[&str]> = picks.iter().map(|&i| LISTS[i]).collect();
        let mut st = Story::new(kind);
        st.downtime_ms = downtime;
        let run = simulate(&listed(&lists, &[partitions]), &listed_settings(), &st)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        one_consumer_at_a_time(&run).map_err(TestCaseError::fail)?;
        every_pause_has_a_cause(&run).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn each_member_rebalances_as_its_own_list_says() {
    use rebalance_lab_core::assignor::AssignorKind as A;
    // mid-upgrade: m0 and m1 list cooperative-sticky alone, m2 still lists range after it.
    // cooperative-sticky wins the vote (3 to 0); at a scale-out m2 revokes everything
    // before it joins (eager), m0 and m1 only what moves, and keep consuming the rest
    let g = listed(
        &[
            &["cooperative-sticky"],
            &["cooperative-sticky"],
            &["cooperative-sticky", "range"],
        ],
        &[6, 6],
    );
    let run = simulate(&g, &listed_settings(), &Story::new(StoryKind::ScaleOut)).unwrap();
    assert_eq!(run.assignor, A::CooperativeSticky);
    one_consumer_at_a_time(&run).unwrap();
    let revokes_all = |m: &str| {
        run.happenings.iter().any(|h| {
            h.member.as_deref() == Some(m) && h.kind == "revoke" && h.detail.contains("eager")
        })
    };
    assert!(revokes_all("m2"), "{:#?}", run.happenings);
    assert!(!revokes_all("m0") && !revokes_all("m1"));
    // a cooperative member's lane has no gap; the eager member's has one per rebalance
    let gaps = |m: usize| run.lanes[m].len() - 1;
    assert_eq!((gaps(0), gaps(1)), (0, 0), "{:?}", run.lanes);
    assert!(gaps(2) >= 1, "{:?}", run.lanes);
    // the group rebalances twice: the eager member's revocation is not a cooperative one
    // that asks for a follow-up, but m0 or m1 give up partitions to the newcomer
    assert_eq!(run.costs.rebalances, 2, "{:#?}", run.happenings);
}

#[test]
fn listing_the_same_as_a_protocol_runs_as_that_protocol() {
    // the Java default everywhere is the eager run; cooperative-sticky alone the cooperative
    for (list, protocol) in [
        (&["range", "cooperative-sticky"][..], Protocol::Eager),
        (&["cooperative-sticky"][..], Protocol::Cooperative),
    ] {
        let g = listed(&[list, list, list], &[6, 3]);
        for kind in StoryKind::ALL
            .into_iter()
            .filter(|k| *k != StoryKind::Script)
        {
            let a = simulate(&g, &listed_settings(), &Story::new(kind)).unwrap();
            let s = Settings {
                protocol,
                ..Settings::default()
            };
            let b = simulate(&g, &s, &Story::new(kind)).unwrap();
            assert_eq!(a.costs, b.costs, "{kind:?} {list:?}");
            assert_eq!(a.happenings, b.happenings, "{kind:?} {list:?}");
            assert_eq!(a.assignor, b.assignor);
        }
    }
}

#[test]
fn the_coordinator_s_vote_picks_the_assignor() {
    use rebalance_lab_core::assignor::AssignorKind as A;
    let leader_runs = |run: &Run| -> Vec<String> {
        run.happenings
            .iter()
            .filter(|h| h.kind == "assign")
            .map(|h| h.detail.clone())
            .collect()
    };
    // two votes for roundrobin (each member's first common name), one for range
    let g = listed(
        &[
            &["roundrobin", "range"],
            &["roundrobin", "range"],
            &["range", "roundrobin"],
        ],
        &[6],
    );
    let run = simulate(&g, &listed_settings(), &Story::default()).unwrap();
    assert_eq!(run.assignor, A::RoundRobin);
    // while m0 or m1 is down the two left tie, one vote each, and the tie goes to the name
    // Java's HashMap iterates first: range (bucket 9) before roundrobin (bucket 10); while
    // m2 is down both left vote roundrobin
    let expected = [
        "roundrobin over 3",
        "range over 2",
        "roundrobin over 3",
        "range over 2",
        "roundrobin over 3",
        "roundrobin over 2",
        "roundrobin over 3",
    ];
    let runs = leader_runs(&run);
    assert_eq!(runs.len(), expected.len(), "{runs:?}");
    assert!(run
        .happenings
        .iter()
        .any(|h| h.kind == "vote" && h.detail.contains("now picks range, not roundrobin")));
    for (detail, what) in runs.iter().zip(expected) {
        assert!(detail.contains(&format!("runs {what} members")), "{runs:?}");
    }
    // the same tie from the start
    let g = listed(&[&["roundrobin", "range"], &["range", "roundrobin"]], &[6]);
    let run = simulate(&g, &listed_settings(), &Story::default()).unwrap();
    assert_eq!(run.assignor, A::Range);
    let runs = leader_runs(&run);
    assert!(runs[0].contains("runs range over 2"), "{runs:?}");
}

#[test]
fn the_eager_sticky_assignor_remembers_what_each_member_had() {
    // three members over 12 partitions, a fourth joins: range moves six partitions
    // (m0 keeps 0-2, m1 4-5, m2 8), sticky only the three the newcomer takes, because each
    // member's user data tells the leader what it had although it revoked everything
    let moved = |list: &[&str]| {
        let g = listed(&[list, list, list], &[12]);
        let run = simulate(&g, &listed_settings(), &Story::new(StoryKind::ScaleOut)).unwrap();
        one_consumer_at_a_time(&run).unwrap();
        owners_before_and_after(&run)
            .iter()
            .filter(|(a, b)| a != b)
            .count()
    };
    assert_eq!(moved(&["range"]), 6);
    assert_eq!(moved(&["sticky"]), 3);
}

#[test]
fn lists_the_timeline_cannot_run_are_refused_with_the_member_named() {
    let run = |lists: &[&[&str]]| {
        simulate(&listed(lists, &[6]), &listed_settings(), &Story::default())
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let e = run(&[&["range"], &["roundrobin"]]).unwrap_err();
    assert!(
        e.contains("m0 and m1") && e.contains("INCONSISTENT_GROUP_PROTOCOL"),
        "{e}"
    );
    let e = run(&[&["range"], &["org.example.Custom"]]).unwrap_err();
    assert!(
        e.contains("member m1") && e.contains("org.example.Custom"),
        "{e}"
    );
    // the same lists under eager: every member lists the Java default there
    let eager = simulate(
        &listed(&[&["range"], &["roundrobin"]], &[6]),
        &Settings::default(),
        &Story::default(),
    );
    assert!(eager.is_ok());
}

#[test]
fn the_move_to_cooperative_takes_one_rolling_restart_from_the_java_default_and_two_otherwise() {
    use rebalance_lab_core::assignor::AssignorKind as A;
    let count = |run: &Run, kind: &str| run.happenings.iter().filter(|h| h.kind == kind).count();
    let configs = |run: &Run| -> Vec<String> {
        run.happenings
            .iter()
            .filter(|h| h.kind == "config")
            .map(|h| h.detail.clone())
            .collect()
    };
    let story = Story::new(StoryKind::ToCooperative);
    // the Java default [range, cooperative-sticky] lists it already: one restart each,
    // to cooperative-sticky alone, and the vote moves to it with the first member back
    let run = simulate(&group(3, &[6, 6]), &Settings::default(), &story).unwrap();
    one_consumer_at_a_time(&run).unwrap();
    assert_eq!(count(&run, "close"), 3, "{:#?}", run.happenings);
    assert!(configs(&run)
        .iter()
        .all(|c| c.contains("[cooperative-sticky] (cooperative)")));
    assert!(run
        .happenings
        .iter()
        .any(|h| h.kind == "vote" && h.detail.contains("now picks cooperative-sticky")));
    // the run's label names both
    assert_eq!(run.assignors, [A::Range, A::CooperativeSticky]);
    assert_eq!(
        run.label(),
        "classic, eager (range), then cooperative-sticky by vote"
    );
    // once every member is back, a rebalance revokes only what moves: the last member
    // back is the only one whose lane stops after the last restart
    let last_config = run
        .happenings
        .iter()
        .rev()
        .find(|h| h.kind == "config")
        .unwrap()
        .time_ms;
    assert!(!run
        .happenings
        .iter()
        .any(|h| h.time_ms > last_config && h.kind == "revoke" && h.detail.contains("eager")));
    // round-robin alone does not: a first restart adds cooperative-sticky after it (round-robin
    // still wins the vote, every member still eager), a second leaves it alone
    let g = Group {
        assignor: A::RoundRobin,
        ..group(3, &[6, 6])
    };
    let run = simulate(&g, &Settings::default(), &story).unwrap();
    one_consumer_at_a_time(&run).unwrap();
    assert_eq!(count(&run, "close"), 6);
    assert_eq!(run.assignors, [A::RoundRobin, A::CooperativeSticky]);
    let configs = configs(&run);
    assert!(configs[..3]
        .iter()
        .all(|c| c.contains("[roundrobin, cooperative-sticky] (eager)")));
    assert!(configs[3..]
        .iter()
        .all(|c| c.contains("[cooperative-sticky] (cooperative)")));
    // under the consumer protocol the members list no assignor: a rolling restart, said
    let s = Settings {
        protocol: Protocol::Consumer,
        ..Settings::default()
    };
    let run = simulate(&group(3, &[6]), &s, &story).unwrap();
    assert_eq!(count(&run, "close"), 3);
    assert!(
        run.notes.iter().any(|n| n.contains("classic-only")),
        "{:?}",
        run.notes
    );
}

/// `story` written as a script for a group of `members` members named m0, m1, ...
fn as_script(story: &Story, members: usize) -> Story {
    let secs = |ms: i64| format!("{ms}ms");
    let mut lines = Vec::new();
    match story.kind {
        StoryKind::RollingRestart => {
            let mut t = 0;
            for wave in (0..members)
                .collect::<Vec<_>>()
                .chunks(story.count as usize)
            {
                let names: Vec<String> = wave.iter().map(|m| format!("m{m}")).collect();
                lines.push(format!(
                    "{} restart {} for {}",
                    secs(t),
                    names.join(", "),
                    secs(story.downtime_ms)
                ));
                t += story.downtime_ms + story.gap_ms;
            }
        }
        StoryKind::Crash => {
            lines.push("0 crash m0".into());
            lines.push(format!("{} start m0", secs(story.downtime_ms)));
        }
        StoryKind::ScaleOut => lines.push(format!("0 join {}", story.count)),
        StoryKind::SlowPoll => lines.push(format!("0 slow m0 for {}", secs(story.downtime_ms))),
        StoryKind::NetworkCut => lines.push(format!("0 cut m0 for {}", secs(story.downtime_ms))),
        other => panic!("{other:?} is not written here"),
    }
    Story {
        script: lines.join("\n"),
        ..Story::new(StoryKind::Script)
    }
}

/// A script from random statements (time step, verb, member, duration), made valid as it is
/// written: a member that is down is started, one that is up does something else; two
/// scripts in three start m0 with settings of its own (`initially`).
fn script_of(members: usize, statements: Vec<(i64, usize, usize, i64)>) -> Story {
    let mut text = Vec::new();
    // two scripts in three give m0 settings of its own from its first process on
    match statements.len() % 3 {
        1 => text.push("initially m0 with session.timeout.ms=10000 max.poll.interval.ms=20000".to_string()),
        2 => text.push("initially m0 with partition.assignment.strategy=cooperative-sticky,range commit=after-batch".to_string()),
        _ => {}
    }
    let mut t = 0;
    // each member: when it is up again (i64::MAX: down until started)
    let mut up_at: Vec<i64> = vec![0; members];
    // and until when it is cut off, and in a slow batch
    let (mut cut_until, mut slow_until) = (vec![0; members], vec![0; members]);
    for (dt, v, m, d) in statements {
        t += dt;
        if v == 5 {
            text.push(format!("{t}s join 1"));
            up_at.push(t);
            cut_until.push(0);
            slow_until.push(0);
            continue;
        }
        let m = m % up_at.len();
        let name = if m < members {
            format!("m{m}")
        } else {
            format!("new-{}", m - members + 1)
        };
        // (only a crash acts on a member cut off)
        let cut = t < cut_until[m];
        if up_at[m] > t {
            if up_at[m] == i64::MAX {
                text.push(format!("{t}s start {name}"));
                up_at[m] = t;
            }
            continue;
        }
        if (cut && v != 1) || (v == 3 && t < slow_until[m]) {
            continue;
        }
        if v < 3 {
            // (the process ends: the next one starts connected, and in no batch)
            (cut_until[m], slow_until[m]) = (0, 0);
        }
        match v {
            0 => {
                text.push(format!("{t}s close {name}"));
                up_at[m] = i64::MAX;
            }
            1 => {
                text.push(format!("{t}s crash {name}"));
                up_at[m] = i64::MAX;
            }
            2 => {
                // every other restart with settings of its own
                let with = match d % 4 {
                    0 => " with session.timeout.ms=10000 max.poll.interval.ms=20000".to_string(),
                    1 => format!(
                        " with partition.assignment.strategy={} commit=after-batch",
                        [
                            "cooperative-sticky",
                            "cooperative-sticky,range",
                            "range,cooperative-sticky"
                        ][(t % 3) as usize]
                    ),
                    _ => String::new(),
                };
                text.push(format!("{t}s restart {name} for {d}s{with}"));
                up_at[m] = t + d;
            }
            3 => {
                text.push(format!("{t}s slow {name} for {d}s"));
                slow_until[m] = t + d;
            }
            _ => {
                text.push(format!("{t}s cut {name} for {d}s"));
                cut_until[m] = t + d;
            }
        }
    }
    Story {
        script: text.join("\n"),
        ..Story::new(StoryKind::Script)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A story written as a script runs exactly as the story does.
    #[test]
    fn a_story_written_as_a_script_runs_as_the_story(
        (members, topics, downtime, gap, count) in group_and_story(60_000),
        story in prop::sample::select(vec![
            StoryKind::RollingRestart,
            StoryKind::Crash,
            StoryKind::ScaleOut,
            StoryKind::SlowPoll,
            StoryKind::NetworkCut,
        ]),
        which in 0usize..6,
    ) {
        let (protocol, static_membership) = all_protocols()[which];
        let s = settings(protocol, static_membership);
        let mut st = Story::new(story);
        st.downtime_ms = downtime;
        st.gap_ms = gap;
        st.count = count.min(members as u32);
        let g = group(members, &topics);
        let told = simulate(&g, &s, &st).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let script = as_script(&st, members);
        let written = simulate(&g, &s, &script)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{}", script.script)))?;
        prop_assert_eq!(&told.costs, &written.costs, "{}", script.script);
        prop_assert_eq!(&told.happenings, &written.happenings);
    }

    /// Any script keeps the invariants: one consumer at a time (but for Kafka's own race,
    /// said), and every pause with a cause. (The statements are made valid as they are written: a member that is down is
    /// started, one that is up does something else.)
    #[test]
    fn any_script_keeps_the_invariants(
        members in 1usize..5,
        partitions in 1u32..9,
        statements in prop::collection::vec((0i64..30, 0usize..6, 0usize..6, 0i64..60), 1..10),
        which in 0usize..6,
    ) {
        let script = script_of(members, statements);
        let (protocol, static_membership) = all_protocols()[which];
        let s = settings(protocol, static_membership);
        let run = simulate(&group(members, &[partitions]), &s, &script)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{}", script.script)))?;
        // a partition has two consumers only in Kafka's own race: the coordinator removed
        // its last owner, which learns it later (at its next answer), and the run says so
        prop_assert!(run.overlaps as usize == run.overlap_log.len(), "{}", script.script);
        for o in &run.overlap_log {
            let (t, old) = (o.time_ms, o.consumer);
            let learns = run.happenings.iter().any(|h| {
                h.time_ms >= t
                    && h.member.as_deref() == Some(run.members[old].as_str())
                    && ["reset", "lost", "unknown member", "fenced", "fatal"].contains(&h.kind)
            });
            prop_assert!(learns, "{} learns nothing after {t} ms\n{}", run.members[old], script.script);
        }
        // each overlap said, up to the first few
        let said = run.notes.iter().filter(|n| n.contains("still consumes it")).count();
        prop_assert_eq!(said, run.overlap_log.len());
        every_pause_has_a_cause(&run).map_err(|e| TestCaseError::fail(format!("{e}\n{}", script.script)))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Under the consumer protocol, the heartbeats of a group at rest are counted rather than
    /// sent one by one; the run is the same as with every heartbeat sent, for a story or a
    /// script, any broker timing, round trip and commit policy.
    #[test]
    fn skipped_heartbeats_change_nothing(
        members in 1usize..5,
        partitions in 1u32..9,
        story in 0usize..9,
        statements in prop::collection::vec((0i64..40, 0usize..6, 0usize..6, 0i64..70), 1..10),
        static_membership in any::<bool>(),
        interval in 5_000i64..15_000,
        session in 45_000i64..60_000,
        round_trip in prop::sample::select(vec![0i64, 1, 2, 7, 1_000, 2_600, 6_000]),
        commit in 0usize..3,
        downtime in 0i64..90_000,
    ) {
        use rebalance_lab_core::timeline::consumer::{run, run_traced, Trace};
        let st = if StoryKind::ALL[story] == StoryKind::Script {
            script_of(members, statements)
        } else {
            let mut st = Story::new(StoryKind::ALL[story]);
            st.downtime_ms = downtime;
            st
        };
        if st.kind == StoryKind::ScaleIn && members < 2 {
            return Ok(());
        }
        let g = group(members, &[partitions]);
        let mut s = Settings { protocol: Protocol::Consumer, round_trip_ms: round_trip, ..Settings::default() };
        s.client.static_membership = static_membership;
        s.client.commit = [CommitPolicy::Auto { interval_ms: 5_000 }, CommitPolicy::AfterBatch, CommitPolicy::BeforeProcessing][commit];
        s.consumer_group.heartbeat_interval_ms = interval;
        s.consumer_group.session_timeout_ms = session;
        let skipped = run(&g, &s, &st).map_err(|e| TestCaseError::fail(format!("{e}\n{}", st.script)))?;
        let every = run_traced(&g, &s, &st, Trace::Requests).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&skipped.happenings, &every.happenings, "{}", st.script);
        prop_assert_eq!(&skipped.tenures, &every.tenures);
        prop_assert_eq!(&skipped.costs, &every.costs);
        prop_assert_eq!(skipped.end_ms, every.end_ms);
        prop_assert_eq!(&skipped.notes, &every.notes);
    }
}

#[test]
fn a_consumer_group_at_rest_between_acts_skips_its_heartbeats() {
    use rebalance_lab_core::timeline::consumer::{run, run_traced, Trace};
    let g = group(20, &[200]);
    let s = Settings {
        protocol: Protocol::Consumer,
        ..Settings::default()
    };
    let skipped = run(&g, &s, &Story::default()).unwrap();
    let every = run_traced(&g, &s, &Story::default(), Trace::Requests).unwrap();
    assert_eq!(skipped.costs, every.costs);
    // each member's leave and return change the group; it is at rest for the rest of each
    // downtime and gap, and about a third of the run's events go (6,007 against 9,124)
    assert!(
        skipped.work.events * 10 < every.work.events * 7,
        "{} events skipping, {} sending every heartbeat",
        skipped.work.events,
        every.work.events
    );
}

#[test]
fn a_member_restarted_with_a_shorter_session_is_given_up_on_sooner() {
    // the deploy shortens m0's session.timeout.ms to 10 s; a crash after it stops m0's
    // partitions until that session times out, not the 45 s of the others
    let stop = |with: &str| {
        stop_after_crash(&format!(
            "0s restart m0 for 5s{with}\n30s crash m0\n90s start m0"
        ))
    };
    let default = stop("");
    let short = stop(" with session.timeout.ms=10000");
    assert!((42_000..=48_100).contains(&default), "{default}");
    assert!((7_000..=13_100).contains(&short), "{short}");
    // the same session from m0's first process on, with no deploy
    let first =
        stop_after_crash("initially m0 with session.timeout.ms=10000\n30s crash m0\n90s start m0");
    assert!((7_000..=13_100).contains(&first), "{first}");
}

/// How long m0's partitions wait for a new owner after it crashes, in the script's run.
fn stop_after_crash(text: &str) -> i64 {
    let script = Story {
        script: text.to_string(),
        ..Story::new(StoryKind::Script)
    };
    let run = simulate(&group(3, &[6]), &Settings::default(), &script).unwrap();
    one_consumer_at_a_time(&run).unwrap();
    let crash = run
        .happenings
        .iter()
        .find(|h| h.kind == "crash")
        .unwrap()
        .time_ms;
    let m0 = run.members.iter().position(|m| m == "m0").unwrap();
    // when m0's partitions were taken up again after its crash
    run.tenures
        .iter()
        .flat_map(|t| t.windows(2))
        .filter(|w| w[0].member == m0 && w[0].end_ms == crash)
        .map(|w| w[1].start_ms - crash)
        .max()
        .unwrap()
}

#[test]
fn the_members_a_story_adds_are_counted_before_it_runs() {
    use rebalance_lab_core::timeline::members_added;
    let g = group(2, &[4]);
    let s = Settings::default();
    let mut out = Story::new(StoryKind::ScaleOut);
    out.count = 3;
    assert_eq!(members_added(&g, &s, &out), 3);
    let script = |text: &str| Story {
        script: text.into(),
        ..Story::new(StoryKind::Script)
    };
    assert_eq!(members_added(&g, &s, &script("0 join 2\n5s join 1")), 3);
    assert_eq!(members_added(&g, &s, &script("0 crash nobody")), 0);
    assert_eq!(members_added(&g, &s, &Story::default()), 0);
}

#[test]
fn a_joiner_listing_nothing_in_common_is_refused_while_the_crashed_member_stays() {
    // b crashed but stays in the group until its session times out; a comes back listing
    // only roundrobin, which b does not list: the coordinator refuses its JoinGroup and the
    // Java consumer throws
    let g = listed(&[&["range"], &["range"]], &[4]);
    let script = Story {
        script: "0s crash m1\n1s restart m0 for 1s with partition.assignment.strategy=roundrobin"
            .into(),
        ..Story::new(StoryKind::Script)
    };
    let run = simulate(&g, &listed_settings(), &script).unwrap();
    assert!(
        run.happenings
            .iter()
            .any(|h| h.member.as_deref() == Some("m0")
                && h.kind == "fatal"
                && h.detail.contains("INCONSISTENT_GROUP_PROTOCOL")),
        "{:#?}",
        run.happenings
    );
    // nobody consumes at the end: m1 crashed, m0 stopped on the error
    assert!(run
        .tenures
        .iter()
        .all(|t| t.last().is_none_or(|x| x.end_ms < run.end_ms)));
}

#[test]
fn a_session_timeout_the_broker_refuses_is_said_before_the_run_or_where_it_happens() {
    let g = group(2, &[4]);
    for session in [5_000, 1_800_001] {
        for protocol in [Protocol::Eager, Protocol::Cooperative] {
            let mut s = Settings {
                protocol,
                ..Settings::default()
            };
            s.client.session_timeout_ms = session;
            s.client.heartbeat_interval_ms = 1_000;
            let e = simulate(&g, &s, &Story::default()).unwrap_err().to_string();
            assert!(
                e.contains(&format!("session.timeout.ms = {session}"))
                    && e.contains("INVALID_SESSION_TIMEOUT"),
                "{e}"
            );
        }
    }
    // unless every member's first process has a session of its own
    let mut s = Settings::default();
    s.client.session_timeout_ms = 5_000;
    s.client.heartbeat_interval_ms = 1_000;
    let own = Story {
        script: "initially m0, m1 with session.timeout.ms=10000\n30s crash m1".into(),
        ..Story::new(StoryKind::Script)
    };
    let run = simulate(&g, &s, &own).unwrap();
    assert!(
        run.notes.iter().all(|n| !n.contains("refused")),
        "{:#?}",
        run.notes
    );
    let one = Story {
        script: "initially m0 with session.timeout.ms=10000\n30s crash m1".into(),
        ..Story::new(StoryKind::Script)
    };
    assert!(simulate(&g, &s, &one).is_err());
    // the consumer protocol's session is the broker's own
    let mut s = Settings {
        protocol: Protocol::Consumer,
        ..Settings::default()
    };
    s.client.session_timeout_ms = 5_000;
    s.client.heartbeat_interval_ms = 1_000;
    assert!(simulate(&g, &s, &Story::default()).is_ok());
    // one member restarted with it: refused at its JoinGroup, and the run says so
    let script = Story {
        script: "0s restart m1 for 1s with session.timeout.ms=5000 heartbeat.interval.ms=1000"
            .into(),
        ..Story::new(StoryKind::Script)
    };
    let run = simulate(&g, &Settings::default(), &script).unwrap();
    assert!(
        run.notes
            .iter()
            .any(|n| n.contains("m1's JoinGroup is refused with INVALID_SESSION_TIMEOUT")),
        "{:#?}",
        run.notes
    );
    // eight such joiners: the first five said one by one, then how many more
    let joiners = Story {
        script: "0s join 8 with session.timeout.ms=5000 heartbeat.interval.ms=1000".into(),
        ..Story::new(StoryKind::Script)
    };
    let notes = simulate(&g, &Settings::default(), &joiners).unwrap().notes;
    let refused = notes
        .iter()
        .filter(|n| n.contains("is refused with"))
        .count();
    assert_eq!(refused, 5, "{notes:#?}");
    assert!(
        notes
            .iter()
            .any(|n| n == "3 more requests are refused for good, as the events say."),
        "{notes:#?}"
    );
    // m0 takes every partition once m1 is gone
    assert!(run.tenures.iter().all(|t| t
        .last()
        .is_some_and(|x| x.end_ms == run.end_ms && x.member == 0)));
}

#[test]
fn a_topic_no_member_subscribes_to_never_stops_and_an_empty_group_never_stops() {
    // "audit" is read by nobody: it is not the group's to stop
    let g = Group {
        topics: vec![("orders".into(), 4), ("audit".into(), 20)],
        members: vec![
            ("a".into(), vec!["orders".into()]),
            ("b".into(), vec!["orders".into()]),
        ],
        ..Group::default()
    };
    for (protocol, static_membership) in all_protocols() {
        let s = settings(protocol, static_membership);
        let run = simulate(&g, &s, &Story::default()).unwrap();
        let c = run.costs;
        assert!(c.partitions_paused <= 4, "{protocol:?}: {c:?}");
        assert!(
            run.partition_peak_lag[4..].iter().all(|l| *l == 0),
            "{protocol:?}"
        );
        if static_membership {
            // each member back within its session: no rebalance, and nothing stops for
            // longer than the member's own downtime
            assert_eq!(c.rebalances, 0, "{protocol:?}");
            assert!(
                c.longest_partition_stop_ms <= Story::default().downtime_ms + 100,
                "{protocol:?}: {c:?}"
            );
        }
    }
    // a group with nothing to consume is never stopped
    let empty = Group {
        topics: vec![("t".into(), 0)],
        members: vec![
            ("a".into(), vec!["t".into()]),
            ("b".into(), vec!["t".into()]),
        ],
        ..Group::default()
    };
    for (protocol, _) in all_protocols() {
        let s = Settings {
            protocol,
            ..Settings::default()
        };
        let c = simulate(&empty, &s, &Story::default()).unwrap().costs;
        assert_eq!(
            (c.longest_group_stop_ms, c.partition_seconds_paused),
            (0, 0.0),
            "{protocol:?}"
        );
    }
}

#[test]
fn a_group_slow_to_form_costs_nothing_before_the_story_starts() {
    // with a minute's initial delay the group forms after 60 s: the story's crash costs
    // what it costs with the default delay (up to where the members' heartbeats fall)
    let g = group(3, &[6]);
    let crash = Story::new(StoryKind::Crash);
    for protocol in [Protocol::Eager, Protocol::Cooperative] {
        let quick = Settings {
            protocol,
            ..Settings::default()
        };
        let mut slow = quick;
        slow.broker.initial_rebalance_delay_ms = 60_000;
        let (a, b) = (
            simulate(&g, &quick, &crash).unwrap(),
            simulate(&g, &slow, &crash).unwrap(),
        );
        assert!(b.start_ms > a.start_ms, "{protocol:?}");
        let (a, b) = (a.costs, b.costs);
        let near = |x: i64, y: i64| (x - y).abs() <= quick.client.heartbeat_interval_ms;
        assert!(
            near(a.longest_partition_stop_ms, b.longest_partition_stop_ms)
                && near(a.longest_group_stop_ms, b.longest_group_stop_ms),
            "{protocol:?}: {a:?} against {b:?}"
        );
    }
}

#[test]
fn a_partition_still_stopped_when_the_run_ends_has_its_lag_counted() {
    // the only member crashes: its partitions wait until the run ends, lag growing
    let g = group(1, &[2]);
    let s = Settings {
        records_per_second: 100.0,
        ..Settings::default()
    };
    let story = Story {
        script: "0s crash m0".into(),
        ..Story::new(StoryKind::Script)
    };
    let run = simulate(&g, &s, &story).unwrap();
    let stopped_ms = run.end_ms - run.start_ms;
    assert_eq!(run.costs.longest_partition_stop_ms, stopped_ms);
    // at least what was produced while it stopped (plus what it had not committed)
    let produced = (stopped_ms / 10) as u64;
    assert!(
        run.partition_peak_lag.iter().all(|l| *l >= produced),
        "{:?} < {produced}",
        run.partition_peak_lag
    );
    assert!(run.costs.peak_lag_records >= produced);
}

#[test]
fn a_member_refused_at_its_sync_group_joins_again() {
    // max.poll.interval.ms, the rebalance timeout, ends before the SyncGroups arrive: the
    // coordinator removes the members, each SyncGroup gets UNKNOWN_MEMBER_ID, and each
    // member joins again (and again: this group never settles, and the run says so)
    let g = group(2, &[4]);
    let mut s = Settings::default();
    s.client.max_poll_interval_ms = 1;
    let run = simulate(&g, &s, &Story::new(StoryKind::Crash)).unwrap();
    // (the first SyncGroups are answered at 3 s, the group formed after its initial delay)
    let said = |what: &str, by: i64| {
        run.happenings
            .iter()
            .any(|h| h.detail.contains(what) && h.time_ms < by)
    };
    assert!(said("UNKNOWN_MEMBER_ID", 4_000), "{:#?}", run.happenings);
    assert!(said("Generation 3:", 7_000), "{:#?}", run.happenings);
    assert!(
        run.notes
            .iter()
            .any(|n| n
                .contains("4 of the 4 partitions the members subscribe to were never consumed")),
        "{:#?}",
        run.notes
    );
    // and they count as stopped from the story's start to the run's end
    let whole = (run.end_ms - run.start_ms) as f64 / 1000.0;
    assert!((run.costs.partition_seconds_paused - 4.0 * whole).abs() < 1e-6);
}

#[test]
fn a_partition_the_group_should_consume_when_the_story_starts_stops_from_then() {
    // a's first process is refused (its session is below the broker's minimum), so "audit",
    // which only a reads, waits from the story's start until a's second process takes it
    let g = Group {
        topics: vec![("orders".into(), 4), ("audit".into(), 2)],
        members: vec![
            ("a".into(), vec!["orders".into(), "audit".into()]),
            ("b".into(), vec!["orders".into()]),
        ],
        ..Group::default()
    };
    let story = Story {
        script: "initially a with session.timeout.ms=5000 heartbeat.interval.ms=1000\n\
                 60s restart a for 5s with session.timeout.ms=45000 heartbeat.interval.ms=3000"
            .into(),
        ..Story::new(StoryKind::Script)
    };
    let run = simulate(&g, &Settings::default(), &story).unwrap();
    assert!(
        run.notes
            .iter()
            .any(|n| n.contains("INVALID_SESSION_TIMEOUT")),
        "{:#?}",
        run.notes
    );
    let first = |p: usize| run.tenures[p].first().map(|t| t.start_ms).unwrap();
    let c = run.costs;
    // audit-0 and audit-1 (partitions 4 and 5) first consumed after a's restart
    for p in [4, 5] {
        let waited = first(p) - run.start_ms;
        assert!(waited > 65_000, "{waited}");
        assert!(c.longest_partition_stop_ms >= waited, "{c:?}");
    }
    assert!(c.partition_seconds_paused >= 2.0 * 65.0, "{c:?}");
}
