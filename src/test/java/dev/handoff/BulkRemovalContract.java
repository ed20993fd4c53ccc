/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.DEADLINE_SECONDS;
import static dev.handoff.ContractSupport.SMALL;
import static dev.handoff.ContractSupport.fill;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bulk removal ({@code removeIf}, {@code removeAll}, {@code retainAll}): an element has one
 * owner, and a removal removes exactly what its test accepts and counts only what it removed,
 * also while a consumer takes.
 */
interface BulkRemovalContract extends ContractSubject {

    /** The three bulk removals, each driven by a test of which elements should go. */
    enum BulkRemoval {
        REMOVE_IF, REMOVE_ALL, RETAIN_ALL;

        /** Runs this removal on h so that the elements {@code goes} accepts are removed. */
        boolean run(Handoff<Integer> h, Predicate<Integer> goes) {
            return switch (this) {
                case REMOVE_IF -> h.removeIf(goes);
                case REMOVE_ALL -> h.removeAll(new Asking(goes));
                case RETAIN_ALL -> h.retainAll(new Asking(goes.negate()));
            };
        }
    }

    /**
     * A collection whose {@code contains} asks a predicate, so that a test can act while
     * {@code removeAll} or {@code retainAll} looks at an element. Nothing else is needed of it.
     */
    final class Asking extends AbstractCollection<Integer> {
        private final Predicate<Integer> contains;

        Asking(Predicate<Integer> contains) {
            this.contains = contains;
        }

        @Override
        public boolean contains(Object o) {
            return contains.test((Integer) o);
        }

        @Override
        public Iterator<Integer> iterator() {
            throw new UnsupportedOperationException("only contains() is asked");
        }

        @Override
        public int size() {
            throw new UnsupportedOperationException("only contains() is asked");
        }
    }

    /**
     * Takes one element in another thread and returns it, failing if that thread cannot finish:
     * called from inside a bulk removal's test, which must not hold the handoff's lock meanwhile.
     */
    private static Integer takeInAnotherThread(Handoff<Integer> h) {
        FutureTask<Integer> take = new FutureTask<>(() -> h.poll(10, SECONDS));
        Thread.ofPlatform().name("other-consumer").daemon().start(take);
        try {
            return take.get(20, SECONDS);
        } catch (Exception e) {
            throw new AssertionError("another consumer could not take while a bulk removal tested", e);
        }
    }

    @ParameterizedTest
    @EnumSource(BulkRemoval.class)
    default void bulkRemovalDoesNotCountAnElementAnotherConsumerTook(BulkRemoval removal) {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(4);
        h.add(1);
        AtomicReference<Integer> takenMeanwhile = new AtomicReference<>();
        boolean reported = removal.run(h, e -> {
            if (takenMeanwhile.get() == null) {
                takenMeanwhile.set(takeInAnotherThread(h)); // the only element: this one
            }
            return true;
        });
        assertEquals(1, takenMeanwhile.get(), "the other consumer received the element");
        assertFalse(reported, removal + " reported a removal although the other consumer had the element");
        assertTrue(h.isEmpty());
    }

    @ParameterizedTest
    @EnumSource(BulkRemoval.class)
    default void bulkRemovalCountsTheElementsItDidRemove(BulkRemoval removal) {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(4);
        h.add(1);
        h.add(2);
        AtomicReference<Integer> takenMeanwhile = new AtomicReference<>();
        boolean reported = removal.run(h, e -> {
            if (takenMeanwhile.get() == null) {
                takenMeanwhile.set(takeInAnotherThread(h)); // one of the two, whichever the kind gives
            }
            return true;
        });
        assertNotNull(takenMeanwhile.get(), "the other consumer received an element");
        assertTrue(reported, removal + " removed the other element and must say so");
        assertTrue(h.isEmpty(), "each element went to exactly one owner: " + Arrays.toString(h.toArray()));
        assertEquals(h.capacity(), h.remainingCapacity(), "all the room is back");
    }

