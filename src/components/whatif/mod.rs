//! What-if: pin a baseline and see what moved; range and round-robin side by side; the story
//! of joins, leaves and rolling restarts.

use crate::components::{members_shown, show_all_toggle};
use crate::markup::isolate;
use crate::state::Action;
use crate::Computed;
use rebalance_lab_core::assignor::explain::ratio;
use rebalance_lab_core::assignor::{Assignment, UNASSIGNED};
use rebalance_lab_core::scenario::whatif::{story, Diff};
use std::rc::Rc;
use yew::prelude::*;

mod tables;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub computed: Rc<Computed>,
    /// A baseline is pinned.
    pub pinned: bool,
    /// The story's step on screen.
    pub story_step: Option<usize>,
    /// How many parts of a large group's computation are left (the what-if's lines come one
    /// assignor at a time, after the repaint).
    pub parts_left: usize,
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
        .map(|id| isolate(id))
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
    let (c, d) = (&*p.computed, &p.dispatch);
    // (nothing to compare while a large group's worker computes)
    if c.pending {
        return Html::default();
    }
    // Range and round-robin: how many partitions they give different owners.
    let differ: usize = c
        .range
        .topics
        .iter()
        .zip(&c.round_robin.topics)
        .map(|(x, y)| {
            x.owners
                .iter()
                .zip(&y.owners)
                .filter(|(a, b)| a != b && **a != UNASSIGNED)
                .count()
        })
        .sum();
    let pin = if p.pinned {
        html! { <button id="unpin" onclick={press(d, Action::Unpin, &["unpin", "pin"])}>{ "Unpin the baseline" }</button> }
    } else {
        html! { <button id="pin" onclick={press(d, Action::PinBaseline, &["pin", "unpin"])}>{ "Pin as baseline" }</button> }
    };
    html! {
        <section class="whatif" id="whatif">
            { crate::components::glossary::heading("h2", "What if".into(), &["rebalance"]) }
            <div class="whatif-controls">
                { pin }
                <button id="rolling-restart" onclick={press(d, Action::RollingRestart, &["rolling-restart"])}
                    title="Every member rejoins with a new member id, as after a rolling restart">{ "Rolling restart" }</button>
            </div>
            { story_view(p.story_step, d) }
            { for c.diff.as_ref().map(|diff| moved_summary(c, diff, &all_moved)) }
            { tables::range_and_round_robin(c, *all, differ) }
            { show_all_toggle(&all, c.input.members.len(), "compare") }
            <p class="compare-differ">{ format!("{} differ between the two.", plural(differ as u32, "partition owner", "partition owners")) }</p>
            { tables::broker_side_by_side(c, *all) }
        </section>
    }
}

/// A press that repaints the section: the focus goes back to the pressed button, or to the
/// one that took its place.
fn press(
    d: &Callback<Action>,
    action: Action,
    ids: &'static [&'static str],
) -> Callback<MouseEvent> {
    let d = d.clone();
    Callback::from(move |_: MouseEvent| {
        d.emit(action.clone());
        crate::components::refocus(ids);
    })
}

/// The story's button, or its step on screen with Back, Forward and Leave (computed only
/// while it is on screen: its steps run several assignments).
fn story_view(story_step: Option<usize>, d: &Callback<Action>) -> Html {
    let Some(k) = story_step else {
        return html! {
            <button id="story-start" onclick={press(d, Action::StoryStep(0), &["story-start", "story-forward"])}>
                { "Step through the story: join, leave, rolling restarts" }
            </button>
        };
    };
    let steps = story();
    let step = &steps[k.min(steps.len() - 1)];
    html! {
        <div class="story" id="story" data-story-step={k.to_string()}>
            <p class="story-title"><strong>{ format!("Step {} of {}: {}", k + 1, steps.len(), step.title) }</strong></p>
            <p class="story-sentence">{ step.sentence.clone() }</p>
            <button id="story-back" disabled={k == 0}
                onclick={press(d, Action::StoryStep(k.saturating_sub(1)), &["story-back", "story-forward"])}>{ "← Back" }</button>
            <button id="story-forward" disabled={k + 1 >= steps.len()}
                onclick={press(d, Action::StoryStep(k + 1), &["story-forward", "story-back"])}>{ "Forward →" }</button>
            <button id="story-exit" onclick={press(d, Action::ExitStory, &["story-exit", "story-start"])}>{ "Leave the story" }</button>
            <p class="hint">{ "The story shows groups of its own: leaving it brings yours back." }</p>
        </div>
    }
}

/// What moved since the baseline: the same change under each assignor, the headline, each
/// member's gains and losses (the first 50 until asked), and who became idle, busy, joined
/// or left.
fn moved_summary(c: &Computed, diff: &Diff, all_moved: &UseStateHandle<bool>) -> Html {
    let lines = diff
        .changes
        .iter()
        .take(members_shown(**all_moved, diff.changes.len()))
        .map(|(m, (gained, lost))| {
            let mut parts = Vec::new();
            if *gained > 0 {
                parts.push(format!("gained {gained}"));
            }
            if *lost > 0 {
                parts.push(format!("lost {lost}"));
            }
            html! { <li>{ format!("{}: {}", isolate(m), parts.join(", ")) }</li> }
        });
    let groups = [
        ("Became idle", &diff.became_idle),
        ("Became busy", &diff.became_busy),
        ("Joined", &diff.joined),
        ("Left", &diff.left),
    ]
    .into_iter()
    .filter(|(_, v)| !v.is_empty())
    .map(|(label, v)| html! { <p class="moved-group">{ format!("{label}: {}", names(v)) }</p> });
    let mut headline = if diff.moved == 0 {
        "Nothing moved since the baseline.".to_string()
    } else {
        format!(
            "{} moved since the baseline.",
            plural(diff.moved, "partition", "partitions")
        )
    };
    if diff.newly_assigned > 0 {
        headline.push_str(&format!(
            " {} newly assigned.",
            plural(diff.newly_assigned, "partition", "partitions")
        ));
    }
    if diff.unassigned > 0 {
        headline.push_str(&format!(
            " {} no longer assigned.",
            plural(diff.unassigned, "partition", "partitions")
        ));
    }
    let changes = c.changes.borrow();
    html! {
        <div class="moved-summary" id="moved-summary" data-moved-count={diff.moved.to_string()} role="status">
            if !changes.is_empty() {
                { tables::assignor_changes(&changes) }
            }
            <div class="moved-lines">
                <p class="moved-headline">{ headline }</p>
                <ul class="moved-members">{ for lines }</ul>
            </div>
            { show_all_toggle(all_moved, diff.changes.len(), "moved") }
            <div class="moved-groups">
                { for groups }
                <p class="hint">{ "Cells that changed owner are outlined in the grid." }</p>
            </div>
        </div>
    }
}
