//! `rebalance-lab timeline`: a deploy, a crash or a scale-out over time, and what it costs.

use super::input::read_input;
use rebalance_lab_core::scenario::Scenario;
use rebalance_lab_core::timeline::broker_trace::Line;
use rebalance_lab_core::timeline::compare::{compare, Variant};
use rebalance_lab_core::timeline::consumer::Trace;
use rebalance_lab_core::timeline::{
    simulate, CommitPolicy, Group, Protocol, Run, Settings, Story, StoryKind, ASSUMPTIONS,
};
use serde_json::{json, Value};

/// The stories.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Event {
    /// Each member closed, down for --downtime-ms, started again; --count at once.
    RollingRestart,
    /// The first member closed and started again after --downtime-ms.
    Replace,
    /// The first member dies (no commit, no LeaveGroup), back after --downtime-ms.
    Crash,
    /// --count new members join.
    ScaleOut,
    /// The last --count members close.
    ScaleIn,
    /// One batch of the first member takes --downtime-ms.
    SlowPoll,
    /// The first member is cut off for --downtime-ms.
    NetworkCut,
    /// The move to cooperative-sticky: rolling restarts (as rolling-restart) that end with
    /// every member listing cooperative-sticky alone, after a first one that adds it to the
    /// lists that lack it (a classic group's story).
    ToCooperative,
    /// A script written by hand, given with --script.
    Script,
}

impl From<Event> for StoryKind {
    fn from(e: Event) -> Self {
        match e {
            Event::RollingRestart => StoryKind::RollingRestart,
            Event::Replace => StoryKind::Replace,
            Event::Crash => StoryKind::Crash,
            Event::ScaleOut => StoryKind::ScaleOut,
            Event::ScaleIn => StoryKind::ScaleIn,
            Event::SlowPoll => StoryKind::SlowPoll,
            Event::NetworkCut => StoryKind::NetworkCut,
            Event::ToCooperative => StoryKind::ToCooperative,
            Event::Script => StoryKind::Script,
        }
    }
}

/// The rebalance protocols.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ProtocolArg {
    /// Classic with the Java default [range, cooperative-sticky]: eager.
    Eager,
    /// Classic with cooperative-sticky alone.
    Cooperative,
    /// group.protocol=consumer (KIP-848).
    Consumer,
    /// Classic, each member listing its own partition.assignment.strategy as the scenario
    /// gives it: the coordinator's vote picks the assignor, and each member rebalances
    /// eagerly or cooperatively as its list gives.
    Listed,
}

