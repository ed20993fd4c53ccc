/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link LockSplitQueue} with the {@code sojourn} option, counting ({@code lock-split:N,stats,sojourn}: the kind inside a
 * {@link SojournHandoff}) runs the whole contract suite: every element still in exactly one place,
 * every way out handing back the element and never its stamp.
 */
class LockSplitQueueSojournContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.create("lock-split:" + capacity + ",stats,sojourn");
    }

    /** None: "lock-split:N" builds the kind alone; SojournHandoffTest covers the option's spec. */
    @Override
    protected String kind() {
        return null;
    }
}
