// The page's worker (src/worker.rs starts it, with the addresses of the app's module in its
// address): loads the module here and hands over to it. The module's start draws nothing
// without a window; rl_worker answers the page's jobs.
const at = new URL(location.href).searchParams;
const m = await import(at.get("js"));
await m.default({ module_or_path: at.get("wasm") });
m.rl_worker();
