#!/bin/sh
# Speed side by side with Java: for each case, `rebalance-lab bench` (release build) and then
# Kafka's own assignor (apache/kafka 1eb7644, compiled from the mirror by tests/java/kafka.sh,
# timed by tests/java/Bench.java at steady state) on the same group, interleaved in one run.
# Prints one line per case: Rust median, Java median (microseconds), and Java / Rust.
# The JSON lines of both sides go to stderr.
#
#   sh scripts/bench-vs-java.sh [KAFKA_GIT_DIR]
# KAFKA_GIT_DIR defaults to /work/.mirror/apache+kafka/repo (a bare clone holding 1eb7644).
# Environment: MEMBERS (1000), TOPICS (50), PARTITIONS (200), RUNS (101),
# WARMUP_SECONDS (10) and WARMUP_INVOCATIONS (3000) for Java (whichever ends first),
# JAVA_OPTS (-Xms2g -Xmx2g), CASES (all: "range:fresh uniform:one-leaves:het ...").
# Needs cargo, JDK 11+ (javac, java) and git. One JVM per case, as JMH forks per benchmark.
set -eu

KAFKA_GIT=${1:-/work/.mirror/apache+kafka/repo}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MEMBERS=${MEMBERS:-1000}
TOPICS=${TOPICS:-50}
PARTITIONS=${PARTITIONS:-200}
RUNS=${RUNS:-101}
JAVA_OPTS=${JAVA_OPTS:--Xms2g -Xmx2g}
CASES=${CASES:-"range:fresh range:one-leaves roundrobin:fresh roundrobin:one-leaves
sticky:fresh sticky:one-leaves cooperative-sticky:fresh cooperative-sticky:one-leaves
uniform:fresh uniform:one-leaves uniform:fresh:het uniform:one-leaves:het
server-range:fresh server-range:one-leaves server-range:fresh:het server-range:one-leaves:het"}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

(cd "$ROOT" && cargo build --release -p rebalance-lab-cli --bin rebalance-lab >&2)
RUST="${CARGO_TARGET_DIR:-$ROOT/target}/release/rebalance-lab"
[ -x "$RUST" ] || { echo "no binary at $RUST" >&2; exit 1; }

. "$ROOT/crates/core/tests/java/kafka.sh"
kafka_compile "$WORK" "$KAFKA_GIT" "$ROOT/crates/core/tests/java/Oracle.java" "$ROOT/crates/core/tests/java/Bench.java"
[ -f "$WORK/classes/Bench.class" ] || { echo "javac failed" >&2; exit 1; }

median() { # the median_us field of a JSON line
    sed -n 's/.*"median_us":\([0-9.eE+-]*\).*/\1/p'
}

echo "# $MEMBERS members, $TOPICS topics x $PARTITIONS partitions; median of $RUNS runs;" \
    "Java warmed ${WARMUP_SECONDS:-10} s or ${WARMUP_INVOCATIONS:-3000} calls; $(java -version 2>&1 | head -1)"
printf '%-38s %12s %12s %8s\n' case rust_us java_us java/rust
for c in $CASES; do
    assignor=${c%%:*}
    rest=${c#*:}
    rebalance=${rest%%:*}
    het=
    subs=homogeneous
    case $rest in *:het) het=--heterogeneous; subs=heterogeneous ;; esac
    r=$("$RUST" bench --assignor "$assignor" --rebalance "$rebalance" $het --members "$MEMBERS" \
        --topics "$TOPICS" --partitions "$PARTITIONS" --runs "$RUNS" --json)
    echo "rust $r" >&2
    # shellcheck disable=SC2086 # JAVA_OPTS is a list of options
    j=$(java $JAVA_OPTS -Dbench.warmup.seconds="${WARMUP_SECONDS:-10}" \
        -Dbench.warmup.invocations="${WARMUP_INVOCATIONS:-3000}" -cp "$KAFKA_CP" \
        Bench "$assignor" "$rebalance" "$subs" "$MEMBERS" "$TOPICS" "$PARTITIONS" "$RUNS")
    echo "java $j" >&2
    rm=$(echo "$r" | median)
    jm=$(echo "$j" | median)
    name="$assignor $rebalance${het:+ heterogeneous}"
    awk -v n="$name" -v r="$rm" -v j="$jm" 'BEGIN { printf "%-38s %12.1f %12.1f %8.2f\n", n, r, j, j / r }'
done
