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
    HandoffSpec specOfCapacity(int capacity) {
        return Handoffs.hashTable(capacity).search(ParallelHashTable.Search.CURSOR);
    }
}