    @Test
    default void bulkRemovalRemovesExactlyWhatItsTestAccepts() {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(8);
        Set<Integer> inside = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            h.add(i);
            inside.add(i);
        }
        for (int i = 0; i < 4; i++) {
            assertTrue(inside.remove(h.poll()));
        }
        for (int i = 8; i < 12; i++) {
            h.add(i); // a circular buffer now wraps around its end
            inside.add(i);
        }
        assertElementsInOrder(h, inside);
        assertEquals(inside.removeIf(e -> e % 3 == 0), h.removeIf(e -> e % 3 == 0));
        assertElementsInOrder(h, inside);
        assertFalse(h.removeIf(e -> e % 3 == 0), "nothing left to remove");
        List<Integer> some = List.of(4, 5, 11, 99);
        assertEquals(inside.removeAll(some), h.removeAll(some));
        assertElementsInOrder(h, inside);
        assertFalse(h.removeAll(some));
        List<Integer> others = List.of(7, 10, 98);
        assertEquals(inside.retainAll(others), h.retainAll(others));
        assertElementsInOrder(h, inside);
        assertFalse(h.retainAll(others));
        assertEquals(h.capacity() - inside.size(), h.remainingCapacity());
        List<Integer> expected = new ArrayList<>(inside.stream().sorted().toList());
        for (int i = 20; h.remainingCapacity() > 0; i++) {
            assertTrue(h.offer(i), "room freed by the removals is usable");
            expected.add(i);
        }
        assertFalse(h.offer(99));
        List<Integer> all = new ArrayList<>();
        h.drainTo(all);
        assertEquals(expected, h.ordering() == Handoff.Ordering.FIFO ? all : all.stream().sorted().toList());
    }

    /** Checks that h holds exactly the given elements, in ascending order if it is FIFO. */
    private static void assertElementsInOrder(Handoff<Integer> h, Set<Integer> expected) {
        List<Integer> inside = new ArrayList<>();
        for (Object e : h.toArray()) {
            inside.add((Integer) e);
        }
        List<Integer> sorted = expected.stream().sorted().toList();
        assertEquals(sorted, h.ordering() == Handoff.Ordering.FIFO ? inside : inside.stream().sorted().toList());
        assertEquals(expected.size(), h.size());
    }

    @ParameterizedTest
    @EnumSource(BulkRemoval.class)
    default void bulkRemovalWhoseTestThrowsRemovesNothing(BulkRemoval removal) {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(4);
        h.add(1);
        h.add(2);
        h.add(3);
        AtomicInteger asked = new AtomicInteger();
        assertThrows(UnsupportedOperationException.class, () -> removal.run(h, e -> {
            if (asked.incrementAndGet() == 2) {
                throw new UnsupportedOperationException("a broken test");
            }
            return true;
        }));
        assertEquals(3, h.size(), "nothing removed");
        Set<Integer> taken = new HashSet<>();
        for (Integer e; (e = h.poll()) != null; ) {
            taken.add(e);
        }
        assertEquals(Set.of(1, 2, 3), taken, "every element can still be taken");
        assertEquals(h.capacity(), h.remainingCapacity(), "and all the room is back");
    }

    @Test
    default void bulkRemovalRejectsNull() {
        Handoff<Integer> h = handoffOf(2);
        assertThrows(NullPointerException.class, () -> h.removeIf(null));
        assertThrows(NullPointerException.class, () -> h.removeAll(null));
        assertThrows(NullPointerException.class, () -> h.retainAll(null));
    }

    /**
     * Rounds of: fill the handoff, then a consumer polls while this thread runs a bulk removal
     * whose test dawdles, so that the consumer takes elements the removal has accepted. After
     * each round every element was taken, removed or left inside exactly once, only accepted
     * elements were removed, and the removal returned {@code true} exactly when it removed one.
     */
    @Test
    default void bulkRemovalReportsExactlyWhatItRemovedWhileAConsumerTakes() throws Exception {
        assumeTrue(holdsElements(), "needs elements inside");
        int rounds = 300;
        Handoff<Integer> h = handoffOf(SMALL);
        AtomicIntegerArray owners = new AtomicIntegerArray(rounds * SMALL); // taken or left: one each
        try (Workers workers = new Workers()) {
            for (int round = 0; round < rounds; round++) {
                int first = round * SMALL;
                for (int e = first; e < first + SMALL; e++) {
                    h.add(e);
                }
                AtomicBoolean go = new AtomicBoolean();
                AtomicBoolean roundOver = new AtomicBoolean();
                Thread consumer = workers.start("consumer-" + round, () -> {
                    while (!go.get() && !roundOver.get()) {
                        Thread.yield();
                    }
                    while (!roundOver.get()) {
                        Integer e = h.poll();
                        if (e != null && owners.incrementAndGet(e) != 1) {
                            workers.fail("element " + e + " taken twice");
                        }
                    }
                });
                Set<Integer> accepted = new HashSet<>();
                BulkRemoval removal = BulkRemoval.values()[round % BulkRemoval.values().length];
                boolean reported = removal.run(h, e -> {
                    go.set(true);
                    Thread.yield(); // the consumer takes meanwhile
                    boolean goes = e % 2 == 1;
                    if (goes) {
                        accepted.add(e);
                    }
                    return goes;
                });
                roundOver.set(true);
                workers.awaitAll(List.of(consumer), Workers.deadlineIn(DEADLINE_SECONDS));
                List<Integer> left = new ArrayList<>();
                h.drainTo(left);
                for (Integer e : left) {
                    if (owners.incrementAndGet(e) != 1) {
                        fail("element " + e + " both taken and left inside");
                    }
                }
                int removed = 0;
                for (int e = first; e < first + SMALL; e++) {
                    if (owners.get(e) == 0) {
                        removed++;
                        assertTrue(accepted.contains(e), removal + " removed " + e + ", which its test did not accept");
                    }
                }
                assertEquals(removed > 0, reported, "round " + round + ": " + removal + " returned " + reported
                        + " having removed " + removed + " element(s)");
            }
            workers.assertNoFailures();
        }
    }
}
