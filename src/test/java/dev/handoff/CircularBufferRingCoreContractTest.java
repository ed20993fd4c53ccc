/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link CircularBuffer} with the ring core, a lock-free ring ({@code core=ring}), runs the whole
 * contract suite.
 */
class CircularBufferRingCoreContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.circular(capacity).ring().build();
    }

    /** None: "circular:N" builds the lock core; HandoffSpecTest covers core=ring's spec. */
    @Override
    protected String kind() {
        return null;
    }
}
