/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link CircularBuffer} that spins before parking ({@code wait=spin}) runs the whole
 * {@link HandoffContractTest} too: the two ways of waiting must behave the same.
 */
class CircularBufferSpinContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.circular(capacity).spinning().build();
    }

    @Override
    protected String kind() {
        return "circular";
    }
}
