# Sourced by the builds of the page's code at the web profile: scripts/build-release.sh, and
# the browser tests in scripts/test.sh (so their figures are for the code as it ships: same
# profile, same flags).
#
# Panic locations are left out of the page: the file, line and column of every bounds check,
# unwrap and expect in the code (the crate's and yew's) are 6.9 KB of the gzip bundle. The
# page is built never to panic; if it does, its panic hook still shows what went wrong, only
# not where. `-Zlocation-detail` is an unstable rustc flag: RUSTC_BOOTSTRAP=1 lets this
# stable toolchain take it, for these builds only (the web profile's own target directory;
# every other build, test and lint runs on plain stable).
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zlocation-detail=none"
