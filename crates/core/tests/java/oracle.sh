#!/bin/sh
# Differential-testing oracle: runs Kafka's own assignors (apache/kafka 1eb7644) on random
# cases made by tests/java/Oracle.java and writes their answers, in the shape of
# tests/vectors/*.json, to tests/vectors/oracle/. tests/oracle.rs checks us against them.
#
# No Kafka code is committed: tests/java/kafka.sh extracts the classes from a git mirror of
# apache/kafka into a temporary directory, unmodified, and compiles them with javac beside
# small stubs for what their closure would otherwise drag in.
#
# Run from anywhere in the repository:
#   sh tests/java/oracle.sh [KAFKA_GIT_DIR]
# KAFKA_GIT_DIR defaults to /work/.mirror/apache+kafka/repo (a bare clone holding 1eb7644).
# Needs JDK 11+ (javac, java). ORACLE_KEEP=1 keeps the temporary directory.
# A bigger or other batch, kept out of the repository:
#   ORACLE_OUT=/tmp/big ORACLE_CASES=5000 ORACLE_SEED=1 [ORACLE_HARD=1] sh tests/java/oracle.sh
#   ORACLE_VECTORS=/tmp/big cargo test --release --test oracle
set -eu

KAFKA_GIT=${1:-/work/.mirror/apache+kafka/repo}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${ORACLE_OUT:-"$ROOT/tests/vectors/oracle"}
WORK=$(mktemp -d)
if [ "${ORACLE_KEEP:-}" = 1 ]; then echo "work dir: $WORK" >&2; else trap 'rm -rf "$WORK"' EXIT; fi
mkdir -p "$OUT"

. "$ROOT/tests/java/kafka.sh"
kafka_compile "$WORK" "$KAFKA_GIT" "$ROOT/tests/java/Oracle.java"
[ -f "$WORK/classes/Oracle.class" ] || { echo "javac failed" >&2; exit 1; }
java ${ORACLE_HARD:+-Doracle.hard=true} -cp "$KAFKA_CP" Oracle "$OUT" ${ORACLE_CASES:-} ${ORACLE_CASES:+${ORACLE_SEED:-}}
ls -l "$OUT" >&2
