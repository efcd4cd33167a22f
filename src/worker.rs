//! A large group's assignments in a Web Worker: `web/boot.js` starts a worker
//! running the same script and module, which runs [`rl_run`] there on the job (the
//! scenario's link, [`rebalance_lab_core::scenario::large`]) and hands the answer back to [`rl_done`]
//! here. A newer job replaces one still waiting: its answer is never read, and boot.js
//! stops the worker that is computing it and starts a fresh one. A page without the worker
//! (a browser test's, or a worker that failed) computes on its main thread as before.

use rebalance_lab_core::assignor::GroupInput;
use rebalance_lab_core::scenario::large::{self, Answer};
use rebalance_lab_core::scenario::Scenario;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// web/boot.js: posts a job to the worker, stopping one still computing.
    #[wasm_bindgen(catch, js_namespace = globalThis, js_name = rlWork)]
    fn post_job(id: u32, job: &str) -> Result<(), JsValue>;
}

/// The latest answer: the scenario it is for, what the worker computed (`None`: it could
/// not, or there is no worker) and the group's input the page computed for the job (the
/// computation the answer brings reads it instead of computing it again: 53 ms at 10,000
/// members x 500,000 partitions).
type Answered = (Rc<Scenario>, Option<Answer>, Rc<GroupInput>);

/// The job waiting: its scenario, its input and what to call once answered.
type Waiting = Option<(Rc<Scenario>, Rc<GroupInput>, Box<dyn FnOnce()>)>;

thread_local! {
    /// The job waiting for its answer: its id, its scenario and what to call once answered.
    static WAITING: RefCell<(u32, Waiting)> = RefCell::new((0, None));
    /// The latest answer, and how many have come (the app's computation depends on it).
    static ANSWER: RefCell<(u32, Option<Answered>)> = const { RefCell::new((0, None)) };
    /// A post found no worker.
    static NONE: Cell<bool> = const { Cell::new(false) };
}

/// Whether the page may have a worker: until a post finds none (web/boot.js defines
/// `rlWork` before the app starts; a browser test's page has none).
pub fn available() -> bool {
    !NONE.with(|n| n.get())
}

/// How many answers have come (one more after each).
pub fn answers() -> u32 {
    ANSWER.with(|a| a.borrow().0)
}

/// The latest answer when it is for `s` (the same group: every action that leaves the
/// scenario as it was, Pin among them, still makes a new value of it), with the group's
/// input it was asked with.
pub fn answer_for(s: &Rc<Scenario>) -> Option<(Option<Answer>, Rc<GroupInput>)> {
    ANSWER.with(|a| match &a.borrow().1 {
        Some((for_whom, answer, input)) if Rc::ptr_eq(for_whom, s) || **for_whom == **s => {
            Some((answer.clone(), input.clone()))
        }
        _ => None,
    })
}

/// Drops the job waiting, if any: its answer, when it comes, is not read; with `answer`,
/// the last answer too (the memory of a large group's assignments).
pub fn forget(answer: bool) {
    WAITING.with(|w| w.borrow_mut().1 = None);
    if answer {
        ANSWER.with(|a| a.borrow_mut().1 = None);
    }
}

/// Posts the job for `s` (`input`: the group's input the page computed from it); `then`
/// runs once its answer is in (also when there is no worker: the answer is then `None`, and
/// the app computes `s` itself), unless a newer job comes first.
pub fn post(s: Rc<Scenario>, input: Rc<GroupInput>, then: impl FnOnce() + 'static) {
    let id = WAITING.with(|w| {
        let mut w = w.borrow_mut();
        w.0 = w.0.wrapping_add(1);
        w.1 = Some((s.clone(), input, Box::new(then)));
        w.0
    });
    if post_job(id, &large::job(&s)).is_err() {
        NONE.with(|n| n.set(true));
        rl_done(id, Vec::new());
    }
}

/// The worker's answer to job `id` (web/boot.js calls it): an empty list when it failed.
#[wasm_bindgen]
pub fn rl_done(id: u32, words: Vec<u32>) {
    let waiting = WAITING.with(|w| {
        let mut w = w.borrow_mut();
        if w.0 == id {
            w.1.take()
        } else {
            None
        }
    });
    if let Some((s, input, then)) = waiting {
        let answer = large::answer(&words);
        ANSWER.with(|a| {
            let mut a = a.borrow_mut();
            *a = (a.0.wrapping_add(1), Some((s, answer, input)));
        });
        then();
    }
}

/// Runs a job in the worker (web/boot.js calls it).
#[wasm_bindgen]
pub fn rl_run(job: &str) -> Vec<u32> {
    large::run(job)
}
