/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * The hash table whose consumers walk from their own cursors ({@code search=cursor}) with
 * importance classes runs the {@link HandoffContractTest}; see {@link ClassedContractTest}.
 */
class ClassedHashTableCursorContractTest extends ClassedContractTest {

    @Override
    <E> ClassedHandoff.Kind<E> kindOfCapacity(int capacity) {
        return stats -> new ParallelHashTable<>(capacity, ParallelHashTable.SlotForm.CAS,
                ParallelHashTable.KeySource.RANDOM, ParallelHashTable.Search.CURSOR, stats);
    }
}
