//! The what-if's tables: the same change under each assignor, and the assignors side by
//! side on the group now.

use super::skew;
use crate::components::members_shown;
use crate::Computed;
use rebalance_lab_core::assignor::AssignorKind;
use rebalance_lab_core::scenario::whatif::AssignorChange;
use yew::prelude::*;

/// The caption's progress while a large group's lines come one assignor at a time, after
/// the repaint: `" (computing: 1 of 6 done)"`, empty once every line is in.
pub fn computing(changes: &[AssignorChange]) -> String {
    let left = changes.iter().filter(|c| c.is_pending()).count();
    if left == 0 {
        return String::new();
    }
    format!(
        " (computing: {} of {} done)",
        changes.len() - left,
        changes.len()
    )
}

/// One change under each assignor (`#assignor-changes`: a row per assignor with
/// `data-assignor`, and `data-moved`, `data-paused`, `data-rebalances`, `data-idle` once its
/// figures are in, or `data-pending` while the line is still computing), then its note.
pub fn assignor_changes(changes: &[AssignorChange]) -> Html {
    let row = |ch: &AssignorChange| {
        // a line still computing has no figures yet: it says so instead of zeros
        let figures = (!ch.is_pending()).then_some(ch);
        html! {
            <tr data-assignor={ch.kind.name()} data-pending={ch.is_pending().then_some("true")}
                data-moved={figures.map(|c| c.moved.to_string())} data-paused={figures.map(|c| c.paused.to_string())}
                data-rebalances={figures.map(|c| c.rebalances.to_string())} data-idle={figures.map(|c| c.idle.to_string())}>
                <th scope="row">{ ch.kind.name() }</th>
                { match ch.cells() {
                    Ok(cells) => html! { <>{ for cells.into_iter().map(|x| html! { <td>{ x }</td> }) }</> },
                    Err(e) => html! { <td colspan="5">{ e }</td> },
                } }
            </tr>
        }
    };
    let broker = changes.iter().any(|c| c.kind.is_broker());
    html! {
        <div class="changes">
            <table class="compare" id="assignor-changes">
                <caption>{ "The same change under each assignor" }{ computing(changes) }</caption>
                <thead><tr>
                    <th scope="col">{ "assignor" }</th><th scope="col">{ "max / min before" }</th><th scope="col">{ "max / min after" }</th>
                    <th scope="col">{ "partitions moved" }</th><th scope="col">{ "partitions paused" }</th><th scope="col">{ "members idle" }</th>
                </tr></thead>
                <tbody>{ for changes.iter().map(row) }</tbody>
            </table>
            <p class="hint">
                { "Paused: partitions nobody consumes during the rebalance (eager assignors: all; cooperative-sticky: only those that move" }
                if broker {
                    { "; the broker's, which never rebalance: those that move, until the members have reconciled" }
                }
                { ")." }
            </p>
        </div>
    }
}

/// Range and round-robin side by side (`#compare`, `data-differ`; a row per member with
/// `data-compare-member`, `data-range-total`, `data-roundrobin-total`), and the skew of each.
pub fn range_and_round_robin(c: &Computed, all: bool, differ: usize) -> Html {
    let (r, o) = (&*c.range, &*c.round_robin);
    let rows = c
        .input
        .members
        .iter()
        .take(members_shown(all, c.input.members.len()))
        .enumerate()
        .map(|(i, m)| {
            let (rt, ot) = (r.totals[i].to_string(), o.totals[i].to_string());
            html! {
                <tr data-compare-member={m.id.clone()}>
                    <td>{ m.id.clone() }</td>
                    <td data-range-total={rt.clone()}>{ rt }</td>
                    <td data-roundrobin-total={ot.clone()}>{ ot }</td>
                </tr>
            }
        });
    html! {
        <div class="side-by-side">
            <h3>{ "Range and round-robin side by side" }</h3>
            <table class="compare" id="compare" data-differ={differ.to_string()}>
                <thead><tr><th>{ "member" }</th><th>{ "range" }</th><th>{ "round-robin" }</th></tr></thead>
                <tbody>{ for rows }</tbody>
                <tfoot><tr><td>{ "skew" }</td><td>{ skew(r) }</td><td>{ skew(o) }</td></tr></tfoot>
            </table>
        </div>
    }
}

/// The broker's uniform and range on the same group, member by member (`#compare-broker`,
/// `data-uniform-total`, `data-server-range-total`): uniform as the grid shows it when it is
/// the scenario's assignor (from the pinned baseline), otherwise from the members' own
/// partitions.
pub fn broker_side_by_side(c: &Computed, all: bool) -> Html {
    let Some((fresh, server)) = &c.broker else {
        return Html::default();
    };
    let uniform = match c.kind {
        AssignorKind::Uniform => c.assignment(),
        _ => fresh.as_ref(),
    };
    let rows = c
        .input
        .members
        .iter()
        .enumerate()
        .take(members_shown(all, c.input.members.len()))
        .map(|(i, m)| {
            let r = server.totals.get(i).copied().unwrap_or(0).to_string();
            html! {
                <tr data-compare-member={m.id.clone()}>
                    <td>{ m.id.clone() }</td>
                    { match uniform.and_then(|u| u.totals.get(i)) {
                        Some(u) => html! { <td data-uniform-total={u.to_string()}>{ u.to_string() }</td> },
                        None => html! { <td>{ "–" }</td> },
                    } }
                    <td data-server-range-total={r.clone()}>{ r }</td>
                </tr>
            }
        });
    html! {
        <div class="side-by-side-broker">
            <h3>{ "The broker's uniform and range on the same group" }</h3>
            <table class="compare" id="compare-broker">
                <thead><tr><th>{ "member" }</th><th>{ "uniform" }</th><th>{ "range (the broker's)" }</th></tr></thead>
                <tbody>{ for rows }</tbody>
                <tfoot><tr>
                    <td>{ "skew" }</td>
                    <td>{ uniform.map_or("uniform gives no answer for this group".to_string(), skew) }</td>
                    <td>{ skew(server) }</td>
                </tr></tfoot>
            </table>
        </div>
    }
}
