#!/usr/bin/env bash
# Lighthouse 12 (npm lighthouse@12.2.3, installed by scripts/bootstrap.sh with NEED_BROWSER=1)
# on the release build in dist/, served from loopback gzip-compressed as a static host serves
# it (scripts/serve-dist.py), default mobile preset (simulated slow 4G, 4x CPU slowdown),
# RUNS times (default 1):
#
#   scripts/lighthouse.sh [RUNS]
#
# Prints a LIGHTHOUSE line per run with the four scores and the paint figures, then the
# median performance and time to interactive; fails when accessibility, best practices or SEO
# is below 1 in any run. Performance is printed, not enforced (it moves from run to run: a
# benchmark figure, docs/performance.md). LIGHTHOUSE_JSON=FILE keeps the last run's report.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="${REBALANCE_LAB_TOOLS:-$HOME/.cache/rebalance-lab}"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 scripts/serve-dist.py "$PORT" dist >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT))" 2>/dev/null && break; sleep 0.1; done
RUNS="${1:-1}"
case "$RUNS" in '' | *[!0-9]*) echo "usage: scripts/lighthouse.sh [RUNS]" >&2; exit 2 ;; esac
FAILED=0
SCORES="$(mktemp)"
for run in $(seq "$RUNS"); do
OUT="${LIGHTHOUSE_JSON:-$(mktemp)}"
CHROME_PATH="${CHROME:-/usr/bin/chromium}" "$TOOLS/lighthouse/node_modules/.bin/lighthouse" \
  "http://127.0.0.1:$PORT/" --quiet --output=json --output-path="$OUT" \
  --only-categories=performance,accessibility,best-practices,seo \
  --chrome-flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --no-first-run --user-data-dir=$(mktemp -d)"
python3 - "$OUT" "$SCORES" <<'PY' || FAILED=1
import json, sys
d = json.load(open(sys.argv[1]))
c = {k: v["score"] for k, v in d["categories"].items()}
a = d["audits"]
print("LIGHTHOUSE performance %.2f, accessibility %.2f, best practices %.2f, SEO %.2f; "
      "first paint %s, largest paint %s, interactive %s, blocking %s, layout shift %s" % (
      c["performance"], c["accessibility"], c["best-practices"], c["seo"],
      a["first-contentful-paint"]["displayValue"], a["largest-contentful-paint"]["displayValue"],
      a["interactive"]["displayValue"], a["total-blocking-time"]["displayValue"],
      a["cumulative-layout-shift"]["displayValue"]))
with open(sys.argv[2], "a") as f:
    f.write("%f %f\n" % (c["performance"], a["interactive"]["numericValue"]))
bad = False
for cat in ("accessibility", "best-practices", "seo"):
    for ref in d["categories"][cat]["auditRefs"]:
        x = a[ref["id"]]
        if x.get("score") is not None and x["score"] < 1 and ref.get("weight", 0) > 0:
            print("  %s: %s (%s)" % (cat, x["title"], ref["id"]))
            bad = True
sys.exit(1 if bad else 0)
PY
done
python3 - "$SCORES" <<'PY'
import statistics, sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
if rows:
    print("LIGHTHOUSE median of %d: performance %.2f, interactive %.1f s" % (
        len(rows), statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows) / 1000))
PY
exit $FAILED
