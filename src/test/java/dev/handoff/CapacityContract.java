/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.DEADLINE_SECONDS;
import static dev.handoff.ContractSupport.SMALL;
import static dev.handoff.ContractSupport.fill;
import static dev.handoff.ContractSupport.startChurn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Capacity and size: a buffered kind holds exactly the capacity asked for, and
 * {@code size() + remainingCapacity()} stays within it, also while others change the handoff.
 */
interface CapacityContract extends ContractSubject {

    @Test
    default void capacityIsExactlyAsRequested() {
        for (int capacity : new int[] {1, 2, 3, 7, 100, 1000}) {
            Handoff<Integer> h = handoffOf(capacity);
            assertEquals(capacity, h.capacity(), "capacity()");
            if (holdsElements()) {
                assertEquals(capacity, h.remainingCapacity(), "remainingCapacity() when empty");
                assertEquals(capacity, fill(h).size(), "elements accepted before full");
                assertEquals(capacity, h.size(), "size() when full");
                assertEquals(0, h.remainingCapacity(), "remainingCapacity() when full");
            }
        }
    }

    @Test
    default void capacityZeroOrNegativeIsRejected() {
        for (int capacity : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertThrows(IllegalArgumentException.class, () -> handoffOf(capacity), "capacity " + capacity);
        }
    }

    @Test
    default void sizePlusRemainingCapacityIsCapacityAtEveryStep() {
        assumeTrue(holdsElements(), "an unbuffered kind defines its own remainingCapacity()");
        Handoff<Integer> h = handoffOf(5);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 5; i++) {
                assertTrue(h.offer(i));
                assertEquals(5, h.size() + h.remainingCapacity(), "after an offer");
            }
            assertFalse(h.offer(99), "offer to a full handoff");
            assertEquals(5, h.size() + h.remainingCapacity(), "after a refused offer");
            for (int i = 0; i < 5; i++) {
                assertNotNull(h.poll());
                assertEquals(5, h.size() + h.remainingCapacity(), "after a poll");
            }
        }
    }

    @Test
    default void sizeAndRemainingCapacityStayWithinBoundsWhileHammered() throws Exception {
        Handoff<Integer> h = handoffOf(SMALL);
        int reads = 200_000;
        AtomicInteger changes = new AtomicInteger();
        try (Workers workers = new Workers()) {
            List<Thread> all = new ArrayList<>(startChurn(workers, h, 2, changes));
            all.add(workers.start("reader", () -> {
                for (int i = 0; i < reads && !workers.stop.get(); i++) {
                    int size = h.size();
                    int remaining = h.remainingCapacity();
                    if (size < 0 || size > SMALL) {
                        workers.fail("size() = " + size + " outside [0, " + SMALL + "]");
                    }
                    if (remaining < 0 || remaining > SMALL) {
                        workers.fail("remainingCapacity() = " + remaining + " outside [0, " + SMALL + "]");
                    }
                }
                workers.stop.set(true); // the hammers stop when the reader is done
            }));
            workers.awaitAll(all, Workers.deadlineIn(DEADLINE_SECONDS));
            workers.assertNoFailures();
        }
        if (holdsElements()) {
            assertTrue(changes.get() > 0, "the hammers changed the handoff while it was read");
        }
    }
}
