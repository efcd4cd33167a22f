//! What an import read, what the paste cannot say, how the observed assignment compares with
//! what each assignor computes, and the lag per member.

use crate::state::Imported;
use rebalance_lab_core::assignor::{self, AssignorKind, GroupInput};
use rebalance_lab_core::scenario::whatif::{self, Baseline};
use rebalance_lab_core::scenario::Scenario;
use yew::prelude::*;

/// The largest group (members times partitions) whose observed assignment the summary
/// compares with every assignor's, the sticky ones among them, on the main thread.
const COMPARE_PAIRS: u64 = 200_000;

/// Members listed in the lag table.
const LAG_ROWS: usize = 20;

/// Whether the paste showed any partition's lag ([`rebalance_lab_core::import::shows_lag`]).
pub(super) fn shows_lag(i: &Imported) -> bool {
    rebalance_lab_core::import::shows_lag(&i.lag)
}

/// What the import read (`base`: its observed assignment, pinned), against what the
/// assignors compute, and the lag. `pending`: a large group's worker is still computing.
pub(super) fn summary(i: &Imported, base: &Baseline, s: &Scenario, pending: bool) -> Html {
    let warnings = i
        .printed
        .warnings
        .iter()
        .map(|w| html! { <li>{ format!("line {}: {}", w.line, w.message) }</li> });
    html! {
        <div class="import-summary" id="import-summary">
            <h2>{ "Your group" }{ s.group_id.as_ref().map(|g| format!(": {g}")) }</h2>
            <p>{ facts(i, s) }</p>
            { unknowns(i, s) }
            if !i.printed.warnings.is_empty() {
                <ul class="notes" id="import-warnings">{ for warnings }</ul>
            }
            if s.members.len() as u64 * s.total_partitions() <= COMPARE_PAIRS && !pending {
                { against_assignors(i, base, s) }
            } else {
                <p class="hint">{ format!("This group is above the page's bound for comparing every assignor with the observed assignment ({COMPARE_PAIRS} members times partitions); the what-if below compares the scenario's own.") }</p>
            }
            if shows_lag(i) {
                { lag_per_member(i, base) }
            }
        </div>
    }
}

/// The group in one line: members, topics and partitions, what `--state` printed, the
/// total lag (when the paste shows any).
fn facts(i: &Imported, s: &Scenario) -> String {
    let mut facts = vec![
        format!("{} members", s.members.len()),
        format!(
            "{} topics, {} partitions",
            s.topics.len(),
            s.total_partitions()
        ),
    ];
    if let Some(st) = &i.printed.state {
        facts.push(format!("state {st}"));
    }
    if let Some(st) = &i.printed.strategy {
        facts.push(format!(
            "assignment strategy {}",
            if st.is_empty() {
                "none (no members)"
            } else {
                st
            }
        ));
    }
    if shows_lag(i) {
        // (a lag is never below 0 here, and sums stop at i64's largest instead of wrapping)
        let total = i
            .lag
            .values()
            .flat_map(|l| l.iter().flatten())
            .fold(0i64, |a, l| a.saturating_add((*l).max(0)));
        facts.push(format!("total lag {total}"));
    }
    facts.join(" · ")
}

/// What `kafka-consumer-groups.sh` does not print, and what the page takes in its place.
fn unknowns(i: &Imported, s: &Scenario) -> Html {
    let mut said = vec![
        "Partition counts: the tool shows only the partitions the group owns or has committed, so each topic here has the highest partition shown plus one. A topic with more has the rest unassigned here: set its count under Topics.".to_string(),
    ];
    if s.members.len() > 1 {
        said.push("Join order: the tool does not say who joined first, and the first to join leads the group (it computes the assignment). The page takes the order of the lines, so which member leads is a guess until you say who joined first (\"Joined first\" in the group panel).".to_string());
    }
    let strategy = i
        .printed
        .strategy
        .as_deref()
        .and_then(AssignorKind::parse)
        .filter(|k| !k.is_broker());
    said.push(match strategy {
        Some(k) => format!(
            "Each member's partition.assignment.strategy: not printed. The page takes each to list {} alone, the strategy the group chose (every member listed it).",
            k.name()
        ),
        None => "Each member's partition.assignment.strategy: not printed, nor the group's (paste --state too to read it). The page takes the Java client's default, range then cooperative-sticky.".to_string(),
    });
    html! {
        <>
            <h3>{ "What the paste does not say" }</h3>
            <ul class="notes" id="import-unknowns">
                { for said.into_iter().map(|t| html! { <li>{ t }</li> }) }
            </ul>
        </>
    }
}

