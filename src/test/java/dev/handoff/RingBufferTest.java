/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the contract suite cannot ask of {@code circular:N,core=ring} through its factory hooks:
 * the spec builds a {@link RingBuffer}, its capacity limit, and its statistics.
 */
class RingBufferTest {

    @Test
    void theSpecBuildsARingWithItsOptions() {
        Handoff<Integer> h = Handoffs.create("circular:7,core=ring,wait=spin,stats");
        RingBuffer<Integer> ring = assertInstanceOf(RingBuffer.class, h);
        assertEquals(7, ring.capacity());
        assertEquals(CircularBuffer.Core.RING, ring.core());
        assertEquals(CircularBuffer.Waiting.SPIN_THEN_PARK, ring.waiting());
        assertEquals(CircularBuffer.Core.LOCK, ((CircularBuffer<?>) Handoffs.create("circular:7")).core());
    }

    @Test
    void capacityBeyondTheRingsLimitIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Handoffs.create("circular:" + (RingBuffer.MAX_CAPACITY + 1) + ",core=ring"));
        assertEquals(true, e.getMessage().contains("RingBuffer.MAX_CAPACITY"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Handoffs.circular(RingBuffer.MAX_CAPACITY + 1).ring());
    }

    @Test
    void statisticsCountPutsTakesAndTheRemovalsOfTheInsideOperations() throws InterruptedException {
        Handoff<Integer> h = Handoffs.create("circular:4,core=ring,stats");
        for (int i = 0; i < 4; i++) {
            h.put(i);
        }
        h.take();
        h.remove(2);
        List<Integer> drained = new ArrayList<>();
        h.drainTo(drained, 1);
        assertEquals(List.of(1), drained);
        assertEquals(4, h.stats().puts());
        assertEquals(3, h.stats().takes());
        assertEquals(1, h.size());
    }
}
