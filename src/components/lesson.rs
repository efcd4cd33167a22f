//! The lesson's panel: where the learner is, the step's text, its question (the learner's
//! entries kept in the app's state), the feedback on a check, the answer, and the steps to go
//! to; and what a step names, lit on the page.

use crate::state::{Action, Attempt, LessonOn};
use rebalance_lab_core::lesson::{
    self, Answer, Highlight, LessonError, LoadedStep, Outcome, Question, Step,
};
use rebalance_lab_core::scenario::Scenario;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The kind of question the step on screen asks while its answer is not shown (`cells`,
/// `counts`, `choice`): the app marks itself with it (`data-predict`), and the stylesheet
/// hides the owners.
pub fn predicting(on: Option<&LessonOn>) -> Option<&'static str> {
    let on = on?;
    let q = on.step()?.question?;
    (!on.revealed).then_some(match q {
        Question::Cells { .. } => "cells",
        Question::Counts => "counts",
        Question::Choice { .. } => "choice",
    })
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lesson: LessonOn,
    /// The group on screen (the step's own, unless the learner changed it).
    pub scenario: Rc<Scenario>,
    /// What a check refused, when it did.
    pub refused: Option<String>,
    pub dispatch: Callback<Action>,
}

/// The lesson's panel and its live region (what the last check found): the step on screen
/// read once per step.
#[function_component]
pub fn LessonPanel(p: &Props) -> Html {
    let on = &p.lesson;
    let loaded: Rc<Result<LoadedStep, LessonError>> = use_memo(
        (on.lesson.key, on.progress.step()),
        |(key, k)| match lesson::lesson(key).and_then(|l| l.steps.get(*k)) {
            Some(step) => LoadedStep::load(step),
            None => Err(LessonError {
                step: "",
                message: format!("no step {} in the lesson \"{key}\"", k + 1),
            }),
        },
    );
    let s = &p.scenario;
    let changed = loaded.as_ref().as_ref().is_ok_and(|l| {
        l.scenario.topics != s.topics
            || l.scenario.members != s.members
            || l.scenario.assignor != s.assignor
    });
    let said = on
        .attempt()
        .and_then(|a| a.checked.as_ref())
        .map(|(_, f)| crate::lesson::said(f))
        .unwrap_or_default();
    html! { <>
        { panel(on, &loaded, changed, p.refused.as_deref(), &p.dispatch) }
        <p id="lesson-live" class="visually-hidden" role="status">{ said }</p>
    </> }
}

/// A button that moves to step `to` (counting from 0), or a disabled one at either end.
fn go(
    d: &Callback<Action>,
    to: Option<usize>,
    id: &'static str,
    ids: &'static [&'static str],
    label: &'static str,
) -> Html {
    let onclick = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(k) = to {
                d.emit(Action::LessonGo(k));
                crate::components::refocus(ids);
            }
        })
    };
    html! { <button id={id} disabled={to.is_none()} {onclick}>{ label }</button> }
}

