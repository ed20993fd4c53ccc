/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link CircularBuffer} whose threads spin before they park ({@code wait=spin}) with importance
 * classes runs the {@link HandoffContractTest}; see {@link ClassedContractTest}.
 */
class ClassedSpinContractTest extends ClassedContractTest {

    @Override
    HandoffSpec specOfCapacity(int capacity) {
        return Handoffs.circular(capacity).spinning();
    }
}
