#!/usr/bin/env bash
# The page's release build, exactly as shipped and measured (dist/). Run after
# scripts/bootstrap.sh has put the tools on PATH; scripts/web-env.sh says what it adds to a
# plain stable build, and why.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/web-env.sh
# The shipped page only: the standard library compiled with the page (rust-src), for size
# and with its smaller algorithms (optimize_for_size: a plain merge sort and heapsort, still
# O(n log n)), and a panic that stops the module at once instead of formatting a message
# nobody reads (the page never panics by design: tests/hostile.rs, the fuzzers; a panic
# stopped the page before too). About 14 KB gzip less (README, Size). Its own target
# directory: the browser tests build with the prebuilt library and other flags.
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS -Zunstable-options -Cpanic=immediate-abort"
export CARGO_TARGET_DIR="$PWD/target/page"
exec trunk build --release --offline "$@"
