//! What the sticky assignors and the broker's add above the grid.

use crate::Computed;
use rebalance_lab_core::assignor::{self, AssignorKind};
use rebalance_lab_core::scenario::whatif;
use std::rc::Rc;
use yew::prelude::*;

/// What the broker's assignors add above the grid: who computes the assignment,
/// how far it is from the classic RangeAssignor's for the same group, and, with a baseline
/// pinned, how the members reconcile to it heartbeat by heartbeat (`#reconcile`).
fn broker_status(c: &Computed, a: &assignor::Assignment) -> Html {
    let differ: usize = a
        .topics
        .iter()
        .map(|t| {
            let classic = c.range.topics.iter().find(|r| r.topic == t.topic);
            t.owners
                .iter()
                .enumerate()
                .filter(|(p, o)| classic.and_then(|r| r.owners.get(*p)) != Some(*o))
                .count()
        })
        .sum();
    let partitions: u64 = a.topics.iter().map(|t| u64::from(t.partitions)).sum();
    html! {
        <div class="sticky-status" id="broker-status" data-differ-from-range={differ.to_string()}>
            <p class="hint">{ format!(
                "The broker computes this assignment (group.protocol=consumer): no JoinGroup, no vote, no leader; the group panel below describes the classic protocol. Against the classic RangeAssignor on the same group, {differ} partition{} another owner.",
                if differ == 1 { " has" } else { "s have" }
            ) }</p>
            { match &c.baseline {
                None => html! {
                    <p class="hint">{ "Pin a baseline, then change the group, to see how the members reconcile to the new target." }</p>
                },
                Some(_) if partitions > 100_000 => html! {
                    <p class="hint">{ format!("The reconciliation is shown for up to 100000 partitions; this group has {partitions}.") }</p>
                },
                Some(base) => reconciliation(c, base, a),
            } }
        </div>
    }
}

/// How the members reconcile from the pinned baseline to the broker's target, heartbeat by
/// heartbeat, against what a classic rebalance of the same change stops (`#reconcile`,
/// `data-heartbeats`, `data-paused`; a row per member whose partitions change, the first 50).
fn reconciliation(c: &Computed, base: &whatif::Baseline, a: &assignor::Assignment) -> Html {
    use rebalance_lab_core::assignor::explain::partition_list;
    use rebalance_lab_core::group::reconcile::Partitions;
    let r = whatif::reconciliation(base, &c.input, a);
    let list = |ps: &Partitions| -> String {
        if ps.is_empty() {
            return "–".into();
        }
        let parts: Vec<String> = ps
            .iter()
            .map(|(t, p)| format!("{t} {}", partition_list(p)))
            .collect();
        parts.join("; ")
    };
    let count = |ps: &Partitions| -> usize { ps.iter().map(|(_, p)| p.len()).sum() };
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let paused: usize = r
        .members
        .iter()
        .map(|p| count(&p.take_now) + count(&p.wait))
        .sum();
    let hb = r.heartbeats_until_stable;
    let mut said = match hb {
        Some(0) => "Every member already holds its target: nothing to reconcile.".to_string(),
        Some(n) => format!("{n} heartbeat round{} until the group is stable. A member first revokes what it loses and acknowledges it in its next heartbeat; only then does the new owner get it. The {paused} partition{} that change hands pause meanwhile; every other partition keeps being consumed.", plural(n as usize), plural(paused)),
        None => "Two members' targets claim one partition: the group never settles.".to_string(),
    };
    // the classic rebalances of the same change, from the what-if's lines
    let changes = c.changes.borrow();
    let line = |k: AssignorKind| changes.iter().find(|x| x.kind == k && x.error.is_none());
    if let (Some(eager), Some(coop)) = (
        line(AssignorKind::Range),
        line(AssignorKind::CooperativeSticky),
    ) {
        said.push_str(&format!(
            " A classic eager rebalance of the same change (range) stops all {} owned partitions for one rebalance; a cooperative one (cooperative-sticky) stops the {} that move, over {} rebalance{}.",
            eager.paused,
            coop.paused,
            coop.rebalances,
            plural(coop.rebalances as usize)
        ));
    }
    let moving: Vec<_> = r
        .members
        .iter()
        .filter(|p| !(p.revoke.is_empty() && p.take_now.is_empty() && p.wait.is_empty()))
        .collect();
    let rows = moving.iter().take(50).map(|p| {
        html! {
            <tr data-reconcile-member={p.member.clone()} data-revoke={count(&p.revoke).to_string()}
                data-take={count(&p.take_now).to_string()} data-wait={count(&p.wait).to_string()}
                data-stable={p.stable_after.map_or(-1, i64::from).to_string()}>
                <th scope="row">{ p.member.clone() }</th>
                { for [&p.keep, &p.revoke, &p.take_now, &p.wait].into_iter().map(|x| html! { <td>{ list(x) }</td> }) }
                <td>{ match p.stable_after {
                    Some(n) => format!("{n} heartbeat{}", plural(n as usize)),
                    None => "never".to_string(),
                } }</td>
            </tr>
        }
    });
    let still = r.members.len() - moving.len();
    let more = moving.len().saturating_sub(50);
    html! {
        <section class="reconcile" id="reconcile" data-heartbeats={hb.map_or(-1, i64::from).to_string()} data-paused={paused.to_string()}>
            <h3>{ "Reconciliation from the baseline" }</h3>
            <p>{ said }</p>
            <table class="compare" id="reconcile-table">
                <thead><tr>
                    <th scope="col">{ "member" }</th><th scope="col">{ "keeps" }</th><th scope="col">{ "revokes first" }</th>
                    <th scope="col">{ "takes at once" }</th><th scope="col">{ "waits for a revocation" }</th><th scope="col">{ "stable after" }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <p class="hint">{ format!(
                "{}{still} other member{} keep{} {} partitions throughout.",
                if more > 0 { format!("And {more} more members whose partitions change. ") } else { String::new() },
                plural(still),
                if still == 1 { "s" } else { "" },
                if still == 1 { "its" } else { "their" }
            ) }</p>
        </section>
    }
}

