/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Closing a handoff under pools that are not the JDK's: Tomcat's fork of
 * {@code ThreadPoolExecutor}, whose core threads {@code take()} in its own {@code getTask}; Jetty's
 * {@code QueuedThreadPool}, whose idle threads loop on the timed poll (or {@code take()} with no
 * idle timeout) from its nested {@code Runner}, and whose {@code execute} may {@code put}; a
 * hand-written executor whose workers {@code take()}; and a hand-written loop of timed polls. The
 * JDK's pool is in the list as the baseline.
 *
 * <p>The rules checked ({@link Handoff}, "Closing" and "Under a thread pool"): a closed, empty
 * handoff lets every worker idle, parked, neither spinning (the timed poll waits out its timeout)
 * nor dying and being replaced ({@code take()} parks a pool's own code); a late {@code execute}
 * runs or is refused with {@link RejectedExecutionException}, never with
 * {@link HandoffClosedException}; and every accepted task runs once or is given back.
 *
 * <p>Idling is judged by thread states, sampled repeatedly, never by a CPU-time measurement: a
 * spinning thread is seen RUNNABLE, a dying one dead, a replacement as a new thread.
 */
class ForeignPoolClosingTest {

    private static final int THREADS = 4;
    private static final int TASKS = 1_000;
    /** Tasks in flight at once: well below every capacity, so that no execute meets a full handoff. */
    private static final int IN_FLIGHT = 16;
    private static final int SAMPLES = 20;

    static Stream<Arguments> poolsAndSpecs() {
        List<String> specs = List.of("circular:64", "circular:64,core=cells", "lock-split:64", "pht:67",
                "circular:64,classes=2", "pipe:8");
        return Stream.of(PoolKind.values())
                .flatMap(pool -> specs.stream().map(spec -> Arguments.of(pool, spec)));
    }

    // ---- (a) closed while idle: every worker parks, none dies ----

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("poolsAndSpecs")
    void aClosedIdleHandoffLeavesEveryWorkerParked(PoolKind kind, String spec) throws Exception {
        Handoff<Runnable> handoff = Handoffs.create(spec);
        Recording threads = new Recording();
        Pool pool = kind.start(handoff, threads);
        try {
            runAndAwait(pool, TASKS);
            awaitAllParked(threads);
            List<Thread> before = threads.alive();
            handoff.close();
            for (int i = 0; i < SAMPLES; i++) {
                Thread.sleep(10);
                for (Thread t : before) {
                    Thread.State s = t.getState();
                    assertTrue(s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING,
                            kind + ": " + t.getName() + " is " + s + " in sample " + i
                                    + " (spinning, or ended) on a closed, empty handoff");
                }
                assertEquals(before.size(), threads.made(), kind + ": threads made after the close (replacements)");
            }
            assertEquals(List.of(), threads.failures(), kind + ": no worker died of an exception");
        } finally {
            pool.shutdownNow();
        }
        assertTrue(pool.awaitTermination(), kind + " terminated");
        threads.assertAllDead();
    }

    // ---- (b) closed under load: each accepted task runs once or is given back ----

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("poolsAndSpecs")
    void closingUnderLoadRunsOrGivesBackEveryAcceptedTaskOnce(PoolKind kind, String spec) throws Exception {
        Handoff<Runnable> handoff = Handoffs.create(spec);
        Recording threads = new Recording();
        Pool pool = kind.start(handoff, threads);
        int submitters = 2;
        int perSubmitter = TASKS;
        AtomicIntegerArray runs = new AtomicIntegerArray(submitters * perSubmitter);
        AtomicIntegerArray accepted = new AtomicIntegerArray(submitters * perSubmitter);
        AtomicReference<Throwable> wrongRefusal = new AtomicReference<>();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger acceptedCount = new AtomicInteger();
        List<Runnable> givenBack;
        try (Workers workers = new Workers()) {
            List<Thread> started = new ArrayList<>();
            for (int s = 0; s < submitters; s++) {
                int first = s * perSubmitter;
                started.add(workers.start("submitter-" + s, () -> {
                    for (int id = first; id < first + perSubmitter; id++) {
                        try {
                            pool.execute(new Task(id, runs));
                            accepted.set(id, 1);
                            acceptedCount.incrementAndGet();
                        } catch (RejectedExecutionException expected) {
                            refused.incrementAndGet();
                        } catch (Throwable t) {
                            wrongRefusal.compareAndSet(null, t);
                        }
                    }
                }));
            }
            while (acceptedCount.get() < perSubmitter / 2 && started.stream().anyMatch(Thread::isAlive)) {
                Thread.sleep(1);
            }
            handoff.close();
            workers.awaitAll(started, Workers.deadlineIn(30));
            workers.assertNoFailures();
        } finally {
            givenBack = pool.shutdownNow();
        }
        assertTrue(pool.awaitTermination(), kind + " terminated");
        threads.assertAllDead();
        if (wrongRefusal.get() != null) {
            throw new AssertionError(kind + ": a late execute failed other than by RejectedExecutionException",
                    wrongRefusal.get());
        }
        int[] returned = new int[runs.length()];
        for (Runnable r : givenBack) {
            returned[((Task) r).id()]++;
        }
        for (int id = 0; id < runs.length(); id++) {
            assertEquals(accepted.get(id), runs.get(id) + returned[id], kind + ": task " + id + " accepted "
                    + accepted.get(id) + ", ran " + runs.get(id) + ", given back " + returned[id]);
        }
        assertEquals(List.of(), threads.failures(), kind + ": no worker died of an exception");
    }

    // ---- the pools ----

    /** A task that counts its runs. */
    record Task(int id, AtomicIntegerArray runs) implements Runnable {
        @Override
        public void run() {
            runs.incrementAndGet(id);
        }
    }

    /** The pools under test, each built on the handoff with its threads from a recording factory. */
    enum PoolKind {
        JDK {
            @Override
            Pool start(Handoff<Runnable> q, Recording threads) {
                return Pool.of(new ThreadPoolExecutor(THREADS, THREADS, 1, TimeUnit.MINUTES, q, threads));
            }
        },
        TOMCAT {
            @Override
            Pool start(Handoff<Runnable> q, Recording threads) {
                return Pool.of(new org.apache.tomcat.util.threads.ThreadPoolExecutor(THREADS, THREADS, 1,
                        TimeUnit.MINUTES, q, threads));
            }
        },
        /** Idle threads wait in the timed poll, for the idle timeout. */
        JETTY {
            @Override
            Pool start(Handoff<Runnable> q, Recording threads) throws Exception {
                return Pool.jetty(q, threads, 60_000);
            }
        },
        /** No idle timeout: idle threads wait in take(), called from QueuedThreadPool$Runner. */
        JETTY_TAKE {
            @Override
            Pool start(Handoff<Runnable> q, Recording threads) throws Exception {
                return Pool.jetty(q, threads, -1);
            }
        },
        /** A hand-written Executor whose workers take(). */
        HAND_WRITTEN_TAKE {
            @Override
            Pool start(Handoff<Runnable> q, Recording threads) {
                return new HandWrittenExecutor(q, threads, false);
            }
        },
        /** A hand-written loop of timed polls (in a class that is not an Executor). */
        TIMED_POLL_LOOP {
            @Override
            Pool start(Handoff<Runnable> q, Recording threads) {
                return new TimedPollLoop(q, threads);
            }
        };

        abstract Pool start(Handoff<Runnable> q, Recording threads) throws Exception;
    }

    /** What the tests do with a pool, whichever it is. */
    interface Pool {
        /** Runs or queues the task; throws RejectedExecutionException if it refuses it. */
        void execute(Runnable task);

        /** Stops the pool and returns the queued tasks it did not run. */
        List<Runnable> shutdownNow();

        /** Waits for the pool's threads to end; whether they did within 30 seconds. */
        boolean awaitTermination() throws InterruptedException;

        static Pool of(ThreadPoolExecutor tpe) {
            tpe.prestartAllCoreThreads();
            return new Pool() {
                @Override
                public void execute(Runnable task) {
                    tpe.execute(task);
                }

                @Override
                public List<Runnable> shutdownNow() {
                    return tpe.shutdownNow();
                }

                @Override
                public boolean awaitTermination() throws InterruptedException {
                    return tpe.awaitTermination(30, TimeUnit.SECONDS);
                }
            };
        }

        static Pool of(org.apache.tomcat.util.threads.ThreadPoolExecutor tomcat) {
            tomcat.prestartAllCoreThreads();
            return new Pool() {
                @Override
                public void execute(Runnable task) {
                    tomcat.execute(task);
                }

                @Override
                public List<Runnable> shutdownNow() {
                    return tomcat.shutdownNow();
                }

                @Override
                public boolean awaitTermination() throws InterruptedException {
                    return tomcat.awaitTermination(30, TimeUnit.SECONDS);
                }
            };
        }

        /** A started Jetty pool of THREADS threads and no reserved ones; stopping gives back what is queued. */
        static Pool jetty(Handoff<Runnable> q, Recording threads, int idleTimeoutMillis) throws Exception {
            QueuedThreadPool jetty = new QueuedThreadPool(THREADS, THREADS, idleTimeoutMillis, 0, q, null, threads);
            jetty.setStopTimeout(2_000);
            jetty.start();
            return new Pool() {
                @Override
                public void execute(Runnable task) {
                    jetty.execute(task);
                }

                @Override
                public List<Runnable> shutdownNow() {
                    List<Runnable> queued = new ArrayList<>();
                    q.drainTo(queued); // Jetty's stop would log them and drop them
                    try {
                        jetty.stop();
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                    return queued;
                }

                @Override
                public boolean awaitTermination() throws InterruptedException {
                    return jetty.isStopped();
                }
            };
        }
    }

    /**
     * An executor whose workers loop on take() (or on the timed poll), written by hand: its own
     * code, for the handoff, is the nested worker loop's.
     */
    static final class HandWrittenExecutor implements Executor, Pool {
        private final BlockingQueue<Runnable> queue;
        private final List<Thread> workers = new ArrayList<>();
        private final AtomicBoolean stopped = new AtomicBoolean();

        HandWrittenExecutor(BlockingQueue<Runnable> queue, ThreadFactory threads, boolean timed) {
            this.queue = queue;
            for (int i = 0; i < THREADS; i++) {
                Thread t = threads.newThread(timed ? this::pollLoop : this::takeLoop);
                workers.add(t);
                t.start();
            }
        }

        private void takeLoop() {
            while (!stopped.get()) {
                try {
                    queue.take().run();
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }

        private void pollLoop() {
            while (!stopped.get()) {
                try {
                    Runnable r = queue.poll(100, TimeUnit.MILLISECONDS);
                    if (r != null) {
                        r.run();
                    }
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }

        @Override
        public void execute(Runnable task) {
            if (stopped.get() || !queue.offer(task)) {
                throw new RejectedExecutionException("refused: " + task);
            }
        }

        @Override
        public List<Runnable> shutdownNow() {
            stopped.set(true);
            workers.forEach(Thread::interrupt);
            List<Runnable> queued = new ArrayList<>();
            queue.drainTo(queued);
            return queued;
        }

        @Override
        public boolean awaitTermination() throws InterruptedException {
            for (Thread t : workers) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
            return workers.stream().noneMatch(Thread::isAlive);
        }
    }

    /**
     * A loop of timed polls that is no executor (the {@link Pool} it implements is this test's
     * view of it): the consumer that a closed handoff's immediate null made spin.
     */
    static final class TimedPollLoop implements Pool {
        private final HandWrittenExecutor threads;

        TimedPollLoop(BlockingQueue<Runnable> queue, ThreadFactory factory) {
            this.threads = new HandWrittenExecutor(queue, factory, true);
        }

        @Override
        public void execute(Runnable task) {
            threads.execute(task);
        }

        @Override
        public List<Runnable> shutdownNow() {
            return threads.shutdownNow();
        }

        @Override
        public boolean awaitTermination() throws InterruptedException {
            return threads.awaitTermination();
        }
    }

    // ---- helpers ----

    /**
     * Runs n tasks, IN_FLIGHT at most at once, and waits until all ran. A task refused while no
     * worker waits (a pipe holds nothing) is executed again once a worker may be back.
     */
    private static void runAndAwait(Pool pool, int n) throws InterruptedException {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            inFlight.acquire();
            Runnable task = () -> {
                done.countDown();
                inFlight.release();
            };
            while (!executed(pool, task)) {
                Thread.sleep(1);
            }
        }
        assertTrue(done.await(30, TimeUnit.SECONDS), "the tasks ran");
    }

    private static boolean executed(Pool pool, Runnable task) {
        try {
            pool.execute(task);
            return true;
        } catch (RejectedExecutionException noWorkerWaits) {
            return false;
        }
    }

    /** Waits until every thread made so far waits (in the handoff: the pool has nothing else to do). */
    private static void awaitAllParked(Recording threads) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!threads.alive().stream().allMatch(t -> t.getState() == Thread.State.WAITING
                || t.getState() == Thread.State.TIMED_WAITING)) {
            if (System.nanoTime() > deadline) {
                fail("the pool's threads did not all come to wait: " + threads.alive());
            }
            Thread.sleep(5);
        }
    }

    /** A thread factory that keeps every thread it made and every exception that ended one. */
    static final class Recording implements ThreadFactory {
        private final List<Thread> made = Collections.synchronizedList(new ArrayList<>());
        private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "pool-worker-" + count.incrementAndGet());
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((thread, e) -> failures.add(e));
            made.add(t);
            return t;
        }

        int made() {
            return made.size();
        }

        List<Thread> alive() {
            synchronized (made) {
                return made.stream().filter(Thread::isAlive).toList();
            }
        }

        List<Throwable> failures() {
            synchronized (failures) {
                return List.copyOf(failures);
            }
        }

        void assertAllDead() throws InterruptedException {
            List<Thread> all;
            synchronized (made) {
                all = List.copyOf(made);
            }
            for (Thread t : all) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertEquals(Set.of(), Set.copyOf(alive()), "every pool thread ended");
        }
    }
}
