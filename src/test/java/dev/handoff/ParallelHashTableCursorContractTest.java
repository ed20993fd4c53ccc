/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/** The contract suite on a hash table whose consumers walk from their own cursors in turn. */
class ParallelHashTableCursorContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.hashTable(capacity).search(ParallelHashTable.Search.CURSOR).build();
    }

    @Override
    protected String kind() {
        return "pht";
    }
}
