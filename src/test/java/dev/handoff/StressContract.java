/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.DEADLINE_SECONDS;
import static dev.handoff.ContractSupport.ELEMENTS;
import static dev.handoff.ContractSupport.SMALL;
import static dev.handoff.ContractSupport.assertEachTakenOnce;
import static dev.handoff.ContractSupport.startChurn;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Many threads at once: every element taken exactly once (in per-producer order for a FIFO
 * kind), through an interrupt storm and a close under load, and iterators and streams that
 * never throw while others work. These tests assert behaviour, never speed.
 */
interface StressContract extends ContractSubject {

    // ---- Weakly consistent views while others work ----

    @Test
    default void iteratorNeverThrowsConcurrentModificationWhileOthersWork() throws Exception {
        Handoff<Integer> h = handoffOf(SMALL);
        try (Workers workers = new Workers()) {
            List<Thread> changers = startChurn(workers, h, 1, new AtomicInteger());
            try {
                for (int round = 0; round < 20_000; round++) {
                    for (Integer e : h) {
                        if (e == null || e < 0 || e >= 1000) {
                            fail("iterator returned " + e);
                        }
                    }
                }
            } catch (ConcurrentModificationException e) {
                fail("weakly consistent iterators never throw ConcurrentModificationException", e);
            } finally {
                workers.stop.set(true);
            }
            workers.awaitAll(changers, Workers.deadlineIn(DEADLINE_SECONDS));
            workers.assertNoFailures();
        }
    }

    /**
     * Streams of a handoff that others change must not throw: a spliterator that promised an
     * exact size (SIZED) while the handoff changed would make {@code stream().toArray()} fail.
     */
    @Test
    default void streamsNeverThrowWhileOthersWork() throws Exception {
        Handoff<Integer> h = handoffOf(SMALL);
        try (Workers workers = new Workers()) {
            List<Thread> changers = startChurn(workers, h, 1, new AtomicInteger());
            try {
                // The window between a snapshot and a separate size() is small: many rounds.
                for (int round = 0; round < 1_000_000; round++) {
                    Object[] streamed = h.stream().toArray();
                    assertTrue(streamed.length <= SMALL, "at most capacity elements");
                    if (round % 1000 == 0) {
                        assertTrue(h.stream().allMatch(e -> e != null && e >= 0 && e < 1000), "only elements put");
                        assertTrue(h.parallelStream().count() <= SMALL);
                    }
                }
            } finally {
                workers.stop.set(true);
            }
            workers.awaitAll(changers, Workers.deadlineIn(DEADLINE_SECONDS));
            workers.assertNoFailures();
        }
    }

    // ---- Exactly once ----

    @ParameterizedTest(name = "{0} producers x {1} consumers")
    @CsvSource({"1, 1", "2, 2", "4, 4", "8, 8", "1, 50", "4, 1", "1, 4"})
    default void everyElementIsTakenExactlyOnce(int producers, int consumers) throws Exception {
        exactlyOnce(producers, consumers, ELEMENTS, false);
    }

    @Test
    default void everyElementIsTakenExactlyOnceByTenThousandVirtualConsumers() throws Exception {
        exactlyOnce(2, 10_000, ELEMENTS, true);
    }

    /**
     * P producers put the distinct elements 0..n-1 (producer p puts p, p + P, p + 2P, ... in
     * that order, by put, timed offer or offer in turn); C consumers take until the handoff is
     * closed and empty. Every element must be taken exactly once. For a FIFO kind each consumer
     * must also see each producer's elements in the order they were put.
     */
    private void exactlyOnce(int producers, int consumers, int n, boolean virtualConsumers) throws Exception {
        exactlyOnce(handoffFor(consumers, SMALL), producers, consumers, n, virtualConsumers);
    }

