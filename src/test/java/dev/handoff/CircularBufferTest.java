/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the contract suite cannot ask of the lock core of {@link CircularBuffer}: a drain whose
 * target uses the buffer from inside its {@code add}, which the lock, being reentrant, lets in.
 */
class CircularBufferTest {

    @Test
    void aDrainTargetThatPollsTheBufferGetsEachElementOnce() {
        CircularBuffer<Integer> h = bufferOf(0, 1, 2, 3);
        List<Integer> polled = new ArrayList<>();
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                Integer p = h.poll();
                if (p != null) {
                    polled.add(p);
                }
                return super.add(e);
            }
        };
        assertEquals(2, h.drainTo(sink));
        assertEquals(List.of(0, 2), sink);
        assertEquals(List.of(1, 3), polled);
        assertEmpty(h);
    }

    @Test
    void aDrainTargetThatPollsAndThenThrowsLeavesTheRefusedElementAtTheHead() {
        CircularBuffer<Integer> h = bufferOf(0, 1, 2, 3);
        List<Integer> polled = new ArrayList<>();
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                polled.add(h.poll());
                if (size() == 1) {
                    throw new IllegalStateException("target full");
                }
                return super.add(e);
            }
        };
        assertThrows(IllegalStateException.class, () -> h.drainTo(sink));
        assertEquals(List.of(0), sink);
        assertEquals(List.of(1, 3), polled);
        assertEquals(List.of(2), List.of(h.toArray()), "the refused element, back at the head");
        assertEquals(3, h.remainingCapacity());
        assertEquals(2, h.poll());
        assertEmpty(h);
    }

    @Test
    void aDrainTargetThatPutsBackMovesOnlyWhatWasInsideWhenTheDrainStarted() {
        CircularBuffer<Integer> h = bufferOf(0, 1, 2);
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                assertTrue(h.offer(e + 10), "room: the drain freed a cell");
                return super.add(e);
            }
        };
        assertEquals(3, h.drainTo(sink));
        assertEquals(List.of(0, 1, 2), sink);
        assertEquals(List.of(10, 11, 12), List.of(h.toArray()));
    }

    @Test
    void aDrainTargetThatFillsTheBufferAndThenThrowsIsToldTheRefusedElementHadNoCell() {
        CircularBuffer<Integer> h = bufferOf(0, 1);
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                assertTrue(h.offer(e + 10), "the cell the drain freed");
                throw new IllegalStateException("target full");
            }
        };
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> h.drainTo(sink));
        assertEquals(1, refused.getSuppressed().length, "the exception says the element was dropped");
        assertEquals(List.of(1, 10), List.of(h.toArray()));
        assertEquals(0, h.remainingCapacity());
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
