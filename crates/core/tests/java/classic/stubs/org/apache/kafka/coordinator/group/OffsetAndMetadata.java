package org.apache.kafka.coordinator.group;
import java.util.OptionalLong;
// STUB: only the fields OffsetExpirationConditionImpl and ClassicGroup read.
public class OffsetAndMetadata {
    public final long commitTimestampMs = 0L;
    public final OptionalLong expireTimestampMs = OptionalLong.empty();
}
