/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.ELEMENTS;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link CircularBuffer} with the cells core, positions claimed by fetch-and-add ({@code core=cells}), runs the whole
 * contract suite.
 */
class CircularBufferCellsCoreContractTest extends HandoffContractTest {
    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.circular(capacity).cells().build();
    }

    /** None: "circular:N" builds the lock core; HandoffSpecTest covers core=cells's spec. */
    @Override
    protected String kind() {
        return null;
    }

    /**
     * The exactly-once run over rings whose cells are spread (capacity 33: 96 cells in 3 columns,
     * a lap every 96 elements; 1000: 2016 cells): the suite's own stress runs use a capacity of
     * 8, whose 16 cells are not spread.
     */
    @ParameterizedTest
    @ValueSource(ints = {33, 1000})
    void aSpreadRingTakesEveryElementExactlyOnceAndInOrder(int capacity) throws Exception {
        StressContract.exactlyOnce(newHandoff(capacity), 3, 3, ELEMENTS, false);
    }
}
