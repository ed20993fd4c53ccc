/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The cells core's ring size and its capacity bound across the laps of a ring larger than the capacity. */
class CellsCoreTest {

    @Test
    void theRingHasTwiceTheCapacityInCellsUpToTheSlack() {
        assertEquals(2, CellsCore.cellsFor(1));
        assertEquals(2048, CellsCore.cellsFor(1024));
        assertEquals(2 * CellsCore.MAX_SLACK, CellsCore.cellsFor(CellsCore.MAX_SLACK));
        assertEquals((1 << 20) + CellsCore.MAX_SLACK, CellsCore.cellsFor(1 << 20));
        int largest = Integer.MAX_VALUE - 8;
        assertEquals(largest, CellsCore.cellsFor(largest), "no cell beyond the longest array");
        assertEquals(largest, CellsCore.cellsFor(largest - 5));
    }

    /**
     * The bound is the gate (take p - capacity done), not p's own cell (take p - 2 * capacity):
     * bounded by its own cell, a buffer would hold twice its capacity.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void aFullBufferRefusesInEveryLap(int capacity) throws InterruptedException {
        Handoff<Integer> h = Handoffs.create("circular:" + capacity + ",core=cells");
        int next = 0;
        int taken = 0;
        for (int round = 0; round < 5 * capacity + 3; round++) {
            while (h.remainingCapacity() > 0) {
                assertTrue(h.offer(next++));
            }
            assertFalse(h.offer(-1), "full after " + next + " offers");
            assertFalse(h.offer(-1, 0, TimeUnit.NANOSECONDS));
            assertEquals(capacity, h.size());
            for (int k = 0; k <= round % capacity; k++) {
                assertEquals(taken++, h.take());
            }
        }
    }
}
