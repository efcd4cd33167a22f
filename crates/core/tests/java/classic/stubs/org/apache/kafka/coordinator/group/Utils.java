package org.apache.kafka.coordinator.group;
import org.apache.kafka.image.TopicsImage;
// STUB: only the static method ClassicGroup imports; never reached by the oracle.
public class Utils {
    public static Object toConsumerProtocolAssignment(Object partitions, TopicsImage topics) { throw new UnsupportedOperationException("Utils stub"); }
}
