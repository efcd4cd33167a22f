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
  const { default: init } = await import(boot.dataset.js);
  await init({ module_or_path: boot.dataset.wasm });
} catch (e) {
  stopped(e, !trap(e));
  throw e;
}
