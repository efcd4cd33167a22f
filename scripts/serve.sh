#!/usr/bin/env bash
# Installs what is missing, then serves the app at http://127.0.0.1:8080 (extra arguments go
# to trunk: --release serves the release build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
exec trunk serve --offline --address 127.0.0.1 --port 8080 "$@"