/// Run a story on a scenario's group over time and print what happened and what it cost.
#[derive(Debug, clap::Args)]
#[command(
    // (so that `--gap-ms -1` is read as a number, and refused as one)
    allow_negative_numbers = true,
    long_about = "Run a story (a rolling restart, a crash, a scale-out...) on the group of a \
scenario file, on a virtual clock, and print every event and the totals: rebalances, \
partition-seconds with no consumer, the longest stop of a partition and of the whole group, \
the peak lag, and the records read twice or never processed.\n\n\
The broker's side is Kafka's classic coordinator (checked against Kafka's own \
GroupMetadataManager) or the consumer protocol's rules; the clients are a model of the Java \
consumer. Settings are named after Kafka's and default to Kafka's defaults. The run uses \
the scenario's assignor where the protocol runs it (range or roundrobin under eager, \
uniform or server-range under the consumer protocol) and says when it uses another. With \
--protocol listed each member lists its own partition.assignment.strategy from the scenario, \
the coordinator's vote picks the assignor, and each member rebalances eagerly or \
cooperatively as its own list gives.",
    after_help = "\
Examples:
  rebalance-lab timeline examples/three-topics.json --event rolling-restart
  rebalance-lab timeline examples/three-topics.json --event rolling-restart --static
  rebalance-lab timeline examples/three-topics.json --event crash --protocol consumer --json
  rebalance-lab timeline examples/three-topics.json --event rolling-restart --no-leave-on-close --compare
  rebalance-lab timeline examples/three-topics.json --script '0s crash C0; 20s start C0; 40s join 1'"
)]
pub struct Args {
    /// The scenario file (JSON), or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// The story to run.
    /// [default: rolling-restart; with --script: script]
    #[arg(long, value_enum)]
    event: Option<Event>,
    /// The rebalance protocol.
    #[arg(long, value_enum, default_value = "eager")]
    protocol: ProtocolArg,
    /// session.timeout.ms (classic).
    #[arg(long, default_value_t = 45_000, value_name = "MS")]
    session_timeout_ms: i64,
    /// heartbeat.interval.ms (classic).
    #[arg(long, default_value_t = 3_000, value_name = "MS")]
    heartbeat_interval_ms: i64,
    /// max.poll.interval.ms, also the rebalance timeout.
    #[arg(long, default_value_t = 300_000, value_name = "MS")]
    max_poll_interval_ms: i64,
    /// The broker's group.initial.rebalance.delay.ms.
    #[arg(long, default_value_t = 3_000, value_name = "MS")]
    initial_rebalance_delay_ms: i64,
    /// auto.commit.interval.ms (with auto-commit, the default).
    #[arg(
        long,
        default_value_t = 5_000,
        value_name = "MS",
        conflicts_with_all = ["commit_after_batch", "commit_before_processing"]
    )]
    auto_commit_interval_ms: i64,
    /// Commit after each batch instead of auto-commit.
    #[arg(long, conflicts_with = "commit_before_processing")]
    commit_after_batch: bool,
    /// Commit each batch before processing it (at most once).
    #[arg(long)]
    commit_before_processing: bool,
    /// max.poll.records.
    #[arg(long, default_value_t = 500, value_name = "N")]
    max_poll_records: u32,
    /// Processing time per record, in milliseconds.
    #[arg(long, default_value_t = 0.5, value_name = "MS")]
    processing_ms: f64,
    /// Give every member a group.instance.id (static membership).
    #[arg(long = "static")]
    static_membership: bool,
    /// close() sends no LeaveGroup, as Kafka Streams closes.
    #[arg(long)]
    no_leave_on_close: bool,
    /// group.consumer.heartbeat.interval.ms (consumer protocol).
    #[arg(long, default_value_t = 5_000, value_name = "MS")]
    consumer_heartbeat_interval_ms: i64,
    /// group.consumer.session.timeout.ms (consumer protocol).
    #[arg(long, default_value_t = 45_000, value_name = "MS")]
    consumer_session_timeout_ms: i64,
    /// How long a member is down (restart, crash), a slow batch takes, or a cut lasts
    /// [default: 20000; slow-poll: 360000; network-cut: 60000].
    #[arg(long, value_name = "MS")]
    downtime_ms: Option<i64>,
    /// Rolling restart: from one member's return to the next one's stop.
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    gap_ms: i64,
    /// Rolling restart: members at once; scale out or in: by how many.
    #[arg(long, default_value_t = 1, value_name = "N")]
    count: u32,
    /// What each member does when, one statement a line or between `;` (implies --event
    /// script): a time from the story's start (20s, 1.5s, 500ms, 2m), then `close`,
    /// `crash`, `start`, `restart ... for D`, `slow ... for D` or `cut ... for D` with member
    /// names separated by commas, or `join N`; `start`, `restart` and `join` take `with` and
    /// the settings the process starts with (`with session.timeout.ms=10000
    /// partition.assignment.strategy=cooperative-sticky`); `initially m1 with ...`, with no
    /// time, gives a member's first process its settings; `#` starts a comment. @FILE
    /// reads it from a file.
    #[arg(long, value_name = "TEXT|@FILE", conflicts_with_all = ["downtime_ms", "gap_ms", "count"])]
    script: Option<String>,
    /// Records produced per second to each partition.
    #[arg(long, default_value_t = 100.0, value_name = "N")]
    rate: f64,
    /// A request's round trip to the coordinator, in milliseconds.
    #[arg(long, default_value_t = 2, value_name = "MS")]
    round_trip_ms: i64,
    /// Also print every request to the coordinator and its answer, with its time, and each
    /// of the coordinator's timers that fires.
    #[arg(long)]
    requests: bool,
    /// Also print, for each partition, who consumed it when and the offset each consumer
    /// started from (a new owner: the last committed offset).
    #[arg(long)]
    partitions: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Run the story under eager, cooperative-sticky, static members and the consumer
    /// protocol (and each member's own assignor list, when the scenario gives other lists
    /// than the Java default), and print the totals side by side.
    #[arg(long, conflicts_with_all = ["protocol", "static_membership"])]
    compare: bool,
}

