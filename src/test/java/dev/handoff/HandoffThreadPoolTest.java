/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Handoffs#newThreadPool} on every kind that {@link Handoffs#kinds()} lists: tasks run
 * exactly once, shutdown and shutdownNow account for every task, saturation goes through the
 * RejectedExecutionHandler, and no thread outlives the pool.
 *
 * <p>The buffered kinds get {@value #QUEUE} places, the pipe one worker slot per thread: it then
 * queues nothing, and a pool on it is a direct-handoff pool.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandoffThreadPoolTest {

    static final int THREADS = 4;
    static final int QUEUE = 16;

    /** The spec each kind is tested with; "kind+classes" adds two importance classes. */
    static String spec(String kind) {
        String base = kind.replace("+classes", "");
        return base + ":" + (base.equals("pipe") ? THREADS : QUEUE) + (kind.endsWith("+classes") ? ",classes=2" : "");
    }

    /** Every kind, and two with importance classes (the buffered form and the pipe's). */
    static Stream<String> kinds() {
        return Stream.concat(Handoffs.kinds().stream(), Stream.of("circular+classes", "pipe+classes"));
    }

    /** Every thread any pool of this test made; all must be dead after each test. */
    private final List<Thread> made = Collections.synchronizedList(new ArrayList<>());

    private final ThreadFactory recording = task -> {
        Thread t = Executors.defaultThreadFactory().newThread(task);
        t.setUncaughtExceptionHandler((thread, thrown) -> { }); // the one task that throws does so on purpose
        made.add(t);
        return t;
    };

    @AfterEach
    void noWorkerThreadOutlivesItsPool() throws InterruptedException {
        // awaitTermination returns once the last worker has counted itself out; the thread may
        // still be unwinding for a moment, so each gets a bounded join.
        synchronized (made) {
            for (Thread t : made) {
                t.join(TimeUnit.SECONDS.toMillis(5));
                assertFalse(t.isAlive(), "leaked " + t);
            }
        }
    }

    /** A task that records that it ran, once per id. */
    record Job(int id, AtomicIntegerArray runs) implements Runnable {
        @Override
        public void run() {
            runs.incrementAndGet(id);
        }
    }

    /** Counts the tasks it is given, and checks it is called by the right pool. */
    static final class CountingHandler implements RejectedExecutionHandler {
        final Set<Runnable> rejected = ConcurrentHashMap.newKeySet();
        final AtomicReference<ThreadPoolExecutor> pool = new AtomicReference<>();

        @Override
        public void rejectedExecution(Runnable task, ThreadPoolExecutor executor) {
            pool.compareAndSet(null, executor);
            assertTrue(rejected.add(task), "rejected twice: " + task);
        }
    }

    /** Starts THREADS tasks that each hold a pool thread until release opens. */
    static CountDownLatch occupyAllThreads(ThreadPoolExecutor pool, CountDownLatch release) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(THREADS);
        for (int i = 0; i < THREADS; i++) {
            pool.execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // shutdownNow: stop holding
                }
            });
        }
        assertTrue(started.await(10, TimeUnit.SECONDS));
        return started;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyTaskRunsExactlyOnceUnderEightSubmitters(String kind) throws Exception {
        int submitters = 8;
        int perSubmitter = 2_000;
        ThreadPoolExecutor pool = Handoffs.newThreadPool(spec(kind), THREADS, recording,
                new ThreadPoolExecutor.CallerRunsPolicy()); // a saturated pool slows its callers down
        AtomicIntegerArray runs = new AtomicIntegerArray(submitters * perSubmitter);
        AtomicInteger onPoolThreads = new AtomicInteger();
        Set<Thread> submitterThreads = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < submitters; s++) {
            int first = s * perSubmitter;
            threads.add(Thread.ofPlatform().start(() -> {
                submitterThreads.add(Thread.currentThread());
                for (int id = first; id < first + perSubmitter; id++) {
                    Job job = new Job(id, runs);
                    pool.execute(() -> {
                        if (!submitterThreads.contains(Thread.currentThread())) {
                            onPoolThreads.incrementAndGet();
                        }
                        job.run();
                    });
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        for (int id = 0; id < runs.length(); id++) {
            assertEquals(1, runs.get(id), "task " + id + " of " + kind);
        }
        assertTrue(onPoolThreads.get() > 0, "the pool's own threads ran tasks");
        assertEquals(onPoolThreads.get(), pool.getCompletedTaskCount());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void shutdownRunsEveryQueuedTask(String kind) throws Exception {
        CountingHandler handler = new CountingHandler();
        ThreadPoolExecutor pool = Handoffs.newThreadPool(spec(kind), THREADS, recording, handler);
        CountDownLatch release = new CountDownLatch(1);
        occupyAllThreads(pool, release);
        int extra = 2 * QUEUE;
        AtomicIntegerArray runs = new AtomicIntegerArray(extra);
        for (int id = 0; id < extra; id++) {
            pool.execute(new Job(id, runs));
        }
        int queued = pool.getQueue().size();
        assertEquals(kind.startsWith("pipe") ? 0 : QUEUE, queued, "what " + kind + " queues while all threads are busy");
        assertEquals(extra - queued, handler.rejected.size());
        pool.shutdown();
        release.countDown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        Set<Integer> rejectedIds = new HashSet<>();
        handler.rejected.forEach(r -> rejectedIds.add(((Job) r).id()));
        for (int id = 0; id < extra; id++) {
            assertEquals(rejectedIds.contains(id) ? 0 : 1, runs.get(id), "task " + id + " of " + kind);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void shutdownNowReturnsExactlyTheTasksThatDidNotRun(String kind) throws Exception {
        CountingHandler handler = new CountingHandler();
        ThreadPoolExecutor pool = Handoffs.newThreadPool(spec(kind), THREADS, recording, handler);
        occupyAllThreads(pool, new CountDownLatch(1)); // released only by shutdownNow's interrupts
        int extra = QUEUE;
        AtomicIntegerArray runs = new AtomicIntegerArray(extra);
        List<Job> accepted = new ArrayList<>();
        for (int id = 0; id < extra; id++) {
            Job job = new Job(id, runs);
            pool.execute(job);
            if (!handler.rejected.contains(job)) {
                accepted.add(job);
            }
        }
        List<Runnable> notRun = pool.shutdownNow();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        Set<Runnable> returned = new HashSet<>(notRun);
        assertEquals(notRun.size(), returned.size(), "no task returned twice");
        for (Job job : accepted) {
            int ran = runs.get(job.id());
            assertTrue(ran == 1 ^ returned.contains(job), "task " + job.id() + " ran " + ran + " times, returned: "
                    + returned.contains(job));
        }
        assertTrue(accepted.containsAll(returned), "only accepted tasks are returned");
        assertEquals(kind.startsWith("pipe") ? 0 : QUEUE, notRun.size(), "the queued tasks of " + kind);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aSaturatedPoolHandsTheTaskToItsRejectedExecutionHandler(String kind) throws Exception {
        CountingHandler handler = new CountingHandler();
        ThreadPoolExecutor pool = Handoffs.newThreadPool(spec(kind), THREADS, recording, handler);
        CountDownLatch release = new CountDownLatch(1);
        occupyAllThreads(pool, release);
        AtomicIntegerArray runs = new AtomicIntegerArray(QUEUE + 1);
        int fits = kind.startsWith("pipe") ? 0 : QUEUE;
        for (int id = 0; id < fits; id++) {
            pool.execute(new Job(id, runs));
        }
        assertTrue(handler.rejected.isEmpty(), "the queue had room");
        Job overflow = new Job(fits, runs);
        pool.execute(overflow);
        assertEquals(Set.of(overflow), handler.rejected);
        assertSame(pool, handler.pool.get());
        release.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(0, runs.get(fits), "the rejected task did not run");
        assertTrue(pool.getQueue() instanceof Handoff<?> h && h.isClosed(), "the terminated pool closed its handoff");
    }

    /** A factory that counts and keeps the threads it makes (and records them for the leak check). */
    private final class CountingFactory implements ThreadFactory {
        final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());

        @Override
        public Thread newThread(Runnable task) {
            Thread t = recording.newThread(task);
            threads.add(t);
            return t;
        }

        int made() {
            return threads.size();
        }

        /** Waits until n of its threads are alive and every one of those is parked, or fails. */
        void awaitParked(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                List<Thread> alive;
                synchronized (threads) {
                    alive = threads.stream().filter(Thread::isAlive).toList();
                }
                if (alive.size() == n && alive.stream().allMatch(t -> t.getState() == Thread.State.WAITING)) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the pool's threads did not settle: made " + made() + ", alive "
                            + alive.size() + " (" + alive.stream().map(Thread::getState).toList() + "), wanted "
                            + n + " parked");
                }
                Thread.sleep(1);
            }
        }
    }

    /**
     * A plain ThreadPoolExecutor (not newThreadPool) whose handoff is closed, as try-with-resources
     * does, while tasks are queued: the queued tasks run, the threads then idle in the handoff
     * instead of dying and being replaced, a task executed after the close goes to the
     * RejectedExecutionHandler, and shutdown() still ends the pool.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aPlainPoolOutlivesTheCloseOfItsHandoffWithoutMakingThreads(String kind) throws Exception {
        CountingFactory factory = new CountingFactory();
        CountingHandler handler = new CountingHandler();
        Handoff<Runnable> handoff = Handoffs.create(spec(kind));
        ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 0L, TimeUnit.MILLISECONDS, handoff,
                factory, handler);
        try {
            CountDownLatch release = new CountDownLatch(1);
            int queued = kind.startsWith("pipe") ? 0 : QUEUE; // a pipe queues nothing
            CountDownLatch queuedRan = new CountDownLatch(queued);
            try (handoff) {
                occupyAllThreads(pool, release);
                for (int i = 0; i < queued; i++) {
                    pool.execute(queuedRan::countDown);
                }
                assertTrue(handler.rejected.isEmpty(), "all queued");
            }
            release.countDown();
            assertTrue(queuedRan.await(30, TimeUnit.SECONDS), "every task queued before the close ran");
            factory.awaitParked(THREADS);
            Thread.sleep(100); // idle a while: a pool whose threads die and are replaced makes more meanwhile
            assertEquals(THREADS, factory.made(), "threads made by the pool");
            Runnable late = () -> { };
            pool.execute(late); // no exception: the closed handoff's offer returns false
            assertEquals(Set.of(late), handler.rejected, "a task executed after the close reaches the handler");
            assertSame(pool, handler.pool.get());
            assertEquals(THREADS, factory.made(), "threads made by the pool");
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "shutdown() ends the idle threads");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A plain pool below its maximum size when its handoff is closed: a task executed then runs on
     * a new thread, which ends after it (a thread above the core size waits out its keep-alive in
     * the closed handoff's timed poll, as in an open one, and ends), while the core thread idles
     * until shutdown.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aPlainPoolBelowItsMaximumRunsTasksExecutedAfterTheCloseOnANewThread(String kind) throws Exception {
        CountingFactory factory = new CountingFactory();
        CountingHandler handler = new CountingHandler();
        Handoff<Runnable> handoff = Handoffs.create(kind.startsWith("pipe") ? "pipe:2" : spec(kind));
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 2, 200, TimeUnit.MILLISECONDS, handoff, factory, handler);
        try {
            CountDownLatch first = new CountDownLatch(1);
            pool.execute(first::countDown); // starts the core thread
            assertTrue(first.await(10, TimeUnit.SECONDS));
            factory.awaitParked(1); // waiting in the handoff's take()
            handoff.close();
            factory.awaitParked(1); // woken by the close, and waiting again
            CountDownLatch late = new CountDownLatch(1);
            pool.execute(late::countDown);
            assertTrue(late.await(10, TimeUnit.SECONDS), "the late task ran");
            assertTrue(handler.rejected.isEmpty(), "the pool had room for a thread: nothing rejected");
            factory.awaitParked(1); // the extra thread ended after its keep-alive, the core thread waits
            assertEquals(2, factory.made(), "one thread for the late task, none to replace anything");
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aPipePoolHandsTasksDirectlyToIdleThreads() throws Exception {
        ThreadPoolExecutor pool = Handoffs.newThreadPool("pipe:2,stats", 2, recording, new ThreadPoolExecutor.AbortPolicy());
        PipeHandoff<?> pipe = (PipeHandoff<?>) pool.getQueue();
        CountDownLatch ran = new CountDownLatch(2);
        pool.execute(ran::countDown); // starts thread 1 with this task
        pool.execute(ran::countDown); // starts thread 2
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        PipeHandoffTest.await("both threads wait in the pipe", () -> pipe.remainingCapacity() == 2);
        // A task that throws ends its thread; the replacement needs the slot the dying thread held.
        pool.execute(() -> {
            throw new IllegalStateException("expected by the test");
        });
        PipeHandoffTest.await("the replacement thread waits in the pipe", () -> pipe.remainingCapacity() == 2);
        CountDownLatch more = new CountDownLatch(2);
        pool.execute(more::countDown);
        PipeHandoffTest.await("a thread is back in the pipe", () -> pipe.remainingCapacity() >= 1);
        pool.execute(more::countDown);
        assertTrue(more.await(10, TimeUnit.SECONDS));
        assertEquals(3, pipe.stats().puts(), "three tasks went through the pipe");
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertNull(pipe.poll(1, TimeUnit.MILLISECONDS), "closed on termination");
    }

    @Test
    void aPipeNeedsOneSlotPerThread() {
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newThreadPool("pipe:3", 4));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newThreadPool("pipe:3,classes=2", 4),
                "importance classes give a pipe no more worker slots");
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newThreadPool("circular:3", 0));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newThreadPool("nonsense:3", 1));
        assertThrows(NullPointerException.class, () -> Handoffs.newThreadPool("pipe:3", 1, null, new ThreadPoolExecutor.AbortPolicy()));
        ThreadPoolExecutor plain = Handoffs.newThreadPool("circular:1", 1);
        assertTrue(plain.getRejectedExecutionHandler() instanceof ThreadPoolExecutor.AbortPolicy);
        plain.shutdown();
        CountDownLatch release = new CountDownLatch(1);
        ThreadPoolExecutor saturated = Handoffs.newThreadPool("pipe:1", 1, recording, new ThreadPoolExecutor.AbortPolicy());
        saturated.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThrows(RejectedExecutionException.class, () -> saturated.execute(() -> { }));
        release.countDown();
        saturated.shutdown();
    }
}
