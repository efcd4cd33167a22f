//! The app component and its start.

use super::{components, hooks, state};
use rebalance_lab_core::assignor::AssignorKind;
use state::Action;
use yew::prelude::*;

/// The app.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(hooks::initial_state);
    // View state: cooperative-sticky's follow-up round on screen instead of round 1.
    let follow_up_round = use_state(|| false);
    let fragment = hooks::use_url_sync(state.clone());
    // Stable across renders, so rows whose props did not change skip their repaint.
    let dispatch: Callback<Action> = use_callback(state.dispatcher(), |a: Action, d| d.dispatch(a));
    let computed = crate::computed::use_computed(&state, *follow_up_round);
    let kind = state.scenario.assignor;
    let colours = use_memo(state.colours.clone(), |c| c.clone());
    let on_assignor = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Some(k) = AssignorKind::parse(&v) {
                dispatch.emit(Action::SetAssignor(k));
            }
        })
    };
    // The bytes panel opens below the result: brought into view when a member's bytes are
    // opened, so that the click visibly does something.
    use_effect_with(state.bytes_member_index(), |open| {
        if open.is_some() {
            if let Some(panel) = gloo::utils::document().get_element_by_id("bytes-panel") {
                panel.scroll_into_view();
            }
        }
    });
    let bytes_panel = bytes_panel(&state, &computed, &dispatch);
    let broken = state
        .broken_link
        .as_ref()
        .map(|b| broken_link_alert(b, &dispatch));
    let LessonOnGrid {
        picked,
        picking,
        asks_over_time,
    } = lesson_on_grid(&state);
    // Your own group: the import box and what it read, the planner, the exports.
    // View state: an imported group's lag shown on the grid.
    let lag_on = use_state(|| false);
    let on_lag = {
        let lag_on = lag_on.clone();
        use_callback(*lag_on, move |(), on| lag_on.set(!*on))
    };
    // The lesson: its panel, the owners hidden while it asks, its live region and its
    // buttons.
    let predict = components::lesson::predicting(state.lesson.as_ref());
    {
        // What the step names is lit once the page shows it (after every repaint: the grid's
        // rows paint their cells in effects of their own).
        let step = state.lesson.as_ref().and_then(|on| on.step());
        use_effect(move || components::lesson::light(step));
    }
    let lesson_open = dispatch.reform(|_: MouseEvent| Action::LessonOpen);
    let flip_round = {
        let follow_up_round = follow_up_round.clone();
        use_callback(*follow_up_round, move |_: MouseEvent, shown| {
            follow_up_round.set(!*shown)
        })
    };
    html! {
        <div class="app" data-predict={predict}>
            <header class="top">
                <h1>{ "Rebalance Lab" }</h1>
                <button id="lesson-open" class="lesson-open" onclick={lesson_open}>{ "Lesson" }</button>
                <button id="lesson-over-time" class="lesson-open" onclick={dispatch.reform(|_: MouseEvent| Action::LessonStart("over-time"))}>{ "Lesson: rebalances over time" }</button>
                <p class="tagline">
                    { "How a Kafka consumer group" }<components::glossary::Term term="group" />
                    { " splits partitions among its members, exactly as the Java client does." }
                </p>
                <components::glossary::Glossary />
            </header>
            { for broken }
            <components::presets::Presets loaded={state.preset} dispatch={dispatch.clone()} />
            <components::import::Import imported={state.imported.clone()} baseline={state.baseline.clone()}
                scenario={state.scenario.clone()} pending={computed.pending} lag_on={*lag_on} {on_lag}
                dispatch={dispatch.clone()} />
            if let Some(on) = &state.lesson {
                <components::lesson::LessonPanel lesson={on.clone()} scenario={state.scenario.clone()}
                    refused={state.refusal.as_ref().filter(|(f, _)| f == "lesson").map(|(_, m)| m.clone())}
                    dispatch={dispatch.clone()} />
            }
            <main class="layout">
                <section class="panel edit">
                    <components::editor::Editor scenario={state.scenario.clone()} bytes_open={state.bytes_member_index()}
                        refusal={state.refusal.clone()} dispatch={dispatch.clone()} />
                </section>
                // busy while a large group's what-if is still computing, after the repaint
                <section class="panel result" aria-busy={(computed.parts_left() > 0 || computed.pending).to_string()}
                    data-computed-in={if computed.from_worker { "worker" } else { "page" }}>
                    <div class="assignor-row">
                        // The protocol: its options' values are the assignor each starts with.
                        <label for="protocol">{ "Protocol " }</label>
                        <select id="protocol" onchange={on_assignor.clone()}>
                            <option value="range" selected={!kind.is_broker()}>{ "classic" }</option>
                            <option value="uniform" selected={kind.is_broker()}>{ "consumer (KIP-848)" }</option>
                        </select>
                        <label for="assignor">{ "Assignor " }</label>
                        <select id="assignor" onchange={on_assignor}>
                            { for assignor_options(kind).iter().map(|&(k, label)| html! {
                                <option value={k.name()} selected={k == kind}>{ label }</option>
                            }) }
                        </select>
                        <components::linkbar::LinkBar fragment={AttrValue::from(fragment.clone())} />
                    </div>
                    <components::status::AssignorStatus computed={computed.clone()} {flip_round} />
                    // A large group's assignment is computing in the page's worker: the page
                    // stays usable meanwhile, and a newer edit replaces this computation.
                    if computed.pending {
                        <p class="notice" role="status" id="computing">
                            <progress aria-label="Computing"></progress>{ " Computing the assignment…" }
                        </p>
                    }
                    <components::grid::Grid computed={computed.clone()} colours={colours.clone()}
                        selected={state.selected_topic.clone()} {picked} {picking} owners_hidden={predict.is_some()}
                        lag={state.imported.clone().filter(|_| *lag_on)} shows={AttrValue::from(state.group_shown())}
                        dispatch={dispatch.clone()} />
                    // The explanation of what is on screen comes right after it, not below the fold.
                    // (neither has anything to say while a large group's worker computes)
                    <components::explain::Explain computed={computed.clone()} selected={state.selected_topic.clone()} dispatch={dispatch.clone()} />
                    <components::whatif::WhatIf computed={computed.clone()} pinned={state.baseline.is_some()}
                        story_step={state.story_step} parts_left={computed.parts_left()} dispatch={dispatch.clone()} />
                    <components::import::Planner scenario={state.scenario.clone()} dispatch={dispatch.clone()} />
                    <components::import::Export scenario={state.scenario.clone()} computed={computed.clone()} imported={state.imported.clone()} colours={colours.clone()}
                        pinned={state.pinned.as_ref().map(|(p, _)| (p.members.len(), p.total_partitions()))} />
                    <components::group::GroupPanel scenario={state.scenario.clone()} group_log={state.group_log.clone()}
                        computed={computed.clone()} waiting={computed.after_repaint.borrow().group} refusal={state.refusal.clone()}
                        imported={state.imported.is_some()}
                        dispatch={dispatch.clone()} />
                    <components::timeline::Timeline scenario={state.scenario.clone()} spec={state.timeline.clone()}
                        colours={colours.clone()} asking={asks_over_time} dispatch={dispatch.clone()} />
                    { for bytes_panel }
                </section>
            </main>
        </div>
    }
}

