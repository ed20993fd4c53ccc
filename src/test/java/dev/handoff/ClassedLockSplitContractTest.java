/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/** {@link LockSplitQueue} with importance classes runs the {@link HandoffContractTest}; see {@link ClassedContractTest}. */
class ClassedLockSplitContractTest extends ClassedContractTest {

    @Override
    HandoffSpec specOfCapacity(int capacity) {
        return Handoffs.lockSplit(capacity);
    }
}
