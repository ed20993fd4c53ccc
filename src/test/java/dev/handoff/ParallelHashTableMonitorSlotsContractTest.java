/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link ParallelHashTable} with the papers' slots ({@code slots=monitor}) runs the whole
 * {@link HandoffContractTest} too: the two slot forms must behave the same.
 */
class ParallelHashTableMonitorSlotsContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.hashTable(capacity).slots(ParallelHashTable.SlotForm.MONITOR).build();
    }

    @Override
    protected String kind() {
        return "pht";
    }
}
