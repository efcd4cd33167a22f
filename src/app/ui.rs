//! The app component and its start.

use super::components::whatif::WhatIf;
use super::components::{
    bytes::BytesPanel, editor::Editor, explain::Explain, grid::Grid, linkbar::LinkBar,
};
use super::{components, hooks, state};
use crate::assignor::{self, AssignorKind};
use crate::protocol::TopicPartitions;
use crate::scenario::whatif::{self, Diff};
use state::Action;
use yew::prelude::*;

/// The computed result the views share.
pub struct Computed {
    /// What the assignor saw.
    pub input: assignor::GroupInput,
    /// The scenario's assignor.
    pub kind: AssignorKind,
    /// What changed since the pinned baseline.
    pub diff: Option<Diff>,
    /// The pinned baseline.
    pub baseline: Option<whatif::Baseline>,
    /// Each assignor's before (the pinned group) and after (now).
    pub changes: Vec<whatif::AssignorChange>,
    /// The same group under range and under round-robin, side by side.
    pub range: assignor::Assignment,
    /// See `range`.
    pub round_robin: assignor::Assignment,
    /// The scenario's assignor when it is sticky or cooperative-sticky (the pinned baseline
    /// is the previous generation): round 1, and the follow-up round when cooperative-sticky
    /// withheld partitions; or why Java would throw.
    pub sticky: Option<Result<(assignor::Assignment, Option<assignor::Assignment>), String>>,
    /// Showing cooperative-sticky's follow-up round instead of round 1.
    pub round2: bool,
    /// Cooperative-sticky's first round on the same change when another assignor is on
    /// screen and somebody owned partitions before (the group panel's cooperative column).
    pub cooperative: Option<Result<assignor::Assignment, String>>,
}

impl Computed {
    /// The result under the scenario's assignor (None when Java would throw): range and
    /// round-robin are the two computed side by side, not copies.
    pub fn assignment(&self) -> Option<&assignor::Assignment> {
        match self.kind {
            AssignorKind::Range => Some(&self.range),
            AssignorKind::RoundRobin => Some(&self.round_robin),
            _ => match &self.sticky {
                Some(Ok((r1, r2))) => Some(match (self.round2, r2) {
                    (true, Some(r2)) => r2,
                    _ => r1,
                }),
                _ => None,
            },
        }
    }

    /// Member `i`'s partitions under the scenario's assignor, per topic, as the protocol
    /// carries them (the bytes view's and the SyncGroup step's assignment); empty when there
    /// is no answer.
    pub fn assigned_to(&self, i: usize) -> Vec<TopicPartitions> {
        self.assigned_to_first(i + 1)
            .into_iter()
            .nth(i)
            .unwrap_or_default()
    }

    /// The partitions of the first `n` members (fewer when the group is smaller) under the
    /// scenario's assignor (empty lists when there is no answer), in one pass.
    pub fn assigned_to_first(&self, n: usize) -> Vec<Vec<TopicPartitions>> {
        let n = n.min(self.input.members.len());
        self.assignment()
            .map(|a| all_partitions(a, n))
            .unwrap_or_else(|| vec![Vec::new(); n])
    }

    /// Cooperative-sticky's first round on the same change (what a cooperative rebalance
    /// lets each member keep or take at once): `None` when not computed, else each member's
    /// partitions or why there is no answer.
    pub fn cooperative_to_all(&self) -> Option<Result<Vec<Vec<TopicPartitions>>, &str>> {
        let a = match (&self.cooperative, &self.sticky) {
            (Some(Ok(a)), _) => a,
            (Some(Err(e)), _) => return Some(Err(e)),
            (None, Some(r)) if self.kind == AssignorKind::CooperativeSticky => match r {
                Ok((a, _)) => a,
                Err(e) => return Some(Err(e)),
            },
            _ => return None,
        };
        Some(Ok(all_partitions(a, self.input.members.len())))
    }

    /// Why the scenario's assignor gives no answer (the exception Java throws).
    pub fn failure(&self) -> Option<&str> {
        match &self.sticky {
            Some(Err(e)) => Some(e),
            _ => None,
        }
    }
}

/// The partitions of the first `n` members in `a`, per topic, as the protocol carries them:
/// one pass over the owners (one member's list alone would read them all too).
fn all_partitions(a: &assignor::Assignment, n: usize) -> Vec<Vec<TopicPartitions>> {
    let mut out: Vec<Vec<TopicPartitions>> = vec![Vec::new(); n];
    for t in &a.topics {
        for (p, o) in t.owners.iter().enumerate() {
            let Some(list) = out.get_mut(*o as usize) else {
                continue;
            };
            match list.last_mut() {
                Some(tp) if tp.topic == t.topic => tp.partitions.push(p as i32),
                _ => list.push(TopicPartitions {
                    topic: t.topic.clone(),
                    partitions: vec![p as i32],
                }),
            }
        }
    }
    out
}

