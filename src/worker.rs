//! A large group's assignments in a Web Worker. The page starts `web/worker.js`, which only
//! loads this same module there and calls [`rl_worker`]; from then on the two sides speak in
//! the typed messages below: the worker says it is [`FromWorker::Ready`], the page posts a
//! [`Job`] (the scenario's link, [`rebalance_lab_core::scenario::large`]), and the worker
//! answers with the job's id and one `Uint32Array`, handed over without a copy.
//!
//! The page's side is [`PageWorker`], held by the app: a newer job replaces one still
//! waiting (its answer would never be read), stopping the worker that computes it and
//! starting a fresh one. A page without a worker (a browser test's, or a worker that failed
//! to start) computes on its main thread, as does a job the worker failed.

use rebalance_lab_core::assignor::GroupInput;
use rebalance_lab_core::scenario::large::{self, Answer};
use rebalance_lab_core::scenario::Scenario;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A job for the worker: its id (counting from 1) and the scenario's link.
pub struct Job {
    pub id: u32,
    pub link: String,
}

/// What the worker says.
pub enum FromWorker {
    /// The module is loaded: jobs may come.
    Ready,
    /// The answer to job `id`: empty when the job failed.
    Answer { id: u32, words: Vec<u32> },
}

impl Job {
    fn to_js(&self) -> JsValue {
        js_sys::Array::of2(&self.id.into(), &JsValue::from_str(&self.link)).into()
    }

    fn from_js(v: &JsValue) -> Option<Job> {
        let a = v.dyn_ref::<js_sys::Array>()?;
        Some(Job {
            id: a.get(0).as_f64()? as u32,
            link: a.get(1).as_string()?,
        })
    }
}

impl FromWorker {
    /// The message, and what it hands over without a copy.
    fn to_js(&self) -> (JsValue, js_sys::Array) {
        match self {
            FromWorker::Ready => (JsValue::from_str("ready"), js_sys::Array::new()),
            FromWorker::Answer { id, words } => {
                let words = js_sys::Uint32Array::from(words.as_slice());
                let buffer = words.buffer();
                (
                    js_sys::Array::of2(&(*id).into(), &words).into(),
                    js_sys::Array::of1(&buffer),
                )
            }
        }
    }

    fn from_js(v: &JsValue) -> Option<FromWorker> {
        if v.as_string().as_deref() == Some("ready") {
            return Some(FromWorker::Ready);
        }
        let a = v.dyn_ref::<js_sys::Array>()?;
        Some(FromWorker::Answer {
            id: a.get(0).as_f64()? as u32,
            words: a.get(1).dyn_into::<js_sys::Uint32Array>().ok()?.to_vec(),
        })
    }
}

/// The worker's side (web/worker.js calls it once the module is loaded there): answers
/// every job the page posts.
#[wasm_bindgen]
pub fn rl_worker() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    let on_job =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let Some(job) = Job::from_js(&e.data()) else {
                return;
            };
            let (message, transfer) = FromWorker::Answer {
                id: job.id,
                words: large::run(&job.link),
            }
            .to_js();
            let _ = reply.post_message_with_transfer(&message, &transfer);
        });
    scope.set_onmessage(Some(on_job.as_ref().unchecked_ref()));
    // (the handler lives as long as the worker)
    on_job.forget();
    let (message, _) = FromWorker::Ready.to_js();
    let _ = scope.post_message(&message);
}

/// The latest answer: the scenario it is for, what the worker computed (`None`: it could
/// not, or there is no worker) and the group's input the page computed for the job (the
/// computation the answer brings reads it instead of computing it again: 53 ms at 10,000
/// members x 500,000 partitions).
type Answered = (Rc<Scenario>, Option<Answer>, Rc<GroupInput>);

/// The job waiting for its answer: its id, scenario and input, and what to call once
/// answered.
struct Waiting {
    id: u32,
    scenario: Rc<Scenario>,
    input: Rc<GroupInput>,
    then: Box<dyn FnOnce()>,
}

/// A running worker, with its handlers (kept alive as long as it is).
struct Running {
    worker: web_sys::Worker,
    ready: bool,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

/// The page's side of the worker, held by the app.
#[derive(Default)]
pub struct PageWorker {
    running: Option<Running>,
    /// The id of the job the running worker computes.
    busy: Option<u32>,
    /// The last job id given.
    last_id: u32,
    waiting: Option<Waiting>,
    /// The latest answer, and how many have come (the app's computation depends on it).
    answer: Option<Answered>,
    answers: u32,
    /// The page could not start a worker.
    unavailable: bool,
}

impl PageWorker {
    /// Whether the page may have a worker: until one fails to start.
    pub fn available(&self) -> bool {
        !self.unavailable
    }

    /// How many answers have come (one more after each).
    pub fn answers(&self) -> u32 {
        self.answers
    }

    /// The latest answer when it is for `s` (the same group: every action that leaves the
    /// scenario as it was, Pin among them, still makes a new value of it), with the group's
    /// input it was asked with.
    pub fn answer_for(&self, s: &Rc<Scenario>) -> Option<(Option<Answer>, Rc<GroupInput>)> {
        match &self.answer {
            Some((for_whom, answer, input)) if Rc::ptr_eq(for_whom, s) || **for_whom == **s => {
                Some((answer.clone(), input.clone()))
            }
            _ => None,
        }
    }