/// The bytes panel of the member whose bytes are open, if one is.
fn bytes_panel(
    state: &state::AppState,
    computed: &crate::Computed,
    dispatch: &Callback<Action>,
) -> Option<Html> {
    let i = state.bytes_member_index()?;
    let member = state.scenario.members.get(i)?.clone();
    let draft = state.hex_drafts.get(&member.id).cloned();
    let assigned = computed.assigned_to(i);
    Some(html! {
        <components::bytes::BytesPanel index={i} {member} {draft} version={state.version_of(i)} {assigned}
            dispatch={dispatch.clone()} />
    })
}

/// A link that could not be opened: what failed, what the page shows instead, and the link
/// as it came, to copy or fix.
fn broken_link_alert(b: &state::BrokenLink, dispatch: &Callback<Action>) -> Html {
    let said = if b.partial {
        "The scenario opened, but without this part of the link, shown as it came:".to_string()
    } else {
        format!(
            "The page shows {} instead. The link as it came, to copy or fix:",
            b.fallback
        )
    };
    html! {
        <div class="alert" role="alert" id="link-error">
            <strong>{ "This link could not be opened. " }</strong>
            <span class="alert-message">{ b.message.clone() }</span>
            <p>{ said }</p>
            <textarea id="link-error-raw" aria-label="The link as it came" readonly=true rows="3" value={b.raw.clone()} />
            <button id="link-error-dismiss" onclick={dispatch.reform(|_| Action::DismissBrokenLink)}>{ "Dismiss" }</button>
        </div>
    }
}

