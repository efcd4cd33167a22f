//! What the two timeline oracle tests share (timeline_oracle.rs for the classic protocols,
//! timeline_consumer_oracle.rs for the consumer protocol): the cases' group and stories, and
//! the instant-by-instant comparison with what Kafka decided.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::path::Path;

use rebalance_lab_core::timeline::{Group, Story, StoryKind};

/// `members` members c1, c2, ... on orders (`partitions`) and payments (half as many).
pub fn group(members: usize, partitions: u32) -> Group {
    Group {
        topics: vec![
            ("orders".into(), partitions),
            ("payments".into(), partitions / 2),
        ],
        members: (0..members)
            .map(|i| {
                (
                    format!("c{}", i + 1),
                    vec!["orders".into(), "payments".into()],
                )
            })
            .collect(),
        ..Group::default()
    }
}

/// A story of `kind`, changed by `f`.
pub fn story(kind: StoryKind, f: impl FnOnce(&mut Story)) -> Story {
    let mut s = Story::new(kind);
    f(&mut s);
    s
}

/// Every instant either side has, with what each said then (an instant missing on one side
/// is its default).
pub fn instants<T: Default>(
    kafka: &mut BTreeMap<i64, T>,
    ours: &mut BTreeMap<i64, T>,
) -> BTreeSet<i64> {
    let times: BTreeSet<i64> = kafka.keys().chain(ours.keys()).copied().collect();
    for t in &times {
        kafka.entry(*t).or_default();
        ours.entry(*t).or_default();
    }
    times
}

/// The first instant at which the two sides differ, said for a failure.
pub fn first_difference<T: PartialEq + Debug>(
    name: &str,
    kafka: &BTreeMap<i64, T>,
    ours: &BTreeMap<i64, T>,
) -> Option<String> {
    kafka.iter().find_map(|(t, k)| {
        let o = ours.get(t);
        (o != Some(k)).then(|| format!("{name} at {t} ms:\n  Kafka: {k:?}\n  ours:  {o:?}"))
    })
}

/// Writes a case's script (`NAME.json` in `dir`) for the oracle to answer, as
/// [`kafka_answer`] reads it back.
pub fn write_script(dir: &Path, name: &str, script: &serde_json::Value) {
    std::fs::create_dir_all(dir).unwrap();
    let text = serde_json::to_string_pretty(script).unwrap() + "\n";
    std::fs::write(dir.join(format!("{name}.json")), text).unwrap();
}

/// What Kafka answered for a case (`NAME.out.jsonl` in `dir`), when the committed script
/// (`NAME.json`) is still the one the simulator writes; else why not, with the command that
/// makes them again.
pub fn kafka_answer(
    dir: &Path,
    name: &str,
    script: &serde_json::Value,
    remake: &str,
) -> Result<String, String> {
    let read = |file: String| {
        std::fs::read_to_string(dir.join(&file)).map_err(|e| format!("{file}: {e}; run {remake}"))
    };
    let committed: serde_json::Value =
        serde_json::from_str(&read(format!("{name}.json"))?).map_err(|e| e.to_string())?;
    if committed != *script {
        return Err(format!(
            "{name}: the simulator's requests changed since Kafka answered them; run {remake}"
        ));
    }
    read(format!("{name}.out.jsonl"))
}
