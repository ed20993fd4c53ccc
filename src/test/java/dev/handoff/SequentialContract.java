/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The single-threaded contract: {@code Queue} and {@code Collection} conformance (guava-testlib),
 * null elements, {@code drainTo}, timeouts that never wait, weakly consistent iterators and
 * {@code toString}.
 */
interface SequentialContract extends ContractSubject {

    // ---- Queue and Collection conformance: guava-testlib ----

    @TestFactory
    default Stream<DynamicNode> guavaQueueConformance() {
        assumeTrue(holdsElements(), "guava's Queue suite needs elements to stay inside");
        Handoff<String> sample = handoffOf(1);
        return GuavaConformance.queueSuite(sample.getClass().getSimpleName(), sample.ordering(), this::handoffOf);
    }

    // ---- Null elements ----

    private static void assertNoNullInside(Handoff<Integer> h) {
        assertFalse(Arrays.asList(h.toArray()).contains(null), "no null inside");
    }

    @Test
    default void addRejectsNull() {
        Handoff<Integer> h = handoffOf(2);
        assertThrows(NullPointerException.class, () -> h.add(null));
        assertTrue(h.isEmpty());
    }

    @Test
    default void offerRejectsNull() {
        Handoff<Integer> h = handoffOf(2);
        assertThrows(NullPointerException.class, () -> h.offer(null));
        assertTrue(h.isEmpty());
        Handoff<Integer> full = fullHandoff();
        assertThrows(NullPointerException.class, () -> full.offer(null), "even when full");
        assertNoNullInside(full);
    }