/// The lesson's panel: where the learner is (step k of n, how the predictions went, every
/// step to go to), the step's text, its question (or its answer, once checked or shown),
/// and Back and Forward. `changed`: the group on screen is no longer the step's own.
fn panel(
    on: &LessonOn,
    loaded: &Result<LoadedStep, LessonError>,
    changed: bool,
    refused: Option<&str>,
    d: &Callback<Action>,
) -> Html {
    let steps = on.lesson.steps;
    let k = on.progress.step();
    let (right, wrong) = on.progress.tally();
    let asked = steps.iter().filter(|s| s.question.is_some()).count();
    let step = &steps[k.min(steps.len() - 1)];
    let leave = d.reform(|_| {
        crate::components::refocus(&["lesson-open"]);
        Action::LessonLeave
    });
    let list = steps.iter().enumerate().map(|(i, s)| {
        let (mark, said) = match on.progress.outcome(i) {
            Outcome::Right => ("right", " (right)"),
            Outcome::Wrong => ("wrong", " (wrong)"),
            Outcome::Unanswered => ("", ""),
        };
        html! {
            <li data-outcome={mark}>
                <button aria-current={(i == k).then_some("step")} onclick={d.reform(move |_| Action::LessonGo(i))}>
                    { s.title }{ said }
                </button>
            </li>
        }
    });
    let body = match loaded {
        Err(e) => {
            html! { <p class="alert" role="alert">{ format!("This step cannot be shown: {e}") }</p> }
        }
        Ok(loaded) => {
            let attempt = on.attempt();
            let checked = attempt.and_then(|a| a.checked.as_ref());
            html! { <>
                if changed {
                    <p class="lesson-changed" id="lesson-changed">
                        { "You changed this step's group: Check still answers for the step's own group. " }
                        <button onclick={d.reform(move |_| Action::LessonGo(k))}>{ "Put the step's group back" }</button>
                    </p>
                }
                if let Some(q) = &step.question {
                    if !on.revealed || checked.is_some() {
                        { question(q, loaded, attempt, d) }
                    }
                    if let Some(r) = refused {
                        <p class="refusal" id="lesson-refused" role="alert">{ r }</p>
                    }
                    if let Some((_, f)) = checked {
                        { feedback(f) }
                    }
                    if on.revealed {
                        if let Some(a) = loaded.answer() {
                            { answer(loaded, &a) }
                        }
                    }
                }
            </> }
        }
    };
    html! {
        <section class="panel lesson" id="lesson" aria-labelledby="lesson-title">
            <div class="lesson-head">
                <p class="lesson-progress" id="lesson-progress">
                    { format!("{}: ", on.lesson.title) }
                    <strong>{ format!("step {} of {}", k + 1, steps.len()) }</strong>
                    { format!(" · predictions: {right} right, {wrong} wrong, of {asked}") }
                </p>
                <button id="lesson-leave" onclick={leave}>{ "Leave the lesson" }</button>
            </div>
            <details class="lesson-steps">
                <summary>{ "Steps" }</summary>
                <ol>{ for list }</ol>
            </details>
            <p class="hint">{ "Each step shows a group of its own: leaving the lesson brings yours back." }</p>
            <h2 id="lesson-title">{ step.title }</h2>
            <p class="lesson-text" id="lesson-text">{ step.text }</p>
            if step.before.is_some() {
                <p class="hint">{ "What if: the group before the change is pinned; the grid shows it after." }</p>
            }
            { body }
            if k + 1 == steps.len() && (on.revealed || step.question.is_none()) {
                { summary(on, d) }
            }
            <p class="lesson-nav">
                { go(d, k.checked_sub(1), "lesson-back", &["lesson-back", "lesson-forward"], "Back") }
                { go(d, (k + 1 < steps.len()).then_some(k + 1), "lesson-forward", &["lesson-forward", "lesson-back"], "Forward") }
            </p>
        </section>
    }
}

/// The end of the lesson: how the predictions went, what it covered, and the steps to look
/// at again.
fn summary(on: &LessonOn, d: &Callback<Action>) -> Html {
    let steps = on.lesson.steps;
    let (right, wrong) = on.progress.tally();
    let asked = steps.iter().filter(|s| s.question.is_some()).count();
    let again: Vec<(usize, &str, String)> = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.question.is_some())
        .filter_map(|(i, s)| {
            let said = match on.progress.outcome(i) {
                Outcome::Right => return None,
                Outcome::Unanswered => " (not answered)".to_string(),
                // what the mistake was: the common mistake the first check showed (the link
                // keeps it), else that check's feedback when this page saw it
                Outcome::Wrong => {
                    let mistake = on.progress.mistake(i).and_then(|m| {
                        let loaded = lesson::LoadedStep::load(s).ok()?;
                        Some(format!(
                            "{}: {}",
                            m.name(),
                            lesson::mistakes::reason(m, &loaded)
                        ))
                    });
                    let feedback = || {
                        on.attempts
                            .get(&i)
                            .and_then(|a| a.first_wrong.as_ref())
                            .map(|f| f.summary.clone())
                    };
                    match mistake.or_else(feedback) {
                        Some(what) => format!(" (wrong at first: {what})"),
                        None => " (wrong)".to_string(),
                    }
                }
            };
            Some((i, s.title, said))
        })
        .collect();
    html! {
        <div class="lesson-summary" id="lesson-summary">
            <h3>{ "The lesson is done" }</h3>
            <p>{ format!("Your predictions: {right} right, {wrong} wrong, {} not answered, of {asked}.", asked.saturating_sub(right + wrong)) }</p>
            <p>{ "It covered: " }{ steps.iter().map(|s| s.title).collect::<Vec<_>>().join("; ") }{ "." }</p>
            if !again.is_empty() {
                <p>{ "To look at again:" }</p>
                <ul>
                    { for again.into_iter().map(|(i, title, said)| html! {
                        <li data-again-step={(i + 1).to_string()}>
                            <button onclick={d.reform(move |_| Action::LessonGo(i))}>{ format!("{}. {title}", i + 1) }</button>
                            { said }
                        </li>
                    }) }
                </ul>
            }
        </div>
    }
}

