/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the contract suite cannot ask of the lock core of {@link CircularBuffer}: code the buffer
 * calls under its lock (a drainTo target's add, an equals) that uses the
 * buffer, which the lock, being reentrant, would let in.
 */
class CircularBufferTest {

    @Test
    void aDrainTargetThatPollsTheBufferIsRefusedAndNothingIsLostOrDoubled() {
        CircularBuffer<Integer> h = bufferOf(0, 1, 2, 3);
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                if (size() == 1) {
                    h.poll();
                }
                return super.add(e);
            }
        };
        assertThrows(IllegalStateException.class, () -> h.drainTo(sink));
        assertEquals(List.of(0), sink);
        assertEquals(List.of(1, 2, 3), List.of(h.toArray()), "the refused element still at the head");
        assertEquals(1, h.remainingCapacity());
    }

    @Test
    void aDrainTargetThatPutsIntoTheBufferIsRefused() {
        CircularBuffer<Integer> h = bufferOf(0, 1);
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                h.offer(e + 10);
                return super.add(e);
            }
        };
        assertThrows(IllegalStateException.class, () -> h.drainTo(sink));
        assertEquals(List.of(), sink);
        assertEquals(List.of(0, 1), List.of(h.toArray()));
    }

    @Test
    void anEqualsThatTakesFromTheBufferIsRefusedAndRemoveChangesNothing() {
        CircularBuffer<Object> h = new CircularBuffer<>(3);
        h.add(1);
        Object pollsWhenAsked = new Object() {
            @Override
            public boolean equals(Object other) {
                return h.poll() != null;
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        h.add(2);
        assertThrows(IllegalStateException.class, () -> h.remove(pollsWhenAsked));
        assertThrows(IllegalStateException.class, () -> h.contains(pollsWhenAsked));
        assertEquals(List.of(1, 2), List.of(h.toArray()));
    }

    @Test
    void aDrainIsUsableAgainAfterItsTargetWasRefused() {
        CircularBuffer<Integer> h = bufferOf(0, 1);
        assertThrows(IllegalStateException.class, () -> h.drainTo(new ArrayList<Integer>() {
            @Override
            public boolean add(Integer e) {
                h.poll();
                return super.add(e);
            }
        }));
        List<Integer> sink = new ArrayList<>();
        assertEquals(2, h.drainTo(sink));
        assertEquals(List.of(0, 1), sink);
        assertEmpty(h);
    }

    private static CircularBuffer<Integer> bufferOf(Integer... elements) {
        CircularBuffer<Integer> h = new CircularBuffer<>(elements.length);
        for (Integer e : elements) {
            h.add(e);
        }
        return h;
    }

    private static void assertEmpty(CircularBuffer<Integer> h) {
        assertEquals(0, h.size());
        assertEquals(h.capacity(), h.remainingCapacity());
        assertEquals(null, h.poll());
    }
}
