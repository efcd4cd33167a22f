//! The assignment as a Markdown table: a row per member (its client.id, its partitions per
//! topic, how many), and a row for the partitions nobody owns.

use super::About;
use crate::import::Observed;
use crate::scenario::Scenario;
use std::collections::HashSet;

/// Escapes text for a Markdown table cell: ASCII punctuation that Markdown or the table
/// reads is backslash-escaped, line breaks become spaces.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' | '!' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn partitions_text(items: &[(String, Vec<i32>)]) -> String {
    items
        .iter()
        .map(|(t, ps)| {
            let ps: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
            format!("{} {}", escape(t), ps.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The lag of `items`' partitions, summed (`–` when none of them has a lag shown).
fn lag_of(about: &About, items: &[(String, Vec<i32>)]) -> String {
    let lags: Vec<i64> = items
        .iter()
        .flat_map(|(t, ps)| ps.iter().filter_map(move |p| about.lag_of(t, *p)))
        .collect();
    if lags.is_empty() {
        "–".to_string()
    } else {
        lags.iter()
            .fold(0i64, |a, l| a.saturating_add(*l))
            .to_string()
    }
}

/// The table, members in scenario order, topics in scenario order, under its heading
/// ([`About::heading`]); a lag column when the lag is known.
pub fn assignment_markdown(scenario: &Scenario, assignment: &Observed, about: &About) -> String {
    let mut out = format!("{}\n\n", escape(&about.heading()));
    let lag = about.lag.is_some();
    out.push_str(if lag {
        "| Member | client.id | Partitions | Count | Lag |\n|---|---|---|---:|---:|\n"
    } else {
        "| Member | client.id | Partitions | Count |\n|---|---|---|---:|\n"
    });
    let mut owned: HashSet<(&str, i32)> = HashSet::new();
    for m in &scenario.members {
        let mine = assignment.get(&m.id);
        let items: Vec<(String, Vec<i32>)> = scenario
            .topics
            .iter()
            .filter_map(|t| {
                let mut ps = mine?.get(&t.name)?.clone();
                ps.sort_unstable();
                Some((t.name.clone(), ps))
            })
            .collect();
        for (t, ps) in &items {
            for &p in ps {
                if let Some(topic) = scenario.topics.iter().find(|x| &x.name == t) {
                    owned.insert((topic.name.as_str(), p));
                }
            }
        }
        let count: usize = items.iter().map(|(_, ps)| ps.len()).sum();
        out.push_str(&format!(
            "| {} | {} | {} | {count} |{}\n",
            escape(&m.id),
            m.client_id.as_deref().map_or("".into(), escape),
            partitions_text(&items),
            if lag {
                format!(" {} |", lag_of(about, &items))
            } else {
                String::new()
            }
        ));
    }
    let free: Vec<(String, Vec<i32>)> = scenario
        .topics
        .iter()
        .filter_map(|t| {
            let ps: Vec<i32> = (0..t.partitions as i32)
                .filter(|&p| !owned.contains(&(t.name.as_str(), p)))
                .collect();
            (!ps.is_empty()).then(|| (t.name.clone(), ps))
        })
        .collect();
    if !free.is_empty() {
        let count: usize = free.iter().map(|(_, ps)| ps.len()).sum();
        out.push_str(&format!(
            "| *unassigned* |  | {} | {count} |{}\n",
            partitions_text(&free),
            if lag {
                format!(" {} |", lag_of(about, &free))
            } else {
                String::new()
            }
        ));
    }
    out
}
