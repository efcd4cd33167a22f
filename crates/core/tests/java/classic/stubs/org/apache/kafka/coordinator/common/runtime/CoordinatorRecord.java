package org.apache.kafka.coordinator.common.runtime;
// STUB: record type; never built by the oracle.
public class CoordinatorRecord { }
