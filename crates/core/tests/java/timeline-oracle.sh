#!/bin/sh
# Remakes tests/vectors/timeline/: the simulator writes each case's requests as a script
# (the ignored test write_oracle_scripts), and Kafka's own GroupMetadataManager at 1eb7644,
# driven by ../shared/tools/oracle-timeline on a virtual clock, answers it (*.out.jsonl).
# Needs Java 17 and Debian's libslf4j-java libjackson2-databind-java libargparse4j-java,
# and a Kafka git dir (KAFKA_GIT_DIR, default /work/.mirror/apache+kafka/repo).
set -eu
root=$(cd "$(dirname "$0")/../../../.." && pwd)
oracle=${ORACLE_TIMELINE:-$root/../shared/tools/oracle-timeline}
kafka=${KAFKA_GIT_DIR:-/work/.mirror/apache+kafka/repo}
work=${TIMELINE_WORK:-/tmp/oracle-timeline}
if [ ! -d "$work/classes" ]; then
    "$oracle/build.sh" "$kafka"
fi
cd "$root"
cargo test -p rebalance-lab-core --test timeline_oracle -- --ignored write_oracle_scripts
for case in crates/core/tests/vectors/timeline/*.json; do
    "$oracle/run.sh" "$case" > "${case%.json}.out.jsonl"
    echo "$case: $(wc -l < "${case%.json}.out.jsonl") lines"
done