/// Identity, not contents: one `Computed` is made per change of its inputs (`use_memo`), so
/// two are the same exactly when they are one value. Props holding an `Rc<Computed>` compare
/// in one step, and no deep comparison of assignments is compiled into the bundle.
impl PartialEq for Computed {
    fn eq(&self, other: &Computed) -> bool {
        std::ptr::eq(self, other)
    }
}

/// The app.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(hooks::initial_state);
    // View state: cooperative-sticky's follow-up round on screen instead of round 1.
    let round2 = use_state(|| false);
    let fragment = hooks::use_url_sync(state.clone());
    // Stable across renders, so rows whose props did not change skip their repaint.
    let dispatch: Callback<Action> = use_callback(state.dispatcher(), |a: Action, d| d.dispatch(a));
    let computed = {
        let deps = (
            state.scenario.clone(),
            state.baseline.clone(),
            state.pinned.clone(),
            *round2,
        );
        use_memo(deps, |(s, baseline, pinned, round2)| {
            let mut input = s.group_input();
            // The leader's client decides the member order (Java's unless said otherwise).
            let range = assignor::range_with(&input, s.leader_client);
            let round_robin = assignor::round_robin_with(&input, s.leader_client);
            let sticky = (!matches!(s.assignor, AssignorKind::Range | AssignorKind::RoundRobin))
                .then(|| {
                    // The sticky assignors' input carries each member's previous assignment
                    // (the pinned baseline's, unless the member says otherwise): the
                    // explanation counts what stayed against it.
                    let (with, rounds) = whatif::sticky_rounds(s, baseline.as_ref());
                    input = with;
                    rounds
                });
            let changes = pinned
                .as_ref()
                .map(|(p, renames)| {
                    // The sticky assignors only where the page runs them (both the
                    // pinned group and the group now within the bound); above it, their
                    // rows say why they are missing.
                    let big = whatif::sticky_refusal(&p.group_input(), AssignorKind::Sticky)
                        .or_else(|| whatif::sticky_refusal(&input, AssignorKind::Sticky));
                    let kinds: &[AssignorKind] = if big.is_some() {
                        &[AssignorKind::Range, AssignorKind::RoundRobin]
                    } else {
                        &[
                            AssignorKind::Range,
                            AssignorKind::RoundRobin,
                            AssignorKind::Sticky,
                            AssignorKind::CooperativeSticky,
                        ]
                    };
                    let mut rows = whatif::compare_assignors(p, renames, s, kinds);
                    if let Some(why) = big {
                        for kind in [AssignorKind::Sticky, AssignorKind::CooperativeSticky] {
                            rows.push(whatif::AssignorChange::failed(kind, why.clone()));
                        }
                    }
                    rows
                })
                .unwrap_or_default();
            // What a cooperative rebalance of the same change would revoke, for the group
            // panel: only when somebody owned something before.
            let owned_before = baseline.is_some() || s.members.iter().any(|m| !m.owned.is_empty());
            let cooperative = (owned_before && s.assignor != AssignorKind::CooperativeSticky)
                .then(|| whatif::cooperative_round1(s, baseline.as_ref()));
            let mut c = Computed {
                cooperative,
                sticky,
                round2: *round2,
                input,
                kind: s.assignor,
                diff: None,
                baseline: baseline.clone(),
                changes,
                range,
                round_robin,
            };
            c.diff = match (baseline, c.assignment()) {
                (Some(b), Some(a)) => Some(whatif::diff(b, &c.input, a)),
                _ => None,
            };
            c
        })
    };
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
    let bytes_panel = state.bytes_member_index().and_then(|i| {
        let member = state.scenario.members.get(i)?.clone();
        let draft = state.hex_drafts.get(&member.id).cloned();
        let assigned = computed.assigned_to(i);
        Some(html! {
            <BytesPanel index={i} member={member} draft={draft} version={state.version_of(i)}
                assigned={assigned} dispatch={dispatch.clone()} />
        })
    });
    let broken = state.broken_link.clone().map(|b| {
        let dismiss = dispatch.reform(|_| Action::DismissBrokenLink);
        html! {
            <div class="alert" role="alert" id="link-error">
                <strong>{ "This link could not be opened. " }</strong>
                <span class="alert-message">{ b.message.clone() }</span>
                <p>{ if b.partial {
                    "The scenario opened, but without this part of the link, shown as it came:".to_string()
                } else {
                    format!("The page shows {} instead. The link as it came, to copy or fix:", b.fallback)
                } }</p>
                <textarea id="link-error-raw" aria-label="The link as it came" readonly=true rows="3" value={b.raw.clone()} />
                <button onclick={dismiss}>{ "Dismiss" }</button>
            </div>
        }
    });
    html! {
        <div class="app">
            <header class="top">
                <h1>{ "Rebalance Lab" }</h1>
                <p class="tagline">{ "How a Kafka consumer group" }{ crate::app::components::glossary::term("group") }{ " splits partitions among its members, exactly as the Java client does." }</p>
                { components::glossary::glossary() }
            </header>
            { for broken }
            { components::presets::presets(&dispatch, state.preset) }
            <main class="layout">
                <section class="panel edit">
                    <Editor scenario={state.scenario.clone()} refusal={state.refusal.clone()} dispatch={dispatch.clone()} />
                </section>
                <section class="panel result">
                    <div class="assignor-row">
                        <label for="assignor">{ "Assignor " }</label>
                        <select id="assignor" onchange={on_assignor}>
                            <option value="range" selected={kind == AssignorKind::Range}>{ "RangeAssignor (default)" }</option>
                            <option value="roundrobin" selected={kind == AssignorKind::RoundRobin}>{ "RoundRobinAssignor" }</option>
                            <option value="sticky" selected={kind == AssignorKind::Sticky}>{ "StickyAssignor" }</option>
                            <option value="cooperative-sticky" selected={kind == AssignorKind::CooperativeSticky}>{ "CooperativeStickyAssignor" }</option>
                            // The broker's assignors run in the command-line tool; the page does
                            // not carry them yet (README, Size).
                            if matches!(kind, AssignorKind::Uniform | AssignorKind::ServerRange) {
                                <option value={kind.name()} selected=true>{ format!("{} (not run by this page)", kind.name()) }</option>
                            }
                        </select>
                        <LinkBar fragment={AttrValue::from(fragment)} />
                    </div>
                    { sticky_status(&computed, &round2) }
                    <Grid computed={computed.clone()} colours={colours.clone()} selected={state.selected_topic.clone()} dispatch={dispatch.clone()} />
                    // The explanation of what is on screen comes right after it, not below the fold.
                    <Explain computed={computed.clone()} selected={state.selected_topic.clone()} dispatch={dispatch.clone()} />
                    <WhatIf computed={computed.clone()} pinned={state.baseline.is_some()} story_step={state.story_step} dispatch={dispatch.clone()} />
                    <components::group::GroupPanel scenario={state.scenario.clone()} group_log={state.group_log.clone()}
                        computed={computed.clone()} refusal={state.refusal.clone()} dispatch={dispatch.clone()} />
                    { for bytes_panel }
                </section>
            </main>
        </div>
    }
}

