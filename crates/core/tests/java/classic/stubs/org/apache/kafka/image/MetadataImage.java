package org.apache.kafka.image;
// STUB: only topics(); never reached by the oracle.
public class MetadataImage { public TopicsImage topics() { throw new UnsupportedOperationException(); } }
