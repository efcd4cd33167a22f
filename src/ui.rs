//! The app component and its start.

use super::{components, hooks, state};
use rebalance_lab_core::assignor::{self, AssignorKind};
use rebalance_lab_core::protocol::TopicPartitions;
use rebalance_lab_core::scenario::large;
use rebalance_lab_core::scenario::whatif::{self, Before, Diff};
use rebalance_lab_core::scenario::Scenario;
use state::Action;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The computed result the views share.
pub struct Computed {
    /// What the assignor saw (a large group's shared with the worker's job and its answer's
    /// computation).
    pub input: Rc<assignor::GroupInput>,
    /// The scenario's assignor.
    pub kind: AssignorKind,
    /// What changed since the pinned baseline.
    pub diff: Option<Diff>,
    /// The pinned baseline.
    pub baseline: Option<whatif::Baseline>,
    /// Each assignor's before (the pinned group) and after (now); a line still to compute
    /// says [`whatif::PENDING`] ([`Later`]).
    pub changes: RefCell<Vec<whatif::AssignorChange>>,
    /// The same group under range and under round-robin, side by side (shared with a large
    /// group's answer from the worker, not copied).
    pub range: Rc<assignor::Assignment>,
    /// See `range`.
    pub round_robin: Rc<assignor::Assignment>,
    /// The scenario's assignor when it is sticky or cooperative-sticky (the pinned baseline
    /// is the previous generation): round 1, and the follow-up round when cooperative-sticky
    /// withheld partitions (in a large group only while it is shown: `round2`); or why Java
    /// would throw.
    pub sticky: Option<Result<(assignor::Assignment, Option<assignor::Assignment>), String>>,
    /// Showing cooperative-sticky's follow-up round instead of round 1.
    pub round2: bool,
    /// Cooperative-sticky's first round on the same change when another assignor is on
    /// screen and somebody owned partitions before (the group panel's cooperative column).
    pub cooperative: RefCell<Option<Result<assignor::Assignment, String>>>,
    /// The broker's uniform (None where it refuses the group) and range on the same group,
    /// for the what-if's side-by-side table: a group within the page's bound for computing
    /// before the repaint only.
    pub broker: Option<(Option<assignor::Assignment>, assignor::Assignment)>,
    /// The group before the round, as the group panel's round sees it
    /// ([`Computed::before_round`]).
    round_before: std::cell::OnceCell<assignor::GroupInput>,
    /// What is left to compute.
    pub later: RefCell<Later>,
    /// The task that computes the next part of it.
    timer: RefCell<Option<gloo::timers::callback::Timeout>>,
    /// A large group's range and round-robin are still computing in the worker
    /// ([`rebalance_lab_core::scenario::large`]): `range` and `round_robin` are empty until its answer.
    pub pending: bool,
    /// `range` and `round_robin` are the worker's answer (the result panel says so:
    /// `data-computed-in`).
    pub from_worker: bool,
    /// The task that posts a large group's job to the worker: held only so that dropping
    /// this value (a newer edit's computation replaces it) cancels a job not yet posted.
    #[allow(dead_code)]
    job: Option<gloo::timers::callback::Timeout>,
}

/// Computes the next part of what `c` left for later in a task of its own, and so on until
/// nothing is left, repainting after each part that changes what is on screen; stops when
/// `c` is gone.
fn work_later(
    c: std::rc::Weak<Computed>,
    state: UseReducerHandle<state::AppState>,
    update: UseForceUpdateHandle,
) {
    let Some(strong) = c.upgrade() else {
        return;
    };
    *strong.timer.borrow_mut() = Some(gloo::timers::callback::Timeout::new(0, move || {
        let Some(now) = c.upgrade() else {
            return;
        };
        if now.work(
            &state.scenario,
            state.pinned.as_ref(),
            state.baseline.as_ref(),
        ) {
            update.force_update();
        }
        if now.left() > 0 {
            work_later(c, state, update);
        }
    }));
}

/// The parts of a [`Computed`] that run after the repaint in a large group, one assignment
/// per task (`App` schedules them, and a newer edit drops the rest): the what-if's lines
/// still [`whatif::PENDING`] (each assignor on the pinned group, then on the group now), the
/// cooperative column, then the group panel (the group before its round, then the panel).
/// In a small group they run before the repaint, as one.
#[derive(Default)]
pub struct Later {
    /// The pinned group's half of the first pending line, once computed.
    before: Option<Before>,
    /// The cooperative column is still to compute.
    pub cooperative: bool,
    /// The group panel is still to draw: in a large group it waits for the tasks after the
    /// grid's repaint, drawn once all the rest is computed (its vote, leader and round at
    /// 10,000 members were a third of the opening's longest task), and so it does after the
    /// page's first paint at any size (the module's start split in two), the panel drawn
    /// last staying on screen meanwhile.
    pub group: bool,
}

