/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assertions;

/**
 * The threads of one concurrency test: each started by name, all bounded in time, every failure
 * counted and kept for the report.
 *
 * <p>A test starts its threads, {@linkplain #awaitAll waits} for a group of them with a deadline,
 * and finally {@linkplain #close() closes} the workers, which raises the stop flag and interrupts
 * any thread still alive, so that a bug makes the test fail instead of hanging the build. Threads
 * report a broken expectation with {@link #fail(String)}; the test checks
 * {@link #assertNoFailures()} at the end.
 */
final class Workers implements AutoCloseable {

    /** What a worker thread runs; may throw anything, which counts as a failure. */
    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    /** Raised when the test is over or its deadline passed: loops of workers check it. */
    final AtomicBoolean stop = new AtomicBoolean();

    private final AtomicInteger failures = new AtomicInteger();
    private final ConcurrentLinkedQueue<String> failureMessages = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new ArrayList<>();

    /** Starts a platform thread. */
    Thread start(String name, Body body) {
        return add(Thread.ofPlatform().name(name).daemon().unstarted(wrap(name, body)));
    }

    /** Starts a virtual thread. */
    Thread startVirtual(String name, Body body) {
        return add(Thread.ofVirtual().name(name).unstarted(wrap(name, body)));
    }

    private synchronized Thread add(Thread t) {
        threads.add(t);
        t.start();
        return t;
    }

    private Runnable wrap(String name, Body body) {
        return () -> {
            try {
                body.run();
            } catch (Throwable t) {
                fail(name + " threw " + t);
            }
        };
    }

    /** Records a broken expectation; the test fails at {@link #assertNoFailures()}. */
    void fail(String message) {
        if (failures.incrementAndGet() <= 20) {
            failureMessages.add(message);
        }
    }

    int failures() {
        return failures.get();
    }

    /**
     * Waits for the given threads to end, at most until the deadline; fails the test, naming
     * the threads still alive and where they are, if any is.
     */
    void awaitAll(List<Thread> group, long deadlineNanos) throws InterruptedException {
        for (Thread t : group) {
            long left = deadlineNanos - System.nanoTime();
            if (left > 0) {
                t.join(TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
        }
        List<Thread> alive = group.stream().filter(Thread::isAlive).toList();
        if (!alive.isEmpty()) {
            stop.set(true);
            String where = alive.stream().limit(5)
                    .map(t -> t.getName() + " " + t.getState() + " at "
                            + Arrays.stream(t.getStackTrace()).limit(6).map(String::valueOf)
                                    .collect(Collectors.joining(" <- ")))
                    .collect(Collectors.joining("\n  "));
            fail(alive.size() + " thread(s) did not finish in time (a hang):\n  " + where);
        }
    }

    /** Fails the test if any worker reported a failure. */
    void assertNoFailures() {
        if (failures.get() > 0) {
            Assertions.fail(failures.get() + " failure(s), first ones:\n  " + String.join("\n  ", failureMessages));
        }
    }

    /** Deadline {@code seconds} from now, for {@link #awaitAll}. */
    static long deadlineIn(long seconds) {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    }

    /** Raises the stop flag and interrupts every thread still alive; never waits long. */
    @Override
    public synchronized void close() {
        stop.set(true);
        for (Thread t : threads) {
            if (t.isAlive()) {
                t.interrupt();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        try {
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                t.join(TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the test is being cut short: let it see why
        }
    }
}
