package org.apache.kafka.coordinator.group.modern.consumer;
import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocolCollection;
import java.util.Optional;
// STUB: only what ClassicGroup.fromConsumerGroup calls; never reached by the oracle.
public class ConsumerGroupMember {
    public String memberId() { throw new UnsupportedOperationException(); }
    public String instanceId() { throw new UnsupportedOperationException(); }
    public String clientId() { throw new UnsupportedOperationException(); }
    public String clientHost() { throw new UnsupportedOperationException(); }
    public int rebalanceTimeoutMs() { throw new UnsupportedOperationException(); }
    public Optional<Integer> classicProtocolSessionTimeout() { throw new UnsupportedOperationException(); }
    public JoinGroupRequestProtocolCollection supportedJoinGroupRequestProtocols() { throw new UnsupportedOperationException(); }
}
