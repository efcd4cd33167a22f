#!/usr/bin/env bash
# The page's release build, exactly as shipped and measured (dist/). Run after
# scripts/bootstrap.sh has put the tools on PATH; scripts/web-env.sh says what it adds to a
# plain stable build, and why.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/web-env.sh
exec trunk build --release --offline "$@"
