/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.DEADLINE_SECONDS;
import static dev.handoff.ContractSupport.ELEMENTS;
import static dev.handoff.ContractSupport.SMALL;
import static dev.handoff.ContractSupport.assertEachTakenOnce;
import static dev.handoff.ContractSupport.awaitBlocked;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The batch takes, {@link Handoff#take(java.util.Collection, int)} and
 * {@link Handoff#poll(java.util.Collection, int, long, java.util.concurrent.TimeUnit)}: their
 * argument checks (those of {@code drainTo}), waiting, interrupts, timeouts and close as
 * {@code take()} and the timed {@code poll} have them, each element in exactly one place when the
 * target collection throws, and every element taken exactly once by many batch consumers.
 *
 * <p>The tests put at most {@code capacity} elements into a handoff built for {@code capacity},
 * so that they also hold where the capacity is per importance class.
 */
interface BatchTakeContract extends ContractSubject {

    /** A list whose add throws once it holds {@code limit} elements. */
    static List<Integer> refusingAfter(int limit) {
        return new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                if (size() == limit) {
                    throw new IllegalStateException("target full");
                }
                return super.add(e);
            }
        };
    }

    /** Every element inside, in the order they would leave. */
    static List<Integer> inside(Handoff<Integer> h) {
        return Arrays.stream(h.toArray()).map(Integer.class::cast).toList();
    }

    private static List<Integer> sorted(List<Integer> list) {
        return list.stream().sorted().toList();
    }

    private void assertTakenInOrder(Handoff<Integer> h, List<Integer> expected, List<Integer> taken) {
        if (h.ordering() == Handoff.Ordering.FIFO) {
            assertEquals(expected, taken, "FIFO order");
        } else {
            assertEquals(sorted(expected), sorted(taken), "every element once");
        }
    }

    // ---- Arguments: as drainTo ----

    @Test
    default void batchTakesRejectAMissingOrSelfTargetAndMoveNothingForMaxAtMostZero() throws Exception {
        Handoff<Integer> h = handoffOf(4);
        if (holdsElements()) {
            h.add(1);
            h.add(2);
        }
        int size = h.size();
        assertThrows(NullPointerException.class, () -> h.take(null, 1));
        assertThrows(NullPointerException.class, () -> h.poll(null, 1, 1, SECONDS));
        assertThrows(IllegalArgumentException.class, () -> h.take(h, 1));
        assertThrows(IllegalArgumentException.class, () -> h.poll(h, 1, 1, SECONDS));
        assertThrows(NullPointerException.class, () -> h.poll(new ArrayList<>(), 1, 1, null));
        List<Integer> sink = new ArrayList<>();
        for (int max : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertEquals(0, h.take(sink, max), "take(c, " + max + ") returns at once, even when empty");
            assertEquals(0, h.poll(sink, max, 1, SECONDS), "poll(c, " + max + ", ...)");
        }
        assertTrue(sink.isEmpty());
        assertEquals(size, h.size(), "nothing moved");
    }

    // ---- What they move ----

    @Test
    default void batchTakesMoveWhatIsInsideUpToMaxInTheOrderItLeaves() throws Exception {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(8);
        List<Integer> put = List.of(0, 1, 2, 3, 4, 5);
        put.forEach(h::add);
        List<Integer> sink = new ArrayList<>();
        assertEquals(4, h.take(sink, 4));
        assertEquals(2, h.size());
        assertEquals(2, h.poll(sink, 10, 0, MILLISECONDS), "what is inside, fewer than max, without waiting");
        assertTrue(h.isEmpty());
        assertTakenInOrder(h, put, sink);
        assertEquals(0, h.poll(sink, 3, 1, MILLISECONDS), "nothing came in time");
        assertEquals(6, sink.size());
    }

    @Test
    default void aBatchTakeWaitsForTheFirstElementAndReturnsWithWhatIsInside() throws Exception {
        Handoff<Integer> h = handoffFor(1, 4);
        List<Integer> sink = new ArrayList<>();
        AtomicReference<Object> moved = new AtomicReference<>();
        Thread consumer = Thread.ofPlatform().start(() -> {
            try {
                moved.set(h.take(sink, 5));
            } catch (Throwable t) {
                moved.set(t);
            }
        });
        awaitBlocked(consumer);
        h.put(42); // the pipe hands it to the waiting consumer
        consumer.join(SECONDS.toMillis(DEADLINE_SECONDS));
        assertEquals(1, moved.get(), "one came, and no more were inside");
        assertEquals(List.of(42), sink);
        assertTrue(h.isEmpty());
    }

    @Test
    default void aTimedBatchPollReturnsZeroWhenTheTimeoutExpires() throws Exception {
        Handoff<Integer> h = handoffOf(4);
        List<Integer> sink = new ArrayList<>();
        long start = System.nanoTime();
        assertEquals(0, h.poll(sink, 5, 20, MILLISECONDS));
        assertTrue(System.nanoTime() - start >= MILLISECONDS.toNanos(20), "waited the timeout");
        assertEquals(0, h.poll(sink, 5, 0, MILLISECONDS), "a timeout <= 0 never waits");
        assertEquals(0, h.poll(sink, 5, -1, MILLISECONDS));
        assertTrue(sink.isEmpty());
    }

    // ---- Interrupts and close: as take() and the timed poll ----

    @Test
    default void batchTakesThrowInterruptedExceptionOnEntryEvenWithElementsInside() {
        Handoff<Integer> h = handoffOf(4);
        if (holdsElements()) {
            h.add(1);
        }
        List<Integer> sink = new ArrayList<>();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> h.take(sink, 3));
        assertFalse(Thread.interrupted(), "status cleared");
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> h.poll(sink, 3, 0, SECONDS));
        assertFalse(Thread.interrupted(), "status cleared");
        assertTrue(sink.isEmpty());
        assertEquals(holdsElements() ? 1 : 0, h.size(), "nothing moved");
    }

    @Test
    default void aBatchTakeBlockedForItsFirstElementThrowsWhenInterrupted() throws Exception {
        Handoff<Integer> h = handoffFor(2, 4);
        for (boolean timed : new boolean[] {false, true}) {
            List<Integer> sink = new ArrayList<>();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread consumer = Thread.ofPlatform().start(() -> {
                try {
                    int n = timed ? h.poll(sink, 3, 1, java.util.concurrent.TimeUnit.HOURS) : h.take(sink, 3);
                    thrown.set(new AssertionError("returned " + n));
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            awaitBlocked(consumer);
            consumer.interrupt();
            consumer.join(SECONDS.toMillis(DEADLINE_SECONDS));
            assertInstanceOf(InterruptedException.class, thrown.get(), timed ? "timed poll" : "take");
            assertTrue(sink.isEmpty());
        }
    }

    @Test
    default void batchTakesOnAClosedHandoffTakeWhatIsLeftThenActAsTakeAndPoll() throws Exception {
        Handoff<Integer> h = handoffOf(4);
        List<Integer> left = holdsElements() ? List.of(0, 1, 2) : List.of();
        left.forEach(h::add);
        h.close();
        List<Integer> sink = new ArrayList<>();
        if (!left.isEmpty()) {
            assertEquals(3, h.take(sink, 10), "closed: what was inside is still taken");
            assertTakenInOrder(h, left, sink);
        }
        assertThrows(HandoffClosedException.class, () -> h.take(sink, 10), "closed and empty: as take()");
        long start = System.nanoTime();
        assertEquals(0, h.poll(sink, 10, 100, MILLISECONDS), "closed and empty: 0, as the timed poll's null");
        assertTrue(System.nanoTime() - start >= MILLISECONDS.toNanos(100),
                "after waiting out the timeout, as the timed poll does");
        assertEquals(0, h.poll(sink, 10, 0, SECONDS), "a timeout <= 0 never waits");
    }

    @Test
    default void aBatchTakeBlockedForItsFirstElementWakesWhenTheHandoffCloses() throws Exception {
        Handoff<Integer> h = handoffFor(1, 4);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread consumer = Thread.ofPlatform().start(() -> {
            try {
                thrown.set(new AssertionError("returned " + h.take(new ArrayList<>(), 3)));
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        awaitBlocked(consumer);
        h.close();
        consumer.join(SECONDS.toMillis(DEADLINE_SECONDS));
        assertInstanceOf(HandoffClosedException.class, thrown.get());
    }

    // ---- A target that throws: every element in exactly one place ----

    @Test
    default void aTargetThatThrowsLeavesTheElementsInsideInsideAsDrainToDoes() throws Exception {
        assumeTrue(holdsElements(), "needs elements inside");
        for (boolean timed : new boolean[] {false, true}) {
            Handoff<Integer> h = handoffOf(8);
            List<Integer> put = List.of(0, 1, 2, 3, 4, 5);
            put.forEach(h::add);
            List<Integer> sink = refusingAfter(2);
            assertThrows(IllegalStateException.class, () -> {
                if (timed) {
                    h.poll(sink, 10, 1, SECONDS);
                } else {
                    h.take(sink, 10);
                }
            });
            assertEquals(2, sink.size(), "two moved before the target threw");
            List<Integer> all = new ArrayList<>(sink);
            all.addAll(inside(h));
            assertEquals(put, sorted(all), "each element in exactly one place");
        }
    }

    /**
     * The element a batch take waited for, refused by the target, is offered back: inside the
     * handoff, or (a pipe with no other worker waiting) carried by the exception. Never both,
     * never neither.
     */
    @Test
    default void aTargetThatRefusesTheElementWaitedForLosesItNot() throws Exception {
        Handoff<Integer> h = handoffFor(1, 4);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread consumer = Thread.ofPlatform().start(() -> {
            try {
                thrown.set(new AssertionError("returned " + h.take(refusingAfter(0), 3)));
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        awaitBlocked(consumer);
        h.put(42);
        consumer.join(SECONDS.toMillis(DEADLINE_SECONDS));
        IllegalStateException refused = assertInstanceOf(IllegalStateException.class, thrown.get());
        List<Object> carried = Arrays.stream(refused.getSuppressed())
                .map(t -> ((UndeliveredElementException) t).element()).toList();
        List<Integer> back = inside(h);
        assertEquals(1, carried.size() + back.size(), "in one place: inside " + back + ", carried " + carried);
        assertSame(42, carried.isEmpty() ? back.get(0) : carried.get(0));
        if (holdsElements()) {
            assertEquals(List.of(42), back, "a buffered handoff had room for it");
            assertEquals(42, h.poll(), "and gives it out again");
        }
        assertNull(h.poll());
    }

    // ---- Many batch consumers: exactly once ----

    /**
     * P producers put the distinct elements 0..n-1 (producer p puts p, p + P, ...), C consumers
     * take them in batches of 1 to 16, by the waiting and the timed batch take in turn, until
     * the handoff is closed and empty. Every element must be taken exactly once, and for a FIFO
     * kind each consumer must see each producer's elements in the order they were put.
     */
    @ParameterizedTest(name = "{0} producers x {1} consumers")
    @CsvSource({"1, 1", "4, 4", "2, 8", "8, 2"})
    default void batchConsumersTakeEveryElementExactlyOnce(int producers, int consumers) throws Exception {
        Handoff<Integer> h = handoffFor(consumers, SMALL);
        boolean fifo = h.ordering() == Handoff.Ordering.FIFO;
        int n = ELEMENTS;
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        try (Workers workers = new Workers()) {
            List<Thread> consumerThreads = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                consumerThreads.add(workers.start("batch-consumer-" + c, () -> {
                    int[] lastSeqOfProducer = new int[producers];
                    Arrays.fill(lastSeqOfProducer, -1);
                    List<Integer> batch = new ArrayList<>();
                    for (int round = 0; !workers.stop.get(); round++) {
                        int max = 1 + ThreadLocalRandom.current().nextInt(16);
                        batch.clear();
                        int moved;
                        try {
                            moved = round % 2 == 0 ? h.take(batch, max) : h.poll(batch, max, 1, MILLISECONDS);
                        } catch (HandoffClosedException closedAndEmpty) {
                            return;
                        }
                        if (moved != batch.size() || moved > max || (round % 2 == 0 && moved == 0)) {
                            workers.fail("returned " + moved + " for a batch of " + batch.size() + ", max " + max);
                        }
                        if (moved == 0 && h.isClosed() && h.isEmpty()) {
                            return;
                        }
                        for (int e : batch) {
                            if (e < 0 || e >= n || taken.incrementAndGet(e) != 1) {
                                workers.fail("element " + e + " taken twice or never put");
                                continue;
                            }
                            int p = e % producers;
                            int seq = e / producers;
                            if (fifo && seq <= lastSeqOfProducer[p]) {
                                workers.fail("FIFO: " + e + " taken after a later element of producer " + p);
                            }
                            lastSeqOfProducer[p] = seq;
                        }
                    }
                }));
            }
            List<Thread> producerThreads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int first = p;
                producerThreads.add(workers.start("producer-" + p, () -> {
                    for (int e = first; e < n && !workers.stop.get(); e += producers) {
                        h.put(e);
                    }
                }));
            }
            long deadline = Workers.deadlineIn(DEADLINE_SECONDS);
            workers.awaitAll(producerThreads, deadline);
            h.close(); // consumers finish what is inside, then see closed and empty
            workers.awaitAll(consumerThreads, deadline);
            workers.assertNoFailures();
        }
        assertTrue(h.isEmpty(), "consumers took everything");
        assertEachTakenOnce(taken);
    }
}
