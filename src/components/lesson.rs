//! The lesson's page work: reading what the learner picked and typed, and lighting what a
//! step names. The panel itself is markup (`crate::lesson`), run by the app's one
//! listener.

use crate::lesson::Entered;
use crate::state::{Action, AppState};
use rebalance_lab_core::lesson::{Highlight, LoadedStep, Question, Step};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// What the app shows and runs of the lesson.
pub struct View {
    /// The lesson's panel, when a lesson is on.
    pub panel: Option<Html>,
    /// Its live region (what the last check found), when a lesson is on.
    pub live: Option<Html>,
    /// The lesson's buttons (`data-app="lesson…"`) and the grid's cells while a step asks
    /// for cells, run from the app's one listener.
    pub click: Callback<MouseEvent>,
}

/// The lesson's view, run in the app's render: the step on screen read and answered once
/// per step, what it names lit after each repaint.
#[hook]
pub fn use_lesson(state: &UseReducerHandle<AppState>, dispatch: &Callback<Action>) -> View {
    let at = state
        .lesson
        .as_ref()
        .map(|on| (on.lesson.key, on.progress.step()));
    let loaded: Rc<Option<Result<LoadedStep, rebalance_lab_core::lesson::LessonError>>> =
        use_memo(at, |at| {
            let (key, k) = (*at)?;
            rebalance_lab_core::lesson::lesson(key)?
                .steps
                .get(k)
                .map(LoadedStep::load)
        });
    let on = state.lesson.as_ref();
    let step = on.and_then(|on| on.step());
    let predict = on.and_then(|on| {
        let q = on.step()?.question?;
        (!on.revealed).then_some(match q {
            Question::Cells { .. } => "cells",
            Question::Counts => "counts",
            Question::Choice { .. } => "choice",
        })
    });
    {
        // What the step names is lit once the page shows it (after every repaint: the
        // grid's rows paint their cells in effects of their own); cells picked on another
        // step are let go.
        let last = use_mut_ref(|| None::<&'static str>);
        // The question's kind while a step asks and its answer is not shown marks the app
        // (`data-predict`; before the browser paints), and the stylesheet hides the owners.
        use_effect(move || {
            let key = step.map(|s| s.key);
            let fresh = *last.borrow() != key;
            *last.borrow_mut() = key;
            if step.is_some() || fresh {
                let app = document().and_then(|d| d.query_selector(".app").ok().flatten());
                if let Some(app) = app {
                    let _ = match predict {
                        Some(kind) => app.set_attribute("data-predict", kind),
                        None => app.remove_attribute("data-predict"),
                    };
                }
                light(step, fresh);
            }
        });
    }
    let panel = on.zip(loaded.as_ref().as_ref()).map(|(on, l)| {
        let s = &state.scenario;
        let changed = l.as_ref().is_ok_and(|l| {
            l.scenario.topics != s.topics
                || l.scenario.members != s.members
                || l.scenario.assignor != s.assignor
        });
        let refused = match &state.refusal {
            Some((f, m)) if f == "lesson" => Some(m.as_str()),
            _ => None,
        };
        Html::from_html_unchecked(
            format!(
                "<section class=\"panel lesson\" id=\"lesson\" aria-labelledby=\"lesson-title\">{}</section>",
                crate::lesson::panel(on, l, changed, refused)
            )
            .into(),
        )
    });
    let live = on.map(|on| {
        let said = on.checked.as_ref().map(|c| c.2.clone()).unwrap_or_default();
        html! { <p id="lesson-live" class="visually-hidden" role="status">{ said }</p> }
    });
    let click = {
        let (d, is_on) = (dispatch.clone(), on.is_some());
        Callback::from(move |e: MouseEvent| {
            if predict == Some("cells") {
                if let Some(c) = super::clicked(&e, ".grid .cell[data-partition]") {
                    pick(&c);
                    return;
                }
            }
            let Some(b) = super::clicked(&e, "[data-app]") else {
                return;
            };
            match b.get_attribute("data-app").as_deref() {
                Some("lesson") if !is_on => d.emit(Action::LessonGo(0)),
                Some("lesson-go") => {
                    if let Some(k) = b.get_attribute("data-step").and_then(|k| k.parse().ok()) {
                        d.emit(Action::LessonGo(k));
                    }
                }
                Some("lesson-show") => d.emit(Action::LessonReveal),
                Some("lesson-leave") => d.emit(Action::LessonLeave),
                Some("lesson-check") => {
                    let Some(Ok(l)) = loaded.as_ref() else {
                        return;
                    };
                    let Some(q) = l.step.question else {
                        return;
                    };
                    d.emit(match crate::lesson::prediction(&q, &entered()) {
                        Ok(p) => {
                            let f = rebalance_lab_core::lesson::check(l, &p);
                            Action::LessonChecked {
                                right: f.right,
                                feedback: crate::lesson::feedback(&f),
                                said: crate::lesson::said(&f),
                                prediction: p,
                            }
                        }
                        Err(m) => Action::LessonRefuse(m),
                    });
                }
                _ => {}
            }
        })
    };
    View { panel, live, click }
}

/// Picks a cell for a prediction, or lets it go.
pub fn pick(cell: &web_sys::Element) {
    let on = cell.get_attribute("aria-selected").as_deref() != Some("true");
    let _ = cell.set_attribute("aria-selected", if on { "true" } else { "false" });
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

/// What the learner entered on the page: the grid's picked cells, the lesson's count
/// inputs, its checked option.
pub fn entered() -> Entered {
    let Some(doc) = document() else {
        return Entered::default();
    };
    let get = |el: &web_sys::Element, a: &str| el.get_attribute(a).unwrap_or_default();
    let value = |el: &web_sys::Element| {
        el.dyn_ref::<web_sys::HtmlInputElement>()
            .map(|i| i.value())
            .unwrap_or_default()
    };
    Entered {
        cells: all(&doc, ".grid .cell[aria-selected=\"true\"]")
            .iter()
            .map(|c| (get(c, "data-topic"), get(c, "data-partition")))
            .collect(),
        counts: all(&doc, "#lesson input[data-count]")
            .iter()
            .map(|i| (get(i, "data-count"), value(i)))
            .collect(),
        choice: all(&doc, "#lesson input[name=\"lesson-choice\"]:checked")
            .first()
            .map(value),
    }
}

/// Lights (`data-lit`) what `step` names: a member's cells, totals and editor entries, a
/// topic's row, partitions, a field of the bytes view and its bytes, a byte range; the
/// rest is unlit. `fresh`: the step just came on screen, so cells picked on another step
/// are let go.
pub fn light(step: Option<&Step>, fresh: bool) {
    let Some(doc) = document() else {
        return;
    };
    for el in all(&doc, "[data-lit]") {
        let _ = el.remove_attribute("data-lit");
    }
    if fresh {
        for el in all(&doc, ".cell[aria-selected]") {
            let _ = el.remove_attribute("aria-selected");
        }
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