pub fn run(a: Args) -> Result<String, String> {
    let scenario = Scenario::from_json(&read_input(&a.file)?)?;
    if let Some(p) = scenario.problems().first() {
        return Err(p.to_string());
    }
    let group = Group::of_scenario(&scenario);
    let mut s = Settings {
        protocol: match a.protocol {
            ProtocolArg::Eager => Protocol::Eager,
            ProtocolArg::Cooperative => Protocol::Cooperative,
            ProtocolArg::Consumer => Protocol::Consumer,
            ProtocolArg::Listed => Protocol::Listed,
        },
        round_trip_ms: a.round_trip_ms,
        records_per_second: a.rate,
        // each partition's owners only when asked; a story runs to its end however long (a
        // run's events are its memory's bound)
        keep_tenures: a.partitions,
        max_events: 1_000_000_000,
        ..Settings::default()
    };
    let c = &mut s.client;
    c.session_timeout_ms = a.session_timeout_ms;
    c.heartbeat_interval_ms = a.heartbeat_interval_ms;
    c.max_poll_interval_ms = a.max_poll_interval_ms;
    c.commit = if a.commit_after_batch {
        CommitPolicy::AfterBatch
    } else if a.commit_before_processing {
        CommitPolicy::BeforeProcessing
    } else {
        CommitPolicy::Auto {
            interval_ms: a.auto_commit_interval_ms,
        }
    };
    c.max_poll_records = a.max_poll_records;
    c.processing_ms_per_record = a.processing_ms;
    c.static_membership = a.static_membership;
    c.leave_on_close = !a.no_leave_on_close;
    s.broker.initial_rebalance_delay_ms = a.initial_rebalance_delay_ms;
    s.consumer_group.heartbeat_interval_ms = a.consumer_heartbeat_interval_ms;
    s.consumer_group.session_timeout_ms = a.consumer_session_timeout_ms;
    let event = match (a.event, &a.script) {
        (Some(e), _) => e,
        (None, Some(_)) => Event::Script,
        (None, None) => Event::RollingRestart,
    };
    let mut story = Story::new(event.into());
    match (&a.script, story.kind) {
        (Some(_), kind) if kind != StoryKind::Script => {
            return Err(format!(
                "--script is its own story: leave out --event {} (or give --event script)",
                kind.name()
            ))
        }
        (Some(text), _) => {
            story.script =
                match text.strip_prefix('@') {
                    Some("-") if a.file == "-" => return Err(
                        "--script @- and FILE - both read standard input: give one of them a file"
                            .into(),
                    ),
                    Some(file) => read_input(file)?,
                    None => text.clone(),
                };
        }
        (None, StoryKind::Script) => {
            return Err(
                "--event script takes the script with --script TEXT or --script @FILE".into(),
            )
        }
        (None, _) => {}
    }
    if let Some(d) = a.downtime_ms {
        story.downtime_ms = d;
    }
    story.gap_ms = a.gap_ms;
    story.count = a.count;
    if a.compare && (a.requests || a.partitions) {
        return Err("--compare prints several runs' totals side by side; --requests and --partitions list one run's (leave out --compare)".into());
    }
    let partitions = scenario.total_partitions();
    if group.members.len() as u64 * partitions >= 10_000_000 {
        // (a rolling restart of 1,000 members over 100,000 partitions takes 15 to 50 s)
        eprintln!(
            "note: {} members over {partitions} partitions: every member's requests at every rebalance are simulated, which at this size can take minutes{}",
            group.members.len(),
            if a.compare { " for each of the runs compared" } else { "" }
        );
    }
    if a.compare {
        let runs = compare(&group, &s, &story);
        return if a.json {
            compare_json(&group, &runs)
        } else {
            compare_text(&group, &story, &runs)
        };
    }
    let run = if a.requests && s.protocol == Protocol::Consumer {
        rebalance_lab_core::timeline::consumer::run_traced(&group, &s, &story, Trace::Requests)
    } else if a.requests {
        rebalance_lab_core::timeline::classic::run_traced(&group, &s, &story, true)
    } else {
        simulate(&group, &s, &story)
    }
    .map_err(|e| e.to_string())?;
    Ok(if a.json {
        let mut v = run_json(&run);
        if a.requests {
            v["requests"] = Value::Array(run.wire.iter().filter_map(wire_json).collect());
        }
        if a.partitions {
            v["partitions"] = Value::Array(
                partition_names(&run)
                    .zip(&run.tenures)
                    .zip(&run.partition_peak_lag)
                    .map(|((name, tenures), peak_lag)| {
                        let consumers: Vec<Value> = tenures
                            .iter()
                            .map(|t| {
                                json!({
                                    "member": run.members[t.member], "from_ms": t.start_ms,
                                    "to_ms": t.end_ms, "start_offset": t.start_offset,
                                })
                            })
                            .collect();
                        json!({"partition": name, "peak_lag_records": peak_lag, "consumers": consumers})
                    })
                    .collect(),
            );
        }
        v.to_string()
    } else {
        let mut text = run_text(&story, &run);
        if a.partitions {
            text.push_str(
                "\n\nEach partition's lag at its peak, and its consumers (from, to, and the offset each started from):\n",
            );
            let lines: Vec<String> = partition_names(&run)
                .zip(&run.tenures)
                .zip(&run.partition_peak_lag)
                .map(|((name, tenures), peak_lag)| {
                    let said: Vec<String> = tenures
                        .iter()
                        .map(|t| {
                            format!(
                                "{} {:.3}-{:.3} s from offset {}",
                                run.members[t.member],
                                t.start_ms as f64 / 1000.0,
                                t.end_ms as f64 / 1000.0,
                                t.start_offset
                            )
                        })
                        .collect();
                    format!("{name}: peak lag {peak_lag} records; {}", said.join("; "))
                })
                .collect();
            text.push_str(&lines.join("\n"));
        }
        if a.requests {
            text.push_str("\n\nRequests to the coordinator and its answers:\n");
            let lines: Vec<String> = run.wire.iter().filter_map(wire_text).collect();
            text.push_str(&lines.join("\n"));
        }
        text
    })
}

