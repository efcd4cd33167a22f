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
const boot = document.querySelector("script[data-js]");
const { default: init } = await import(boot.dataset.js);
await init({ module_or_path: boot.dataset.wasm });
// The app is on the page (its stylesheet already hides the first paint): remove it.
document.getElementById("first-paint")?.remove();
