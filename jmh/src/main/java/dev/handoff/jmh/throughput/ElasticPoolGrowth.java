/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import dev.handoff.Handoffs;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Four threads submit tasks of {@code workMicros} microseconds (a park, so that the pool's threads
 * need no CPU) to a pool that starts each iteration with one thread and may grow to
 * {@code maxThreads}: submits per second while it grows. {@code plain+abq} is a plain
 * {@link ThreadPoolExecutor} on an {@link ArrayBlockingQueue}, which starts threads beyond the core
 * only once its queue is full; {@code elastic+KIND} is {@link Handoffs#newElasticPool} on that
 * handoff kind, which starts them first. Both have room for {@code capacity} tasks and run a task
 * that finds no room in the submitter, as {@link ThreadPoolExecutor.CallerRunsPolicy} does.
 *
 * <p>The primary score is submits per second. The secondary scores: {@code callerRan}, tasks the
 * submitters ran themselves (no room and no thread to spare), and {@code largestPool}, the most
 * threads the pool had, as a submitter last read it (every 1,024th submit; JMH sums the four
 * submitters, so divide by four).
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar ElasticPoolGrowth} (JDK 21+); docs/regenerate.md renders it
 * into docs/data with JmhTable.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(2)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
@Threads(4)
public class ElasticPoolGrowth {

    /** {@code plain+abq}, or {@code elastic+} a spec's kind and options with {@code +} for commas. */
    @Param({"plain+abq", "elastic+circular", "elastic+lock-split", "elastic+pht"})
    public String pool;

    @Param("1024")
    public int capacity;

    @Param("64")
    public int maxThreads;

    @Param("50")
    public long workMicros;

    private ThreadPoolExecutor executor;
    private Runnable task;

    /** Runs a task in the submitter and counts it there. */
    private static final RejectedExecutionHandler CALLER_RUNS = (task, pool) -> {
        if (!pool.isShutdown()) {
            Submitter.CURRENT.get().callerRan++;
            task.run();
        }
    };

    @Setup(Level.Iteration)
    public void start() {
        long workNanos = TimeUnit.MICROSECONDS.toNanos(workMicros);
        task = () -> LockSupport.parkNanos(workNanos);
        if (pool.equals("plain+abq")) {
            executor = new ThreadPoolExecutor(1, maxThreads, 1, TimeUnit.SECONDS,
                    new ArrayBlockingQueue<>(capacity), CALLER_RUNS);
        } else if (pool.startsWith("elastic+")) {
            String[] kindAndOptions = pool.substring("elastic+".length()).split("\\+", 2);
            String spec = kindAndOptions[0] + ":" + capacity
                    + (kindAndOptions.length > 1 ? "," + kindAndOptions[1].replace('+', ',') : "");
            executor = Handoffs.newElasticPool(spec, 1, maxThreads, 1, TimeUnit.SECONDS,
                    Executors.defaultThreadFactory(), CALLER_RUNS);
        } else {
            throw new IllegalArgumentException("pool must be plain+abq or elastic+KIND, was " + pool);
        }
    }

    @TearDown(Level.Iteration)
    public void stop() throws InterruptedException {
        executor.shutdownNow();
        if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the pool did not terminate");
        }
    }

    /** Per submitter: the tasks it ran itself, and the pool's largest size it saw. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Submitter {
        static final ThreadLocal<Submitter> CURRENT = new ThreadLocal<>();

        public long callerRan;
        public long largestPool;
        private int submits;

        @Setup(Level.Iteration)
        public void reset() {
            callerRan = 0;
            largestPool = 0;
            submits = 0;
            CURRENT.set(this);
        }
    }

    @Benchmark
    public void submit(Submitter s) {
        executor.execute(task);
        if ((++s.submits & 1023) == 0) {
            s.largestPool = executor.getLargestPoolSize(); // takes the pool's lock: read now and then
        }
    }
}
