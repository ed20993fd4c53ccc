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
    <E> ClassedHandoff.Kind<E> kindOfCapacity(int capacity) {
        return stats -> new ParallelHashTable<>(capacity, ParallelHashTable.SlotForm.MONITOR,
                ParallelHashTable.KeySource.ELEMENT_HASH, ParallelHashTable.Search.PROBE, stats);
    }
}
