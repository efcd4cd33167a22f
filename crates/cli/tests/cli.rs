//! The binary's conventions: help with an example for every command, --version, usage
//! errors (exit code 2, hint on stderr), `-` for standard input, bad input (exit code 1).
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_rebalance-lab");
const COMMANDS: [&str; 10] = [
    "timeline",
    "assign",
    "coordinator",
    "vote",
    "leader",
    "decode",
    "encode",
    "link",
    "bench",
    "completions",
];
const SUBSCRIPTION_HEX: &str = "00030000000100057330312d610000000000000000ffffffff0000";

fn example() -> String {
    format!(
        "{}/../../examples/three-topics.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn run_with_stdin(args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_ref())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Runs the command, which must succeed, and reads the JSON it prints.
fn run_json(args: &[&str]) -> serde_json::Value {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The variants a `timeline --compare --json` lists, in order.
fn variants(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| r["variant"].as_str().unwrap())
        .collect()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn every_command_has_help_with_an_example() {
    for cmd in COMMANDS {
        for flag in ["--help", "-h"] {
            let out = run(&[cmd, flag]);
            let stdout = text(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{cmd} {flag}");
            assert!(out.stderr.is_empty(), "{cmd} {flag}: {}", text(&out.stderr));
            assert!(
                stdout.contains("Usage: rebalance-lab"),
                "{cmd} {flag}: {stdout}"
            );
            let example = stdout
                .split("Examples:")
                .nth(1)
                .unwrap_or_else(|| panic!("{cmd} {flag}: no examples\n{stdout}"));
            assert!(
                example.contains(&format!("rebalance-lab {cmd} ")),
                "{cmd} {flag}: {example}"
            );
        }
        // `help CMD` says the same as `CMD --help`.
        assert_eq!(run(&["help", cmd]).stdout, run(&[cmd, "--help"]).stdout);
    }
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    for cmd in COMMANDS {
        assert!(stdout.contains(cmd), "{stdout}");
    }
    assert!(stdout.contains("Exit codes"), "{stdout}");
}

#[test]
fn the_examples_in_the_help_run() {
    // The first example of each command that needs no file of its own.
    let out = run(&["assign", &example()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&["decode", SUBSCRIPTION_HEX]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run_with_stdin(
        &["encode", "--version", "3", "-"],
        r#"{"topics": ["orders"], "rack_id": "eu-west-1a"}"#,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn version() {
    for flag in ["--version", "-V"] {
        let out = run(&[flag]);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            text(&out.stdout).trim(),
            format!("rebalance-lab {}", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn no_arguments_is_a_usage_error_with_the_help() {
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("Usage: rebalance-lab <COMMAND>"));
}

#[test]
fn unknown_options_and_commands_exit_2_with_a_hint() {
    let example = example();
    for args in [
        vec!["assign", "--bogus", &example],
        vec!["assign", &example, "--help-me"],
        vec!["decode", "--bogus", SUBSCRIPTION_HEX],
        vec!["bench", "--members"],
        vec!["bench", "--members", "0"],
        vec!["bench", "--members", "many"],
        vec!["assign", &example, "--assignor", "nonesuch"],
        vec![
            "assign",
            &example,
            "--assignor",
            "sticky",
            "--follow-up",
            "extra",
        ],
        vec!["encode", "--version", "-1", "-"],
        vec!["encode", &example],
        vec!["assign"],
        vec!["assign", &example, &example],
        vec!["completions", "tcsh"],
        vec!["frobnicate"],
    ] {
        let out = run(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains("--help"), "{args:?}: no hint: {stderr}");
    }
}

#[test]
fn sticky_assignors_run_and_follow_up_needs_cooperative() {
    let example = example();
    for a in ["sticky", "cooperative-sticky"] {
        run_json(&["assign", &example, "--assignor", a]);
    }
    let out = run(&[
        "assign",
        &example,
        "--assignor",
        "cooperative-sticky",
        "--follow-up",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&["assign", &example, "--assignor", "sticky", "--follow-up"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("cooperative-sticky"));
}

#[test]
fn a_repeated_option_is_an_error() {
    let example = example();
    for args in [
        vec![
            "assign",
            "--assignor",
            "range",
            "--assignor",
            "roundrobin",
            &example,
        ],
        vec!["assign", "--assignor=range", "--assignor=range", &example],
        vec!["link", "--base", "a", "--base", "b", &example],
        vec!["encode", "--version", "1", "--version", "3", "-"],
        vec!["bench", "--runs", "1", "--runs", "2"],
        vec!["bench", "--json", "--json"],
    ] {
        let out = run(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot be used multiple times"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn dash_reads_standard_input_everywhere() {
    let example = example();
    let scenario = std::fs::read_to_string(&example).unwrap();
    for cmd in ["assign", "link"] {
        let from_file = run(&[cmd, &example]);
        let from_stdin = run_with_stdin(&[cmd, "-"], &scenario);
        assert_eq!(from_file.status.code(), Some(0), "{cmd}");
        assert_eq!(from_stdin.status.code(), Some(0), "{cmd}");
        assert_eq!(from_file.stdout, from_stdin.stdout, "{cmd}");
    }
    let from_arg = run(&["decode", SUBSCRIPTION_HEX]);
    let from_stdin = run_with_stdin(&["decode", "-"], format!("{SUBSCRIPTION_HEX}\n"));
    assert_eq!(from_arg.status.code(), Some(0));
    assert_eq!(from_arg.stdout, from_stdin.stdout);
    // encode reads the fields decode printed and gives the same bytes back.
    let encoded = run_with_stdin(&["encode", "--version", "3", "-"], text(&from_arg.stdout));
    assert_eq!(encoded.status.code(), Some(0), "{}", text(&encoded.stderr));
    assert_eq!(text(&encoded.stdout).trim(), SUBSCRIPTION_HEX);
}

#[test]
fn bad_input_exits_1_with_a_message() {
    let dir = std::env::temp_dir().join(format!("rl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"topics\": {\"t\": 3}, \"members\": [").unwrap();
    let bad = bad.to_str().unwrap();
    let missing = dir.join("missing.json");
    let missing = missing.to_str().unwrap();
    for (args, stdin, says) in [
        (vec!["assign", bad], "", "scenario JSON: EOF while parsing"),
        (vec!["link", bad], "", "scenario JSON"),
        (vec!["assign", missing], "", "missing.json: No such file"),
        (
            vec!["assign", "-"],
            "\"x\"",
            "scenario JSON: line 1: a scenario is a JSON object, such as",
        ),
        (
            vec!["timeline", "-"],
            "\n\n  []",
            "line 3: a scenario is a JSON object, such as {\"topics\"",
        ),
        (vec!["timeline", "-"], "", "and this is nothing"),
        (
            vec!["timeline", "-", "--script", "@-"],
            r#"{"topics": {"t": 2}, "members": [{"id": "a", "topics": ["t"]}]}"#,
            "--script @- and FILE - both read standard input",
        ),
        (
            vec!["assign", "-"],
            "{\"topics\": {\"t\": -1}}",
            "partition count -1",
        ),
        (vec!["decode", "zz"], "", "line 1, column 1"),
        (vec!["decode", "-"], "0003", "incomplete"),
        (vec!["encode", "--version", "3", "-"], "[1]", "fields JSON"),
    ] {
        let out = run_with_stdin(&args, stdin.as_bytes());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("rebalance-lab: "), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = run_with_stdin(&["assign", "-"], b"{\"topics\": {\"\xff\": 1}}");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("standard input: not UTF-8 text (invalid byte at offset 13)")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn completions() {
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        assert!(script.contains("rebalance-lab"), "{shell}");
        assert!(
            script.contains("assign") && script.contains("assignor"),
            "{shell}"
        );
    }
}

/// Sticky with one member gone decodes every member's StickyAssignor user data in each timed
/// run (as Java's assign() does) and still assigns every partition; the other rebalances and
/// assignors say they decode nothing.
#[test]
fn bench_sticky_one_leaves_decodes_the_user_data() {
    let small = [
        "--members",
        "40",
        "--topics",
        "6",
        "--partitions",
        "30",
        "--runs",
        "3",
        "--json",
    ];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        ["bench"]
            .iter()
            .chain(extra)
            .chain(&small)
            .copied()
            .collect()
    };
    let v = run_json(&with(&[
        "--assignor",
        "sticky",
        "--rebalance",
        "one-leaves",
    ]));
    assert_eq!(v["decodes_user_data"], true, "{v}");
    assert_eq!(v["rebalance"], "one-leaves");
    for extra in [
        &["--assignor", "sticky"][..],
        &[
            "--assignor",
            "cooperative-sticky",
            "--rebalance",
            "one-leaves",
        ],
    ] {
        let v = run_json(&with(extra));
        assert_eq!(v["decodes_user_data"], false, "{extra:?} {v}");
    }
}

#[test]
fn timeline_prints_the_totals_as_json_and_compares_the_protocols() {
    let v = run_json(&[
        "timeline",
        &example(),
        "--event",
        "crash",
        "--session-timeout-ms",
        "10000",
        "--json",
    ]);
    for key in [
        "rebalances",
        "partition_seconds_paused",
        "longest_partition_stop_ms",
        "longest_group_stop_ms",
        "records_read_twice",
        "records_missed",
        "events",
    ] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    // the crashed member's partitions wait for its session to time out (10 s after its
    // last heartbeat), then for the others to notice at their next heartbeat (3 s apart)
    let stop = v["longest_partition_stop_ms"].as_i64().unwrap();
    assert!((7_000..=13_020).contains(&stop), "{stop}");
    assert!(v["events"][0]["time_ms"].is_i64() && v["events"][0]["member"].is_string());
    // and what computing it took: a crash is one rebalance after the group formed, one
    // assignment each under eager
    let work = &v["work"];
    assert!(work["events"].as_u64().unwrap() > 0, "{work}");
    assert_eq!(
        work["assignments"],
        1 + v["rebalances"].as_u64().unwrap(),
        "{work}"
    );

    let v = run_json(&["timeline", &example(), "--compare", "--json"]);
    assert_eq!(
        variants(&v),
        ["eager", "cooperative", "eager-static", "consumer"]
    );

    // every request to the classic coordinator, with its time
    let v = run_json(&[
        "timeline",
        &example(),
        "--event",
        "scale-out",
        "--requests",
        "--json",
    ]);
    let requests = v["requests"].as_array().unwrap();
    assert!(requests
        .iter()
        .any(|r| r["request"] == "JoinGroup" && r["new_member"] == true));
    assert!(requests
        .iter()
        .any(|r| r["response"] == "SyncGroup" && r["error"] == "NONE"));
    // the consumer protocol's heartbeats: a join at epoch 0 answered with an epoch and an
    // assignment, and each member's leave at epoch -1 in the rolling restart
    let v = run_json(&[
        "timeline",
        &example(),
        "--protocol",
        "consumer",
        "--requests",
        "--json",
    ]);
    let requests = v["requests"].as_array().unwrap();
    assert!(requests
        .iter()
        .any(|r| r["request"] == "ConsumerGroupHeartbeat" && r["member_epoch"] == 0));
    assert!(requests
        .iter()
        .any(|r| r["request"] == "ConsumerGroupHeartbeat" && r["member_epoch"] == -1));
    assert!(requests
        .iter()
        .any(|r| r["response"] == "ConsumerGroupHeartbeat"
            && r["error"] == "NONE"
            && r["member_epoch"].as_i64().unwrap_or(0) > 0
            && r["assigned_partitions"].as_u64().is_some()));

    // each partition's consumers, and the offset each started from: after a crash the new
    // owner starts from the last committed offset, at most what was produced by then
    let v = run_json(&[
        "timeline",
        &example(),
        "--event",
        "crash",
        "--rate",
        "10",
        "--partitions",
        "--json",
    ]);
    let partitions = v["partitions"].as_array().unwrap();
    assert!(!partitions.is_empty());
    let mut handed_over = 0;
    for p in partitions {
        let consumers = p["consumers"].as_array().unwrap();
        for c in consumers {
            let (from, offset) = (
                c["from_ms"].as_i64().unwrap(),
                c["start_offset"].as_u64().unwrap(),
            );
            assert!(offset as f64 <= from as f64 / 100.0 + 0.5, "{p}");
        }
        // a later consumer starts where the last commit left the partition
        handed_over += consumers
            .iter()
            .skip(1)
            .filter(|c| c["start_offset"].as_u64().unwrap() > 0)
            .count();
    }
    assert!(handed_over > 0, "{partitions:?}");
    // the settings are checked for a run with its requests listed too
    let out = run(&[
        "timeline",
        &example(),
        "--protocol",
        "consumer",
        "--requests",
        "--consumer-heartbeat-interval-ms",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let out = run(&[
        "timeline",
        &example(),
        "--requests",
        "--round-trip-ms=-5000",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let out = run(&["timeline", &example(), "--compare", "--partitions"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("--compare"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["timeline", &example(), "--event", "crash", "--partitions"]);
    assert!(
        text(&out.stdout).contains("from offset"),
        "{}",
        text(&out.stdout)
    );

    let out = run(&["timeline", &example(), "--heartbeat-interval-ms", "50000"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("heartbeat.interval.ms"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn timeline_refuses_what_it_would_ignore_and_bad_settings_under_compare() {
    // bad settings fail the side-by-side table as they fail one run
    let out = run(&[
        "timeline",
        &example(),
        "--compare",
        "--session-timeout-ms",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("session.timeout.ms"),
        "{}",
        text(&out.stderr)
    );
    // options that would change nothing are refused, not dropped
    for args in [
        &["--compare", "--static"][..],
        &["--compare", "--protocol", "consumer"],
        &["--commit-after-batch", "--auto-commit-interval-ms", "1000"],
        &[
            "--commit-before-processing",
            "--auto-commit-interval-ms",
            "1000",
        ],
    ] {
        let out = run(&[&["timeline", &example()][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("cannot be used with"),
            "{args:?}"
        );
    }
    // a negative number is read as one, and refused with its range
    let out = run(&["timeline", &example(), "--gap-ms", "-1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("gap"), "{}", text(&out.stderr));
    // the table has the peak lag; each partition's own is listed with its consumers
    let out = run(&["timeline", &example(), "--compare"]);
    assert!(
        text(&out.stdout).contains("peak lag"),
        "{}",
        text(&out.stdout)
    );
    let v = run_json(&[
        "timeline",
        &example(),
        "--event",
        "crash",
        "--partitions",
        "--json",
    ]);
    let lags: Vec<u64> = v["partitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["peak_lag_records"].as_u64().unwrap())
        .collect();
    assert_eq!(lags.iter().max(), v["peak_lag_records"].as_u64().as_ref());
}

#[test]
fn timeline_names_each_assignor_the_vote_picked() {
    // the move to cooperative-sticky from the Java default: the vote moves from range
    let scenario = r#"{"topics": {"orders": 6}, "members": [
        {"id": "a", "topics": ["orders"]}, {"id": "b", "topics": ["orders"]}]}"#;
    let args = ["timeline", "-", "--event", "to-cooperative"];
    let out = run_with_stdin(&args, scenario);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = text(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        first.contains("classic, eager (range), then cooperative-sticky by vote"),
        "{first}"
    );
    let out = run_with_stdin(&[&args[..], &["--json"]].concat(), scenario);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["assignors"],
        serde_json::json!(["range", "cooperative-sticky"]),
        "{v}"
    );
}

#[test]
fn timeline_runs_each_member_s_own_assignor_list() {
    let scenario = r#"{"topics": {"orders": 6, "payments": 6}, "members": [
        {"id": "a", "topics": ["orders", "payments"], "protocols": ["cooperative-sticky"]},
        {"id": "b", "topics": ["orders", "payments"], "protocols": ["cooperative-sticky"]},
        {"id": "c", "topics": ["orders", "payments"], "protocols": ["cooperative-sticky", "range"]}]}"#;
    let json = |args: &[&str]| -> serde_json::Value {
        let out = run_with_stdin(args, scenario);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let v = json(&[
        "timeline",
        "-",
        "--event",
        "scale-out",
        "--protocol",
        "listed",
        "--json",
    ]);
    assert_eq!(v["assignor"], "cooperative-sticky", "{v}");
    assert_eq!(
        v["assignors"],
        serde_json::json!(["cooperative-sticky"]),
        "{v}"
    );
    // c lists range too, so it rebalances eagerly: it revokes everything, and so does the
    // member the scale-out adds (it lists what the last member lists); a and b do not
    let eager_revokes: Vec<&str> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "revoke" && e["detail"].as_str().unwrap().contains("eager"))
        .map(|e| e["member"].as_str().unwrap())
        .collect();
    assert!(
        eager_revokes.contains(&"c") && eager_revokes.iter().all(|m| ["c", "new-1"].contains(m)),
        "{eager_revokes:?}"
    );
    // the side-by-side table adds the members' own lists
    let v = json(&["timeline", "-", "--compare", "--json"]);
    assert_eq!(
        variants(&v),
        ["eager", "cooperative", "eager-static", "consumer", "listed"]
    );
    // lists with nothing in common: what Kafka would refuse, with the members named
    let out = run_with_stdin(
        &["timeline", "-", "--protocol", "listed"],
        scenario.replace(r#"["cooperative-sticky", "range"]"#, r#"["range"]"#),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("a and c") && err.contains("INCONSISTENT_GROUP_PROTOCOL"),
        "{err}"
    );
}

#[test]
fn timeline_runs_a_script_and_says_where_it_is_wrong() {
    let v = run_json(&[
        "timeline",
        &example(),
        "--script",
        "0s crash C0\n20s start C0\n40s join 1 # one more",
        "--json",
    ]);
    let events = v["events"].as_array().unwrap();
    let of = |member: &str, event: &str| {
        events
            .iter()
            .any(|e| e["member"] == member && e["event"] == event)
    };
    assert!(of("C0", "crash") && of("new-1", "start"), "{v}");
    // from a file, and --event script without one
    let dir = std::env::temp_dir().join(format!("rl-script-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("deploy.txt");
    std::fs::write(&file, "0 restart C1 for 5s").unwrap();
    let at = format!("@{}", file.display());
    let v = run_json(&["timeline", &example(), "--script", &at, "--json"]);
    assert!(v["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["member"] == "C1" && e["event"] == "close"));
    let out = run(&["timeline", &example(), "--event", "script"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--script"));
    // a script is its own story: another story's settings are refused, not ignored
    let out = run(&[
        "timeline",
        &example(),
        "--event",
        "crash",
        "--script",
        "0 crash C0",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--event"));
    let out = run(&[
        "timeline",
        &example(),
        "--gap-ms",
        "5",
        "--script",
        "0 crash C0",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // a mistake is said with its line and column
    let out = run(&[
        "timeline",
        &example(),
        "--script",
        "0 crash C0\n5s crash C0",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("line 2, column 10") && err.contains("C0 is down at 5 s"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A scenario of `members` members m0, m1, ... on one topic `t` of `partitions` partitions.
fn one_topic(members: usize, partitions: u32) -> String {
    let members: Vec<String> = (0..members)
        .map(|i| format!(r#"{{"id":"m{i}","topics":["t"]}}"#))
        .collect();
    format!(
        r#"{{"topics":{{"t":{partitions}}},"members":[{}]}}"#,
        members.join(",")
    )
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    // `rebalance-lab timeline ... | head -1`: more output than a pipe holds, and the reader
    // gone before it is written
    let scenario = one_topic(20, 2000);
    let mut child = Command::new(BIN)
        .args(["timeline", "-", "--partitions"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(scenario.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    // and all of it when read
    let all = run_with_stdin(&["timeline", "-", "--partitions"], &scenario);
    assert!(all.stdout.len() > 1 << 16, "{} bytes", all.stdout.len());
}

#[test]
fn a_timeline_of_a_large_group_says_first_that_it_can_take_a_while() {
    let large = one_topic(1_000, 10_000);
    let out = run_with_stdin(&["timeline", "-", "--event", "crash"], &large);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("note: 1000 members over 10000 partitions")
            && text(&out.stderr).contains("can take minutes"),
        "{}",
        text(&out.stderr)
    );
    // a small group runs without it
    let out = run(&["timeline", &example(), "--event", "crash"]);
    assert_eq!(text(&out.stderr), "");
}