/// A request, a response or a timer of the trace, as JSON (the group's lines left out).
fn wire_json(line: &Line) -> Option<Value> {
    match line {
        Line::Request { t, request } => Some(json!({
            "time_ms": t, "member": request.client, "request": request.api.name(),
            "new_member": request.new_member,
        })),
        Line::Response { t, response: r } => Some(json!({
            "time_ms": t, "member": r.client, "response": r.api.name(), "error": r.error.name(),
            "generation": r.generation, "member_id": r.member_id, "leader": r.leader,
        })),
        Line::TimerFired { t, key } => Some(json!({"time_ms": t, "timer": key})),
        Line::Heartbeat { t, request: r } => Some(json!({
            "time_ms": t, "member": r.client, "request": "ConsumerGroupHeartbeat",
            "member_id": r.member_id, "member_epoch": r.member_epoch,
            "owned_partitions": r.owned.as_ref().map(Vec::len),
        })),
        Line::HeartbeatAnswer { t, response: r } => Some(json!({
            "time_ms": t, "member": r.client, "response": "ConsumerGroupHeartbeat",
            "error": r.error.name(), "member_epoch": r.member_epoch,
            "assigned_partitions": r.assignment.as_ref().map(Vec::len),
        })),
        Line::Group { .. } | Line::ConsumerGroup { .. } => None,
    }
}

/// A request, a response or a timer of the trace, as a line.
fn wire_text(line: &Line) -> Option<String> {
    let (t, who, what) = line.as_row()?;
    Some(format!("{}  {who}: {what}", ms(t)))
}

fn costs_json(run: &Run) -> Value {
    let c = &run.costs;
    json!({
        "rebalances": c.rebalances,
        "partition_seconds_paused": (c.partition_seconds_paused * 1000.0).round() / 1000.0,
        "partitions_paused": c.partitions_paused,
        "longest_partition_stop_ms": c.longest_partition_stop_ms,
        "longest_group_stop_ms": c.longest_group_stop_ms,
        "peak_lag_records": c.peak_lag_records,
        "records_read_twice": c.records_read_twice,
        "records_missed": c.records_missed,
    })
}

fn run_json(run: &Run) -> Value {
    let mut v = costs_json(run);
    let events: Vec<Value> = run
        .happenings
        .iter()
        .map(|h| json!({"time_ms": h.time_ms, "member": h.member, "event": h.kind, "detail": h.detail}))
        .collect();
    v["protocol"] = json!(run.protocol.name());
    v["assignor"] = json!(run.assignor.name());
    v["assignors"] = json!(assignor_names(run));
    v["static"] = json!(run.static_membership);
    v["start_ms"] = json!(run.start_ms);
    v["end_ms"] = json!(run.end_ms);
    v["events"] = Value::Array(events);
    v["notes"] = json!(run.notes);
    v["assumptions"] = json!(ASSUMPTIONS);
    let w = run.work;
    v["work"] = json!({
        "events": w.events,
        "partition_starts": w.partition_starts,
        "assignments": w.assignments,
    });
    v
}

