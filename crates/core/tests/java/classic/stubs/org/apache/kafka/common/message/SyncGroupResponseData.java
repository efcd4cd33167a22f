package org.apache.kafka.common.message;
// STUB (generated class): only the chained setters ClassicGroup calls.
public class SyncGroupResponseData {
    public short errorCode; public String protocolName, protocolType; public byte[] assignment;
    public SyncGroupResponseData setErrorCode(short v) { errorCode = v; return this; }
    public SyncGroupResponseData setProtocolName(String v) { protocolName = v; return this; }
    public SyncGroupResponseData setProtocolType(String v) { protocolType = v; return this; }
    public SyncGroupResponseData setAssignment(byte[] v) { assignment = v; return this; }
}
