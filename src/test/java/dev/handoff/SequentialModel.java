/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * What a handoff should hold after a sequence of single-threaded calls: the elements, and which
 * of them may leave next. The stateful property in {@link HandoffContractTest} runs the same calls
 * on a handoff and on its model and compares them after every step.
 *
 * <p>{@link #fifo()} is an {@link ArrayDeque}: the next element out is the oldest one.
 * {@link #unordered()} is a multiset: any element inside may leave next, but only one that is
 * inside, and only as often as it was put in.
 */
abstract class SequentialModel {

    /** A model for {@link Handoff.Ordering#FIFO} kinds. */
    static SequentialModel fifo() {
        return new Fifo();
    }

    /** A model for {@link Handoff.Ordering#UNORDERED} kinds. */
    static SequentialModel unordered() {
        return new Unordered();
    }

    /** The model that matches this ordering. */
    static SequentialModel of(Handoff.Ordering ordering) {
        return ordering == Handoff.Ordering.FIFO ? fifo() : unordered();
    }

    abstract int size();

    abstract void add(Integer e);

    /** Checks that {@code taken} may leave next (non-null, inside), and removes it. */
    abstract void taken(Integer taken);

    /** Checks what peek() returned: null exactly when empty, else an element that may leave next. */
    abstract void peeked(Integer peeked);

    /** Removes one element equal to e, as remove(Object) does; returns whether there was one. */
    abstract boolean remove(Integer e);

    abstract boolean contains(Integer e);

    abstract void clear();

    /** Checks that the handoff's toArray() holds exactly these elements (in order, for FIFO). */
    abstract void sameElements(Object[] actual);

    /** First in, first out. */
    private static final class Fifo extends SequentialModel {
        private final ArrayDeque<Integer> elements = new ArrayDeque<>();

        @Override
        int size() {
            return elements.size();
        }

        @Override
        void add(Integer e) {
            elements.addLast(e);
        }

        @Override
        void taken(Integer taken) {
            assertEquals(elements.pollFirst(), taken, "element taken (FIFO: the oldest)");
        }

        @Override
        void peeked(Integer peeked) {
            assertEquals(elements.peekFirst(), peeked, "peek() (FIFO: the oldest)");
        }

        @Override
        boolean remove(Integer e) {
            return elements.removeFirstOccurrence(e);
        }

        @Override
        boolean contains(Integer e) {
            return elements.contains(e);
        }

        @Override
        void clear() {
            elements.clear();
        }

        @Override
        void sameElements(Object[] actual) {
            assertArrayEquals(elements.toArray(), actual, "toArray() (FIFO order)");
        }

        @Override
        public String toString() {
            return "FIFO model " + elements;
        }
    }

    /** A multiset: element -> how many times it is inside. */
    private static final class Unordered extends SequentialModel {
        private final Map<Integer, Integer> counts = new HashMap<>();
        private int size;

        @Override
        int size() {
            return size;
        }

        @Override
        void add(Integer e) {
            counts.merge(e, 1, Integer::sum);
            size++;
        }

        @Override
        void taken(Integer taken) {
            assertNotNull(taken, "element taken");
            assertTrue(contains(taken), () -> "element taken " + taken + " was inside " + this);
            remove(taken);
        }

        @Override
        void peeked(Integer peeked) {
            if (size == 0) {
                assertNull(peeked, "peek() of an empty handoff");
            } else {
                assertNotNull(peeked, "peek() of a non-empty handoff");
                assertTrue(contains(peeked), () -> "peek() " + peeked + " is inside " + this);
            }
        }

        @Override
        boolean remove(Integer e) {
            Integer n = counts.get(e);
            if (n == null) {
                return false;
            }
            if (n == 1) {
                counts.remove(e);
            } else {
                counts.put(e, n - 1);
            }
            size--;
            return true;
        }

        @Override
        boolean contains(Integer e) {
            return counts.containsKey(e);
        }

        @Override
        void clear() {
            counts.clear();
            size = 0;
        }

        @Override
        void sameElements(Object[] actual) {
            Map<Object, Integer> actualCounts = new HashMap<>();
            for (Object e : actual) {
                actualCounts.merge(e, 1, Integer::sum);
            }
            assertEquals(counts, actualCounts, "toArray() as a multiset");
        }

        @Override
        public String toString() {
            return "multiset model " + counts;
        }
    }
}
