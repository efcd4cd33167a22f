#!/usr/bin/env bash
# Installs what is missing, then serves the app at http://127.0.0.1:8080
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
# Extra arguments go to trunk: `--features lesson,broker,import` serves the full build, with
# the pages the shipped bundle has no room for (README, Size).
exec trunk serve --offline --address 127.0.0.1 --port 8080 "$@"
