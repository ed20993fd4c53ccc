/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link CircularBuffer} with the ring core that spins before parking ({@code core=ring,wait=spin})
 * runs the whole contract suite: the spin must lose no element and no wake-up.
 */
class CircularBufferRingCoreSpinContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.circular(capacity).ring().spinning().build();
    }

    /** None: "circular:N" builds the lock core; HandoffSpecTest covers core=ring's spec. */
    @Override
    protected String kind() {
        return null;
    }
}
