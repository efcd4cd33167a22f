//! What-if: pin a baseline and see what moved; range and round-robin side by side; the story
//! of joins, leaves and rolling restarts.

use crate::app::components::{members_shown, show_all_toggle};
use crate::app::state::Action;
use crate::app::Computed;
use crate::assignor::explain::ratio;
use crate::assignor::{Assignment, UNASSIGNED};
use crate::scenario::whatif::story;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub computed: Rc<Computed>,
    pub pinned: bool,
    pub story_step: Option<usize>,
    pub dispatch: Callback<Action>,
}

fn skew(a: &Assignment) -> String {
    let (max, min) = a.max_min();
    format!(
        "max {max}, min {min}, max/min {}",
        if max == 0 {
            "–".into()
        } else {
            ratio(max, min)
        }
    )
}

/// Member ids for a sentence: the first 50, then how many more.
fn names(ids: &[String]) -> String {
    const NAMED: usize = 50;
    let shown: Vec<_> = ids[..ids.len().min(NAMED)]
        .iter()
        .map(|id| crate::app::markup::isolate(id))
        .collect();
    let mut s = shown.join(", ");
    if ids.len() > NAMED {
        s.push_str(&format!(" and {} more", ids.len() - NAMED));
    }
    s
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[function_component(WhatIf)]
pub fn what_if(p: &Props) -> Html {
    let all = use_state(|| false);
    let all_moved = use_state(|| false);
    let c = &p.computed;
    let d = &p.dispatch;
    let pin = d.reform(|_| Action::PinBaseline);
    let unpin = d.reform(|_| Action::Unpin);
    let restart = d.reform(|_| Action::RollingRestart);

    let summary = c.diff.as_ref().map(|diff| {
        let mut lines: Vec<String> = Vec::new();
        for (m, (gained, lost)) in diff.changes.iter().take(members_shown(*all_moved, diff.changes.len())) {
            let mut parts = Vec::new();
            if *gained > 0 {
                parts.push(format!("gained {gained}"));
            }
            if *lost > 0 {
                parts.push(format!("lost {lost}"));
            }
            lines.push(format!(
                "{}: {}",
                crate::app::markup::isolate(m),
                parts.join(", ")
            ));
        }
        let list = |label: &str, v: &[String]| (!v.is_empty()).then(|| format!("{label}: {}", names(v)));
        let groups: Vec<String> = [
            list("Became idle", &diff.became_idle),
            list("Became busy", &diff.became_busy),
            list("Joined", &diff.joined),
            list("Left", &diff.left),
        ]
        .into_iter()
        .flatten()
        .collect();
        html! {
            <div class="moved-summary" id="moved-summary" data-moved-count={diff.moved.to_string()} role="status">
                if !c.changes.is_empty() {
                    <table class="compare" id="assignor-changes">
                        <caption>{ "The same change under each assignor" }</caption>
                        <thead><tr>
                            <th scope="col">{ "assignor" }</th><th scope="col">{ "max / min before" }</th><th scope="col">{ "max / min after" }</th>
                            <th scope="col">{ "partitions moved" }</th><th scope="col">{ "partitions paused" }</th><th scope="col">{ "members idle" }</th>
                        </tr></thead>
                        <tbody>
                        { for c.changes.iter().map(|ch| html! {
                            <tr data-assignor={ch.kind.name()} data-moved={ch.moved.to_string()} data-paused={ch.paused.to_string()}
                                data-rebalances={ch.rebalances.to_string()} data-idle={ch.idle.to_string()}>
                                <th scope="row">{ ch.kind.name() }</th>
                                { match ch.cells() {
                                    Ok(cells) => cells.into_iter().map(|x| html! { <td>{ x }</td> }).collect::<Html>(),
                                    Err(e) => html! { <td colspan="5">{ e }</td> },
                                } }
                            </tr>
                        }) }
                        </tbody>
                    </table>
                    <p class="hint">{ "Paused: partitions nobody consumes during the rebalance (eager assignors: all; cooperative-sticky: only those that move)." }</p>
                }
                <p class="moved-headline">
                    { if diff.moved == 0 { "Nothing moved since the baseline.".to_string() } else { format!("{} moved since the baseline.", plural(diff.moved, "partition", "partitions")) } }
                    if diff.newly_assigned > 0 { { format!(" {} newly assigned.", plural(diff.newly_assigned, "partition", "partitions")) } }
                    if diff.unassigned > 0 { { format!(" {} no longer assigned.", plural(diff.unassigned, "partition", "partitions")) } }
                </p>
                <ul class="moved-members">{ for lines.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ul>
                { show_all_toggle(&all_moved, diff.changes.len(), "moved") }
                { for groups.iter().map(|g| html! { <p class="moved-group">{ g.clone() }</p> }) }
                <p class="hint">{ "Cells that changed owner are outlined in the grid." }</p>
            </div>
        }
    });

    // Range and round-robin side by side.
    let (r, o) = (&c.range, &c.round_robin);
    let differ: usize = r
        .topics
        .iter()
        .zip(&o.topics)
        .map(|(x, y)| {
            x.owners
                .iter()
                .zip(&y.owners)
                .filter(|(a, b)| a != b && **a != UNASSIGNED)
                .count()
        })
        .sum();
    let rows = c
        .input
        .members
        .iter()
        .take(members_shown(*all, c.input.members.len()))
        .enumerate()
        .map(|(i, m)| {
            html! {
                <tr key={m.id.clone()} data-compare-member={m.id.clone()}>
                    <td>{ m.id.clone() }</td>
                    <td data-range-total={r.totals[i].to_string()}>{ r.totals[i] }</td>
                    <td data-roundrobin-total={o.totals[i].to_string()}>{ o.totals[i] }</td>
                </tr>
            }
        });

    // The story.
    let steps = story();
    let story_view = match p.story_step {
        None => html! {
            <button id="story-start" onclick={d.reform(|_| Action::StoryStep(0))}>{ "Step through the story: join, leave, rolling restarts" }</button>
        },
        Some(k) => {
            let step = &steps[k.min(steps.len() - 1)];
            let back = d.reform(move |_| Action::StoryStep(k.saturating_sub(1)));
            let forward = d.reform(move |_| Action::StoryStep(k + 1));
            html! {
                <div class="story" id="story" data-story-step={k.to_string()}>
                    <p class="story-title"><strong>{ format!("Step {} of {}: {}", k + 1, steps.len(), step.title) }</strong></p>
                    <p class="story-sentence">{ step.sentence.clone() }</p>
                    <button id="story-back" disabled={k == 0} onclick={back}>{ "← Back" }</button>
                    <button id="story-forward" disabled={k + 1 >= steps.len()} onclick={forward}>{ "Forward →" }</button>
                    <button id="story-exit" onclick={d.reform(|_| Action::ExitStory)}>{ "Leave the story" }</button>
                </div>
            }
        }
    };

    html! {
        <section class="whatif" id="whatif">
            <h2>{ "What if" }{ crate::app::components::glossary::term("rebalance") }</h2>
            <div class="whatif-controls">
                if p.pinned {
                    <button id="unpin" onclick={unpin}>{ "Unpin the baseline" }</button>
                } else {
                    <button id="pin" onclick={pin}>{ "Pin as baseline" }</button>
                }
                <button id="rolling-restart" onclick={restart} title="Every member rejoins with a new member id, as after a rolling restart">
                    { "Rolling restart" }
                </button>
            </div>
            { story_view }
            { for summary }
            <h3>{ "Range and round-robin side by side" }</h3>
            <table class="compare" id="compare" data-differ={differ.to_string()}>
                <thead><tr><th>{ "member" }</th><th>{ "range" }</th><th>{ "round-robin" }</th></tr></thead>
                <tbody>{ for rows }</tbody>
                <tfoot>
                    <tr><td>{ "skew" }</td><td>{ skew(r) }</td><td>{ skew(o) }</td></tr>
                </tfoot>
            </table>
            { show_all_toggle(&all, c.input.members.len(), "compare") }
            <p class="compare-differ">{ format!("{} differ between the two.", plural(differ as u32, "partition owner", "partition owners")) }</p>
        </section>
    }
}
