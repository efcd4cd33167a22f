//! What the app computes from its state ([`Computed`]): the assignments, the what-if, the
//! group panel's parts, with a large group's share scheduled in tasks after the repaint
//! ([`AfterRepaint`]) or sent to the page's worker.

use crate::state::AppState;
use rebalance_lab_core::assignor::{self, AssignorKind};
use rebalance_lab_core::protocol::TopicPartitions;
use rebalance_lab_core::scenario::large;
use rebalance_lab_core::scenario::whatif::{self, Before, Diff};
use rebalance_lab_core::scenario::Scenario;
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
    /// says [`whatif::PENDING`] ([`AfterRepaint`]).
    pub changes: RefCell<Vec<whatif::AssignorChange>>,
    /// The same group under range and under round-robin, side by side (shared with a large
    /// group's answer from the worker, not copied).
    pub range: Rc<assignor::Assignment>,
    /// See `range`.
    pub round_robin: Rc<assignor::Assignment>,
    /// The scenario's assignor when it is sticky or cooperative-sticky (the pinned baseline
    /// is the previous generation): round 1, and the follow-up round when cooperative-sticky
    /// withheld partitions (in a large group only while it is shown: `follow_up_round`); or why Java
    /// would throw.
    pub sticky: Option<Result<(assignor::Assignment, Option<assignor::Assignment>), String>>,
    /// Showing cooperative-sticky's follow-up round instead of round 1.
    pub follow_up_round: bool,
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
    pub after_repaint: RefCell<AfterRepaint>,
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
    state: UseReducerHandle<AppState>,
    update: UseForceUpdateHandle,
) {
    let Some(strong) = c.upgrade() else {
        return;
    };
    *strong.timer.borrow_mut() = Some(gloo::timers::callback::Timeout::new(0, move || {
        let Some(now) = c.upgrade() else {
            return;
        };
        if now.compute_next_part(
            &state.scenario,
            state.pinned.as_ref(),
            state.baseline.as_ref(),
        ) {
            update.force_update();
        }
        if now.parts_left() > 0 {
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
pub struct AfterRepaint {
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
                Some(Ok((r1, r2))) => Some(match (self.follow_up_round, r2) {
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

    /// Computes one part of what is left ([`AfterRepaint`]: one assignment) of the state this was
    /// computed from; says whether that changes what is on screen (a line, or the group
    /// panel, which shows the cooperative column and reads the group before its round: the
    /// repaints those parts made drew nothing new, 30 to 40 ms each at 10,000 members).
    pub fn compute_next_part(
        &self,
        now: &Scenario,
        pinned: Option<&(Scenario, Vec<(String, String)>)>,
        baseline: Option<&whatif::Baseline>,
    ) -> bool {
        let mut changes = self.changes.borrow_mut();
        let mut l = self.after_repaint.borrow_mut();
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

    /// How many parts [`AfterRepaint`] has left: pending lines, the cooperative column, the group
    /// panel.
    pub fn parts_left(&self) -> usize {
        let pending = self
            .changes
            .borrow()
            .iter()
            .filter(|c| c.is_pending())
            .count();
        let l = self.after_repaint.borrow();
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

/// The app's computation for the state on screen, memoised on what it reads (the scenario,
/// the baseline, the pinned group, the round shown, the worker's answers); a large group's
/// rest is computed in tasks after the repaint, each repainting the app.
#[hook]
pub fn use_computed(state: &UseReducerHandle<AppState>, follow_up_round: bool) -> Rc<Computed> {
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
            follow_up_round,
            // (the worker's answers: one more after each)
            worker.borrow().answers(),
        );
        let on_answer = update.clone();
        let worker = worker.clone();
        use_memo(deps, move |(s, baseline, pinned, follow_up_round, _)| {
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
                        whatif::sticky_rounds(s, baseline.as_ref(), small || *follow_up_round);
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
            let after_repaint = AfterRepaint {
                before: None,
                cooperative: owned_before && s.assignor != AssignorKind::CooperativeSticky,
                // (set below, once a small group's parts are computed)
                group: false,
            };
            let mut c = Computed {
                broker,
                cooperative: RefCell::new(None),
                sticky,
                follow_up_round: *follow_up_round,
                kind: s.assignor,
                diff: None,
                baseline: baseline.clone(),
                changes: RefCell::new(changes),
                range,
                round_robin,
                after_repaint: RefCell::new(after_repaint),
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
                while c.parts_left() > 0 {
                    c.compute_next_part(s, pinned.as_ref(), baseline.as_ref());
                }
            }
            c.after_repaint.get_mut().group = !small || first;
            let c = Rc::new(c);
            // (nothing later while the worker computes: the answer brings a new computation)
            if c.parts_left() > 0 && !c.pending {
                work_later(Rc::downgrade(&c), later_state, update);
            }
            c
        })
    };
    let computed: Rc<Computed> = (*computed).clone();
    computed
}
