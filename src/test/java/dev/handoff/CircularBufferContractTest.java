/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/** {@link CircularBuffer} runs the whole {@link HandoffContractTest}. */
class CircularBufferContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return new CircularBuffer<>(capacity);
    }

    @Override
    protected String kind() {
        return "circular";
    }
}
