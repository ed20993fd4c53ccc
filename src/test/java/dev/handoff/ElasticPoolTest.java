/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Handoffs#newElasticPool}: it grows to its maximum before it queues, gives a task to a
 * waiting thread rather than start one, queues at the maximum, refuses only when the handoff is
 * full or closed there, lets idle threads above the core time out, and runs, refuses or returns
 * every task exactly once, with eight submitters racing {@code shutdown}, {@code shutdownNow} and
 * the close of its handoff, as the fixed pools do ({@link HandoffThreadPoolTest},
 * {@link ThreadPoolContract}). No thread outlives its pool.
 *
 * <p>Every buffered kind is tested with room for {@value #ROOM} tasks (a task that is not an
 * {@link Importance} goes to the least important class, so a classed spec gets that room per class).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ElasticPoolTest {

    static final int ROOM = 4;

    /** The buffered kinds, each with room for ROOM tasks. */
    static Stream<String> specs() {
        return Stream.of("circular:4", "circular:4,core=ring", "lock-split:4", "pht:4", "circular:4,classes=2");
    }

    /** Every thread a pool of this test made; all must be dead after each test. */
    private final List<Thread> made = Collections.synchronizedList(new ArrayList<>());

    private final ThreadFactory recording = task -> {
        Thread t = Executors.defaultThreadFactory().newThread(task);
        made.add(t);
        return t;
    };

    @AfterEach
    void noWorkerThreadOutlivesItsPool() throws InterruptedException {
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

    /** What {@link Accounting} does with a task the pool refuses while it runs. */
    enum WhileRunning {
        /** Records it as refused. */
        REFUSE,
        /** Runs it in the submitter, as CallerRunsPolicy: back-pressure. */
        CALLER_RUNS,
        /**
         * Waits for room with the queue's put, so that every task goes through the pool (the
         * handler of docs/thread-pools.md, "When saturated"); runs it in the submitter if the
         * handoff is closed.
         */
        WAIT_FOR_ROOM
    }

    /** Records each task it refuses once the pool is shut down, and before as {@link WhileRunning} says. */
    static final class Accounting implements RejectedExecutionHandler {
        final AtomicIntegerArray refused;
        final AtomicInteger refusals = new AtomicInteger();
        final WhileRunning whileRunning;

        Accounting(int tasks, WhileRunning whileRunning) {
            this.refused = new AtomicIntegerArray(tasks);
            this.whileRunning = whileRunning;
        }

        @Override
        public void rejectedExecution(Runnable task, ThreadPoolExecutor pool) {
            if (pool.isShutdown() || whileRunning == WhileRunning.REFUSE) {
                refuse(task);
            } else if (whileRunning == WhileRunning.CALLER_RUNS) {
                task.run();
            } else {
                waitForRoom(task, pool);
            }
        }

        private void waitForRoom(Runnable task, ThreadPoolExecutor pool) {
            try {
                pool.getQueue().put(task);
            } catch (HandoffClosedException closed) {
                if (pool.isShutdown()) {
                    refuse(task); // closed by the pool's termination
                } else {
                    task.run(); // closed under the running pool
                }
                return;
            } catch (InterruptedException e) {
                throw new AssertionError("a submitter was interrupted", e);
            }
            if (pool.isShutdown() && pool.remove(task)) {
                refuse(task); // as execute() rechecks: the pool may have let its threads go meanwhile
            }
        }

        private void refuse(Runnable task) {
            refusals.incrementAndGet();
            if (task instanceof Job job) {
                refused.incrementAndGet(job.id());
            }
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting: " + what);
            }
            Thread.sleep(1);
        }
    }

    /** A task that holds its thread until release opens (or the pool interrupts it). */
    private static Runnable holding(CountDownLatch release, CountDownLatch started) {
        return () -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    // ---- Growth, queueing, refusal, time-out ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void growsToItsMaximumBeforeItQueuesAndRefusesOnlyWhenFullThere(String spec) throws Exception {
        int core = 2;
        int max = 6;
        Accounting handler = new Accounting(ROOM + 1, WhileRunning.REFUSE);
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, core, max, 1, TimeUnit.MINUTES, recording, handler);
        try {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(max);
            for (int i = 1; i <= max; i++) {
                pool.execute(holding(release, started));
                assertEquals(i, pool.getPoolSize(), "task " + i + " started a thread");
                assertEquals(0, pool.getQueue().size(), "nothing queued while the pool can grow");
            }
            assertTrue(started.await(20, TimeUnit.SECONDS));
            AtomicIntegerArray runs = new AtomicIntegerArray(ROOM + 1);
            for (int id = 0; id < ROOM; id++) {
                pool.execute(new Job(id, runs));
                assertEquals(id + 1, pool.getQueue().size(), "at the maximum, queued");
            }
            assertEquals(max, pool.getPoolSize());
            assertEquals(0, handler.refusals.get(), "nothing refused while the handoff had room");
            pool.execute(new Job(ROOM, runs));
            assertEquals(1, handler.refusals.get(), "refused: at the maximum, and the handoff full");
            release.countDown();
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            for (int id = 0; id < ROOM; id++) {
                assertEquals(1, runs.get(id), "queued task " + id);
            }
            assertEquals(0, runs.get(ROOM), "the refused task did not run");
            assertTrue(pool.getQueue() instanceof Handoff<?> h && h.isClosed(), "closed on termination");
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void aTaskGoesToAWaitingThreadBeforeANewOneStarts(String spec) throws Exception {
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, 1, 4, 1, TimeUnit.MINUTES, recording,
                new ThreadPoolExecutor.AbortPolicy());
        try {
            CountDownLatch first = new CountDownLatch(1);
            pool.execute(first::countDown);
            assertTrue(first.await(20, TimeUnit.SECONDS));
            await("the core thread waits for a task", () -> made.get(0).getState() == Thread.State.WAITING);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(2);
            pool.execute(holding(release, started));
            assertTrue(await(started, 1), "ran on the waiting thread");
            assertEquals(1, pool.getPoolSize(), "no new thread while one waited");
            pool.execute(holding(release, started));
            assertTrue(started.await(20, TimeUnit.SECONDS));
            assertEquals(2, pool.getPoolSize(), "the only thread was busy: a new one");
            release.countDown();
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean await(CountDownLatch latch, int downTo) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (latch.getCount() > downTo) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void idleThreadsAboveTheCoreTimeOut(String spec) throws Exception {
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, 1, 4, 20, TimeUnit.MILLISECONDS, recording,
                new ThreadPoolExecutor.AbortPolicy());
        try {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(4);
            for (int i = 0; i < 4; i++) {
                pool.execute(holding(release, started));
            }
            assertTrue(started.await(20, TimeUnit.SECONDS));
            assertEquals(4, pool.getPoolSize());
            release.countDown();
            await("the threads above the core end", () -> pool.getPoolSize() == 1);
            assertEquals(4, pool.getLargestPoolSize());
            assertEquals(4, made.size(), "no thread replaced");
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * No core thread, and threads that time out at once: tasks keep arriving while the pool's
     * threads come and go, the case where a task queued at the maximum could find no thread.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void aPoolWithoutCoreThreadsRunsEveryTaskWhileItsThreadsComeAndGo(String spec) throws Exception {
        int submitters = 4;
        int perSubmitter = 5_000;
        Accounting handler = new Accounting(submitters * perSubmitter, WhileRunning.CALLER_RUNS);
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, 0, 2, 0, TimeUnit.MILLISECONDS, recording, handler);
        AtomicIntegerArray runs = new AtomicIntegerArray(submitters * perSubmitter);
        submitFrom(submitters, perSubmitter, id -> {
            if (ThreadLocalRandom.current().nextInt(64) == 0) {
                Thread.yield(); // now and then a pause, so that the threads time out
            }
            pool.execute(new Job(id, runs));
        });
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        for (int id = 0; id < runs.length(); id++) {
            assertEquals(1, runs.get(id), "task " + id);
        }
        assertEquals(0, handler.refusals.get());
    }

    // ---- Exactly once: a million tasks from eight submitters, racing shutdown and close ----

    enum Race { NONE, SHUTDOWN, SHUTDOWN_NOW, CLOSE }

    static Stream<Arguments> specsAndRaces() {
        return specs().flatMap(spec -> Stream.of(Race.values()).map(race -> Arguments.of(spec, race)));
    }

    /**
     * Eight submitters execute 1,000,000 tasks (a task refused while the pool runs waits for room
     * in the submitter, so that every task goes through the pool; once the pool is shut down it is
     * recorded as refused); a racer shuts the pool down, shuts it down now, or closes its handoff
     * after a random number of tasks. Every task must then have run once, or been refused once, or been returned once
     * by shutdownNow: never two of these, never none.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("specsAndRaces")
    void everyTaskRunsOrIsRefusedOrReturnedExactlyOnce(String spec, Race race) throws Exception {
        int submitters = 8;
        int perSubmitter = 125_000;
        int tasks = submitters * perSubmitter;
        Accounting handler = new Accounting(tasks, WhileRunning.WAIT_FOR_ROOM);
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, 2, 8, 10, TimeUnit.MILLISECONDS, recording, handler);
        AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
        AtomicInteger submitted = new AtomicInteger();
        int raceAfter = ThreadLocalRandom.current().nextInt(tasks);
        List<Runnable> returned = Collections.synchronizedList(new ArrayList<>());
        Thread racer = Thread.ofPlatform().start(() -> {
            while (submitted.get() < raceAfter) {
                Thread.onSpinWait();
            }
            switch (race) {
                case NONE -> { }
                case SHUTDOWN -> pool.shutdown();
                case SHUTDOWN_NOW -> returned.addAll(pool.shutdownNow());
                case CLOSE -> ((Handoff<?>) pool.getQueue()).close();
            }
        });
        List<Runnable> stranded = List.of();
        try {
            submitFrom(submitters, perSubmitter, id -> {
                submitted.incrementAndGet();
                pool.execute(new Job(id, runs));
            });
            racer.join();
            pool.shutdown();
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "terminated");
        } finally {
            stranded = pool.shutdownNow(); // what a terminated pool left in its handoff: nothing, if correct
        }
        int[] returnedCount = new int[tasks];
        for (Runnable r : returned) {
            returnedCount[((Job) r).id()]++;
        }
        int ran = 0;
        List<String> wrong = new ArrayList<>();
        for (int id = 0; id < tasks; id++) {
            int r = runs.get(id);
            ran += r;
            if (r + handler.refused.get(id) + returnedCount[id] != 1) {
                wrong.add("task " + id + " ran " + r + ", refused " + handler.refused.get(id)
                        + ", returned " + returnedCount[id] + " time(s)");
            }
        }
        assertEquals(List.of(), wrong.subList(0, Math.min(5, wrong.size())), wrong.size()
                + " task(s) not accounted exactly once; left in the terminated pool's handoff: "
                + stranded.size());
        assertEquals(List.of(), stranded, "tasks left in the terminated pool's handoff");
        if (race == Race.NONE || race == Race.CLOSE) {
            assertEquals(tasks, ran, "a running pool runs every task");
        }
        assertTrue(((Handoff<?>) pool.getQueue()).isClosed(), "closed on termination");
    }

    /** Runs {@code submit} for the ids 0 .. submitters * perSubmitter - 1, from that many threads. */
    private static void submitFrom(int submitters, int perSubmitter, IdConsumer submit) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < submitters; s++) {
            int first = s * perSubmitter;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int id = first; id < first + perSubmitter; id++) {
                    submit.accept(id);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    @FunctionalInterface
    private interface IdConsumer {
        void accept(int id);
    }

    /**
     * A lock-split queue whose next offer first runs a hook, and whose close waits until that
     * offer has inserted: it holds the pool's termination between its last look at the queue and
     * the close, the one moment at which a task queued at the maximum would be stranded. The pool
     * gets {@link #handoff}, a proxy that passes every other call to the queue.
     */
    static final class TerminationGate implements InvocationHandler {
        volatile Runnable beforeNextOffer;
        final CountDownLatch closing = new CountDownLatch(1);
        final CountDownLatch inserted = new CountDownLatch(1);
        private final LockSplitQueue<Runnable> queue;

        /** What the pool holds: the queue, its offer(e) and close() held by the gate. */
        final Handoff<Runnable> handoff;

        @SuppressWarnings("unchecked") // a proxy of Handoff, passing Runnables to a queue of them
        TerminationGate(int capacity) {
            this.queue = new LockSplitQueue<>(capacity);
            this.handoff = (Handoff<Runnable>) Proxy.newProxyInstance(Handoff.class.getClassLoader(),
                    new Class<?>[] {Handoff.class}, this);
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getName().equals("offer") && method.getParameterCount() == 1) {
                return offer((Runnable) args[0]);
            }
            if (method.getName().equals("close") && method.getParameterCount() == 0) {
                close();
                return null;
            }
            try {
                return method.invoke(queue, args);
            } catch (InvocationTargetException thrown) {
                throw thrown.getCause();
            }
        }

        private boolean offer(Runnable task) {
            Runnable hook = beforeNextOffer;
            beforeNextOffer = null;
            if (hook == null) {
                return queue.offer(task);
            }
            hook.run();
            boolean accepted = queue.offer(task);
            inserted.countDown();
            return accepted;
        }

        private void close() {
            closing.countDown();
            try {
                inserted.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            queue.close();
        }

        boolean isEmpty() {
            return queue.isEmpty();
        }
    }

    /**
     * A task that finds the pool at its maximum is queued by the pool's handler; if the pool
     * shuts down and terminates between the handler's look at it and the insert, the handler
     * must take the task back out and refuse it, as execute() does after its own offer.
     */
    @Test
    void aTaskQueuedAtTheMaximumAsThePoolTerminatesIsRefusedNotStranded() throws Exception {
        TerminationGate gate = new TerminationGate(4);
        Accounting handler = new Accounting(1, WhileRunning.REFUSE);
        ThreadPoolExecutor pool = dev.handoff.internal.pool.ElasticPool.over(gate.handoff, 1, 2, 1, TimeUnit.MINUTES,
                recording, handler);
        try {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(2);
            pool.execute(holding(release, started));
            pool.execute(holding(release, started));
            assertTrue(started.await(20, TimeUnit.SECONDS));
            gate.beforeNextOffer = () -> {
                pool.shutdown(); // the pool terminates once its threads are done and the queue is empty
                release.countDown();
                try {
                    assertTrue(gate.closing.await(20, TimeUnit.SECONDS), "the pool is closing its handoff");
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            };
            AtomicIntegerArray runs = new AtomicIntegerArray(1);
            pool.execute(new Job(0, runs));
            assertTrue(pool.awaitTermination(20, TimeUnit.SECONDS));
            assertEquals(1, handler.refused.get(0), "refused");
            assertEquals(0, runs.get(0));
            assertTrue(gate.isEmpty(), "not stranded in the terminated pool's handoff");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A pool without core threads: a task that finds it at its maximum is queued by the pool's
     * handler; if the last thread ends between the handler's look and the insert, nothing would
     * take the task, so the handler takes it back out and executes it again, on a new thread.
     */
    @Test
    void aTaskQueuedAtTheMaximumAsTheLastThreadEndsStillRuns() throws Exception {
        TerminationGate gate = new TerminationGate(4);
        gate.inserted.countDown(); // this test does not hold the close
        Accounting handler = new Accounting(1, WhileRunning.REFUSE);
        ThreadPoolExecutor pool = dev.handoff.internal.pool.ElasticPool.over(gate.handoff, 0, 1, 0, TimeUnit.MILLISECONDS,
                recording, handler);
        try {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            pool.execute(holding(release, started));
            assertTrue(started.await(20, TimeUnit.SECONDS));
            Thread only = made.get(0);
            gate.beforeNextOffer = () -> {
                release.countDown();
                try {
                    only.join(TimeUnit.SECONDS.toMillis(20)); // its keep-alive is 0: it ends at once
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                assertFalse(only.isAlive());
            };
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(20, TimeUnit.SECONDS), "ran, on a new thread");
            assertEquals(0, handler.refusals.get());
            pool.shutdown();
            assertTrue(pool.awaitTermination(20, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- shutdownNow, and a closed handoff ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void shutdownNowReturnsExactlyTheTasksThatDidNotRun(String spec) throws Exception {
        Accounting handler = new Accounting(1, WhileRunning.REFUSE);
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, 1, 3, 1, TimeUnit.MINUTES, recording, handler);
        CountDownLatch started = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            pool.execute(holding(new CountDownLatch(1), started)); // released only by shutdownNow
        }
        assertTrue(started.await(20, TimeUnit.SECONDS));
        AtomicIntegerArray runs = new AtomicIntegerArray(ROOM);
        for (int id = 0; id < ROOM; id++) {
            pool.execute(new Job(id, runs));
        }
        List<Runnable> notRun = pool.shutdownNow();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(ROOM, notRun.size(), "the queued tasks");
        for (int id = 0; id < ROOM; id++) {
            assertEquals(0, runs.get(id));
        }
        assertEquals(0, handler.refusals.get());
    }

    /**
     * The pool's handoff closed under it: a new task runs on a new thread while the pool is below
     * its maximum (and that thread ends after it) and is refused at the maximum, the core threads wait in the closed
     * handoff instead of dying and being replaced (the pool-worker rule through the pool's queue),
     * and shutdown ends the pool.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void aClosedHandoffMakesNoThreadChurn(String spec) throws Exception {
        Accounting handler = new Accounting(1, WhileRunning.REFUSE);
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, 2, 3, 200, TimeUnit.MILLISECONDS, recording, handler);
        try {
            CountDownLatch warm = new CountDownLatch(2);
            pool.execute(warm::countDown);
            pool.execute(warm::countDown);
            assertTrue(warm.await(20, TimeUnit.SECONDS));
            await("the two core threads wait", () -> made.size() == 2
                    && made.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
            ((Handoff<?>) pool.getQueue()).close();
            Thread.sleep(50); // a pool whose threads die and are replaced makes more meanwhile
            assertEquals(2, made.size(), "no thread replaced after the close");
            CountDownLatch late = new CountDownLatch(1);
            pool.execute(late::countDown);
            assertTrue(late.await(20, TimeUnit.SECONDS), "ran on a new thread: the pool could grow");
            await("the thread above the core ends: its timed poll waits out the keep-alive and finds nothing",
                    () -> pool.getPoolSize() == 2);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            pool.execute(holding(release, started));
            assertTrue(started.await(20, TimeUnit.SECONDS), "on a third thread, the last the pool may start");
            pool.execute(() -> { });
            assertEquals(1, handler.refusals.get(), "at the maximum with the handoff closed: refused");
            release.countDown();
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- Hand-over to a parked thread ----

    /**
     * The thread that waited last gets the next task, so that under a light, steady load one
     * thread serves it and the others, idle, reach their keep-alive and end. A pool that gave
     * each task to the thread that waited longest would spread the load over every thread and
     * keep them all.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void underALightLoadTheIdleThreadsAboveTheCoreEnd(String spec) throws Exception {
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, 1, 4, 200, TimeUnit.MILLISECONDS, recording,
                new ThreadPoolExecutor.AbortPolicy());
        try {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(4);
            for (int i = 0; i < 4; i++) {
                pool.execute(holding(release, started));
            }
            assertTrue(started.await(20, TimeUnit.SECONDS));
            release.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (pool.getPoolSize() > 1) { // a task every 5 ms, each done before the next
                assertTrue(System.nanoTime() < deadline, "still " + pool.getPoolSize() + " threads");
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(done::countDown);
                assertTrue(done.await(20, TimeUnit.SECONDS));
                Thread.sleep(5);
            }
            assertEquals(4, made.size(), "no thread replaced");
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Tasks queued at the maximum while the pool's threads come to wait: each round, four
     * submitters execute one task each on a pool of two threads and wait for all four to run,
     * without a shutdown that would wake the threads. A task left in the handoff while both
     * threads park (an insert that woke nobody, a thread that parked without looking again)
     * stops its round.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void noTaskQueuedAtTheMaximumWaitsWhileAThreadParks(String spec) throws Exception {
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, 2, 2, 1, TimeUnit.MINUTES, recording,
                new ThreadPoolExecutor.AbortPolicy());
        try {
            int submitters = 4;
            int rounds = 5_000;
            java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(submitters);
            AtomicInteger stuck = new AtomicInteger();
            submitFrom(submitters, rounds, round -> {
                if (stuck.get() > 0) {
                    return; // the test has failed: the remaining rounds are skipped
                }
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                try {
                    if (!ran.await(5, TimeUnit.SECONDS)) {
                        stuck.incrementAndGet();
                        barrier.reset(); // the others leave the barrier, and then skip
                        return;
                    }
                    barrier.await(); // the next round starts with both threads idle
                } catch (java.util.concurrent.BrokenBarrierException e) {
                    // another submitter's task was stuck
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            assertEquals(0, stuck.get(), "tasks that waited 5 s in the handoff while the threads were parked");
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A thread that is not the pool's, parked in the pool's queue, learns of the close as the
     * handoff's rules say: {@code take()} throws {@link HandoffClosedException}; an interrupt
     * ends the wait with {@link InterruptedException}.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void aCallerParkedInTheQueueWakesAtTheCloseAndAtAnInterrupt(String spec) throws Exception {
        ThreadPoolExecutor pool = Handoffs.newElasticPool(spec, 1, 2, 1, TimeUnit.MINUTES, recording,
                new ThreadPoolExecutor.AbortPolicy());
        try {
            java.util.concurrent.BlockingQueue<Runnable> queue = pool.getQueue();
            java.util.concurrent.atomic.AtomicReference<Throwable> interrupted = new java.util.concurrent.atomic.AtomicReference<>();
            Thread first = Thread.ofPlatform().start(() -> {
                try {
                    queue.take();
                } catch (Throwable t) {
                    interrupted.set(t);
                }
            });
            await("the caller parks", () -> first.getState() == Thread.State.WAITING);
            first.interrupt();
            first.join(TimeUnit.SECONDS.toMillis(20));
            assertTrue(interrupted.get() instanceof InterruptedException, "interrupted: " + interrupted.get());

            java.util.concurrent.atomic.AtomicReference<Throwable> closed = new java.util.concurrent.atomic.AtomicReference<>();
            Thread second = Thread.ofPlatform().start(() -> {
                try {
                    queue.take();
                } catch (Throwable t) {
                    closed.set(t);
                }
            });
            await("the caller parks", () -> second.getState() == Thread.State.WAITING);
            ((Handoff<?>) queue).close();
            second.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(second.isAlive(), "woken by the close");
            assertTrue(closed.get() instanceof HandoffClosedException, "closed: " + closed.get());
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- Arguments and the handler ----

    @Test
    void theArgumentsAreChecked() {
        TimeUnit s = TimeUnit.SECONDS;
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newElasticPool("pipe:4", 1, 4, 1, s));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newElasticPool("pipe:4,classes=2", 1, 4, 1, s));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newElasticPool("circular:4", 5, 4, 1, s));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newElasticPool("circular:4", -1, 4, 1, s));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newElasticPool("circular:4", 0, 0, 1, s));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newElasticPool("circular:4", 1, 4, -1, s));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newElasticPool("nonsense:4", 1, 4, 1, s));
        assertThrows(NullPointerException.class, () -> Handoffs.newElasticPool("circular:4", 1, 4, 1, null));
        assertThrows(NullPointerException.class, () -> Handoffs.newElasticPool("circular:4", 1, 4, 1, s, null,
                new ThreadPoolExecutor.AbortPolicy()));
        assertThrows(NullPointerException.class, () -> Handoffs.newElasticPool("circular:4", 1, 4, 1, s,
                Executors.defaultThreadFactory(), null));
        ThreadPoolExecutor fixed = Handoffs.newElasticPool("circular:4", 2, 2, 0, s);
        assertTrue(fixed.getRejectedExecutionHandler() instanceof ThreadPoolExecutor.AbortPolicy);
        fixed.shutdown();
    }

    @Test
    void aHandlerSetOnThePoolReplacesTheUsersAndTheQueueingAtTheMaximumStays() throws Exception {
        ThreadPoolExecutor pool = Handoffs.newElasticPool("circular:1", 0, 1, 1, TimeUnit.MINUTES, recording,
                new ThreadPoolExecutor.AbortPolicy());
        try {
            Accounting handler = new Accounting(1, WhileRunning.REFUSE);
            pool.setRejectedExecutionHandler(handler);
            assertSame(handler, pool.getRejectedExecutionHandler());
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            pool.execute(holding(release, started));
            assertTrue(started.await(20, TimeUnit.SECONDS));
            CountDownLatch queued = new CountDownLatch(1);
            pool.execute(queued::countDown);
            assertEquals(1, pool.getQueue().size(), "queued at the maximum");
            pool.execute(() -> { });
            assertEquals(1, handler.refusals.get(), "the new handler refused the task that found no room");
            release.countDown();
            assertTrue(queued.await(20, TimeUnit.SECONDS));
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS) // a hang here is the failure
    void aNonPositiveTimeoutNeverWaitsNotEvenTheLeastLong() throws InterruptedException {
        java.util.concurrent.BlockingQueue<Runnable> queue =
                Handoffs.newElasticPool("circular:2", 0, 1, 1, TimeUnit.MINUTES).getQueue();
        Handoff<Runnable> handoff = (Handoff<Runnable>) queue;
        assertEquals(null, queue.poll(0, TimeUnit.NANOSECONDS));
        assertEquals(null, queue.poll(-1, TimeUnit.SECONDS));
        assertEquals(null, queue.poll(Long.MIN_VALUE, TimeUnit.NANOSECONDS)); // now + MIN_VALUE overflows
        assertEquals(null, handoff.take(Long.MIN_VALUE, TimeUnit.HOURS));
        Runnable task = () -> { };
        assertTrue(queue.add(task));
        assertSame(task, queue.poll(Long.MIN_VALUE, TimeUnit.NANOSECONDS), "what is there is taken without waiting");
    }
}