/// What the sticky assignors add above the grid: where the previous assignment came from,
/// Java's quirks and exceptions, and cooperative-sticky's two rounds.
fn sticky_status(c: &Computed, round2: &UseStateHandle<bool>) -> Html {
    let Some(result) = &c.sticky else {
        return html! {};
    };
    let (r1, r2) = match result {
        Err(e) => {
            return html! { <p class="alert" role="alert" id="assignor-error">{ format!("No assignment: {e}.") }</p> }
        }
        Ok(r) => r,
    };
    let from = if c.baseline.is_some() {
        "Previous assignment: the pinned baseline (generation 1), unless a member's owned partitions or bytes say otherwise."
    } else {
        "Previous assignment: each member's owned partitions and generation, or its bytes. Pin a baseline, then change the group, to see what stays."
    };
    let toggle = {
        let round2 = round2.clone();
        Callback::from(move |_| round2.set(!*round2))
    };
    html! {
        <div class="sticky-status" id="sticky-status">
            <p class="hint">{ from }</p>
            if r2.is_some() {
                <p class="rounds" data-withheld={r1.withheld.len().to_string()}>
                    { if c.round2 {
                        "Round 2, after the follow-up rebalance: the revoked partitions have their new owners.".to_string()
                    } else {
                        format!("Round 1: partitions changing owner, revoked first (hatched) and handed over in a follow-up rebalance: {}. Every other partition keeps flowing.", r1.withheld.len())
                    } }
                    <button id="round-toggle" onclick={toggle} aria-pressed={c.round2.to_string()}>
                        { if c.round2 { "Show round 1" } else { "Show round 2" } }
                    </button>
                </p>
            }
            if !r1.notes.is_empty() {
                { components::markup("notes-wrap", {
                    let lines: Vec<String> = r1.notes.iter().map(|n| n.text.clone()).collect();
                    crate::app::markup::list("ul class=\"notes\" id=\"assignor-notes\"", &lines)
                }) }
            }
        </div>
    }
}

/// Starts the app. A panic is reported in the console with its message, marked on the
/// page (`body[data-panic]`, which the end-to-end tests check) and shown to the person, so
/// a crash is never a silently dead page. The shipped page's panics stop the module at
/// once, with no message to format and no hook run: `web/boot.js` reports those.
pub fn start() {
    #[cfg(not(panic = "immediate-abort"))]
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
    yew::Renderer::<App>::new().render();
}