/// What the sticky assignors add above the grid: where the previous assignment came from,
/// Java's quirks and exceptions, and cooperative-sticky's two rounds.
#[derive(Properties, PartialEq)]
pub struct Props {
    pub computed: Rc<Computed>,
    /// Shows cooperative-sticky's other round.
    pub flip_round: Callback<MouseEvent>,
}

/// What the assignor on screen adds above the grid.
#[function_component]
pub fn AssignorStatus(p: &Props) -> Html {
    let (c, flip_round) = (&*p.computed, p.flip_round.clone());
    let Some(result) = &c.sticky else {
        return html! {};
    };
    match result {
        Err(e) => html! {
            <p class="alert" role="alert" id="assignor-error">{ format!("No assignment: {e}.") }</p>
        },
        Ok((a, _)) if c.kind.is_broker() => broker_status(c, a),
        Ok((r1, _)) => {
            // (a large group's follow-up round is computed once asked for)
            let n = r1.withheld.len();
            let rounds = (n > 0).then(|| {
                let (said, other) = if c.follow_up_round {
                    ("Round 2, after the follow-up rebalance: the revoked partitions have their new owners.".to_string(), "Show round 1")
                } else {
                    (format!("Round 1: partitions changing owner, revoked first (hatched) and handed over in a follow-up rebalance: {n}. Every other partition keeps flowing."), "Show round 2")
                };
                html! {
                    <p class="rounds" data-withheld={n.to_string()}>
                        { said }
                        <button id="round-toggle" aria-pressed={c.follow_up_round.to_string()} onclick={flip_round}>{ other }</button>
                    </p>
                }
            });
            html! {
                <div class="sticky-status" id="sticky-status">
                    <p class="hint">{ if c.baseline.is_some() {
                        "Previous assignment: the pinned baseline (generation 1), unless a member's owned partitions or bytes say otherwise."
                    } else {
                        "Previous assignment: each member's owned partitions and generation, or its bytes. Pin a baseline, then change the group, to see what stays."
                    } }</p>
                    { for rounds }
                    if !r1.notes.is_empty() {
                        <div class="notes-wrap">
                            <ul class="notes" id="assignor-notes">
                                { for r1.notes.iter().map(|n| html! { <li>{ n.text.clone() }</li> }) }
                            </ul>
                        </div>
                    }
                </div>
            }
        }
    }
}
