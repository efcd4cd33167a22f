# Shared by tests/java/oracle.sh and scripts/bench-vs-java.sh (source it, then call
# kafka_compile): Kafka's assignors (apache/kafka 1eb7644) extracted from a git mirror into a
# temporary directory, unmodified, and compiled with javac beside small stubs for what their
# closure would otherwise drag in (the record classes, generated protocol messages, the
# metadata image, most of common.utils.Utils). No Kafka code is committed.
#
#   kafka_compile WORK KAFKA_GIT [OUR.java ...]
# extracts into WORK/src and WORK/stubs, compiles those and OUR.java files into WORK/classes
# and sets KAFKA_CP to the classpath to run them with. Needs JDK 11+ (javac) and git.

KAFKA_COMMIT=1eb7644349cb07139d6a3c1ad1986979647cac99

kafka_compile() {
WORK=$1
KAFKA_GIT=$2
shift 2
COMMIT=$KAFKA_COMMIT
SRC="$WORK/src"
STUB="$WORK/stubs"
mkdir -p "$SRC" "$STUB" "$WORK/classes"

C=clients/src/main/java/org/apache/kafka
GC=group-coordinator/src/main/java/org/apache/kafka/coordinator/group
API=group-coordinator/group-coordinator-api/src/main/java/org/apache/kafka/coordinator/group/api/assignor
git --git-dir="$KAFKA_GIT" cat-file -e "$COMMIT^{commit}"

# Kafka's sources, unmodified.
FILES="
$C/common/TopicPartition.java $C/common/TopicIdPartition.java $C/common/PartitionInfo.java
$C/common/Node.java $C/common/Cluster.java $C/common/ClusterResource.java $C/common/Uuid.java
$C/common/KafkaException.java $C/common/Configurable.java
$C/common/annotation/InterfaceStability.java $C/common/errors/ApiException.java
$C/common/utils/CollectionUtils.java $C/common/utils/ByteUtils.java $C/common/utils/CircularIterator.java
$C/clients/consumer/ConsumerPartitionAssignor.java $C/clients/consumer/ConsumerGroupMetadata.java
$C/clients/consumer/RangeAssignor.java $C/clients/consumer/RoundRobinAssignor.java
$C/clients/consumer/StickyAssignor.java $C/clients/consumer/CooperativeStickyAssignor.java
$C/clients/consumer/internals/AbstractStickyAssignor.java
$C/clients/consumer/internals/AbstractPartitionAssignor.java
$C/clients/consumer/internals/Utils.java
$GC/assignor/AssignorHelpers.java $GC/assignor/RangeSet.java
$GC/assignor/UniformAssignor.java $GC/assignor/UniformHomogeneousAssignmentBuilder.java
$GC/assignor/UniformHeterogeneousAssignmentBuilder.java $GC/assignor/RangeAssignor.java
$GC/modern/GroupSpecImpl.java $GC/modern/SubscribedTopicDescriberImpl.java
$GC/modern/TopicMetadata.java $GC/modern/MemberSubscriptionAndAssignmentImpl.java
$GC/modern/MemberAssignmentImpl.java $GC/modern/Assignment.java $GC/modern/TopicIds.java
server-common/src/main/java/org/apache/kafka/server/common/TopicIdPartition.java
"
for t in ArrayOf BoundField CompactArrayOf Field RawTaggedField Schema \
    SchemaException Struct TaggedFields Type; do
    FILES="$FILES $C/common/protocol/types/$t.java"
done
for d in $(git --git-dir="$KAFKA_GIT" ls-tree --name-only "$COMMIT" "$API/"); do
    FILES="$FILES $d"
done
git --git-dir="$KAFKA_GIT" archive "$COMMIT" $FILES | tar -x -C "$SRC"

stub() { # stub <package path>/<Class>: the class body comes on stdin
    mkdir -p "$STUB/$(dirname "$1")"
    cat > "$STUB/$1.java"
}

# common.utils.Utils: only the methods these classes call, their bodies copied verbatim.
{
    printf 'package org.apache.kafka.common.utils;\n'
    printf 'import org.apache.kafka.common.KafkaException;\nimport java.nio.ByteBuffer;\n'
    printf 'import java.nio.charset.StandardCharsets;\n'
    printf 'import java.util.ArrayList;\nimport java.util.Collection;\nimport java.util.Collections;\nimport java.util.List;\n'
    printf 'public final class Utils {\n'
    git --git-dir="$KAFKA_GIT" show "$COMMIT:$C/common/utils/Utils.java" | awk '
        /^    public static (String|byte\[\]|int|<T> T|<T> Class<\? extends T>|ClassLoader|<T extends Comparable<\? super T>> List<T>) (utf8|utf8Length|toArray|newInstance|loadClass|getKafkaClassLoader|getContextOrKafkaClassLoader|sorted)\(/ { on = 1 }
        on { print }
        on && /^    }$/ { on = 0 }'
    printf '}\n'
} | stub org/apache/kafka/common/utils/Utils

stub org/apache/kafka/common/protocol/MessageUtil <<'EOF'
package org.apache.kafka.common.protocol;
public final class MessageUtil {
    public static final long UNSIGNED_INT_MAX = 4294967295L;
    public static final int UNSIGNED_SHORT_MAX = 65535;
}
EOF
stub org/apache/kafka/common/requests/JoinGroupRequest <<'EOF'
package org.apache.kafka.common.requests;
public final class JoinGroupRequest {
    public static final String UNKNOWN_MEMBER_ID = "";
    public static final int UNKNOWN_GENERATION_ID = -1;
}
EOF
stub org/apache/kafka/common/record/BaseRecords <<'EOF'
package org.apache.kafka.common.record;
public interface BaseRecords { int sizeInBytes(); }
EOF
stub org/apache/kafka/common/record/MemoryRecords <<'EOF'
package org.apache.kafka.common.record;
import java.nio.ByteBuffer;
public abstract class MemoryRecords implements BaseRecords {
    public abstract ByteBuffer buffer();
    public static MemoryRecords readableRecords(ByteBuffer b) { throw new UnsupportedOperationException("records"); }
}
EOF
# The metadata image, as TopicIds' resolvers use it: a topic by name and by id.
stub org/apache/kafka/image/TopicImage <<'EOF'
package org.apache.kafka.image;
import org.apache.kafka.common.Uuid;
public final class TopicImage {
    private final String name; private final Uuid id;
    public TopicImage(String name, Uuid id) { this.name = name; this.id = id; }
    public String name() { return name; }
    public Uuid id() { return id; }
}
EOF
stub org/apache/kafka/image/TopicsImage <<'EOF'
package org.apache.kafka.image;
import org.apache.kafka.common.Uuid;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
public final class TopicsImage {
    public static final TopicsImage EMPTY = new TopicsImage(List.of());
    private final Map<String, TopicImage> byName = new HashMap<>();
    private final Map<Uuid, TopicImage> byId = new HashMap<>();
    public TopicsImage(List<TopicImage> topics) {
        for (TopicImage t : topics) { byName.put(t.name(), t); byId.put(t.id(), t); }
    }
    public TopicImage getTopic(String name) { return byName.get(name); }
    public TopicImage getTopic(Uuid id) { return byId.get(id); }
}
EOF
# Generated record classes: only the accessors Assignment and TopicMetadata's fromRecord read.
for r in ConsumerGroupPartitionMetadataValue ShareGroupPartitionMetadataValue; do
    stub "org/apache/kafka/coordinator/group/generated/$r" <<EOF
package org.apache.kafka.coordinator.group.generated;
public class $r {
    public static class TopicMetadata {
        public org.apache.kafka.common.Uuid topicId() { return null; }
        public String topicName() { return null; }
        public int numPartitions() { return 0; }
    }
}
EOF
done
for r in ConsumerGroupTargetAssignmentMemberValue ShareGroupTargetAssignmentMemberValue; do
    stub "org/apache/kafka/coordinator/group/generated/$r" <<EOF
package org.apache.kafka.coordinator.group.generated;
public class $r {
    public static class TopicPartition {
        public org.apache.kafka.common.Uuid topicId() { return null; }
        public java.util.List<Integer> partitions() { return null; }
    }
    public java.util.List<TopicPartition> topicPartitions() { return null; }
}
EOF
done

# slf4j: the machine's jar when there is one (with the no-op binding), else a no-op stub.
CP="$WORK/classes"
if [ -f /usr/share/java/slf4j-api.jar ]; then
    CP="$CP:/usr/share/java/slf4j-api.jar"
    [ -f /usr/share/java/slf4j-nop.jar ] && CP="$CP:/usr/share/java/slf4j-nop.jar"
else
    stub org/slf4j/Logger <<'EOF'
package org.slf4j;
public interface Logger {
    default boolean isDebugEnabled() { return false; }
    default boolean isTraceEnabled() { return false; }
    default void trace(String m, Object... a) {}
    default void debug(String m, Object... a) {}
    default void info(String m, Object... a) {}
    default void warn(String m, Object... a) {}
    default void error(String m, Object... a) {}
}
EOF
    stub org/slf4j/LoggerFactory <<'EOF'
package org.slf4j;
public final class LoggerFactory {
    public static Logger getLogger(Class<?> c) { return new Logger() {}; }
    public static Logger getLogger(String n) { return new Logger() {}; }
}
EOF
fi

find "$SRC" "$STUB" -name '*.java' > "$WORK/sources"
for f in "$@"; do echo "$f" >> "$WORK/sources"; done
javac -nowarn -proc:none -encoding UTF-8 -d "$WORK/classes" -cp "$CP" @"$WORK/sources" 2>&1 \
    | grep -v '^Note: ' >&2 || true
[ -f "$WORK/classes/org/apache/kafka/clients/consumer/StickyAssignor.class" ] || { echo "javac failed" >&2; exit 1; }
KAFKA_CP=$CP
}
