/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A task keeps its importance class through {@code submit}, {@code invokeAll} and
 * {@code invokeAny} in the pools of {@link Handoffs}, and through {@code submit} and
 * {@code invokeAll} in a pool of one's own whose {@code newTaskFor} returns
 * {@link Importance#futureTask} ("Tasks in a thread pool" in {@link Importance}).
 *
 * <p>Each scene saturates a pool of one thread: a first task holds the thread on a latch, the
 * others queue, unimportant ones first; then the latch opens and the test reads the order in
 * which the queued tasks started. Fewer than {@code fair=16} takes happen, so no fair take lets an
 * unimportant task through first, and the order is exact, not statistical.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolImportanceTest {

    /** The order in which tasks started, by name. */
    private final List<String> startOrder = Collections.synchronizedList(new ArrayList<>());

    /** A runnable that names its class and records that it started. */
    record ClassedRun(int importanceClass, String name, List<String> log) implements Runnable, Importance {
        @Override
        public void run() {
            log.add(name);
        }
    }

    /** A callable that names its class, records that it started, and returns its name. */
    record ClassedCall(int importanceClass, String name, List<String> log) implements Callable<String>, Importance {
        @Override
        public String call() {
            log.add(name);
            return name;
        }
    }

    /** A ThreadPoolExecutor of one's own, with the two lines docs/thread-pools.md shows. */
    static final class OwnPool extends ThreadPoolExecutor {
        OwnPool(BlockingQueue<Runnable> queue) {
            super(1, 1, 0L, TimeUnit.MILLISECONDS, queue);
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Runnable task, T result) {
            return Importance.futureTask(task, result);
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Callable<T> task) {
            return Importance.futureTask(task);
        }
    }

    /** One-thread pools over two importance classes, each built fresh. */
    static Stream<Arguments> poolsOfTheLibrary() {
        return Stream.of(
                pool("newThreadPool circular", () -> Handoffs.newThreadPool("circular:64,classes=2", 1)),
                pool("newElasticPool circular",
                        () -> Handoffs.newElasticPool("circular:64,classes=2", 1, 1, 1, TimeUnit.MINUTES)),
                pool("newThreadPool lock-split", () -> Handoffs.newThreadPool("lock-split:64,classes=2", 1)),
                pool("newElasticPool pht",
                        () -> Handoffs.newElasticPool("pht:64,classes=2", 1, 1, 1, TimeUnit.MINUTES)));
    }

    /** The library's pools and one of one's own over a handoff with classes. */
    static Stream<Arguments> poolsThatKeepTheClassThroughSubmit() {
        return Stream.concat(poolsOfTheLibrary(), Stream.of(
                pool("own ThreadPoolExecutor, newTaskFor = Importance.futureTask",
                        () -> new OwnPool(Handoffs.create("circular:64,classes=2")))));
    }

    private static Arguments pool(String name, Supplier<ThreadPoolExecutor> pool) {
        return Arguments.of(name, pool);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("poolsThatKeepTheClassThroughSubmit")
    void submittedImportantTasksStartBeforeUnimportantOnesQueuedEarlier(String name, Supplier<ThreadPoolExecutor> make)
            throws Exception {
        ThreadPoolExecutor pool = make.get();
        try {
            CountDownLatch release = holdTheOnlyThread(pool);
            List<Future<?>> futures = new ArrayList<>();
            List<String> unimportant = List.of("plain runnable", "plain callable", "class-1 runnable", "class-1 call");
            futures.add(pool.submit((Runnable) () -> startOrder.add("plain runnable"))); // no class: K - 1
            futures.add(pool.submit((Callable<Boolean>) () -> startOrder.add("plain callable")));
            futures.add(pool.submit(new ClassedRun(1, "class-1 runnable", startOrder)));
            futures.add(pool.submit(new ClassedCall(1, "class-1 call", startOrder)));

            List<String> important = List.of("submit(Runnable)", "submit(Runnable, T)", "submit(Callable)",
                    "invokeAll 1", "invokeAll 2");
            Future<?> run = pool.submit(new ClassedRun(0, "submit(Runnable)", startOrder));
            Future<String> runWithResult = pool.submit(new ClassedRun(0, "submit(Runnable, T)", startOrder), "done");
            Future<String> call = pool.submit(new ClassedCall(0, "submit(Callable)", startOrder));
            AtomicReference<List<Future<String>>> invoked = new AtomicReference<>();
            Thread invoker = Thread.ofPlatform().start(() -> {
                try {
                    invoked.set(pool.invokeAll(List.of(new ClassedCall(0, "invokeAll 1", startOrder),
                            new ClassedCall(0, "invokeAll 2", startOrder))));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            awaitQueued(pool, unimportant.size() + important.size());
            release.countDown();

            assertNull(run.get());
            assertEquals("done", runWithResult.get());
            assertEquals("submit(Callable)", call.get());
            invoker.join();
            assertEquals(List.of("invokeAll 1", "invokeAll 2"), results(invoked.get()));
            for (Future<?> f : futures) {
                f.get();
            }
            assertStartedFirst(important, unimportant);
        } finally {
            shutDown(pool);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("poolsOfTheLibrary")
    void invokeAnyTasksStartBeforeUnimportantOnesQueuedEarlier(String name, Supplier<ThreadPoolExecutor> make)
            throws Exception {
        ThreadPoolExecutor pool = make.get();
        try {
            CountDownLatch release = holdTheOnlyThread(pool);
            List<String> unimportant = List.of("plain 1", "plain 2", "plain 3");
            for (String task : unimportant) {
                pool.execute(() -> startOrder.add(task));
            }
            Callable<String> fails = () -> {
                startOrder.add("invokeAny, fails");
                throw new IllegalStateException("the first attempt fails");
            };
            // invokeAny starts the one that fails first; it names no class, so it queues last
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread invoker = Thread.ofPlatform().start(() -> {
                try {
                    outcome.set(pool.invokeAny(List.of(fails, new ClassedCall(0, "invokeAny, succeeds", startOrder))));
                } catch (Exception e) {
                    outcome.set(e);
                }
            });
            awaitQueued(pool, unimportant.size() + 2);
            release.countDown();
            invoker.join();

            assertEquals("invokeAny, succeeds", outcome.get());
            assertEquals("invokeAny, succeeds", startOrder.get(0), "the class-0 task started first: " + startOrder);
        } finally {
            shutDown(pool);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("poolsOfTheLibrary")
    void invokeAnyReportsFailureAndTimeoutAsTheJdkDoes(String name, Supplier<ThreadPoolExecutor> make)
            throws Exception {
        ThreadPoolExecutor pool = make.get();
        try {
            IllegalStateException thrown = new IllegalStateException("fails");
            ExecutionException none = assertThrows(ExecutionException.class, () -> pool.invokeAny(
                    List.<Callable<String>>of(() -> { throw thrown; }, () -> { throw thrown; })));
            assertSame(thrown, none.getCause());
            assertThrows(IllegalArgumentException.class, () -> pool.invokeAny(List.<Callable<String>>of()));
            assertThrows(NullPointerException.class, () -> pool.invokeAny(null));

            CountDownLatch release = holdTheOnlyThread(pool);
            assertThrows(TimeoutException.class, () -> pool.invokeAny(
                    List.of(new ClassedCall(0, "timed out", startOrder)), 20, TimeUnit.MILLISECONDS));
            release.countDown();
            assertEquals("ran", pool.invokeAny(List.of(new ClassedCall(0, "ran", startOrder)), 30, TimeUnit.SECONDS));
            assertEquals(List.of("ran"), startOrder, "the task that timed out was cancelled before it started");
        } finally {
            shutDown(pool);
        }
    }

    /** The flaw the overrides fix, shown on a plain pool: submit's FutureTask names no class. */
    @Test
    void aPlainThreadPoolExecutorLosesTheClassThroughSubmit() throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0L, TimeUnit.MILLISECONDS,
                Handoffs.create("circular:64,classes=2"));
        try {
            CountDownLatch release = holdTheOnlyThread(pool);
            Future<?> unimportant = pool.submit(new ClassedRun(1, "unimportant", startOrder));
            Future<?> important = pool.submit(new ClassedRun(0, "important", startOrder));
            awaitQueued(pool, 2);
            release.countDown();
            important.get();
            unimportant.get();
            assertEquals(List.of("unimportant", "important"), startOrder, "both queued in class K - 1, in order");
        } finally {
            shutDown(pool);
        }
    }

    @Test
    void theFutureNamesTheClassOfAClassedTaskOnly() {
        Classifier<Object> byImportance = Classifier.byImportance(3);
        RunnableFuture<String> run = Importance.futureTask(new ClassedRun(1, "run", startOrder), "r");
        RunnableFuture<String> call = Importance.futureTask(new ClassedCall(0, "call", startOrder));
        assertEquals(1, byImportance.classOf(run));
        assertEquals(0, byImportance.classOf(call));

        RunnableFuture<String> plainRun = Importance.futureTask(() -> { }, "r");
        RunnableFuture<String> plainCall = Importance.futureTask(() -> "c");
        assertFalse(plainRun instanceof Importance, "a task that names no class gets a plain FutureTask");
        assertFalse(plainCall instanceof Importance);
        assertEquals(2, byImportance.classOf(plainRun));
        assertEquals(2, byImportance.classOf(plainCall));

        assertThrows(NullPointerException.class, () -> Importance.futureTask((Runnable) null, "r"));
        assertThrows(NullPointerException.class, () -> Importance.futureTask((Callable<String>) null));
    }

    @Test
    void theFutureBehavesAsAFutureTask() throws Exception {
        RunnableFuture<String> run = Importance.futureTask(new ClassedRun(0, "run", startOrder), "result");
        assertInstanceOf(FutureTask.class, run);
        assertFalse(run.isDone());
        run.run();
        assertTrue(run.isDone());
        assertEquals("result", run.get());
        run.run(); // a FutureTask runs once
        assertEquals(List.of("run"), startOrder);

        IllegalStateException thrown = new IllegalStateException("fails");
        record Failing(IllegalStateException thrown) implements Callable<String>, Importance {
            @Override
            public String call() {
                throw thrown;
            }

            @Override
            public int importanceClass() {
                return 0;
            }
        }
        RunnableFuture<String> failing = Importance.futureTask(new Failing(thrown));
        failing.run();
        assertSame(thrown, assertThrows(ExecutionException.class, failing::get).getCause());
        assertFalse(failing.isCancelled());

        RunnableFuture<String> cancelled = Importance.futureTask(new ClassedCall(0, "cancelled", startOrder));
        assertTrue(cancelled.cancel(true));
        assertTrue(cancelled.isCancelled());
        assertTrue(cancelled.isDone());
        cancelled.run();
        assertThrows(CancellationException.class, cancelled::get);
        assertEquals(Future.State.CANCELLED, cancelled.state());
        assertEquals(List.of("run"), startOrder, "a cancelled future does not run its task");
        assertFalse(cancelled.cancel(true), "done already");
    }

    /** Starts the pool's only thread on a task that waits for the latch returned; returns once it runs. */
    private static CountDownLatch holdTheOnlyThread(ThreadPoolExecutor pool) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        running.await();
        return release;
    }

    /** Waits until the pool's queue holds n tasks (invokeAll and invokeAny queue from other threads). */
    private static void awaitQueued(ThreadPoolExecutor pool, int n) throws InterruptedException {
        while (pool.getQueue().size() < n) {
            Thread.sleep(1);
        }
        assertEquals(n, pool.getQueue().size());
    }

    private void assertStartedFirst(List<String> first, List<String> then) {
        List<String> order = List.copyOf(startOrder);
        assertEquals(first.size() + then.size(), order.size(), "every task ran once: " + order);
        Set<String> head = new HashSet<>(order.subList(0, first.size()));
        assertEquals(Set.copyOf(first), head, "the important tasks started first: " + order);
    }

    private static List<String> results(List<Future<String>> futures) throws Exception {
        List<String> results = new ArrayList<>();
        for (Future<String> f : futures) {
            results.add(f.get());
        }
        return results;
    }

    private static void shutDown(ThreadPoolExecutor pool) throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "terminated");
    }
}
