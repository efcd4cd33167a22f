//! What the app and the tool hand out as files: the grid as SVG ([`svg`]), the assignment as
//! a Markdown table ([`markdown`]), the scenario as JSON in the tool's shape ([`json`]) and
//! the `rebalance-lab assign` command line that reproduces it ([`command`]). Pure
//! functions: the app only hands the text to the browser.

pub mod command;
pub mod json;
pub mod markdown;
pub mod svg;

use crate::assignor::AssignorKind;
use crate::import::{Lag, Observed};
use crate::scenario::Scenario;

/// What an exported picture or table says it shows, in its heading: whose group, whether the
/// assignment is computed (by which assignor) or as observed, whether the group is a what-if,
/// and the lag when it is known.
#[derive(Debug, Clone, Copy, Default)]
pub struct About<'a> {
    pub group_id: Option<&'a str>,
    /// The assignor that computed the assignment; `None`: as observed (what
    /// kafka-consumer-groups.sh printed).
    pub computed_by: Option<AssignorKind>,
    /// A what-if: how the group shown differs from the one it is compared with (`None`: the
    /// group as it is).
    pub what_if: Option<&'a str>,
    /// Lag per partition, when the group's offsets were read.
    pub lag: Option<&'a Lag>,
    /// Each member's colour slot, in member order, as the page gives them (a member keeps its
    /// colour whatever its place in the list); `None`: slots in list order.
    pub colour_slots: Option<&'a [u32]>,
}

impl About<'_> {
    /// The colour slot of member `m` (its index in the scenario).
    pub fn slot(&self, m: usize) -> u32 {
        self.colour_slots
            .and_then(|s| s.get(m).copied())
            .unwrap_or(m as u32)
    }
}

impl About<'_> {
    /// "Assignment of group g, computed by range (what-if: ...)".
    pub fn heading(&self) -> String {
        let mut h = match self.group_id {
            Some(g) => format!("Assignment of group {g}"),
            None => "Assignment".to_string(),
        };
        match self.computed_by {
            Some(k) => h.push_str(&format!(", computed by {}", k.name())),
            None => h.push_str(", as observed"),
        }
        if let Some(w) = self.what_if {
            h.push_str(&format!(" (what-if, not the running group: {w})"));
        }
        h
    }

    /// A partition's lag, when known.
    pub fn lag_of(&self, topic: &str, partition: i32) -> Option<i64> {
        let p = usize::try_from(partition).ok()?;
        (*self.lag?.get(topic)?.get(p)?).map(|l| l.max(0))
    }
}

/// A file name that carries the group id: `rebalance-lab-<group>.<ext>`, the group id
/// reduced to `[A-Za-z0-9._-]` (anything else becomes `_`, at most 64 characters, no
/// leading dot), or `rebalance-lab.<ext>` without one.
pub fn file_name(group_id: Option<&str>, ext: &str) -> String {
    let mut g: String = group_id
        .unwrap_or("")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    while g.starts_with('.') {
        g.remove(0);
    }
    if g.is_empty() {
        format!("rebalance-lab.{ext}")
    } else {
        format!("rebalance-lab-{g}.{ext}")
    }
}

/// The scenario's `owned` partitions as an assignment, every member present.
pub fn owned_assignment(scenario: &Scenario) -> Observed {
    scenario
        .members
        .iter()
        .map(|m| (m.id.clone(), m.owned.clone()))
        .collect()
}

/// The assignment the scenario's assignor computes, or `None` for an assignor this version
/// does not run.
pub fn computed_assignment(scenario: &Scenario) -> Option<Observed> {
    let (input, a) = scenario.assign(scenario.assignor)?;
    Some(
        a.to_map(&input)
            .into_iter()
            .map(|(m, topics)| (m, topics.into_iter().collect()))
            .collect(),
    )
}

/// Escapes text for XML (element text and attribute values alike).
pub(crate) fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids (controls other than tab and newlines).
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_carry_the_sanitised_group() {
        assert_eq!(
            file_name(Some("orders-app"), "svg"),
            "rebalance-lab-orders-app.svg"
        );
        assert_eq!(
            file_name(Some("../etc/pass wd"), "md"),
            "rebalance-lab-_etc_pass_wd.md"
        );
        assert_eq!(file_name(Some("..."), "json"), "rebalance-lab.json");
        assert_eq!(file_name(None, "json"), "rebalance-lab.json");
        assert_eq!(file_name(Some("日本"), "svg"), "rebalance-lab-__.svg");
    }
}
