//! What-if: pin a baseline and see what moved; range and round-robin side by side; the story
//! of joins, leaves and rolling restarts.

use crate::components::{members_shown, show_all_toggle};
use crate::state::Action;
use crate::Computed;
use rebalance_lab_core::assignor::explain::ratio;
use rebalance_lab_core::assignor::{Assignment, UNASSIGNED};
use rebalance_lab_core::scenario::whatif::story;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub computed: Rc<Computed>,
    /// A baseline is pinned.
    pub pinned: bool,
    /// The story's step on screen.
    pub story_step: Option<usize>,
    /// How many parts of a large group's computation are left (the what-if's lines come one
    /// assignor at a time, after the repaint).
    pub left: usize,
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
        .map(|id| crate::markup::isolate(id))
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

/// The what-if: pin a baseline and see what moved, a rolling restart, the story; range and
/// round-robin side by side, and the broker's two.
#[function_component]
pub fn WhatIf(p: &Props) -> Html {
    // Every member's moves, every member's totals.
    let all = use_state(|| false);
    let all_moved = use_state(|| false);
    let (c, pinned, story_step, d) = (&*p.computed, p.pinned, p.story_step, &p.dispatch);
    // (nothing to compare while a large group's worker computes)
    if c.pending {
        return Html::default();
    }
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
                crate::markup::isolate(m),
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
        let mut headline = if diff.moved == 0 {
            "Nothing moved since the baseline.".to_string()
        } else {
            format!("{} moved since the baseline.", plural(diff.moved, "partition", "partitions"))
        };
        if diff.newly_assigned > 0 {
            headline.push_str(&format!(" {} newly assigned.", plural(diff.newly_assigned, "partition", "partitions")));
        }
        if diff.unassigned > 0 {
            headline.push_str(&format!(" {} no longer assigned.", plural(diff.unassigned, "partition", "partitions")));
        }
        html! {
            <div class="moved-summary" id="moved-summary" data-moved-count={diff.moved.to_string()} role="status">
                if !c.changes.borrow().is_empty() {
                    { crate::components::markup("changes", crate::markup::assignor_changes(&c.changes.borrow())) }
                }
                { crate::components::markup("moved-lines", {
                    let mut m = String::from("<p class=\"moved-headline\">");
                    crate::markup::escape_into(&headline, &mut m);
                    m.push_str("</p>");
                    m.push_str(&crate::markup::list("ul class=\"moved-members\"", &lines));
                    m
                }) }
                { show_all_toggle(&all_moved, diff.changes.len(), "moved") }
                { crate::components::markup("moved-groups", {
                    let mut m = String::new();
                    for g in &groups {
                        m.push_str("<p class=\"moved-group\">");
                        crate::markup::escape_into(g, &mut m);
                        m.push_str("</p>");
                    }
                    m.push_str("<p class=\"hint\">Cells that changed owner are outlined in the grid.</p>");
                    m
                }) }
            </div>
        }
    });

    // Range and round-robin side by side.
    let (r, o) = (&*c.range, &*c.round_robin);
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
    let rows: Vec<(&str, u32, u32)> = c
        .input
        .members
        .iter()
        .take(members_shown(*all, c.input.members.len()))
        .enumerate()
        .map(|(i, m)| (m.id.as_str(), r.totals[i], o.totals[i]))
        .collect();

    // Each press repaints the section: the focus goes back to the pressed button, or to
    // the one that took its place.
    let press = |action: Action, ids: &'static [&'static str]| {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| {
            d.emit(action.clone());
            crate::components::refocus(ids);
        })
    };
    // The story (computed only while it is on screen: its steps run several assignments).
    let story_view = match story_step {
        None => html! {
            <button id="story-start" onclick={press(Action::StoryStep(0), &["story-start", "story-forward"])}>
                { "Step through the story: join, leave, rolling restarts" }
            </button>
        },
        Some(k) => {
            let steps = story();
            let step = &steps[k.min(steps.len() - 1)];
            html! {
                <div class="story" id="story" data-story-step={k.to_string()}>
                    <p class="story-title"><strong>{ format!("Step {} of {}: {}", k + 1, steps.len(), step.title) }</strong></p>
                    <p class="story-sentence">{ step.sentence.clone() }</p>
                    <button id="story-back" disabled={k == 0}
                        onclick={press(Action::StoryStep(k.saturating_sub(1)), &["story-back", "story-forward"])}>{ "← Back" }</button>
                    <button id="story-forward" disabled={k + 1 >= steps.len()}
                        onclick={press(Action::StoryStep(k + 1), &["story-forward", "story-back"])}>{ "Forward →" }</button>
                    <button id="story-exit" onclick={press(Action::ExitStory, &["story-exit", "story-start"])}>{ "Leave the story" }</button>
                    <p class="hint">{ "The story shows groups of its own: leaving it brings yours back." }</p>
                </div>
            }
        }
    };
    let pin = if pinned {
        html! { <button id="unpin" onclick={press(Action::Unpin, &["unpin", "pin"])}>{ "Unpin the baseline" }</button> }
    } else {
        html! { <button id="pin" onclick={press(Action::PinBaseline, &["pin", "unpin"])}>{ "Pin as baseline" }</button> }
    };
    let controls = html! {
        <>
            <div class="whatif-controls">
                { pin }
                <button id="rolling-restart" onclick={press(Action::RollingRestart, &["rolling-restart"])}
                    title="Every member rejoins with a new member id, as after a rolling restart">{ "Rolling restart" }</button>
            </div>
            { story_view }
        </>
    };

    html! {
        <section class="whatif" id="whatif">
            { crate::components::glossary::heading("h2", "What if".into(), &["rebalance"]) }
            { controls }
            { for summary }
            { crate::components::markup("side-by-side", "<h3>Range and round-robin side by side</h3>".to_string() + &crate::markup::side_by_side(&rows, (&skew(r), &skew(o)), differ)) }
            { show_all_toggle(&all, c.input.members.len(), "compare") }
            { Html::from_html_unchecked(format!("<p class=\"compare-differ\">{} differ between the two.</p>", plural(differ as u32, "partition owner", "partition owners")).into()) }
            { broker_side_by_side(c, *all) }
        </section>
    }
}

