//! A scenario and its assignment printed as `kafka-consumer-groups.sh --describe` prints
//! the offsets view (Java 3.8+: the same columns and widths as the Scala tool), so a
//! scenario can be read back, and the reader is tested against the layout's own rules.

use super::{Lag, Observed};
use crate::scenario::Scenario;

/// A row: topic, partition, owner (index in the scenario's members); `None` prints `-`.
type Row<'a> = (Option<&'a str>, Option<u32>, Option<usize>);

/// Java's `%-Ns`: left-justified, padded to `width` UTF-16 code units.
fn pad(out: &mut String, s: &str, width: usize) {
    out.push_str(s);
    let len = s.encode_utf16().count();
    for _ in len..width {
        out.push(' ');
    }
}

fn java_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// The offsets view of `group_id`: a row per owned partition (members in scenario order,
/// topics in scenario order, partitions ascending), a `-` row for a member that owns
/// nothing, then a row per unowned partition. Offsets are unknown (`-`); LAG comes from
/// `lag` when given; HOST is `-` (a scenario has no hosts).
pub fn render_offsets(
    group_id: &str,
    scenario: &Scenario,
    assignment: &Observed,
    lag: Option<&Lag>,
) -> String {
    let mut rows: Vec<Row> = Vec::new();
    let mut owned: std::collections::HashSet<(&str, u32)> = Default::default();
    for (m, member) in scenario.members.iter().enumerate() {
        let mine = assignment.get(&member.id);
        let mut any = false;
        for t in &scenario.topics {
            let Some(ps) = mine.and_then(|a| a.get(&t.name)) else {
                continue;
            };
            let mut ps: Vec<u32> = ps.iter().filter(|&&p| p >= 0).map(|&p| p as u32).collect();
            ps.sort_unstable();
            for p in ps {
                any = true;
                owned.insert((t.name.as_str(), p));
                rows.push((Some(&t.name), Some(p), Some(m)));
            }
        }
        if !any {
            rows.push((None, None, Some(m)));
        }
    }
    for t in &scenario.topics {
        for p in 0..t.partitions {
            if !owned.contains(&(t.name.as_str(), p)) {
                rows.push((Some(&t.name), Some(p), None));
            }
        }
    }
    let id = |m: Option<usize>| m.map_or("-", |m| scenario.members[m].id.as_str());
    let max = |f: &dyn Fn(&Row) -> usize| rows.iter().map(f).max().unwrap_or(0).max(15);
    let group_w = java_len(group_id).max(15);
    let topic_w = max(&|r| java_len(r.0.unwrap_or("-")));
    let consumer_w = max(&|r| java_len(id(r.2)));
    let host_w = 15;
    let mut out = String::from("\n");
    let line = |out: &mut String, cells: [&str; 9]| {
        let widths = [group_w, topic_w, 10, 15, 15, 15, consumer_w, host_w];
        for (c, w) in cells.iter().zip(widths) {
            pad(out, c, w);
            out.push(' ');
        }
        out.push_str(cells[8]);
        out.push('\n');
    };
    line(
        &mut out,
        [
            "GROUP",
            "TOPIC",
            "PARTITION",
            "CURRENT-OFFSET",
            "LOG-END-OFFSET",
            "LAG",
            "CONSUMER-ID",
            "HOST",
            "CLIENT-ID",
        ],
    );
    for (t, p, m) in &rows {
        let p_text = p.map_or("-".to_string(), |p| p.to_string());
        let lag_text = match (t, p, lag) {
            (Some(t), Some(p), Some(lag)) => lag
                .get(*t)
                .and_then(|l| l.get(*p as usize).copied().flatten())
                .map_or("-".to_string(), |l| l.to_string()),
            _ => "-".to_string(),
        };
        let client = m
            .and_then(|m| scenario.members[m].client_id.as_deref())
            .unwrap_or("-");
        line(
            &mut out,
            [
                group_id,
                t.unwrap_or("-"),
                &p_text,
                "-",
                "-",
                &lag_text,
                id(*m),
                "-",
                client,
            ],
        );
    }
    out
}
