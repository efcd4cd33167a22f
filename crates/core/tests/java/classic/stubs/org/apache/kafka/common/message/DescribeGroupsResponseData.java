package org.apache.kafka.common.message;
// STUB (generated class): only DescribedGroupMember's chained setters ClassicGroupMember calls.
public class DescribeGroupsResponseData {
    public static class DescribedGroupMember {
        public String memberId, groupInstanceId, clientId, clientHost; public byte[] memberAssignment, memberMetadata;
        public DescribedGroupMember setMemberId(String v) { memberId = v; return this; }
        public DescribedGroupMember setGroupInstanceId(String v) { groupInstanceId = v; return this; }
        public DescribedGroupMember setClientId(String v) { clientId = v; return this; }
        public DescribedGroupMember setClientHost(String v) { clientHost = v; return this; }
        public DescribedGroupMember setMemberAssignment(byte[] v) { memberAssignment = v; return this; }
        public DescribedGroupMember setMemberMetadata(byte[] v) { memberMetadata = v; return this; }
    }
}