/// Above this many members times partitions, the what-if's lines and the cooperative column
/// wait for the repaint (at 100 members on half of 100 topics of 1,000, one sticky run takes
/// 60 to 120 ms in the page and an edit runs up to nine).
const LATER_ABOVE: u64 = 1_000_000;

impl Computed {
    /// The result under the scenario's assignor (None when Java would throw): range and
    /// round-robin are the two computed side by side, not copies.
    pub fn assignment(&self) -> Option<&assignor::Assignment> {
        if self.pending {
            return None;
        }
        match self.kind {
            AssignorKind::Range => Some(&*self.range),
            AssignorKind::RoundRobin => Some(&*self.round_robin),
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
    pub fn cooperative_to_all(&self) -> Option<Result<Vec<Vec<TopicPartitions>>, String>> {
        let cooperative = self.cooperative.borrow();
        let a = match (&*cooperative, &self.sticky) {
            (Some(Ok(a)), _) => a,
            (Some(Err(e)), _) => return Some(Err(e.clone())),
            (None, Some(r)) if self.kind == AssignorKind::CooperativeSticky => match r {
                Ok((a, _)) => a,
                Err(e) => return Some(Err(e.clone())),
            },
            _ => return None,
        };
        Some(Ok(all_partitions(a, self.input.members.len())))
    }

    /// Computes one part of what is left ([`Later`]: one assignment) of the state this was
    /// computed from; says whether that changes what is on screen (a line, or the group
    /// panel, which shows the cooperative column and reads the group before its round: the
    /// repaints those parts made drew nothing new, 30 to 40 ms each at 10,000 members).
    pub fn work(
        &self,
        now: &Scenario,
        pinned: Option<&(Scenario, Vec<(String, String)>)>,
        baseline: Option<&whatif::Baseline>,
    ) -> bool {
        let mut changes = self.changes.borrow_mut();
        let mut l = self.later.borrow_mut();
        let row = changes.iter_mut().find(|c| c.is_pending());
        if let Some(row) = row {
            match (l.before.take(), pinned) {
                (Some(before), _) => *row = whatif::change_after(before, now),
                // the pinned group's half first, in a task of its own (it changes nothing on
                // screen)
                (None, Some((pinned, renames))) => {
                    l.before = Some(whatif::change_before(pinned, renames, row.kind));
                    return false;
                }
                // (lines wait only while a group is pinned: never, but never a loop either)
                (None, None) => row.error = None,
            }
        } else if l.cooperative {
            *self.cooperative.borrow_mut() = Some(whatif::cooperative_round1(now, baseline));
            l.cooperative = false;
            return false;
        } else if self.round_before_due() {
            // The group panel last (it was drawn first, then again with the cooperative
            // column: two tasks of up to 240 ms at 10,000 members): what its round reads of
            // the group before it, in a task of its own, then the panel, drawn once in the
            // repaint that follows.
            self.before_round();
            return false;
        } else {
            l.group = false;
        }
        true
    }

    /// The group as the group panel's round sees it before the round: what each member
    /// owned and its generation, the pinned baseline's partitions (generation 1) unless the
    /// member says otherwise, as the sticky assignors see it (their input already carries
    /// it; range's and round-robin's gets it here). Computed once per computation.
    /// (with_previous gives nothing twice: a member the sticky input already gave its
    /// baseline share keeps it)
    pub fn before_round(&self) -> &assignor::GroupInput {
        match &self.baseline {
            Some(b) => self
                .round_before
                .get_or_init(|| whatif::with_previous(&self.input, b)),
            None => &self.input,
        }
    }

    /// Whether the group before the round is still to compute (only a pinned group's differs
    /// from the input).
    fn round_before_due(&self) -> bool {
        self.round_before.get().is_none() && self.baseline.is_some()
    }

    /// How many parts [`Later`] has left: pending lines, the cooperative column, the group
    /// panel.
    pub fn left(&self) -> usize {
        let pending = self
            .changes
            .borrow()
            .iter()
            .filter(|c| c.is_pending())
            .count();
        let l = self.later.borrow();
        // (the group panel's round reads the group before it in a part of its own)
        pending + l.cooperative as usize + l.group as usize * (1 + self.round_before_due() as usize)
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
    // View state: the explanation shows every member's row.
    let explain_all = use_state(|| false);
    let what_if_shown = components::whatif::Shown {
        all: use_state(|| false),
        all_moved: use_state(|| false),
    };
    let fragment = hooks::use_url_sync(state.clone());
    // Stable across renders, so rows whose props did not change skip their repaint.
    let dispatch: Callback<Action> = use_callback(state.dispatcher(), |a: Action, d| d.dispatch(a));
    let update = use_force_update();
    // Whether the page has drawn its first computation (the group panel waits for the task
    // after the page's first paint, which splits the module's start in two).
    let opened = use_mut_ref(|| false);
    // (the state this render saw, which the computation below is computed from)
    let later_state = state.clone();
    // The page's worker, for a large group's range and round-robin.
    let worker = use_mut_ref(super::worker::PageWorker::default);
    let computed = {
        let deps = (
            state.scenario.clone(),
            state.baseline.clone(),
            state.pinned.clone(),
            *round2,
            // (the worker's answers: one more after each)
            worker.borrow().answers(),
        );
        let on_answer = update.clone();
        let worker = worker.clone();
        use_memo(deps, move |(s, baseline, pinned, round2, _)| {
            let first = !opened.replace(true);
            // A large group's range and round-robin come from the worker: its answer for
            // this scenario (with the input computed for its job), or a job for it posted
            // after the repaint. Otherwise (and when the worker could not compute them) they
            // are computed here; the leader's client decides the member order (Java's unless
            // said otherwise).
            let answered = worker.borrow().answer_for(s);
            let mut input = match &answered {
                Some((_, input)) => input.clone(),
                None => Rc::new(s.group_input()),
            };
            // (the pinned group's size too: the what-if runs each assignor on it)
            let size = |s: &Scenario| s.members.len() as u64 * s.total_partitions();
            let small = size(s).max(pinned.as_ref().map_or(0, |(p, _)| size(p))) <= LATER_ABOVE;
            // (an answer the page's input does not match is not used: computed here)
            let answer = answered.map(|(a, _)| {
                a.filter(|a| {
                    a.range.totals.len() == input.members.len()
                        && a.range.topics.len() == a.round_robin.topics.len()
                })
            });
            let to_worker = answer.is_none() && large::large(s) && worker.borrow().available();
            if !to_worker {
                // (an older job's answer would be for another group; a group no longer
                // large lets the last answer go too)
                worker.borrow_mut().forget(answer.is_none());
            }
            let from_worker = matches!(answer, Some(Some(_)));
            let (range, round_robin) = match answer {
                Some(Some(a)) => (a.range, a.round_robin),
                _ if to_worker => Default::default(),
                _ => (
                    Rc::new(assignor::range_with(&input, s.leader_client)),
                    Rc::new(assignor::round_robin_with(&input, s.leader_client)),
                ),
            };
            // (posted after the repaint: writing the job is a task of its own)
            let job = to_worker.then(|| {
                let (s, input, worker) = (s.clone(), input.clone(), worker.clone());
                gloo::timers::callback::Timeout::new(0, move || {
                    super::worker::post(&worker, s, input, move || on_answer.force_update())
                })
            });
            let broker = (small && !to_worker).then(|| {
                (
                    assignor::uniform(&input).ok(),
                    assignor::server_range(&input),
                )
            });
            let sticky = (!matches!(s.assignor, AssignorKind::Range | AssignorKind::RoundRobin))
                .then(|| {
                    // The sticky assignors' input carries each member's previous assignment
                    // (the pinned baseline's, unless the member says otherwise): the
                    // explanation counts what stayed against it.
                    // (a large group's follow-up round only when it is on screen)
                    let (with, rounds) =
                        whatif::sticky_rounds(s, baseline.as_ref(), small || *round2);
                    input = Rc::new(with);
                    rounds
                });
            let mut changes = Vec::new();
            if let Some((p, _)) = pinned {
                // The sticky assignors only where the page runs them (both the pinned group
                // and the group now within the bound); above it, their rows say why they
                // are missing.
                let big = whatif::sticky_refusal(&p.group_input(), AssignorKind::Sticky)
                    .or_else(|| whatif::sticky_refusal(&input, AssignorKind::Sticky));
                for kind in AssignorKind::ALL {
                    let why = match &big {
                        Some(why)
                            if !matches!(kind, AssignorKind::Range | AssignorKind::RoundRobin) =>
                        {
                            why
                        }
                        _ => whatif::PENDING,
                    };
                    changes.push(whatif::AssignorChange::failed(kind, why.to_string()));
                }
            }
            // What a cooperative rebalance of the same change would revoke, for the group
            // panel: only when somebody owned something before.
            let owned_before = baseline.is_some() || s.members.iter().any(|m| !m.owned.is_empty());
            let later = Later {
                before: None,
                cooperative: owned_before && s.assignor != AssignorKind::CooperativeSticky,
                // (set below, once a small group's parts are computed)
                group: false,
            };
            let mut c = Computed {
                broker,
                cooperative: RefCell::new(None),
                sticky,
                round2: *round2,
                kind: s.assignor,
                diff: None,
                baseline: baseline.clone(),
                changes: RefCell::new(changes),
                range,
                round_robin,
                later: RefCell::new(later),
                timer: RefCell::new(None),
                round_before: Default::default(),
                pending: to_worker,
                from_worker,
                job,
                input,
            };
            c.diff = match (baseline, c.assignment()) {
                (Some(b), Some(a)) => Some(whatif::diff(b, &c.input, a)),
                _ => None,
            };
            // A small group: everything now, before the repaint; a large one's rest, one part
            // per task after it (the timer is the computation's: a newer one drops it).
            if small {
                while c.left() > 0 {
                    c.work(s, pinned.as_ref(), baseline.as_ref());
                }
            }
            c.later.get_mut().group = !small || first;
            let c = Rc::new(c);
            // (nothing later while the worker computes: the answer brings a new computation)
            if c.left() > 0 && !c.pending {
                work_later(Rc::downgrade(&c), later_state, update);
            }
            c
        })
    };
    let computed: Rc<Computed> = (*computed).clone();
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
    let bytes_panel = state.bytes_member_index().and_then(|i| {
        let member = state.scenario.members.get(i)?.clone();
        let draft = state.hex_drafts.get(&member.id).cloned();
        let assigned = computed.assigned_to(i);
        Some(components::bytes::bytes_panel(&components::bytes::Props {
            index: i,
            member,
            draft,
            version: state.version_of(i),
            assigned,
            dispatch: dispatch.clone(),
        }))
    });
    let broken = state.broken_link.as_ref().map(|b| {
        let said = if b.partial {
            "The scenario opened, but without this part of the link, shown as it came:".to_string()
        } else {
            format!("The page shows {} instead. The link as it came, to copy or fix:", b.fallback)
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
    });
    let grid = components::grid::use_grid(&components::grid::Props {
        computed: computed.clone(),
        colours: colours.clone(),
        selected: state.selected_topic.clone(),
        picked: state
            .lesson
            .as_ref()
            .and_then(|on| on.attempt())
            .map(|a| a.entered.cells.clone())
            .unwrap_or_default(),
        picking: state.lesson.as_ref().is_some_and(|on| {
            !on.revealed
                && matches!(
                    on.step().and_then(|s| s.question),
                    Some(rebalance_lab_core::lesson::Question::Cells { .. })
                )
        }),
        dispatch: dispatch.clone(),
    });
    let group_panel = components::group::use_group_panel(&components::group::Props {
        scenario: state.scenario.clone(),
        group_log: state.group_log.clone(),
        computed: computed.clone(),
        waiting: computed.later.borrow().group,
        refusal: state.refusal.clone(),
        dispatch: dispatch.clone(),
    });
    let editor = components::editor::use_editor(&components::editor::Props {
        scenario: state.scenario.clone(),
        bytes_open: state.bytes_member_index(),
        refusal: state.refusal.clone(),
        dispatch: dispatch.clone(),
    });
    // Your own group: the import box and what it read, the planner, the exports.
    let import_panel = components::import::use_import(&state, &computed, &dispatch);
    let planner = components::import::use_planner(&state, &dispatch);
    let export = components::import::export_bar(&state, &computed);
    // The lesson: its panel, the owners hidden while it asks, its live region and its
    // buttons.
    let lesson = components::lesson::use_lesson(&state, &dispatch);
    let (lesson_panel, lesson_live) = (lesson.panel, lesson.live);
    let lesson_open = {
        let d = dispatch.clone();
        let on = state.lesson.is_some();
        Callback::from(move |_: MouseEvent| {
            if !on {
                d.emit(Action::LessonGo(0));
            }
        })
    };
    let flip_round = {
        let round2 = round2.clone();
        Callback::from(move |_: MouseEvent| round2.set(!*round2))
    };
    html! {
        <div class="app" data-predict={lesson.predict}>
            <header class="top">
                <h1>{ "Rebalance Lab" }</h1>
                <button id="lesson-open" class="lesson-open" onclick={lesson_open}>{ "Lesson" }</button>
                <p class="tagline">
                    { "How a Kafka consumer group" }<components::glossary::Term term="group" />
                    { " splits partitions among its members, exactly as the Java client does." }
                </p>
                <components::glossary::Glossary />
            </header>
            { for broken }
            { components::presets::presets(&dispatch, state.preset) }
            { import_panel }
            { for lesson_panel }
            { for lesson_live }
            <main class="layout">
                <section class="panel edit">
                    { editor }
                </section>
                // busy while a large group's what-if is still computing, after the repaint
                <section class="panel result" aria-busy={(computed.left() > 0 || computed.pending).to_string()}
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
                    { sticky_status(&computed, flip_round) }
                    // A large group's assignment is computing in the page's worker: the page
                    // stays usable meanwhile, and a newer edit replaces this computation.
                    if computed.pending {
                        <p class="notice" role="status" id="computing">
                            <progress aria-label="Computing"></progress>{ " Computing the assignment…" }
                        </p>
                    }
                    { grid }
                    // The explanation of what is on screen comes right after it, not below the fold.
                    // (neither has anything to say while a large group's worker computes)
                    { components::explain::explain(&computed, state.selected_topic.as_ref(), &explain_all, &dispatch) }
                    { components::whatif::what_if(&computed, state.baseline.is_some(), state.story_step, &what_if_shown, &dispatch) }
                    { planner }
                    { export }
                    { group_panel }
                    { for bytes_panel }
                </section>
            </main>
        </div>
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

/// What the broker's assignors add above the grid: who computes the assignment,
/// how far it is from the classic RangeAssignor's for the same group, and, with a baseline
/// pinned, how the members reconcile to it heartbeat by heartbeat (`#reconcile`), against
/// what a classic rebalance of the same change stops.
fn broker_status(c: &Computed, a: &assignor::Assignment, m: &mut String) {
    use crate::markup::escape_into;
    use rebalance_lab_core::assignor::explain::partition_list;
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
    m.push_str(&format!(
        "<div class=\"sticky-status\" id=\"broker-status\" data-differ-from-range=\"{differ}\"><p class=\"hint\">The broker computes this assignment (group.protocol=consumer): no JoinGroup, no vote, no leader; the group panel below describes the classic protocol. Against the classic RangeAssignor on the same group, {differ} partition{} another owner.</p>",
        if differ == 1 { " has" } else { "s have" }
    ));
    let Some(base) = &c.baseline else {
        m.push_str("<p class=\"hint\">Pin a baseline, then change the group, to see how the members reconcile to the new target.</p></div>");
        return;
    };
    let partitions: u64 = a.topics.iter().map(|t| u64::from(t.partitions)).sum();
    if partitions > 100_000 {
        m.push_str(&format!("<p class=\"hint\">The reconciliation is shown for up to 100000 partitions; this group has {partitions}.</p></div>"));
        return;
    }
    let r = whatif::reconciliation(base, &c.input, a);
    let list = |ps: &rebalance_lab_core::group::reconcile::Partitions| -> String {
        if ps.is_empty() {
            return "–".into();
        }
        let parts: Vec<String> = ps
            .iter()
            .map(|(t, p)| format!("{t} {}", partition_list(p)))
            .collect();
        parts.join("; ")
    };
    let count = |ps: &rebalance_lab_core::group::reconcile::Partitions| -> usize {
        ps.iter().map(|(_, p)| p.len()).sum()
    };
    let paused: usize = r
        .members
        .iter()
        .map(|p| count(&p.take_now) + count(&p.wait))
        .sum();
    let hb = r.heartbeats_until_stable;
    m.push_str(&format!(
        "<section class=\"reconcile\" id=\"reconcile\" data-heartbeats=\"{}\" data-paused=\"{paused}\"><h3>Reconciliation from the baseline</h3><p>",
        hb.map_or(-1, i64::from)
    ));
    m.push_str(&match hb {
        Some(0) => "Every member already holds its target: nothing to reconcile.".to_string(),
        Some(n) => format!("{n} heartbeat round{} until the group is stable. A member first revokes what it loses and acknowledges it in its next heartbeat; only then does the new owner get it. The {paused} partition{} that change hands pause meanwhile; every other partition keeps being consumed.", if n == 1 { "" } else { "s" }, if paused == 1 { "" } else { "s" }),
        None => "Two members' targets claim one partition: the group never settles.".to_string(),
    });
    // the classic rebalances of the same change, from the what-if's lines
    let changes = c.changes.borrow();
    let line = |k: AssignorKind| changes.iter().find(|x| x.kind == k && x.error.is_none());
    if let (Some(eager), Some(coop)) = (
        line(AssignorKind::Range),
        line(AssignorKind::CooperativeSticky),
    ) {
        m.push_str(&format!(
            " A classic eager rebalance of the same change (range) stops all {} owned partitions for one rebalance; a cooperative one (cooperative-sticky) stops the {} that move, over {} rebalance{}.",
            eager.paused,
            coop.paused,
            coop.rebalances,
            if coop.rebalances == 1 { "" } else { "s" }
        ));
    }
    m.push_str("</p><table class=\"compare\" id=\"reconcile-table\"><thead><tr><th scope=\"col\">member</th><th scope=\"col\">keeps</th><th scope=\"col\">revokes first</th><th scope=\"col\">takes at once</th><th scope=\"col\">waits for a revocation</th><th scope=\"col\">stable after</th></tr></thead><tbody>");
    let moving: Vec<_> = r
        .members
        .iter()
        .filter(|p| !(p.revoke.is_empty() && p.take_now.is_empty() && p.wait.is_empty()))
        .collect();
    for p in moving.iter().take(50) {
        m.push_str("<tr data-reconcile-member=\"");
        escape_into(&p.member, m);
        m.push_str(&format!(
            "\" data-revoke=\"{}\" data-take=\"{}\" data-wait=\"{}\" data-stable=\"{}\"><th scope=\"row\">",
            count(&p.revoke),
            count(&p.take_now),
            count(&p.wait),
            p.stable_after.map_or(-1, i64::from)
        ));
        escape_into(&p.member, m);
        m.push_str("</th>");
        for x in [&p.keep, &p.revoke, &p.take_now, &p.wait] {
            m.push_str("<td>");
            escape_into(&list(x), m);
            m.push_str("</td>");
        }
        m.push_str(&match p.stable_after {
            Some(n) => format!(
                "<td>{n} heartbeat{}</td></tr>",
                if n == 1 { "" } else { "s" }
            ),
            None => "<td>never</td></tr>".into(),
        });
    }
    m.push_str("</tbody></table>");
    let still = r.members.len() - moving.len();
    let more = moving.len().saturating_sub(50);
    m.push_str(&format!(
        "<p class=\"hint\">{}{still} other member{} keep{} {} partitions throughout.</p></section></div>",
        if more > 0 { format!("And {more} more members whose partitions change. ") } else { String::new() },
        if still == 1 { "" } else { "s" },
        if still == 1 { "s" } else { "" },
        if still == 1 { "its" } else { "their" }
    ));
}

/// What the sticky assignors add above the grid: where the previous assignment came from,
/// Java's quirks and exceptions, and cooperative-sticky's two rounds.
fn sticky_status(c: &Computed, flip_round: Callback<MouseEvent>) -> Html {
    let Some(result) = &c.sticky else {
        return html! {};
    };
    match result {
        Err(e) => html! {
            <p class="alert" role="alert" id="assignor-error">{ format!("No assignment: {e}.") }</p>
        },
        Ok((a, _)) if c.kind.is_broker() => {
            let mut m = String::new();
            broker_status(c, a, &mut m);
            Html::from_html_unchecked(m.into())
        }
        Ok((r1, _)) => {
            // (a large group's follow-up round is computed once asked for)
            let n = r1.withheld.len();
            let rounds = (n > 0).then(|| {
                let (said, other) = if c.round2 {
                    ("Round 2, after the follow-up rebalance: the revoked partitions have their new owners.".to_string(), "Show round 1")
                } else {
                    (format!("Round 1: partitions changing owner, revoked first (hatched) and handed over in a follow-up rebalance: {n}. Every other partition keeps flowing."), "Show round 2")
                };
                html! {
                    <p class="rounds" data-withheld={n.to_string()}>
                        { said }
                        <button id="round-toggle" aria-pressed={c.round2.to_string()} onclick={flip_round}>{ other }</button>
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
