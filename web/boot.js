// This script is also the page's worker (src/worker.rs): a large group's assignments,
// computed away from the page's main thread. The page starts it (below, rlWork) with the
// addresses of the app's own module (the same wasm-bindgen script and wasm: the module's
// start does nothing without a window), then posts jobs; each answer is one Uint32Array,
// handed back without a copy. A job that fails (a trap) is answered with an empty list, and
// the page computes that group itself.
if (!self.document) {
  let ready;
  onmessage = async ({ data: [id, job, js, wasm] }) => {
    let words = new Uint32Array(0);
    try {
      ready ??= import(js).then(async (m) => (await m.default({ module_or_path: wasm }), m));
      words = (await ready).rl_run(job);
    } catch {}
    postMessage([id, words], [words.buffer]);
  };
} else {
  // Starts the app from a file rather than an inline script, so that the page's
  // Content-Security-Policy can forbid inline scripts altogether. Trunk writes the hashed names
  // of the wasm-bindgen module and the wasm into this script element's data attributes
  // (Trunk.toml, pattern_script). A violation of the policy is recorded on <html> for the
  // end-to-end tests.
  addEventListener("securitypolicyviolation", (e) => {
    const list = document.documentElement.dataset.cspViolations;
    document.documentElement.dataset.cspViolations =
      (list ? list + "\n" : "") + e.violatedDirective + " " + (e.blockedURI || "inline");
  });
  // A panic is reported by the app's own hook with its message (src/ui.rs, start), which marks
  // the page (body[data-panic]); the module then stops, and the stop reaches JavaScript as a
  // WebAssembly.RuntimeError, thrown out of an event handler or a promise. A trap the hook did
  // not see is marked and said here, so a crash is never a silently dead page.
  // A module that cannot load at all (a network error, a browser without WebAssembly) is said
  // the same way, instead of leaving the first paint's "Loading" on screen.
  const trap = (e) => typeof WebAssembly === "object" && e instanceof WebAssembly.RuntimeError;
  const stopped = (error, loading) => {
    if (!(loading || trap(error)) || document.body.dataset.panic) return;
    document.body.dataset.panic = String(error);
    const div = document.createElement("div");
    div.className = "alert panic";
    div.setAttribute("role", "alert");
    div.textContent = loading
      ? `Rebalance Lab could not start (${error && error.message}). Your scenario is still in the link; reload to try again.`
      : `Rebalance Lab stopped because of a bug (${error.message}). Your scenario is still in the link; reload to continue.`;
    document.body.prepend(div);
  };
  addEventListener("error", (e) => stopped(e.error));
  addEventListener("unhandledrejection", (e) => stopped(e.reason));
  const boot = document.querySelector("script[data-js]");
  // The wasm is fetched once the first paint is on screen (two frames; a hidden tab has no
  // frames, so a timer starts it there: half a second, or the browser's background timer
  // limit): fetched before, it made the app's own paint the page's largest one, which waits
  // for the whole module, and the first paint (what the app is, painted within a second on a
  // slow phone) never counted. The small JavaScript module is preloaded meanwhile
  // (Trunk.toml); in Lighthouse's run the app is interactive as soon as before.
  await new Promise((ready) => {
    requestAnimationFrame(() => requestAnimationFrame(ready));
    setTimeout(ready, 500);
  });
  try {
    const { default: init, rl_done } = await import(boot.dataset.js);
    // The page's worker (this script, above; src/worker.rs), started at the first large group:
    // the app posts a job with rlWork and gets the answer through rl_done. A newer job stops
    // the worker still computing an older one (its answer would never be read) and starts a
    // fresh one; a worker that fails answers with an empty list, and the app computes itself.
    // (busy: the id of the job the worker is computing; ids start at 1)
    let worker, busy;
    globalThis.rlWork = (id, job) => {
      if (busy) worker.terminate(), (worker = 0);
      if (!worker) {
        // (each handler for its own worker: a stopped one's last event does nothing)
        const w = (worker = new Worker(import.meta.url, { type: "module" }));
        w.onmessage = ({ data }) => {
          if (w !== worker) return;
          busy = 0;
          rl_done(...data);
        };
        // (a worker that cannot start: the app computes the group itself)
        w.onerror = () => {
          if (w !== worker) return;
          const job = busy;
          worker = busy = 0;
          if (job) rl_done(job, new Uint32Array(0));
        };
      }
      busy = id;
      worker.postMessage([id, job, boot.dataset.js, boot.dataset.wasm]);
    };
    await init({ module_or_path: boot.dataset.wasm });
  } catch (e) {
    stopped(e, !trap(e));
    throw e;
  }
}
