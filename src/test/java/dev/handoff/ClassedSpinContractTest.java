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
    <E> ClassedHandoff.Kind<E> kindOfCapacity(int capacity) {
        return stats -> new CircularBuffer<>(capacity, stats, CircularBuffer.Waiting.SPIN_THEN_PARK);
    }
}
