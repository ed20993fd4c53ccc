/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link CircularBuffer} with the cells core, positions claimed by fetch-and-add ({@code core=cells}), runs the whole
 * contract suite.
 */
class CircularBufferCellsCoreContractTest extends HandoffContractTest {
    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.circular(capacity).cells().build();
    }

    /** None: "circular:N" builds the lock core; HandoffSpecTest covers core=cells's spec. */
    @Override
    protected String kind() {
        return null;
    }
}
