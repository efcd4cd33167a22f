//! Differential test against Kafka's own Java: every case of tests/vectors/oracle (random
//! groups made and answered by tests/java/Oracle.java running Kafka's classes at 1eb7644;
//! regenerate with `sh tests/java/oracle.sh`) through our library. Every mismatch is
//! reported by case name before the test fails. `ORACLE_VECTORS=<dir>` runs another batch
//! (see tests/java/oracle.sh).

#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{
    check_kip848_case, check_member_order, check_sticky_case, check_subscription_type,
    check_topic_order, load, Outcome,
};
use rebalance_lab_core::assignor::AssignorKind;

/// What became of a file's cases: answered alike, refused alike, Java's answer giving a
/// partition to two members (we refuse it), and every mismatch.
#[derive(Default)]
struct Tally {
    answered: usize,
    thrown: usize,
    twice: usize,
    failed: Vec<String>,
}

/// Runs `check` on every case of `file` (or of `$ORACLE_VECTORS/file`).
fn run(file: &str, check: impl Fn(&serde_json::Value) -> Result<Outcome, String>) -> Tally {
    let cases = match std::env::var("ORACLE_VECTORS") {
        Ok(dir) => {
            let path = format!("{dir}/{file}");
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
        }
        Err(_) => load(&format!("oracle/{file}")),
    };
    let mut tally = Tally::default();
    for v in cases {
        match check(&v) {
            Ok(Outcome::Answered) => tally.answered += 1,
            Ok(Outcome::Thrown) => tally.thrown += 1,
            Ok(Outcome::Twice) => tally.twice += 1,
            Err(e) => tally.failed.push(e),
        }
    }
    tally
}

/// Prints every mismatch and the counts, then fails on any mismatch.
fn report(file: &str, t: Tally, cases: usize) {
    for e in &t.failed {
        eprintln!("MISMATCH {e}");
    }
    eprintln!(
        "{file}: {} answered alike, {} refused alike, {} given twice by Java and refused by us, \
         {} mismatched",
        t.answered,
        t.thrown,
        t.twice,
        t.failed.len()
    );
    assert!(t.failed.is_empty(), "{file}: {} mismatches", t.failed.len());
    if std::env::var_os("ORACLE_VECTORS").is_none() {
        assert_eq!(t.answered + t.thrown + t.twice, cases, "{file}");
    }
}

/// Cases per file (tests/java/Oracle.java's CASES).
const CASES: usize = 250;

#[test]
fn sticky_against_java() {
    let file = "sticky.json";
    report(
        file,
        run(file, |v| check_sticky_case(v, AssignorKind::Sticky)),
        CASES,
    );
}

/// Cases from bigger batches (tests/java/oracle.sh with another seed) kept because they once
/// caught a wrong shortcut; each says why in its note.
#[test]
fn sticky_regressions_against_java() {
    let cases = load("oracle/sticky-regressions.json");
    assert!(!cases.is_empty());
    for v in &cases {
        assert!(
            matches!(
                check_sticky_case(v, AssignorKind::Sticky),
                Ok(Outcome::Answered)
            ),
            "{}",
            v["name"]
        );
    }
}

#[test]
fn cooperative_sticky_against_java() {
    let file = "cooperative-sticky.json";
    report(
        file,
        run(file, |v| {
            check_sticky_case(v, AssignorKind::CooperativeSticky)
        }),
        CASES,
    );
}

/// The assignment, and the orders Java's answer rests on (members map, subscription type,
/// homogeneous uniform's topic set).
fn kip848(v: &serde_json::Value, kind: AssignorKind) -> Result<Outcome, String> {
    check_subscription_type(v, kind)?;
    check_member_order(v, kind).unwrap_or(Ok(()))?;
    if kind == AssignorKind::Uniform {
        check_topic_order(v).unwrap_or(Ok(()))?;
    }
    check_kip848_case(v, kind)
}

#[test]
fn uniform_against_java() {
    let file = "kip848-uniform.json";
    report(file, run(file, |v| kip848(v, AssignorKind::Uniform)), CASES);
}

#[test]
fn server_range_against_java() {
    let file = "kip848-range.json";
    report(
        file,
        run(file, |v| kip848(v, AssignorKind::ServerRange)),
        CASES,
    );
}