/// Partitions whose owner under `a` is not the observed one: moved, newly owned or no
/// longer owned.
fn differ_from_observed(base: &Baseline, input: &GroupInput, a: &assignor::Assignment) -> u32 {
    let d = whatif::diff(base, input, a);
    d.moved + d.newly_assigned + d.unassigned
}

/// The observed assignment against each assignor's (the observed being the sticky ones'
/// previous assignment), and the likely reasons.
fn against_assignors(i: &Imported, base: &Baseline, s: &Scenario) -> Html {
    let input = s.group_input();
    let mut matching = Vec::new();
    // (the broker's too: --state may name uniform)
    let rows: Vec<Html> = AssignorKind::ALL
        .iter()
        .map(|&kind| match whatif::assign_after(kind, &input, Some(base), s.leader_client) {
            Ok((r1, r2)) => {
                let n = differ_from_observed(base, &input, r2.as_ref().unwrap_or(&r1));
                if n == 0 {
                    matching.push(kind.name());
                }
                html! {
                    <tr data-observed-against={kind.name()} data-differ={n.to_string()}>
                        <th scope="row">{ kind.name() }</th><td>{ n }</td>
                    </tr>
                }
            }
            Err(e) => html! {
                <tr data-observed-against={kind.name()}><th scope="row">{ kind.name() }</th><td>{ e }</td></tr>
            },
        })
        .collect();
    let reasons = reasons(i, base, s, &matching);
    html! {
        <>
            <table class="compare" id="observed-against">
                <caption>{ "The observed assignment against what each assignor computes for this group" }</caption>
                <thead><tr><th scope="col">{ "assignor" }</th><th scope="col">{ "partitions with another owner" }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <ul class="notes" id="import-reasons">
                { for reasons.into_iter().map(|r| html! { <li>{ r }</li> }) }
            </ul>
        </>
    }
}

/// Why the observed assignment may not be what the chosen assignor computes.
fn reasons(i: &Imported, base: &Baseline, s: &Scenario, matching: &[&str]) -> Vec<String> {
    let mut reasons = Vec::new();
    let chosen = s.assignor.name();
    if matching.contains(&chosen) {
        reasons.push(format!(
            "The observed assignment is exactly what {chosen} computes for this group."
        ));
    } else if !matching.is_empty() {
        reasons.push(format!(
            "{} gives exactly the observed assignment, {chosen} does not: the group likely runs {}.",
            matching.join(" and "),
            if matching.len() == 1 { "it" } else { "one of them" }
        ));
    } else {
        reasons.push("No assignor gives exactly this assignment.".to_string());
    }
    if let Some(st) = i.printed.state.as_deref().filter(|st| *st != "Stable") {
        reasons.push(format!(
            "The group was {st} when this was printed: the assignment may be mid-rebalance."
        ));
    }
    let unowned = unowned(base, s);
    if unowned > 0 {
        reasons.push(format!(
            "{unowned} partition{} no owner: partitions added since the last rebalance, or topics the members no longer subscribe to.",
            if unowned == 1 { " has" } else { "s have" }
        ));
    }
    let idle = idle(base, s);
    if !idle.is_empty() {
        let one = idle.len() == 1;
        reasons.push(format!(
            "{} member{} nothing: the output shows only the topics a member owns partitions of, so here {} to nothing; tick {} topics in the editor if {} more.",
            idle.len(),
            if one { " owns" } else { "s own" },
            if one { "it subscribes" } else { "they subscribe" },
            if one { "its" } else { "their" },
            if one { "it subscribes to" } else { "they subscribe to" }
        ));
    }
    if s.members.iter().any(|m| m.instance_id.is_some()) {
        reasons.push("Static members (a group.instance.id) come first in range's and round-robin's order, by instance id, and keep their partitions across restarts within session.timeout.ms.".into());
    }
    reasons
}

