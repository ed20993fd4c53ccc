/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link CircularBuffer} with the cells core that spins before parking ({@code core=cells,wait=spin})
 * runs the whole contract suite: the spin must lose no element and no wake-up.
 */
class CircularBufferCellsCoreSpinContractTest extends HandoffContractTest {
    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.circular(capacity).cells().spinning().build();
    }

    /** None: "circular:N" builds the lock core; HandoffSpecTest covers core=cells's spec. */
    @Override
    protected String kind() {
        return null;
    }
}
