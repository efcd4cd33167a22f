#!/usr/bin/env bash
# Runs every fuzz target (fuzz/fuzz_targets) for SECONDS_PER_TARGET seconds (default 30),
# starting from the seeds kept in fuzz/seeds/<target>/, and fails if any input fails.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]
#
# Stable Rust only: `cargo fuzz build --sanitizer none`. cargo-fuzz's default sanitizer
# (address) passes -Zsanitizer=address, which only nightly accepts; without a sanitizer every
# flag it passes (-Cpasses=sancov-module, -Cllvm-args=-sanitizer-coverage-*, --cfg fuzzing,
# -Cdebug-assertions) is stable. Safe Rust gains little from ASan: a failure here is a
# panic or a failed assertion. The build is release with debug assertions and overflow
# checks (cargo-fuzz's default).
#
# Scratch (gitignored): fuzz/corpus/<target>/ (seeds are copied in; what libFuzzer finds
# is kept there for the next run), fuzz/artifacts/<target>/ (failing inputs) and
# fuzz/artifacts/<target>.log (libFuzzer's whole output).
# Prints one line per target: `FUZZ <target>: N inputs in S s (R/s), no failure|FAILED ...`.
set -uo pipefail
cd "$(dirname "$0")/.."
SECS="${1:-30}"
case "$SECS" in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET]" >&2; exit 2 ;; esac
export PATH="$HOME/.cargo/bin:$PATH"
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "cargo-fuzz is missing: NEED_FUZZ=1 source scripts/bootstrap.sh (or cargo install cargo-fuzz --locked)" >&2
  exit 1
fi

# Offline when every crate is already here; otherwise fetch what fuzz/Cargo.lock names.
if ! CARGO_NET_OFFLINE=true cargo fuzz build --sanitizer none; then
  echo "offline build failed; trying again with the network"
  cargo fuzz build --sanitizer none || { echo "FUZZ build failed"; exit 1; }
fi
HOST="$(rustc -vV | sed -n 's/^host: //p')"
BIN="${CARGO_TARGET_DIR:-fuzz/target}/$HOST/release"
TARGETS=$(cd fuzz/fuzz_targets && ls ./*.rs | sed 's|^\./||; s|\.rs$||')

FAILED=0
for t in $TARGETS; do
  CORPUS="fuzz/corpus/$t" ART="fuzz/artifacts/$t" LOG="fuzz/artifacts/$t.log"
  mkdir -p "$CORPUS" "$ART"
  [ -d "fuzz/seeds/$t" ] && cp fuzz/seeds/"$t"/* "$CORPUS"/
  MARK="$(mktemp)"
  printf '\n-- %s: %s s from %d inputs in %s\n' "$t" "$SECS" "$(ls "$CORPUS" | wc -l)" "$CORPUS"
  start=$SECONDS
  # -timeout: an input slower than 10 s is a failure too (libFuzzer's default is 20 minutes).
  "$BIN/$t" "$CORPUS" -artifact_prefix="$ART/" -max_total_time="$SECS" -timeout=10 \
    -print_final_stats=1 >"$LOG" 2>&1
  rc=$?
  took=$((SECONDS - start))
  grep -E '^(INFO: seed corpus|#[0-9]+ +(INITED|DONE))|^Done |^stat::' "$LOG"
  runs=$(sed -n 's/^stat::number_of_executed_\(runs\|units\): *//p' "$LOG" | tail -1)
  if [ -z "$runs" ]; then # no final stats after a crash: the last status line
    runs=$(grep -oE '^#[0-9]+' "$LOG" | tail -1 | tr -d '#')
  fi
  runs=${runs:-0}
  rate=$((runs / (took > 0 ? took : 1)))
  mapfile -t new < <(find "$ART" -type f -newer "$MARK" | sort)
  rm -f "$MARK"
  if [ $rc -eq 0 ] && [ ${#new[@]} -eq 0 ]; then
    echo "FUZZ $t: $runs inputs in $took s ($rate/s), no failure"
    continue
  fi
  FAILED=1
  echo "libFuzzer exit code $rc; its output: $LOG"
  # The panic message (for an assertion, both sides).
  sed -n '/panicked at/,/^stack backtrace\|^==[0-9]*== ERROR/p' "$LOG" | head -40
  for a in "${new[@]}"; do
    echo "failing input: $a ($(wc -c <"$a") bytes)"
    if [ "$t" = text ] && iconv -f UTF-8 -t UTF-8 "$a" >/dev/null 2>&1; then
      echo "---- text ----"; cat "$a"; echo; echo "--------------"
    else
      xxd "$a" | head -40
    fi
  done
  echo "FUZZ $t: $runs inputs in $took s, FAILED: ${#new[@]} failing input(s), first ${new[0]:-none} (libFuzzer exit $rc)"
done
exit $FAILED
