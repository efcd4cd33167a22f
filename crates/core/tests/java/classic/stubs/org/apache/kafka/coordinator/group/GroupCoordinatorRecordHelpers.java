package org.apache.kafka.coordinator.group;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.classic.ClassicGroup;
import org.apache.kafka.server.common.MetadataVersion;
import java.util.Map;
// STUB: record builders; never reached by the oracle.
public class GroupCoordinatorRecordHelpers {
    public static CoordinatorRecord newGroupMetadataTombstoneRecord(String groupId) { throw new UnsupportedOperationException("records stub"); }
    public static CoordinatorRecord newGroupMetadataRecord(ClassicGroup g, Map<String, byte[]> a, MetadataVersion v) { throw new UnsupportedOperationException("records stub"); }
}