/// The step's question, with what the learner has entered so far.
fn question(
    q: &Question,
    loaded: &LoadedStep,
    attempt: Option<&Attempt>,
    d: &Callback<Action>,
) -> Html {
    let entered = attempt.map(|a| &a.entered);
    let ask = match q {
        Question::Cells { .. } => html! {
            <p class="hint">{ "Click the cells in the grid (or focus one and press Space): the owners are hidden until you check." }</p>
        },
        Question::Counts => html! {
            <div class="lesson-counts">
                { for loaded.scenario.members.iter().map(|member| {
                    let id = member.id.clone();
                    let typed = entered.map_or("", |e| e.typed(&id)).to_string();
                    let oninput = d.reform(move |e: InputEvent| Action::LessonCount {
                        member: id.clone(),
                        text: e.target_unchecked_into::<web_sys::HtmlInputElement>().value(),
                    });
                    html! {
                        <label>
                            <span class="member-name">{ member.id.clone() }</span>{ " " }
                            <input type="number" min="0" step="1" inputmode="numeric" data-count={member.id.clone()}
                                value={typed} {oninput} />
                        </label>
                    }
                }) }
            </div>
        },
        Question::Choice {
            prompt, options, ..
        } => html! {
            <fieldset class="lesson-choice">
                <legend><strong>{ "Predict: " }</strong>{ *prompt }</legend>
                { for options.iter().enumerate().map(|(i, o)| html! {
                    <label>
                        <input type="radio" name="lesson-choice" value={i.to_string()}
                            checked={entered.and_then(|e| e.choice) == Some(i)}
                            onchange={d.reform(move |_| Action::LessonChoose(i))} />
                        { format!(" {o}") }
                    </label>
                }) }
            </fieldset>
        },
    };
    let show = d.reform(|_| {
        crate::components::refocus(&["lesson-forward"]);
        Action::LessonReveal
    });
    html! {
        <div class="lesson-question" id="lesson-question">
            // (a choice's prompt is its options' legend)
            if !matches!(q, Question::Choice { .. }) {
                <p class="lesson-prompt"><strong>{ "Predict: " }</strong>{ q.prompt() }</p>
            }
            { ask }
            <p class="lesson-actions">
                <button id="lesson-check" onclick={d.reform(|_| Action::LessonCheck)}>{ "Check" }</button>
                <button id="lesson-show" onclick={show}>{ "Show answer" }</button>
            </p>
        </div>
    }
}

/// The feedback on a checked prediction: the verdict and summary, then each item.
fn feedback(f: &lesson::Feedback) -> Html {
    html! {
        <div class="lesson-feedback" id="lesson-feedback" data-right={f.right.to_string()}>
            <p><strong>{ crate::lesson::verdict(f) }</strong>{ " " }{ f.summary.clone() }</p>
            <ul class="lesson-items">
                { for f.items.iter().map(|i| {
                    let v = crate::lesson::item_verdict(i.verdict);
                    html! {
                        <li data-verdict={v}><strong>{ v }</strong>{ format!(" {}: {}", i.item, i.why) }
                            // (the common mistake that gives this very item, when one does)
                            { i.mistake.map(|m| format!(" ({})", m.name())).unwrap_or_default() }</li>
                    }
                }) }
            </ul>
        </div>
    }
}

