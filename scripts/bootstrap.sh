#!/usr/bin/env bash
# Installs what is missing, and only that: the wasm32 target, trunk 0.21.14, wasm-bindgen-cli
# at the Cargo.lock version, wasm-opt (npm's binaryen@132), Debian's chromium and
# chromium-driver and npm's lighthouse and axe-core (with NEED_BROWSER=1), and cargo-fuzz 0.13
# (with NEED_FUZZ=1); the npm packages and all their dependencies at the versions locked in
# tools/npm/. Then it fetches every crate any build step needs, for every target, so that the
# builds after it run offline. Source it: it also puts the tools on PATH.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${REBALANCE_LAB_TOOLS:-$HOME/.cache/rebalance-lab}"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$TOOLS/binaryen/node_modules/.bin:$PATH"
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# What the rest needs and does not install: Node.js's npm (wasm-opt and the browser checks
# come from the npm registry) and, for the tests, python3 (scripts/lighthouse.sh
# serves dist/ with it).
for tool in npm $([ "${NEED_BROWSER:-0}" = 1 ] && echo python3); do
  if ! command -v "$tool" >/dev/null; then
    echo "bootstrap: $tool is needed and not on PATH" >&2
    return 1 2>/dev/null || exit 1
  fi
done

# npm_tool NAME: installs tools/npm/NAME (its package.json and package-lock.json: every
# package, the dependencies' too, pinned by the lock) into $TOOLS/NAME with `npm ci`, unless
# that same lock is installed there already.
npm_tool() {
  local dir="$TOOLS/$1" src="$ROOT/tools/npm/$1"
  if [ -d "$dir/node_modules" ] && cmp -s "$src/package-lock.json" "$dir/package-lock.json"; then
    return 0
  fi
  say "installing npm's $1 (tools/npm/$1, locked) into $dir"
  mkdir -p "$dir"
  cp "$src/package.json" "$src/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --no-audit --no-fund --silent >/dev/null)
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# Every crate of Cargo.lock, for every target (not only this machine's: trunk's `cargo
# metadata` resolves them all, Windows' crates included), and the fuzz targets' (fuzz/Cargo.lock),
# into cargo's cache while the network is there: the release build runs with the network cut
# (scripts/test.sh) and nothing else downloads. (A no-op when they are all there.)
say "fetching the crates of Cargo.lock and fuzz/Cargo.lock (all targets)"
(cd "$ROOT" && cargo fetch --locked --quiet)
(cd "$ROOT/fuzz" && cargo fetch --locked --quiet)

if ! trunk --version 2>/dev/null | grep -q ' 0\.21\.14'; then
  say "installing trunk 0.21.14 (about 20 minutes on 2 cores)"
  cargo install trunk --version 0.21.14 --locked
fi

WB_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")"
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WB_VERSION\$"; then
  say "installing wasm-bindgen-cli $WB_VERSION (about 12 minutes on 2 cores)"
  # Not --locked: one of its locked dependencies is not in the registry here.
  cargo install wasm-bindgen-cli --version "$WB_VERSION"
fi

# wasm-opt (npm's binaryen 132), which trunk runs over the page's module.
npm_tool binaryen


if [ "${NEED_BROWSER:-0}" = 1 ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  say "installing chromium and chromium-driver from Debian"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# Accessibility and first-load checks of the test command: npm's axe-core (run inside the page
# by tests/e2e.rs) and Lighthouse 12 (scripts/lighthouse.sh; 13 needs a newer Node).
if [ "${NEED_BROWSER:-0}" = 1 ]; then
  npm_tool lighthouse
fi
export AXE="$TOOLS/lighthouse/node_modules/axe-core/axe.min.js"

# cargo-fuzz runs on stable Rust with --sanitizer none (scripts/fuzz.sh says why).
if [ "${NEED_FUZZ:-0}" = 1 ] && ! cargo fuzz --version 2>/dev/null | grep -q ' 0\.13\.'; then
  say "installing cargo-fuzz 0.13.2 (about 2.5 minutes on 2 cores)"
  cargo install cargo-fuzz --version 0.13.2 --locked
fi
