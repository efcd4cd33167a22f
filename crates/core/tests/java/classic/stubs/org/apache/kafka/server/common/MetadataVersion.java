package org.apache.kafka.server.common;
// STUB: opaque; never reached by the oracle.
public enum MetadataVersion { LATEST_STUB }
