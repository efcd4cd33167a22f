#!/usr/bin/env bash
# Installs what is missing, then serves the app at http://127.0.0.1:8080: the release build,
# as the page ships (the core at full speed). Extra arguments go to trunk; for quick
# rebuilds while working on the app, `trunk serve` in a shell where scripts/bootstrap.sh is
# sourced serves a debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
exec trunk serve --release --offline --address 127.0.0.1 --port 8080 "$@"
