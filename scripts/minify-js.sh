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

# Then wasm-opt once more, over the renamed module: shrunk twice again knowing what each
# function touches (global effects). Trunk's own wasm-opt run (index.html) comes before the
# renaming; this pass after it takes 0.1 KB gzip more off (README, Size).
for w in "$TRUNK_STAGING_DIR"/*_bg.wasm; do
  wasm-opt --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-multivalue \
    --generate-global-effects -Oz -Oz --strip-producers --strip-target-features "$w" -o "$w"
done
