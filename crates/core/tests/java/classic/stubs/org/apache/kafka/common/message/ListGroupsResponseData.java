package org.apache.kafka.common.message;
// STUB (generated class): only ListedGroup's chained setters ClassicGroup calls.
public class ListGroupsResponseData {
    public static class ListedGroup {
        public String groupId, protocolType, groupState, groupType;
        public ListedGroup setGroupId(String v) { groupId = v; return this; }
        public ListedGroup setProtocolType(String v) { protocolType = v; return this; }
        public ListedGroup setGroupState(String v) { groupState = v; return this; }
        public ListedGroup setGroupType(String v) { groupType = v; return this; }
    }
}
