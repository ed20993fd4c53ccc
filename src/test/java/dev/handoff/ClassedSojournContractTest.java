/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * A {@link LockSplitQueue} with importance classes and the {@code sojourn} option
 * ({@code lock-split:N,classes=3,fair=2,sojourn}: a {@link SojournHandoff} over a
 * {@link ClassedHandoff} whose classifier sees the element, not its stamp) runs the
 * {@link ClassedContractTest}, with its skips and their reasons.
 */
class ClassedSojournContractTest extends ClassedContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.create("lock-split:" + capacity + ",classes=" + CLASSES + ",fair=" + FAIR + ",sojourn", SPREAD);
    }

    /** Unused: {@link #newHandoff} builds the whole handoff from its spec. */
    @Override
    HandoffSpec specOfCapacity(int capacity) {
        return Handoffs.lockSplit(capacity);
    }
}
