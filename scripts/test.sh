#!/usr/bin/env bash
# Installs what is missing, then runs every test and prints a summary:
# fmt, clippy (host, and wasm32 for the app and the core), native tests of every crate, the
# fuzz targets (30 s each, from the seeds in fuzz/seeds; scripts/fuzz.sh), browser tests
# (wasm-bindgen-test in headless Chromium, with the page's speed against the same code
# natively), the release build (offline, its gzip size against the 736 KiB alarm), the
# end-to-end tests (the built app driven through WebDriver, axe-core in each page) and
# Lighthouse (three runs).
set -uo pipefail
cd "$(dirname "$0")/.."
# First in a process of its own, so that any failed install stops the run (a sourced script
# followed by `||` would run with `set -e` off), then sourced for the PATH it sets.
NEED_BROWSER=1 NEED_FUZZ=1 bash -c 'source scripts/bootstrap.sh' || { echo "bootstrap failed"; exit 1; }
NEED_BROWSER=1 NEED_FUZZ=1 source scripts/bootstrap.sh || { echo "bootstrap failed"; exit 1; }
set +e

export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
export CHROME="${CHROME:-$(command -v chromium)}"
# An alarm, not a target: everything the page downloads, gzip, above this is an accident (a
# Unicode table, a regex engine, std's sort compiled once per element type) to find and undo.
# (The page with every panel a component, the timeline with its scripts and per-member
# settings, and the core at opt-level 3 is about 704 KiB: docs/performance.md, Size.)
ALARM=$((736 * 1024))
declare -a NAMES RESULTS
FAILED=0

LOG="$(mktemp)"
step() {
  local name="$1"; shift
  printf '\n\033[1m==> %s\033[0m\n' "$name"
  local start=$SECONDS
  "$@" 2>&1 | tee -a "$LOG"
  local rc=${PIPESTATUS[0]}
  NAMES+=("$name")
  if [ $rc -eq 0 ]; then RESULTS+=("ok    $((SECONDS - start))s"); else RESULTS+=("FAIL  $((SECONDS - start))s"); FAILED=1; fi
}

offline() {
  # Prove nothing is fetched: cut the network when this machine allows it (as root, or in a
  # user namespace otherwise), and say which.
  if unshare -n true 2>/dev/null; then
    echo "(network cut)"; unshare -n "$@"
  elif unshare -rn true 2>/dev/null; then
    echo "(network cut, in a user namespace)"; unshare -rn "$@"
  else
    echo "(network not cut: this machine allows no namespace; trunk and cargo run --offline)"; "$@"
  fi
}

sizes() {
  local total=0 f g n=0
  # Every file the page downloads: the page, its stylesheets, scripts, module, icon.
  for f in $(find dist -type f | sort); do
    g=$(gzip -9c "$f" | wc -c)
    printf 'bundle: %-52s %8d bytes, gzip %7d\n' "${f#dist/}" "$(wc -c <"$f")" "$g"
    total=$((total + g)); n=$((n + 1))
  done
  [ "$n" -gt 0 ] || { echo "no bundle was built" >"$SIZE_FILE"; return 1; }
  local kib="$((total / 1024)).$(((total % 1024) * 10 / 1024))"
  if [ "$total" -gt "$ALARM" ]; then
    echo "SIZE everything the page downloads: gzip $total bytes ($kib KiB): ABOVE the 736 KiB alarm" | tee "$SIZE_FILE"
    return 1
  fi
  echo "SIZE everything the page downloads: gzip $total bytes ($kib KiB), under the 736 KiB alarm" | tee "$SIZE_FILE"
}

# The page's speed against the same code natively: the SPEED lines of the browser tests and
# of `cargo bench -p rebalance-lab-core --bench core -- speed`, side by side with their ratio.
speed_table() {
  python3 - "$LOG" <<'PY'
import re, sys
rows = {}
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"SPEED (wasm|native) (\S+) (\S+): median ([0-9.]+) ms", line)
    if m:
        rows.setdefault((m.group(2), m.group(3)), {})[m.group(1)] = float(m.group(4))
if not rows:
    print("no SPEED lines"); sys.exit(1)
worst = 0
for (kind, label), t in rows.items():
    if "wasm" in t and "native" in t:
        r = t["wasm"] / t["native"]; worst = max(worst, r)
        print("SPEED-RATIO %-18s %-10s page %8.3f ms, native %8.3f ms: %.2fx" % (kind, label, t["wasm"], t["native"], r))
print("SPEED-RATIO worst %.2fx (goal: within 2x; a figure, not a gate)" % worst)
PY
}

step "cargo fmt --check" cargo fmt --all --check
step "clippy (host)" cargo clippy --workspace --all-targets -- -D warnings
step "clippy (wasm32: the app, the core)" bash -c \
  'cargo clippy -p rebalance-lab --all-targets --target wasm32-unknown-unknown -- -D warnings && cargo clippy -p rebalance-lab-core --lib --target wasm32-unknown-unknown -- -D warnings'
step "native tests" cargo test --workspace
# Prints a FUZZ line per target (inputs run, failure or not) for the summary.
step "fuzz (30 s per target)" scripts/fuzz.sh 30
# The BENCH and SPEED lines these print are the page's own figures: built as the page ships
# (the web profile). (chromedriver gets 60 s to start instead of the runner's 5: on a busy
# 2-core machine it once took longer, and the step failed before any test ran)
step "browser tests (wasm-bindgen-test, headless Chromium)" env \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner WASM_BINDGEN_TEST_TIMEOUT=180 WASM_BINDGEN_TEST_DRIVER_TIMEOUT=60 \
  cargo test -p rebalance-lab --profile web --target wasm32-unknown-unknown --test web -- --nocapture
step "the page's speed cases natively (cargo bench)" cargo bench -p rebalance-lab-core --bench core -- speed
step "the page's speed against native" speed_table
# No stale dist/ for the steps after it if the build fails.
rm -rf dist
step "release build (trunk, offline)" offline scripts/build-release.sh
SIZE_FILE="$(mktemp)"
echo "no bundle was built" >"$SIZE_FILE"
step "bundle size" sizes
step "end-to-end tests (WebDriver, headless Chromium, axe-core)" cargo test -p rebalance-lab --test e2e -- --ignored --test-threads=1 --nocapture
# Prints a LIGHTHOUSE line per run and their median; fails when accessibility, best practices
# or SEO is below 1 in any run.
step "Lighthouse (mobile preset, release build, three runs)" scripts/lighthouse.sh 3

printf '\n\033[1mSummary\033[0m\n'
for i in "${!NAMES[@]}"; do printf '  %-10s %s\n' "${RESULTS[$i]}" "${NAMES[$i]}"; done
echo "  $(cat "$SIZE_FILE")"
grep -hoE 'BENCH .*|^FUZZ .*|^LIGHTHOUSE .*|^SPEED-RATIO .*|axe, .*' "$LOG" 2>/dev/null | sed 's/^/  /' || true
if [ $FAILED -ne 0 ]; then echo "FAILED"; exit 1; fi
echo "all passed"