    /// Drops the job waiting, if any: its answer, when it comes, is not read; with
    /// `answer`, the last answer too (the memory of a large group's assignments).
    pub fn forget(&mut self, answer: bool) {
        self.waiting = None;
        if answer {
            self.answer = None;
        }
    }
}

/// Posts the job for `s` (`input`: the group's input the page computed from it); `then`
/// runs once its answer is in (also when there is no worker: the answer is then `None`, and
/// the app computes `s` itself), unless a newer job comes first.
pub fn post(
    this: &Rc<RefCell<PageWorker>>,
    s: Rc<Scenario>,
    input: Rc<GroupInput>,
    then: impl FnOnce() + 'static,
) {
    let id = {
        let mut w = this.borrow_mut();
        w.last_id = w.last_id.wrapping_add(1).max(1);
        let id = w.last_id;
        // (a worker computing an older job is stopped: its answer would never be read)
        if w.busy.is_some() {
            if let Some(r) = w.running.take() {
                r.worker.terminate();
            }
            w.busy = None;
        }
        if w.running.is_none() {
            w.running = start(Rc::downgrade(this));
        }
        w.waiting = Some(Waiting {
            id,
            scenario: s,
            input,
            then: Box::new(then),
        });
        if w.running.is_none() {
            w.unavailable = true;
        }
        id
    };
    if this.borrow().unavailable {
        answered(this, id, &[]);
    } else {
        send_waiting(this);
    }
}

/// Sends the job waiting to a worker that is ready and idle; a worker that refuses it is
/// given up, and the job answered empty (the app computes that group itself).
fn send_waiting(this: &Rc<RefCell<PageWorker>>) {
    let refused = send_to_worker(this);
    if let Some(id) = refused {
        {
            let mut w = this.borrow_mut();
            if let Some(r) = w.running.take() {
                r.worker.terminate();
            }
            w.unavailable = true;
        }
        answered(this, id, &[]);
    }
}

/// [`send_waiting`]'s send: the id of a job the worker refused, if it did.
fn send_to_worker(this: &Rc<RefCell<PageWorker>>) -> Option<u32> {
    let mut w = this.borrow_mut();
    let w = &mut *w;
    let (Some(r), Some(job)) = (&w.running, &w.waiting) else {
        return None;
    };
    if !r.ready || w.busy.is_some() {
        return None;
    }
    let job = Job {
        id: job.id,
        link: large::job(&job.scenario),
    };
    if r.worker.post_message(&job.to_js()).is_err() {
        return Some(job.id);
    }
    w.busy = Some(job.id);
    None
}

/// The answer to job `id` (empty: the worker failed it): kept and announced when it is the
/// job waiting.
fn answered(this: &Rc<RefCell<PageWorker>>, id: u32, words: &[u32]) {
    let then = {
        let mut w = this.borrow_mut();
        if w.busy == Some(id) {
            w.busy = None;
        }
        match w.waiting.take() {
            Some(job) if job.id == id => {
                w.answer = Some((job.scenario, large::answer(words), job.input));
                w.answers = w.answers.wrapping_add(1);
                Some(job.then)
            }
            other => {
                w.waiting = other;
                None
            }
        }
    };
    if let Some(then) = then {
        then();
    }
}

/// Starts a worker running `web/worker.js` with the addresses of the app's own module
/// (the same wasm-bindgen script and wasm the page loaded, as Trunk wrote them into the boot
/// script's tag), or `None` when the page cannot.
fn start(this: Weak<RefCell<PageWorker>>) -> Option<Running> {
    let doc = web_sys::window()?.document()?;
    let boot = doc.query_selector("script[data-js]").ok()??;
    let (js, wasm) = (
        boot.get_attribute("data-js")?,
        boot.get_attribute("data-wasm")?,
    );
    // (worker.js sits beside the module, whatever the page's own address)
    let folder = js.rfind('/').map_or("", |i| &js[..=i]);
    let url = format!(
        "{folder}worker.js?js={}&wasm={}",
        String::from(js_sys::encode_uri_component(&js)),
        String::from(js_sys::encode_uri_component(&wasm))
    );
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(&url, &options).ok()?;
    let me = this.clone();
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let Some(this) = me.upgrade() else { return };
            match FromWorker::from_js(&e.data()) {
                Some(FromWorker::Ready) => {
                    if let Some(r) = this.borrow_mut().running.as_mut() {
                        r.ready = true;
                    }
                    send_waiting(&this);
                }
                Some(FromWorker::Answer { id, words }) => {
                    answered(&this, id, &words);
                    send_waiting(&this);
                }
                None => {}
            }
        });
    // (a worker that cannot start or fails: the job it had is answered empty, and the app
    // computes that group itself)
    let me = this;
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
        let Some(this) = me.upgrade() else { return };
        let job = {
            let mut w = this.borrow_mut();
            if let Some(r) = w.running.take() {
                r.worker.terminate();
            }
            w.busy = None;
            w.waiting.as_ref().map(|j| j.id)
        };
        if let Some(id) = job {
            answered(&this, id, &[]);
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Some(Running {
        worker,
        ready: false,
        _on_message: on_message,
        _on_error: on_error,
    })
}
