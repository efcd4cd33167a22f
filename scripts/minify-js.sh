#!/usr/bin/env sh
# Trunk's post-build hook (Trunk.toml): minify the JavaScript in a release build with terser
# (npm's terser, installed by scripts/bootstrap.sh). Trunk's own minifier cannot parse the
# module wasm-bindgen writes, so it is left off. Debug builds are left as they are.
set -eu
[ "${TRUNK_PROFILE:-}" = release ] || exit 0
for f in "$TRUNK_STAGING_DIR"/*.js; do
  terser "$f" --module --compress --mangle -o "$f.min"
  mv "$f.min" "$f"
done
# Then the names the module and its script share, shortened (scripts/short-names.mjs says why).
node scripts/short-names.mjs "$TRUNK_STAGING_DIR"
