/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * The papers' hash table (monitor slots, the element's hash code as the key, the probe search)
 * with importance classes runs the {@link HandoffContractTest}; see {@link ClassedContractTest}.
 */
class ClassedHashTableMonitorContractTest extends ClassedContractTest {

    @Override
    HandoffSpec specOfCapacity(int capacity) {
        return Handoffs.hashTable(capacity).slots(ParallelHashTable.SlotForm.MONITOR)
                .keys(ParallelHashTable.KeySource.ELEMENT_HASH).search(ParallelHashTable.Search.PROBE);
    }
}
