package org.apache.kafka.image;
// STUB: opaque; never reached by the oracle.
public class TopicsImage { }
