//! The web app's entry point, which trunk builds for wasm32 (`index.html`).

#[cfg(target_arch = "wasm32")]
fn main() {
    rebalance_lab::start();
}

/// Natively there is no page to start: the command-line tool is `crates/cli`.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "rebalance-lab-web is the web app: serve it with ./scripts/serve.sh \
         (the command-line tool: cargo run --release -p rebalance-lab-cli -- --help)"
    );
    std::process::exit(2);
}
