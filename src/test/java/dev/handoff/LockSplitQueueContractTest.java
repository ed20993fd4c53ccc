/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/** {@link LockSplitQueue} runs the whole {@link HandoffContractTest}. */
class LockSplitQueueContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return new LockSplitQueue<>(capacity);
    }

    @Override
    protected String kind() {
        return "lock-split";
    }
}
