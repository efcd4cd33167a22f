#!/bin/sh
# Remakes tests/vectors/timeline-consumer/: the simulator writes each case's ConsumerGroupHeartbeat
# requests as a script (the ignored test write_consumer_oracle_scripts), and Kafka's own
# GroupMetadataManager at 1eb7644 answers it on a virtual clock (java/consumer/, built on
# ../shared/tools/oracle-timeline's harness), into *.out.jsonl.
# Needs what oracle-timeline needs (Java 17, Debian's libslf4j-java libjackson2-databind-java
# libargparse4j-java) and a Kafka git dir (KAFKA_GIT_DIR, default /work/.mirror/apache+kafka/repo).
set -eu
root=$(cd "$(dirname "$0")/../../../.." && pwd)
oracle=${ORACLE_TIMELINE:-$root/../shared/tools/oracle-timeline}
kafka=${KAFKA_GIT_DIR:-/work/.mirror/apache+kafka/repo}
work=${TIMELINE_WORK:-/tmp/oracle-timeline}
if [ ! -d "$work/classes" ]; then
    "$oracle/build.sh" "$kafka"
fi
S=$work/src
sourcepath=$S/clients/src/main/java:$S/clients/src/test/java:$S/server-common/src/main/java
sourcepath=$sourcepath:$S/coordinator-common/src/main/java:$S/metadata/src/main/java:$S/raft/src/main/java
sourcepath=$sourcepath:$S/group-coordinator/src/main/java:$S/group-coordinator/group-coordinator-api/src/main/java
sourcepath=$sourcepath:$work/generated:$oracle/stubs:$oracle/harness
out=$work/consumer-classes
rm -rf "$out" && mkdir -p "$out"
javac -nowarn -encoding UTF-8 --release 17 -implicit:class -cp "$(cat "$work/CLASSPATH")" \
    -sourcepath "$sourcepath" -d "$out" \
    "$root/crates/core/tests/java/consumer/timelineoracle/ConsumerOracle.java"
cd "$root"
if [ "${1:-}" != "--no-scripts" ]; then
    cargo test -p rebalance-lab-core --test timeline_consumer_oracle -- --ignored write_consumer_oracle_scripts
fi
for case in crates/core/tests/vectors/timeline-consumer/*.json; do
    java -cp "$out:$(cat "$work/CLASSPATH")" timelineoracle.ConsumerOracle "$case" > "${case%.json}.out.jsonl"
    echo "$case: $(wc -l < "${case%.json}.out.jsonl") lines"
done