    /**
     * The run above on a given handoff, for a test of one kind that needs another capacity than
     * SMALL (CircularBufferCellsCoreContractTest: rings whose cells are spread).
     */
    static void exactlyOnce(Handoff<Integer> h, int producers, int consumers, int n, boolean virtualConsumers)
            throws Exception {
        boolean fifo = h.ordering() == Handoff.Ordering.FIFO;
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        try (Workers workers = new Workers()) {
            List<Thread> consumerThreads = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                Workers.Body consume = () -> {
                    int[] lastSeqOfProducer = new int[producers];
                    Arrays.fill(lastSeqOfProducer, -1);
                    int round = 0;
                    while (!workers.stop.get()) {
                        Integer e;
                        try {
                            e = virtualConsumers || round++ % 2 == 0 ? h.take() : h.poll(1, MILLISECONDS);
                        } catch (HandoffClosedException closedAndEmpty) {
                            return;
                        }
                        if (e == null) {
                            if (h.isClosed() && h.isEmpty()) {
                                return;
                            }
                            continue;
                        }
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
                };
                consumerThreads.add(virtualConsumers
                        ? workers.startVirtual("consumer-" + c, consume)
                        : workers.start("consumer-" + c, consume));
            }
            List<Thread> producerThreads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int first = p;
                producerThreads.add(workers.start("producer-" + p, () -> {
                    int round = 0;
                    for (int e = first; e < n && !workers.stop.get(); e += producers) {
                        switch (round++ % 3) {
                            case 0 -> h.put(e);
                            case 1 -> {
                                while (!h.offer(e, 1, MILLISECONDS) && !workers.stop.get()) {
                                    // full: try again
                                }
                            }
                            default -> {
                                while (!h.offer(e) && !workers.stop.get()) {
                                    Thread.yield();
                                }
                            }
                        }
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

    // ---- Interrupt storm: nothing lost, nothing twice ----

    /**
     * Producers put fresh elements, consumers take them, and a third party interrupts them at
     * random, mostly while they are blocked. A put that returned put its element in; one that
     * threw did not. Afterwards each element that was put is either taken once or still inside;
     * each that was not put is nowhere.
     */
    @Test
    default void interruptStormLosesNothingAndDuplicatesNothing() throws Exception {
        int producers = 3;
        int consumers = 3;
        int attemptsPerProducer = 10_000;
        int n = producers * attemptsPerProducer;
        Handoff<Integer> h = handoffFor(consumers, 2);
        AtomicInteger nextElement = new AtomicInteger();
        AtomicIntegerArray put = new AtomicIntegerArray(n);
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicInteger interruptedCalls = new AtomicInteger();
        try (Workers workers = new Workers()) {
            List<Thread> producerThreads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                producerThreads.add(workers.start("producer-" + p, () -> {
                    for (int i = 0; i < attemptsPerProducer && !workers.stop.get(); i++) {
                        int e = nextElement.getAndIncrement();
                        try {
                            boolean in = true;
                            if (i % 2 == 0) {
                                h.put(e);
                            } else {
                                in = h.offer(e, 100, MICROSECONDS);
                            }
                            if (in) {
                                put.incrementAndGet(e);
                            }
                        } catch (InterruptedException refused) {
                            interruptedCalls.incrementAndGet();
                        }
                    }
                }));
            }
            List<Thread> consumerThreads = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                int id = c;
                consumerThreads.add(workers.start("consumer-" + c, () -> {
                    while (!workers.stop.get()) {
                        try {
                            Integer e = id % 2 == 0 ? h.take() : h.poll(100, MICROSECONDS);
                            if (e != null && taken.incrementAndGet(e) != 1) {
                                workers.fail("element " + e + " taken twice");
                            }
                        } catch (InterruptedException ignored) {
                            interruptedCalls.incrementAndGet();
                        } catch (HandoffClosedException closedAndEmpty) {
                            return;
                        }
                        if (h.isClosed() && h.isEmpty()) {
                            return;
                        }
                    }
                }));
            }
            List<Thread> victims = new ArrayList<>(producerThreads);
            victims.addAll(consumerThreads);
            AtomicInteger interruptsWhileBlocked = new AtomicInteger();
            Thread interrupter = workers.start("interrupter", () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!workers.stop.get() && producerThreads.stream().anyMatch(Thread::isAlive)) {
                    Thread victim = victims.get(random.nextInt(victims.size()));
                    Thread.State state = victim.getState();
                    if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) {
                        victim.interrupt();
                        interruptsWhileBlocked.incrementAndGet();
                    } else if (random.nextInt(8) == 0) {
                        victim.interrupt(); // now and then, wherever it is
                    }
                    LockSupport.parkNanos(20_000);
                }
            });
            long deadline = Workers.deadlineIn(DEADLINE_SECONDS);
            workers.awaitAll(producerThreads, deadline);
            workers.awaitAll(List.of(interrupter), deadline);
            h.close();
            workers.awaitAll(consumerThreads, deadline);
            workers.assertNoFailures();
            assertTrue(interruptedCalls.get() > 0, "the storm interrupted some calls");
        }
        List<Integer> inside = new ArrayList<>();
        h.drainTo(inside);
        for (Integer e : inside) {
            taken.incrementAndGet(e); // taken or still inside: count both once
        }
        for (int e = 0; e < n; e++) {
            assertTrue(put.get(e) <= 1);
            if (taken.get(e) != put.get(e)) {
                fail("element " + e + " put " + put.get(e) + " time(s) but taken or left inside "
                        + taken.get(e) + " time(s)");
            }
        }
    }

    // ---- Close under load ----

    /**
     * Producers and consumers run flat out on a small handoff, so that many are blocked, and the
     * handoff is closed in the middle. Nobody hangs; every element whose insert returned is
     * taken exactly once; every refused element (put threw, the timed offer returned false)
     * stays with its producer.
     */
    @Test
    default void closeUnderLoadLosesNothingAndHangsNobody() throws Exception {
        int producers = 4;
        int consumers = 4;
        int n = 1 << 20; // far more than can pass before close
        Handoff<Integer> h = handoffFor(consumers, 4);
        AtomicInteger nextElement = new AtomicInteger();
        AtomicIntegerArray put = new AtomicIntegerArray(n);
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicInteger takenCount = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        try (Workers workers = new Workers()) {
            List<Thread> all = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int id = p;
                all.add(workers.start("producer-" + p, () -> {
                    while (!workers.stop.get()) {
                        int e = nextElement.getAndIncrement();
                        if (e >= n) {
                            return;
                        }
                        try {
                            if (id % 2 == 0) {
                                h.put(e);
                            } else if (!h.offer(e, 1, HOURS)) {
                                if (!h.isClosed()) {
                                    workers.fail("timed offer refused an element of an open handoff");
                                }
                                refused.incrementAndGet(); // closed: false, the element stays here
                                return;
                            }
                            put.incrementAndGet(e);
                        } catch (HandoffClosedException closed) {
                            refused.incrementAndGet();
                            return;
                        }
                    }
                }));
            }
            for (int c = 0; c < consumers; c++) {
                int id = c;
                all.add(workers.start("consumer-" + c, () -> {
                    while (!workers.stop.get()) {
                        Integer e;
                        if (id % 2 == 0) {
                            try {
                                e = h.take();
                            } catch (HandoffClosedException closedAndEmpty) {
                                return;
                            }
                        } else {
                            try {
                                e = h.take(1, HOURS); // the timed poll would wait out its hour once closed
                            } catch (HandoffClosedException closedAndEmpty) {
                                return;
                            }
                            if (e == null) {
                                continue;
                            }
                        }
                        if (taken.incrementAndGet(e) != 1) {
                            workers.fail("element " + e + " taken twice");
                        }
                        takenCount.incrementAndGet();
                    }
                }));
            }
            long deadline = Workers.deadlineIn(DEADLINE_SECONDS);
            while (takenCount.get() < 20_000 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            h.close();
            workers.awaitAll(all, deadline);
            workers.assertNoFailures();
            assertEquals(producers, refused.get(), "every producer was refused once, by the close");
        }
        assertTrue(h.isEmpty(), "consumers took everything put before close");
        for (int e = 0; e < n; e++) {
            if (taken.get(e) != put.get(e)) {
                fail("element " + e + " put " + put.get(e) + " time(s), taken " + taken.get(e) + " time(s)");
            }
        }
    }
}
