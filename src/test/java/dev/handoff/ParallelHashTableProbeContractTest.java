/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/** The contract suite on the papers' search and insert. */
class ParallelHashTableProbeContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.hashTable(capacity).search(ParallelHashTable.Search.PROBE).build();
    }

    @Override
    protected String kind() {
        return "pht";
    }
}
