package org.apache.kafka.clients.consumer.internals;
import java.nio.ByteBuffer;
// STUB: the real class needs the generated ConsumerProtocolSubscription/Assignment messages.
// PROTOCOL_TYPE is the real constant; the (de)serializers are never reached by the oracle
// (only computeSubscribedTopics / fromConsumerGroup call them) and throw.
public class ConsumerProtocol {
    public static final String PROTOCOL_TYPE = "consumer";
    public static short deserializeVersion(ByteBuffer b) { throw new UnsupportedOperationException("ConsumerProtocol stub"); }
    public static Subscription deserializeConsumerProtocolSubscription(ByteBuffer b, short v) { throw new UnsupportedOperationException("ConsumerProtocol stub"); }
    public static ByteBuffer serializeAssignment(Object assignment, short v) { throw new UnsupportedOperationException("ConsumerProtocol stub"); }
    public static final class Subscription { public java.util.List<String> topics() { return java.util.List.of(); } }
}
