package org.apache.kafka.coordinator.group.modern.consumer;
import java.util.Map;
// STUB: only what ClassicGroup.fromConsumerGroup calls; never reached by the oracle.
public class ConsumerGroup {
    public String groupId() { throw new UnsupportedOperationException(); }
    public int groupEpoch() { throw new UnsupportedOperationException(); }
    public Map<String, ConsumerGroupMember> members() { throw new UnsupportedOperationException(); }
    public Map<String, TargetAssignment> targetAssignment() { throw new UnsupportedOperationException(); }
    public static class TargetAssignment { public Object partitions() { return null; } }
}
