/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/** The contract suite on the papers' search and insert. */
class ParallelHashTableProbeContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return new ParallelHashTable<>(capacity, ParallelHashTable.SlotForm.CAS,
                ParallelHashTable.KeySource.RANDOM, ParallelHashTable.Search.PROBE, false);
    }

    @Override
    protected String kind() {
        return "pht";
    }
}
