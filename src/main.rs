//! The `rebalance-lab` binary: the web app when built for wasm32, the command-line tool
//! natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    rebalance_lab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(rebalance_lab::cli::run(std::env::args().skip(1).collect()));
}