/// What a lesson step asks of the grid and the timeline.
struct LessonOnGrid {
    /// The cells the step's prediction picked.
    picked: Vec<(String, u32)>,
    /// The step asks for cells now: a click on a cell picks it.
    picking: bool,
    /// The step asks about the group over time: the timeline holds its totals back.
    asks_over_time: bool,
}

fn lesson_on_grid(state: &state::AppState) -> LessonOnGrid {
    use rebalance_lab_core::lesson::{Fact, Question};
    let on = state.lesson.as_ref();
    let asking = on
        .filter(|on| !on.revealed)
        .and_then(|on| on.step()?.question);
    LessonOnGrid {
        picked: on
            .and_then(|on| on.attempt())
            .map(|a| a.entered.cells.clone())
            .unwrap_or_default(),
        picking: matches!(asking, Some(Question::Cells { .. })),
        asks_over_time: components::lesson::predicting(on).is_some()
            && on.and_then(|on| on.step()).is_some_and(|s| {
                matches!(
                    s.question,
                    Some(Question::Choice {
                        fact: Fact::Timeline(_),
                        ..
                    })
                )
            }),
    }
}

/// The assignor choice's options, with their labels: the chosen protocol's assignors.
fn assignor_options(kind: AssignorKind) -> &'static [(AssignorKind, &'static str)] {
    if kind.is_broker() {
        &[
            (AssignorKind::Uniform, "uniform (the broker's default)"),
            (AssignorKind::ServerRange, "range (the broker's)"),
        ]
    } else {
        &[
            (AssignorKind::Range, "RangeAssignor (default)"),
            (AssignorKind::RoundRobin, "RoundRobinAssignor"),
            (AssignorKind::Sticky, "StickyAssignor"),
            (AssignorKind::CooperativeSticky, "CooperativeStickyAssignor"),
        ]
    }
}

/// Starts the app. A panic is reported in the console with its message, marked on the
/// page (`body[data-panic]`, which the end-to-end tests check) and shown to the person, so
/// a crash is never a silently dead page. (A trap that is not a panic, or a module that
/// cannot load, is reported the same way by `web/boot.js`.)
pub fn start() {
    // The same module runs in the page's worker (src/worker.rs), which has no window
    // and draws nothing: there it only answers jobs.
    if web_sys::window().is_none() {
        return;
    }
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&message.as_str().into());
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            if let Some(body) = doc.body() {
                let _ = body.set_attribute("data-panic", &message);
                if let Ok(div) = doc.create_element("div") {
                    div.set_class_name("alert panic");
                    let _ = div.set_attribute("role", "alert");
                    div.set_text_content(Some(&format!(
                        "Rebalance Lab stopped because of a bug: {message}. Your scenario is still in the link; reload to continue."
                    )));
                    let _ = body.prepend_with_node_1(&div);
                }
            }
        }
    }));
    // The app's page (yew empties the body as it mounts: the first paint of index.html goes
    // in the same task).
    fn draw() {
        yew::Renderer::<App>::new().render();
    }
    // A long link (a large group) is read in a task of its own and the page drawn in the
    // next: the first paint stays on screen meanwhile, and neither task holds the main
    // thread for both.
    fn then(read: bool) {
        gloo::timers::callback::Timeout::new(0, move || {
            if read {
                super::hooks::read_first();
                then(false);
            } else {
                draw();
            }
        })
        .forget();
    }
    if super::hooks::current_fragment().len() > super::hooks::READ_FIRST {
        then(true);
    } else {
        draw();
    }
}