/// The broker's uniform and range on the same group, member by member (`#compare-broker`,
/// `data-uniform-total`, `data-server-range-total`): uniform as the grid shows it when it is
/// the scenario's assignor (from the pinned baseline), otherwise from the members' own
/// partitions.
fn broker_side_by_side(c: &Computed, all: bool) -> Html {
    let Some((fresh, server)) = &c.broker else {
        return Html::default();
    };
    let uniform = match c.kind {
        rebalance_lab_core::assignor::AssignorKind::Uniform => c.assignment(),
        _ => fresh.as_ref(),
    };
    let mut m = String::from("<h3>The broker's uniform and range on the same group</h3><table class=\"compare\" id=\"compare-broker\"><thead><tr><th>member</th><th>uniform</th><th>range (the broker's)</th></tr></thead><tbody>");
    for (i, id) in c
        .input
        .members
        .iter()
        .map(|m| m.id.as_str())
        .enumerate()
        .take(members_shown(all, c.input.members.len()))
    {
        m.push_str("<tr data-compare-member=\"");
        crate::markup::escape_into(id, &mut m);
        m.push_str("\"><td>");
        crate::markup::escape_into(id, &mut m);
        m.push_str("</td>");
        match uniform.and_then(|u| u.totals.get(i)) {
            Some(u) => m.push_str(&format!("<td data-uniform-total=\"{u}\">{u}</td>")),
            None => m.push_str("<td>–</td>"),
        }
        let r = server.totals.get(i).copied().unwrap_or(0);
        m.push_str(&format!(
            "<td data-server-range-total=\"{r}\">{r}</td></tr>"
        ));
    }
    m.push_str("</tbody><tfoot><tr><td>skew</td><td>");
    m.push_str(&uniform.map_or("uniform gives no answer for this group".to_string(), skew));
    m.push_str("</td><td>");
    m.push_str(&skew(server));
    m.push_str("</td></tr></tfoot></table>");
    crate::components::markup("side-by-side-broker", m)
}
