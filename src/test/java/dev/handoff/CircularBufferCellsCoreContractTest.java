/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.ELEMENTS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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

    /**
     * A put of a full buffer spins for a batch of room (a quarter of the capacity, up to 256
     * places), but must not wait for it: one take, and nothing after it, lets one blocked put
     * in, in either waiting mode, and the next put blocks again.
     */
    @ParameterizedTest
    @ValueSource(strings = {"circular:1024,core=cells", "circular:1024,core=cells,wait=spin", "circular:8,core=cells,wait=spin"})
    void onePlaceFreedLetsOneBlockedPutInThoughTheBatchIsLarger(String spec) throws Exception {
        Handoff<Integer> h = Handoffs.create(spec);
        int capacity = h.remainingCapacity();
        for (int i = 0; i < capacity; i++) {
            assertTrue(h.offer(i));
        }
        try (Workers workers = new Workers()) {
            for (int round = 0; round < 3; round++) {
                int element = capacity + round;
                Thread producer = workers.start("producer-" + round, () -> h.put(element));
                ContractSupport.awaitBlocked(producer); // spun for the batch, then parked: still full
                assertEquals(round, h.take());
                workers.awaitAll(List.of(producer), Workers.deadlineIn(10)); // one place, and the put went in
                workers.assertNoFailures();
                assertEquals(capacity, h.size());
                assertFalse(h.offer(-1));
            }
        }
    }
}