/// Each partition's name (`topic-p`), in the run's order of partitions.
fn partition_names(run: &Run) -> impl Iterator<Item = String> + '_ {
    run.topics
        .iter()
        .flat_map(|(t, n)| (0..*n).map(move |p| format!("{t}-{p}")))
}

fn ms(t: i64) -> String {
    format!("{:>9.3} s", t as f64 / 1000.0)
}

fn totals(run: &Run) -> Vec<String> {
    let c = &run.costs;
    vec![
        format!("rebalances: {}", c.rebalances),
        format!(
            "partition-seconds with no consumer: {:.1} ({} of {} partitions stopped)",
            c.partition_seconds_paused,
            c.partitions_paused,
            run.topics.iter().map(|(_, n)| u64::from(*n)).sum::<u64>()
        ),
        format!(
            "longest stop of one partition: {:.1} s",
            c.longest_partition_stop_ms as f64 / 1000.0
        ),
        format!(
            "longest stop of the whole group: {:.1} s",
            c.longest_group_stop_ms as f64 / 1000.0
        ),
        format!("peak lag of a partition: {} records", c.peak_lag_records),
        format!("records read twice: {}", c.records_read_twice),
        format!("records never processed: {}", c.records_missed),
    ]
}

/// Each assignor the coordinator's vote picked, in order.
fn assignor_names(run: &Run) -> Vec<&'static str> {
    run.assignors.iter().map(|a| a.name()).collect()
}

fn run_text(story: &Story, run: &Run) -> String {
    let mut out = vec![format!(
        "{} under {}{} (the story starts at {:.1} s)",
        story.kind.label(),
        run.label(),
        if run.static_membership {
            ", static members"
        } else {
            ""
        },
        run.start_ms as f64 / 1000.0
    )];
    for h in &run.happenings {
        let who = h.member.as_deref().unwrap_or("group");
        out.push(format!("{}  {who}: {}", ms(h.time_ms), h.detail));
    }
    out.push(String::new());
    out.extend(totals(run));
    for n in &run.notes {
        out.push(format!("note: {n}"));
    }
    out.push(String::new());
    out.push("Assumed:".into());
    out.extend(ASSUMPTIONS.iter().map(|a| format!("- {a}")));
    out.join("\n")
}

fn compare_text(
    group: &Group,
    story: &Story,
    runs: &[(
        Variant,
        Result<Run, rebalance_lab_core::timeline::TimelineError>,
    )],
) -> Result<String, String> {
    let mut rows = vec![[
        "".to_string(),
        "rebalances".into(),
        "partition-s paused".into(),
        "longest partition stop".into(),
        "longest group stop".into(),
        "peak lag".into(),
        "read twice".into(),
        "never processed".into(),
    ]];
    for (v, r) in runs {
        let run = r
            .as_ref()
            .map_err(|e| format!("{}: {e}", v.label(group.assignor_under(v.protocol).0)))?;
        let c = &run.costs;
        rows.push([
            v.label_of(run),
            c.rebalances.to_string(),
            format!("{:.1}", c.partition_seconds_paused),
            format!("{:.1} s", c.longest_partition_stop_ms as f64 / 1000.0),
            format!("{:.1} s", c.longest_group_stop_ms as f64 / 1000.0),
            c.peak_lag_records.to_string(),
            c.records_read_twice.to_string(),
            c.records_missed.to_string(),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = vec![format!(
        "{}: the same story under each protocol",
        story.kind.label()
    )];
    for r in &rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, cell)| {
                if i == 0 {
                    format!("{cell:<w$}", w = widths[i])
                } else {
                    format!("{cell:>w$}", w = widths[i])
                }
            })
            .collect();
        out.push(cells.join("  ").trim_end().to_string());
    }
    Ok(out.join("\n"))
}

fn compare_json(
    group: &Group,
    runs: &[(
        Variant,
        Result<Run, rebalance_lab_core::timeline::TimelineError>,
    )],
) -> Result<String, String> {
    let mut list = Vec::new();
    for (v, r) in runs {
        let run = r
            .as_ref()
            .map_err(|e| format!("{}: {e}", v.label(group.assignor_under(v.protocol).0)))?;
        let mut c = costs_json(run);
        c["variant"] = json!(v.name());
        c["protocol"] = json!(v.protocol.name());
        c["assignor"] = json!(run.assignor.name());
        c["assignors"] = json!(assignor_names(run));
        c["static"] = json!(v.static_membership);
        list.push(c);
    }
    Ok(Value::Array(list).to_string())
}
