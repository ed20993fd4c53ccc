/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/** {@link CircularBuffer} with the cells core ({@code core=cells}) and importance classes runs the {@link HandoffContractTest}; see {@link ClassedContractTest}. */
class ClassedCellsContractTest extends ClassedContractTest {

    @Override
    HandoffSpec specOfCapacity(int capacity) {
        return Handoffs.circular(capacity).cells();
    }
}
