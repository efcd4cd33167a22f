package org.apache.kafka.common.message;
import java.util.List;
// STUB (generated class): only the chained setters ClassicGroup calls; values are kept but unused.
public class JoinGroupResponseData {
    public short errorCode; public String memberId, protocolName, protocolType, leader; public boolean skipAssignment;
    public List<JoinGroupResponseMember> members;
    public JoinGroupResponseData setErrorCode(short v) { errorCode = v; return this; }
    public JoinGroupResponseData setMemberId(String v) { memberId = v; return this; }
    public JoinGroupResponseData setProtocolName(String v) { protocolName = v; return this; }
    public JoinGroupResponseData setProtocolType(String v) { protocolType = v; return this; }
    public JoinGroupResponseData setLeader(String v) { leader = v; return this; }
    public JoinGroupResponseData setSkipAssignment(boolean v) { skipAssignment = v; return this; }
    public JoinGroupResponseData setMembers(List<JoinGroupResponseMember> v) { members = v; return this; }
    public static class JoinGroupResponseMember {
        public String memberId, groupInstanceId; public byte[] metadata;
        public JoinGroupResponseMember setMemberId(String v) { memberId = v; return this; }
        public JoinGroupResponseMember setGroupInstanceId(String v) { groupInstanceId = v; return this; }
        public JoinGroupResponseMember setMetadata(byte[] v) { metadata = v; return this; }
    }
}
