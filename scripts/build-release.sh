#!/usr/bin/env bash
# The page's release build into dist/ (extra arguments go to trunk): what ./scripts/serve.sh
# serves and the end-to-end tests drive. Run after scripts/bootstrap.sh has put the tools on
# PATH; offline, as every crate is fetched by then.
set -euo pipefail
cd "$(dirname "$0")/.."
exec trunk build --release --offline "$@"
