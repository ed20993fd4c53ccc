/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link ParallelHashTable} (an unordered kind) with its default slots runs the whole
 * {@link HandoffContractTest}; {@link ParallelHashTableMonitorSlotsContractTest} runs the other form.
 */
class ParallelHashTableContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return new ParallelHashTable<>(capacity);
    }

    @Override
    protected String kind() {
        return "pht";
    }
}
