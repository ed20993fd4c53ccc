/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.DEADLINE_SECONDS;
import static dev.handoff.ContractSupport.assertEachTakenOnce;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * A {@code ThreadPoolExecutor} on the handoff runs every task once, and {@code shutdownNow}
 * returns exactly the tasks that did not run.
 */
interface ThreadPoolContract extends ContractSubject {

    /** A task that counts its runs. */
    record CountingTask(int id, AtomicIntegerArray runs, CountDownLatch gate, Thread submitter)
            implements Runnable {
        @Override
        public void run() {
            runs.incrementAndGet(id);
            if (gate != null && Thread.currentThread() != submitter) {
                try {
                    gate.await(); // hold the pool's threads until shutdownNow interrupts them
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Test
    default void threadPoolRunsEverySubmittedTaskExactlyOnce() throws Exception {
        Handoff<Runnable> q = handoffOf(16);
        int tasks = 5_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 4, 1, SECONDS, q,
                new ThreadPoolExecutor.CallerRunsPolicy());
        try {
            for (int i = 0; i < tasks; i++) {
                pool.execute(new CountingTask(i, runs, null, null));
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(DEADLINE_SECONDS, SECONDS), "pool terminated");
        } finally {
            pool.shutdownNow();
        }
        assertEachTakenOnce(runs);
        assertTrue(q.isEmpty());
    }

    @Test
    default void threadPoolShutdownNowReturnsExactlyTheTasksThatDidNotRun() throws Exception {
        Handoff<Runnable> q = handoffOf(64);
        int tasks = 300;
        AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
        CountDownLatch gate = new CountDownLatch(1); // never opened: shutdownNow interrupts the waiters
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 1, SECONDS, q,
                new ThreadPoolExecutor.CallerRunsPolicy());
        List<Runnable> notRun;
        try {
            for (int i = 0; i < tasks; i++) {
                pool.execute(new CountingTask(i, runs, gate, Thread.currentThread()));
            }
            notRun = pool.shutdownNow();
            assertTrue(pool.awaitTermination(DEADLINE_SECONDS, SECONDS), "pool terminated");
        } finally {
            pool.shutdownNow();
        }
        assertTrue(q.isEmpty(), "shutdownNow emptied the queue");
        int[] returned = new int[tasks];
        for (Runnable r : notRun) {
            returned[((CountingTask) r).id()]++;
        }
        for (int i = 0; i < tasks; i++) {
            assertEquals(1, runs.get(i) + returned[i],
                    "task " + i + ": ran " + runs.get(i) + " time(s), returned by shutdownNow " + returned[i] + " time(s)");
        }
        if (holdsElements()) {
            assertFalse(notRun.isEmpty(), "the pool's threads were held, so tasks were waiting in the queue");
        }
    }
}
