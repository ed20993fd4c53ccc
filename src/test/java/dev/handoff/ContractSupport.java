/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/** Sizes and helpers that the contract interfaces share. */
final class ContractSupport {

    private ContractSupport() {
    }

    /** Elements passed in each exactly-once run. */
    static final int ELEMENTS = 100_000;

    /** Capacity of the handoff in the concurrent tests: small, so both edges are hit often. */
    static final int SMALL = 8;

    /** How long a group of worker threads may take before the test calls it a hang. */
    static final long DEADLINE_SECONDS = 20;

    /** A call that a blocked thread makes. */
    @FunctionalInterface
    interface Call {
        void run() throws Exception;
    }

    /**
     * Calls call with the interrupt status set: it must throw InterruptedException, clear the
     * status, and leave h as it was.
     */
    static void assertInterruptedAndCleared(Handoff<Integer> h, BlockingCall call) {
        Object[] before = h.toArray();
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> call.run(h));
            assertFalse(Thread.currentThread().isInterrupted(), "interrupt status cleared");
            assertArrayEquals(before, h.toArray(), "nothing inserted or removed");
        } finally {
            Thread.interrupted(); // never leak the flag into the next test
        }
    }

    @FunctionalInterface
    interface BlockingCall {
        void run(Handoff<Integer> h) throws InterruptedException;
    }

    /** Runs call in a thread, waits until it blocks, interrupts it: it must throw InterruptedException. */
    static void assertInterruptWakes(Call call) throws Exception {
        try (Workers workers = new Workers()) {
            AtomicInteger interrupted = new AtomicInteger();
            Thread t = workers.start("blocked", () -> {
                try {
                    call.run();
                    workers.fail("returned instead of blocking");
                } catch (InterruptedException expected) {
                    interrupted.incrementAndGet();
                }
            });
            awaitBlocked(t);
            t.interrupt();
            workers.awaitAll(List.of(t), Workers.deadlineIn(10));
            workers.assertNoFailures();
            assertEquals(1, interrupted.get(), "InterruptedException thrown");
        }
    }

    /** Fills a buffered handoff with 0, 1, ... until full (or one past capacity); returns what it put. */
    static List<Integer> fill(Handoff<Integer> h) {
        List<Integer> put = new ArrayList<>();
        for (int i = 0; i <= h.capacity() && h.offer(i); i++) {
            put.add(i);
        }
        return put;
    }

    /** Waits until t is parked (blocked in the handoff), or fails. */
    static void awaitBlocked(Thread t) {
        long deadline = Workers.deadlineIn(10);
        while (true) {
            Thread.State state = t.getState();
            if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) {
                return;
            }
            if (state == Thread.State.TERMINATED) {
                fail(t.getName() + " ended instead of blocking");
            }
            if (System.nanoTime() > deadline) {
                fail(t.getName() + " did not block");
            }
            LockSupport.parkNanos(50_000); // not a spin: on a busy machine t needs the CPU to get there
        }
    }

    /** Fails unless every index of {@code taken} was counted exactly once. */
    static void assertEachTakenOnce(AtomicIntegerArray taken) {
        int lost = 0;
        int firstLost = -1;
        for (int i = 0; i < taken.length(); i++) {
            if (taken.get(i) != 1) {
                lost++;
                firstLost = firstLost < 0 ? i : firstLost;
            }
        }
        assertEquals(0, lost, "elements not taken exactly once (first: " + firstLost + ")");
    }

    /**
     * Starts {@code pairs} pairs of an offerer and a poller that change h until the workers stop:
     * each offerer offers 0, 1, ..., 999 round and round, each poller polls, and every offer or
     * poll that succeeds adds one to {@code changes}. Returns the threads, offerer and poller of
     * each pair in turn.
     */
    static List<Thread> startChurn(Workers workers, Handoff<Integer> h, int pairs, AtomicInteger changes) {
        List<Thread> churn = new ArrayList<>();
        for (int t = 0; t < pairs; t++) {
            churn.add(workers.start("offerer-" + t, () -> {
                for (int i = 0; !workers.stop.get(); i = (i + 1) % 1000) {
                    if (h.offer(i)) {
                        changes.incrementAndGet();
                    }
                }
            }));
            churn.add(workers.start("poller-" + t, () -> {
                while (!workers.stop.get()) {
                    if (h.poll() != null) {
                        changes.incrementAndGet();
                    }
                }
            }));
        }
        return churn;
    }
}
