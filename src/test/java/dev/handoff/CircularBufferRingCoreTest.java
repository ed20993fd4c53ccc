/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * What the contract suite cannot ask of {@code circular:N,core=ring} through its factory hooks:
 * the spec builds a {@link CircularBuffer} on the ring core, its capacity limit, its statistics,
 * and what a call back into the buffer from inside one of its own frozen operations gets.
 */
class CircularBufferRingCoreTest {

    /** A hang guard only: a call back that waits for its own thaw never returns. */
    private static final Duration HANG = Duration.ofSeconds(20);

    @Test
    void theSpecBuildsARingWithItsOptions() {
        Handoff<Integer> h = Handoffs.create("circular:7,core=ring,wait=spin,stats");
        CircularBuffer<?> ring = assertInstanceOf(CircularBuffer.class, h);
        assertEquals(7, ring.capacity());
        assertEquals(CircularBuffer.Core.RING, ring.core());
        assertEquals(CircularBuffer.Waiting.SPIN_THEN_PARK, ring.waiting());
        assertEquals(CircularBuffer.Core.LOCK, ((CircularBuffer<?>) Handoffs.create("circular:7")).core());
        assertEquals("circular:7,wait=spin,core=ring,stats", ring.spec().toString());
        CircularBuffer<Integer> built = Handoffs.circular(7).spinning().ring().withStats().build();
        assertEquals(ring.spec(), built.spec(), "the constructor and the spec build the same buffer");
    }

    @Test
    void capacityBeyondTheRingsLimitIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Handoffs.create("circular:" + (CircularBuffer.MAX_RING_CAPACITY + 1) + ",core=ring"));
        assertEquals(true, e.getMessage().contains("CircularBuffer.MAX_RING_CAPACITY"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Handoffs.circular(CircularBuffer.MAX_RING_CAPACITY + 1).ring());
        IllegalArgumentException direct = assertThrows(IllegalArgumentException.class,
                () -> Handoffs.circular(CircularBuffer.MAX_RING_CAPACITY + 1).ring().build());
        assertEquals(true, direct.getMessage().contains("CircularBuffer.MAX_RING_CAPACITY"), direct.getMessage());
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

    @Test
    void aTakeFromInsideItsOwnDrainTargetThrowsInsteadOfWaitingForever() {
        Handoff<Integer> h = filled(1, 2, 3);
        Collection<Integer> target = callingBack(e -> h.poll());
        assertThrows(IllegalStateException.class, () -> assertTimeoutPreemptively(HANG, () -> h.drainTo(target)));
        assertStillHolds(h, 1, 2, 3);
    }

    @Test
    void aPutFromInsideRemovesEqualsThrowsInsteadOfWaitingForever() {
        Handoff<Object> h = Handoffs.create("circular:4,core=ring");
        h.add(1);
        Object callsBack = new Object() {
            @Override
            public boolean equals(Object other) {
                return h.offer(2);
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        assertThrows(IllegalStateException.class, () -> assertTimeoutPreemptively(HANG, () -> h.remove(callsBack)));
        assertEquals(List.of(1), List.of(h.toArray()), "nothing removed, nothing added");
    }

    @Test
    void aLookFromInsideItsOwnDrainTargetThrowsInsteadOfEndingTheFreezeEarly() {
        Handoff<Integer> h = filled(1, 2, 3);
        Collection<Integer> target = callingBack(e -> h.contains(e));
        assertThrows(IllegalStateException.class, () -> assertTimeoutPreemptively(HANG, () -> h.drainTo(target)));
        assertStillHolds(h, 1, 2, 3);
    }

    private static Handoff<Integer> filled(Integer... elements) {
        Handoff<Integer> h = Handoffs.create("circular:4,core=ring");
        for (Integer e : elements) {
            h.add(e);
        }
        return h;
    }

    /** A drain target whose add calls back into the buffer first, then keeps the element. */
    private static Collection<Integer> callingBack(Consumer<Integer> callBack) {
        List<Integer> kept = new ArrayList<>();
        return new AbstractCollection<>() {
            @Override
            public boolean add(Integer e) {
                callBack.accept(e);
                return kept.add(e);
            }

            @Override
            public Iterator<Integer> iterator() {
                return kept.iterator();
            }

            @Override
            public int size() {
                return kept.size();
            }
        };
    }

    /** The refused call changed nothing, and the buffer still works. */
    private static void assertStillHolds(Handoff<Integer> h, Integer... elements) {
        assertEquals(List.of(elements), List.of(h.toArray()));
        assertEquals(true, h.offer(4));
        assertEquals(elements[0], h.poll());
    }

    @Test
    void aTakeFromInsideAClassedRemovesEqualsThrowsAndKeepsEveryElementTakeable() {
        Handoff<Object> h = Handoffs.create("circular:4,core=ring,classes=2", e -> 0);
        for (int e = 1; e <= 3; e++) {
            h.add(e);
        }
        Object callsBack = new Object() {
            @Override
            public boolean equals(Object other) {
                return h.poll() == null; // a take meets class 0 frozen by this very remove
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        assertThrows(IllegalStateException.class, () -> assertTimeoutPreemptively(HANG, () -> h.remove(callsBack)));
        assertEquals(3, h.size(), "the refused take handed its reservation back");
        List<Object> left = new ArrayList<>();
        for (Object e; (e = h.poll()) != null; ) {
            left.add(e);
        }
        assertEquals(List.of(1, 2, 3), left);
    }
}
