//! The group panel's read-only parts: the coordinator's arithmetic, the vote and the
//! leader, and what each protocol stops.

use crate::markup::isolate;
use rebalance_lab_core::group::{Coordinator, ProtocolSelection, Revocations};
use yew::prelude::*;

/// The coordinator: the arithmetic a line each, then the partition (`#coordinator`,
/// `data-coordinator-partition`).
pub fn coordinator(c: &Coordinator) -> Html {
    html! {
        <div class="coordinator-wrap">
            <ol class="coordinator-steps">{ for c.explain().into_iter().map(|l| html! { <li>{ l }</li> }) }</ol>
            <p id="coordinator" data-coordinator-partition={c.partition.to_string()}>
                { format!("The coordinator is the broker leading partition {} of __consumer_offsets.", c.partition) }
            </p>
        </div>
    }
}

/// The vote's tally and winner (`#vote-winner`, `data-vote-winner`), and the leader and who
/// leads next (`#leader`, `data-leader`, `data-next-leader`; `last_change`: why the leader
/// changed at the last leave).
pub fn vote_and_leader(
    vote: &ProtocolSelection,
    leader: &str,
    next: &str,
    last_change: Option<&str>,
) -> Html {
    let winner = vote.selected.as_deref().unwrap_or_default();
    let leads = if leader.is_empty() {
        html! { { "Nobody leads: no member was accepted." } }
    } else {
        html! { <>
            <strong>{ leader.to_string() }</strong>{ " leads (the first accepted member to join). " }
            if next.is_empty() {
                { "Nobody else could lead." }
            } else {
                { "If the leader leaves, " }<strong>{ next.to_string() }</strong>
                { " leads next (first key of the members HashMap, not the second joiner)." }
            }
        </> }
    };
    html! {
        <div class="vote-wrap">
            <p class="tally">
                { "Tally (a Java HashMap): " }
                { for vote.tally.counts.iter().map(|(name, n)| html! { <span>{ format!("{name}\u{a0}{n}; ") }</span> }) }
            </p>
            <p id="vote-winner" data-vote-winner={winner.to_string()}>
                <strong>{ if winner.is_empty() { "No protocol is selected".to_string() } else { format!("Winner: {}", isolate(winner)) } }</strong>
                { ". " }{ vote.why.clone() }
                if let Some(x) = &vote.java_exception {
                    { " Java throws " }<code>{ x.clone() }</code>
                }
            </p>
            <p id="leader" data-leader={leader.to_string()} data-next-leader={next.to_string()}>
                { leads }
                if let Some(why) = last_change {
                    <span class="why">{ format!(" Last change: {why}") }</span>
                }
            </p>
        </div>
    }
}

/// What each protocol stops: eager (every member, all it owns, one round trip) beside
/// cooperative (only what moves, two round trips).
pub fn stops(rev: &Revocations, cooperative_note: Option<&str>) -> Html {
    html! {
        <div class="stops-wrap">
            <table class="protocols-side">
                <tr>
                    <th>{ "eager: every member stops all it owns, 1 round trip" }</th>
                    <th>{ "cooperative: only what moves stops, 2 round trips" }</th>
                </tr>
                <tr>
                    <td>{ for rev.eager.iter().map(|(id, n)| html! { <div>{ format!("{id}: {n}") }</div> }) }</td>
                    <td>
                        { for rev.cooperative.iter().map(|(id, n, which)| html! { <div>{ format!("{id}: {n} ({which})") }</div> }) }
                        if let Some(note) = cooperative_note {
                            <div class="note">{ note.to_string() }</div>
                        }
                    </td>
                </tr>
            </table>
            if rev.eager.is_empty() {
                <p class="note">{ "Nobody owned partitions before: pin a baseline, then change the group, to see what each protocol stops." }</p>
            }
        </div>
    }
}