/// The right answer, and for a step that shows a common mistake, the wrong one beside it.
fn answer(loaded: &LoadedStep, right: &Answer) -> Html {
    let said = lesson::describe(loaded, right);
    html! {
        <div class="lesson-answer" id="lesson-answer">
            <p><strong>{ "The answer: " }</strong>{ format!("{said}.") }</p>
            if let Some((mistake, wrong)) = loaded.wrong_answer() {
                <table class="compare lesson-compare" id="lesson-compare">
                    <tr><th scope="row">{ "Right, as Kafka does it" }</th><td data-answer="right">{ said.clone() }</td></tr>
                    <tr>
                        <th scope="row">{ format!("Wrong: {}", mistake.name()) }</th>
                        <td data-answer="wrong">{ lesson::describe(loaded, &wrong) }</td>
                    </tr>
                </table>
                <p class="lesson-why">{ format!("Why it is wrong: {}.", lesson::mistakes::reason(mistake, loaded)) }</p>
            }
        </div>
    }
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Every element matching `selector`. (The grid's member highlight walks its cells with
/// the same loop, written out: sharing one function cost the shipped page 82 bytes.)
fn all(doc: &web_sys::Document, selector: &str) -> Vec<web_sys::Element> {
    let mut out = Vec::new();
    if let Ok(list) = doc.query_selector_all(selector) {
        for i in 0..list.length() {
            if let Some(el) = list.item(i).and_then(|n| n.dyn_into().ok()) {
                out.push(el);
            }
        }
    }
    out
}

/// Lights (`data-lit`) what `step` names: a member's cells, totals and editor entries, a
/// topic's row, partitions, a field of the bytes view and its bytes, a byte range; the
/// rest is unlit.
pub fn light(step: Option<&Step>) {
    let Some(doc) = document() else {
        return;
    };
    for el in all(&doc, "[data-lit]") {
        let _ = el.remove_attribute("data-lit");
    }
    let Some(step) = step else {
        return;
    };
    let lit = |selector: &str, attr: &str, want: &dyn Fn(&str) -> bool| {
        for el in all(&doc, selector) {
            if el.get_attribute(attr).is_some_and(|v| want(&v)) {
                let _ = el.set_attribute("data-lit", "");
            }
        }
    };
    let bytes = |start: usize, end: usize| {
        lit(
            "[data-view=\"subscription\"] .byte[data-offset]",
            "data-offset",
            &|v| v.parse::<usize>().is_ok_and(|i| (start..end).contains(&i)),
        )
    };
    for h in step.highlights {
        match *h {
            Highlight::Member(m) => {
                lit("[data-member]", "data-member", &|v| v == m);
                lit(".cell[data-owner]", "data-owner", &|v| v == m);
                lit("[data-show-bytes]", "data-show-bytes", &|v| v == m);
            }
            Highlight::Topic(t) => {
                lit("[data-explain]", "data-explain", &|v| v == t);
                lit("[data-missing-topic]", "data-missing-topic", &|v| v == t);
            }
            Highlight::Partitions { topic, partitions } => {
                for el in all(&doc, ".cell[data-partition]") {
                    let on = el.get_attribute("data-topic").as_deref() == Some(topic)
                        && el
                            .get_attribute("data-partition")
                            .and_then(|p| p.parse::<u32>().ok())
                            .is_some_and(|p| partitions.contains(&p));
                    if on {
                        let _ = el.set_attribute("data-lit", "");
                    }
                }
            }
            Highlight::Field { path, .. } => {
                for el in all(&doc, "[data-view=\"subscription\"] .field[data-field]") {
                    if el.get_attribute("data-field").as_deref() != Some(path) {
                        continue;
                    }
                    let _ = el.set_attribute("data-lit", "");
                    let range = el.get_attribute("data-bytes").unwrap_or_default();
                    if let Some((a, b)) = range.split_once('-') {
                        if let (Ok(a), Ok(b)) = (a.parse(), b.parse()) {
                            bytes(a, b);
                        }
                    }
                }
            }
            Highlight::Bytes { start, end, .. } => bytes(start, end),
        }
    }
}