    @Test
    default void timedOfferRejectsNull() {
        Handoff<Integer> h = handoffOf(2);
        assertThrows(NullPointerException.class, () -> h.offer(null, 0, SECONDS));
        assertTrue(h.isEmpty());
        Handoff<Integer> full = fullHandoff();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(NullPointerException.class,
                () -> full.offer(null, 1, HOURS)), "even when full: rejected before waiting");
        assertNoNullInside(full);
    }

    @Test
    default void putRejectsNull() {
        Handoff<Integer> h = handoffOf(2);
        assertThrows(NullPointerException.class, () -> h.put(null));
        assertTrue(h.isEmpty());
        Handoff<Integer> full = fullHandoff();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(NullPointerException.class,
                () -> full.put(null)), "even when full: rejected before waiting");
        assertNoNullInside(full);
    }

    @Test
    default void addAllRejectsNull() {
        Handoff<Integer> h = handoffOf(4);
        assertThrows(NullPointerException.class, () -> h.addAll(Collections.singletonList(null)));
        assertTrue(h.isEmpty());
        if (holdsElements()) { // an unbuffered kind refuses 1 before it reaches the null
            assertThrows(NullPointerException.class, () -> h.addAll(Arrays.asList(1, null, 2)));
            assertNoNullInside(h);
        }
        assertThrows(NullPointerException.class, () -> h.addAll(null), "a null collection");
    }

    @Test
    default void addAllOfItselfIsRejected() {
        Handoff<Integer> h = handoffOf(4);
        assertThrows(IllegalArgumentException.class, () -> h.addAll(h));
    }

    // ---- drainTo ----

    @Test
    default void drainToItselfIsRejected() {
        Handoff<Integer> h = handoffOf(4);
        if (holdsElements()) {
            h.add(1);
        }
        int size = h.size();
        assertThrows(IllegalArgumentException.class, () -> h.drainTo(h));
        assertThrows(IllegalArgumentException.class, () -> h.drainTo(h, 1));
        assertEquals(size, h.size(), "nothing moved");
        assertThrows(NullPointerException.class, () -> h.drainTo(null));
        assertThrows(NullPointerException.class, () -> h.drainTo(null, 1));
    }

    @Test
    default void drainToWithNonPositiveMaxMovesNothing() {
        Handoff<Integer> h = handoffOf(4);
        if (holdsElements()) {
            h.add(1);
            h.add(2);
        }
        int size = h.size();
        List<Integer> sink = new ArrayList<>();
        for (int max : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertEquals(0, h.drainTo(sink, max), "drainTo(c, " + max + ")");
        }
        assertTrue(sink.isEmpty());
        assertEquals(size, h.size());
    }

    @Test
    default void drainToMovesEveryElementOnce() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(10);
        for (int i = 0; i < 10; i++) {
            h.add(i);
        }
        List<Integer> sink = new ArrayList<>();
        assertEquals(3, h.drainTo(sink, 3));
        assertEquals(7, h.size());
        assertEquals(7, h.drainTo(sink));
        assertTrue(h.isEmpty());
        assertEquals(10, h.remainingCapacity());
        List<Integer> expected = List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        if (h.ordering() == Handoff.Ordering.FIFO) {
            assertEquals(expected, sink, "FIFO order");
        } else {
            assertEquals(expected, sink.stream().sorted().toList(), "every element once");
        }
    }

    @Test
    default void drainToLosesNothingWhenTheTargetThrows() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(6);
        for (int i = 0; i < 6; i++) {
            h.add(i);
        }
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                if (size() == 2) {
                    throw new IllegalStateException("target full");
                }
                return super.add(e);
            }
        };
        assertThrows(IllegalStateException.class, () -> h.drainTo(sink));
        assertEquals(2, sink.size(), "two moved before the target threw");
        assertEquals(4, h.size(), "the rest, the refused one included, still inside");
        assertEquals(2, h.remainingCapacity());
        List<Integer> all = new ArrayList<>(sink);
        for (Object e : h.toArray()) {
            all.add((Integer) e);
        }
        assertEquals(List.of(0, 1, 2, 3, 4, 5), all.stream().sorted().toList(), "each element in exactly one place");
    }

    @Test
    default void aDrainTargetThatPollsTheHandoffLosesAndDoublesNothing() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(4);
        for (int i = 0; i < 4; i++) {
            h.add(i);
        }
        List<Integer> polled = new ArrayList<>();
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                Integer p = h.poll(); // refused (IllegalStateException) or served: never e again
                if (p != null) {
                    polled.add(p);
                }
                return super.add(e);
            }
        };
        try {
            h.drainTo(sink);
        } catch (IllegalStateException refused) {
            // the kind refuses calls back from its drainTo target: what was moved stays moved
        }
        List<Integer> all = new ArrayList<>(sink);
        all.addAll(polled);
        for (Integer e; (e = h.poll()) != null; ) {
            all.add(e);
        }
        assertEquals(List.of(0, 1, 2, 3), all.stream().sorted().toList(), "each element in exactly one place");
    }

    @Test
    default void anEqualsThatPollsTheHandoffLosesAndDoublesNothing() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Object> h = handoffOf(4);
        for (int i = 0; i < 3; i++) {
            h.add(i);
        }
        List<Object> polled = new ArrayList<>();
        Object pollsWhenAsked = new Object() {
            @Override
            public boolean equals(Object other) {
                Object p = h.poll(); // refused (IllegalStateException) or served: never twice
                if (p != null) {
                    polled.add(p);
                }
                return false;
            }

            @Override
            public int hashCode() {
                return 1;
            }
        };
        try {
            assertFalse(h.remove(pollsWhenAsked));
        } catch (IllegalStateException refused) {
            // the kind refuses calls back from the equals it asks
        }
        List<Object> all = new ArrayList<>(polled);
        for (Object e; (e = h.poll()) != null; ) {
            all.add(e);
        }
        assertEquals(List.of(0, 1, 2), all.stream().map(Integer.class::cast).sorted().toList(),
                "each element in exactly one place");
    }

    @Test
    default void aDrainTargetThatRemovesFromTheHandoffIsRefusedOrServedAtOnce() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(4);
        for (int i = 0; i < 4; i++) {
            h.add(i);
        }
        List<Integer> removed = new ArrayList<>();
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                for (int i = 0; isEmpty() && removed.isEmpty() && i < 4; i++) {
                    if (i != e && h.remove(i)) { // refused (IllegalStateException) or served: never waits for the drain
                        removed.add(i);
                    }
                }
                return super.add(e);
            }
        };
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try {
                h.drainTo(sink);
            } catch (IllegalStateException refused) {
                // the kind refuses calls back from its drainTo target: what was moved stays moved
            }
        }, "a remove called from the drain's target waited (for the drain itself?)");
        List<Integer> all = new ArrayList<>(sink);
        all.addAll(removed);
        for (Integer e; (e = h.poll()) != null; ) {
            all.add(e);
        }
        assertEquals(List.of(0, 1, 2, 3), all.stream().sorted().toList(), "each element in exactly one place");
    }

    @Test
    default void anEqualsThatRemovesTheLastElementIsRefusedOrServedAtOnce() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Object> h = handoffOf(4);
        h.add(0);
        List<Object> removed = new ArrayList<>();
        Object removesWhenAsked = new Object() {
            @Override
            public boolean equals(Object other) {
                if (h.remove(other)) { // refused (IllegalStateException) or served: never waits for the outer remove
                    removed.add(other);
                }
                return false;
            }

            @Override
            public int hashCode() {
                return 1;
            }
        };
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try {
                assertFalse(h.remove(removesWhenAsked));
            } catch (IllegalStateException refused) {
                // the kind refuses calls back from the equals it asks
            }
        }, "a remove called from the equals of a remove waited (for the outer remove?)");
        List<Object> all = new ArrayList<>(removed);
        for (Object e; (e = h.poll()) != null; ) {
            all.add(e);
        }
        assertEquals(List.of(0), all, "the element in exactly one place");
    }

    // ---- Timeouts <= 0 never wait ----

    @Test
    default void nonPositiveTimeoutOfferDoesNotWait() {
        Handoff<Integer> h = fullHandoff();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertFalse(h.offer(99, 0, NANOSECONDS));
            assertFalse(h.offer(99, -1, SECONDS));
            assertFalse(h.offer(99, Long.MIN_VALUE, NANOSECONDS));
            assertFalse(h.offer(99, Long.MIN_VALUE, HOURS));
        }, "a timeout <= 0 waited");
        assertFalse(h.contains(99));
    }

    @Test
    default void nonPositiveTimeoutPollDoesNotWait() {
        Handoff<Integer> h = handoffOf(2);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertNull(h.poll(0, NANOSECONDS));
            assertNull(h.poll(-1, SECONDS));
            assertNull(h.poll(Long.MIN_VALUE, NANOSECONDS));
            assertNull(h.poll(Long.MIN_VALUE, HOURS));
        }, "a timeout <= 0 waited");
    }

    // ---- Iterators are weakly consistent ----

    @Test
    default void iteratorDoesNotThrowWhenTheHandoffChangesUnderIt() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(8);
        for (int i = 0; i < 8; i++) {
            h.add(i);
        }
        List<Integer> seen = new ArrayList<>();
        int next = 100;
        for (Integer e : h) { // modify while iterating: no ConcurrentModificationException
            seen.add(e);
            assertNotNull(h.poll());
            assertTrue(h.offer(next++));
        }
        assertEquals(8, h.size());
        assertEquals(seen.size(), seen.stream().distinct().count(), "no element returned twice");
        for (Integer e : seen) {
            assertTrue(e >= 0 && e < next, "returned only elements that were inserted");
        }
    }

    /** A value with equality by content, so that two distinct instances can be equal. */
    record Tag(String name) {
    }

    @Test
    default void iteratorRemoveRemovesTheElementItReturnedNotAnEqualOne() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Tag> h = handoffOf(4);
        Tag first = new Tag("same");
        Tag other = new Tag("other");
        Tag second = new Tag("same"); // equal to first, not the same instance
        h.add(first);
        h.add(other);
        h.add(second);
        Iterator<Tag> it = h.iterator();
        boolean removed = false;
        while (it.hasNext()) {
            if (it.next() == second) {
                it.remove();
                removed = true;
            }
        }
        assertTrue(removed, "the iterator returned every element inside");
        List<Tag> left = new ArrayList<>();
        h.drainTo(left);
        assertEquals(2, left.size(), "exactly one element removed: " + left);
        assertTrue(left.stream().anyMatch(e -> e == first),
                "remove() took the equal element the iterator had not returned: " + left);
        assertTrue(left.stream().noneMatch(e -> e == second), "the returned element is still inside");
    }

    /** A value whose equals throws, as a broken user class might. */
    record Touchy(int n) {
        @Override
        public boolean equals(Object o) {
            throw new UnsupportedOperationException("equals of a broken element class");
        }

        @Override
        public int hashCode() {
            return n;
        }
    }

    @Test
    default void removeWhoseEqualsThrowsLeavesEveryElementTakeable() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Object> h = handoffOf(4);
        h.add(1);
        h.add(2);
        assertThrows(UnsupportedOperationException.class, () -> h.remove(new Touchy(1)));
        assertEquals(2, h.size(), "nothing removed");
        Set<Object> taken = new HashSet<>();
        for (Object e; (e = h.poll()) != null; ) {
            taken.add(e);
        }
        assertEquals(Set.of(1, 2), taken, "every element can still be taken");
        assertTrue(h.offer(3) && h.offer(4) && h.offer(5) && h.offer(6), "and all the room is back");
    }

    // ---- toString ----

    @Test
    default void toStringOfEmptyIsBrackets() {
        Handoff<Integer> h = handoffOf(3);
        assertEquals("[]", h.toString(), "new");
        if (holdsElements()) {
            h.add(1);
            assertEquals("[1]", h.toString(), "one element");
            h.poll();
        }
        assertEquals("[]", h.toString(), "emptied");
        h.close();
        assertEquals("[]", h.toString(), "closed");
    }
}