/// Partitions nobody owns in the observed assignment, those of the topics' counts it does
/// not show included.
fn unowned(base: &Baseline, s: &Scenario) -> usize {
    let none: usize = base
        .topics
        .iter()
        .map(|(_, o)| o.iter().filter(|x| x.is_none()).count())
        .sum();
    let beyond: usize = s
        .topics
        .iter()
        .map(|t| {
            let shown = base
                .topics
                .iter()
                .find(|(n, _)| *n == t.name)
                .map_or(0, |(_, o)| o.len());
            (t.partitions as usize).saturating_sub(shown)
        })
        .sum();
    none + beyond
}

/// Members the import shows owning nothing and subscribing to nothing (joiners added since
/// own nothing too, but their subscriptions are the editor's).
fn idle<'a>(base: &'a Baseline, s: &Scenario) -> Vec<&'a str> {
    let mut owns = vec![false; base.members.len()];
    for (_, owners) in &base.topics {
        for o in owners.iter().flatten() {
            if let Some(x) = owns.get_mut(*o as usize) {
                *x = true;
            }
        }
    }
    let unsubscribed: std::collections::HashSet<&str> = s
        .members
        .iter()
        .filter(|m| m.topics.is_empty())
        .map(|m| m.id.as_str())
        .collect();
    base.members
        .iter()
        .zip(&owns)
        .filter(|(id, owns)| !**owns && unsubscribed.contains(id.as_str()))
        .map(|(id, _)| id.as_str())
        .collect()
}

/// One member's lag, by the observed owners.
struct MemberLag<'a> {
    member: &'a str,
    /// Partitions with a lag shown.
    partitions: u32,
    total: i64,
    /// The largest partition's lag, and which partition it is.
    largest: i64,
    largest_at: Option<(&'a str, usize)>,
}

/// Lag per member (the observed owners), most first; and when the most lagging member's lag
/// is mostly one partition, that more members cannot share it.
fn lag_per_member(i: &Imported, base: &Baseline) -> Html {
    let mut per: Vec<MemberLag> = base
        .members
        .iter()
        .map(|m| MemberLag {
            member: m,
            partitions: 0,
            total: 0,
            largest: 0,
            largest_at: None,
        })
        .collect();
    for (t, owners) in &base.topics {
        let Some(lags) = i.lag.get(t) else { continue };
        for (p, o) in owners.iter().enumerate() {
            if let (Some(o), Some(Some(l))) = (o, lags.get(p)) {
                let e = &mut per[*o as usize];
                let l = (*l).max(0);
                e.partitions += 1;
                e.total = e.total.saturating_add(l);
                if l > e.largest || e.largest_at.is_none() {
                    e.largest = l;
                    e.largest_at = Some((t.as_str(), p));
                }
            }
        }
    }
    rebalance_lab_core::collections::sort_by(&mut per, |a, b| b.total.cmp(&a.total));
    let hot = per.first().and_then(|m| {
        let (t, p) = m.largest_at?;
        (m.total > 0 && m.largest * 2 > m.total).then(|| {
            format!(
                "{}'s lag is mostly one partition ({t}-{p}: {} of {}). A partition has one consumer in a group, so more members cannot share it: only a faster consumer of that partition, or more partitions, brings it down.",
                m.member, m.largest, m.total
            )
        })
    });
    let rows = per.iter().take(LAG_ROWS).map(|m| {
        html! {
            <tr data-lag-member={m.member.to_string()} data-lag-sum={m.total.to_string()} data-lag-max={m.largest.to_string()}>
                <th scope="row">{ m.member }</th><td>{ m.partitions }</td><td>{ m.total }</td><td>{ m.largest }</td>
            </tr>
        }
    });
    html! {
        <>
            <table class="compare" id="lag-members">
                <caption>{ "Lag per member (the observed owners)" }</caption>
                <thead><tr>
                    <th scope="col">{ "member" }</th><th scope="col">{ "partitions with lag shown" }</th>
                    <th scope="col">{ "total lag" }</th><th scope="col">{ "largest" }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            if per.len() > LAG_ROWS {
                <p class="hint">{ format!("The {LAG_ROWS} members with the most lag of {}.", per.len()) }</p>
            }
            if let Some(hot) = hot {
                <p class="note" id="lag-hot-partition">{ hot }</p>
            }
        </>
    }
}
