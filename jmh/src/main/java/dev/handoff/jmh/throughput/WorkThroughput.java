/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import dev.handoff.jmh.Queues;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.Control;
import org.openjdk.jmh.infra.IterationParams;

/**
 * Producers and consumers that work between their operations, as users' threads do: before each
 * {@code put} a producer, and after each {@code take} a consumer, spends a geometric number of
 * {@link Blackhole#consumeCPU(long)} tokens of mean {@code work} (100: a fraction of a
 * microsecond; 1,000: about two microseconds on the 2-CPU reference machine), drawn once per
 * thread into a table, so that no random number is drawn in the loop. Geometric, as in Koval et
 * al.'s channel benchmarks (PPoPP'23): most gaps short, a few long, so that the queue is neither
 * always full nor always empty.
 *
 * <p>Shapes: 1P/1C ({@code p1c1}), 4P/1C ({@code p4c1}, the consumer is the bottleneck, as behind
 * a logger), 1P/4C ({@code p1c4}, the producer is), 4P/4C ({@code p4c4}) and 8P/8C
 * ({@code p8c8}); at capacity 16 and 1,024. On a machine with fewer CPUs than threads a shape is
 * oversubscribed, and the pages say so.
 *
 * <p>Read the secondary scores of {@link Tally} ({@code handoffs}, {@code cpuCores},
 * {@code processCores}, {@code switchesPerHandoff}), as for {@link HandoffThroughput}.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar WorkThroughput -p kind=abq,circular -p work=100}
 * (JDK 21+); the suite ({@code dev.handoff.jmh.report.Suite}) runs it for docs/benchmarks.md.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(2)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
public class WorkThroughput {

    /** A {@link Queues} name. */
    @Param({"abq", "lbq", "jox", "circular", "circular+core=ring", "circular+core=cells", "lock-split",
            "pht+slots=cas+search=cursor"})
    public String kind;

    @Param({"16", "1024"})
    public int capacity;

    /** The mean of the geometric number of tokens each thread spends between its operations. */
    @Param({"100", "1000"})
    public int work;

    private MeasuredQueue queue;

    @Setup(Level.Iteration)
    public void open(IterationParams iteration) {
        queue = MeasuredQueue.open(kind, capacity, iteration);
    }

    @TearDown(Level.Iteration)
    public void close() {
        queue.close();
    }

    /** A thread's gaps of work, and a producer's walk over the elements. */
    @State(Scope.Thread)
    public static class Worker {
        private static final int GAPS = 4096;

        private final long[] gaps = new long[GAPS];
        private int nextGap;
        private int nextElement = (int) (Thread.currentThread().threadId() * 64);

        @Setup(Level.Trial)
        public void drawGaps(WorkThroughput benchmark) {
            SplittableRandom random = new SplittableRandom(Thread.currentThread().threadId());
            for (int i = 0; i < GAPS; i++) {
                gaps[i] = geometric(random, benchmark.work);
            }
        }

        /** Spends the next gap of work. */
        void work() {
            Blackhole.consumeCPU(gaps[nextGap++ & (GAPS - 1)]);
        }

        Integer nextElement() {
            return MeasuredQueue.element(nextElement++);
        }
    }

    /**
     * A geometric draw of the given mean: the number of failures before the first success of
     * trials that succeed with probability 1 / (mean + 1).
     */
    static long geometric(SplittableRandom random, double mean) {
        if (mean <= 0) {
            return 0;
        }
        double u = random.nextDouble(); // [0, 1): 1 - u is in (0, 1], its log finite
        return (long) Math.floor(Math.log(1 - u) / Math.log(mean / (mean + 1)));
    }

    private void put(Worker w, Tally t, Control c) throws InterruptedException {
        w.work();
        queue.put(w.nextElement(), t, c);
    }

    private Object take(Worker w, Tally t, Control c) throws InterruptedException {
        Object e = queue.take(t, c);
        w.work();
        return e;
    }

    // ---- 1 producer, 1 consumer ----

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public void p1c1Put(Worker w, Tally t, Control c) throws InterruptedException {
        put(w, t, c);
    }

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public Object p1c1Take(Worker w, Tally t, Control c) throws InterruptedException {
        return take(w, t, c);
    }

    // ---- 4 producers, 1 consumer: the consumer is the bottleneck ----

    @Benchmark
    @Group("p4c1")
    @GroupThreads(4)
    public void p4c1Put(Worker w, Tally t, Control c) throws InterruptedException {
        put(w, t, c);
    }

    @Benchmark
    @Group("p4c1")
    @GroupThreads(1)
    public Object p4c1Take(Worker w, Tally t, Control c) throws InterruptedException {
        return take(w, t, c);
    }

    // ---- 1 producer, 4 consumers: the producer is the bottleneck ----

    @Benchmark
    @Group("p1c4")
    @GroupThreads(1)
    public void p1c4Put(Worker w, Tally t, Control c) throws InterruptedException {
        put(w, t, c);
    }

    @Benchmark
    @Group("p1c4")
    @GroupThreads(4)
    public Object p1c4Take(Worker w, Tally t, Control c) throws InterruptedException {
        return take(w, t, c);
    }

    // ---- 4 producers, 4 consumers ----

    @Benchmark
    @Group("p4c4")
    @GroupThreads(4)
    public void p4c4Put(Worker w, Tally t, Control c) throws InterruptedException {
        put(w, t, c);
    }

    @Benchmark
    @Group("p4c4")
    @GroupThreads(4)
    public Object p4c4Take(Worker w, Tally t, Control c) throws InterruptedException {
        return take(w, t, c);
    }

    // ---- 8 producers, 8 consumers ----

    @Benchmark
    @Group("p8c8")
    @GroupThreads(8)
    public void p8c8Put(Worker w, Tally t, Control c) throws InterruptedException {
        put(w, t, c);
    }

    @Benchmark
    @Group("p8c8")
    @GroupThreads(8)
    public Object p8c8Take(Worker w, Tally t, Control c) throws InterruptedException {
        return take(w, t, c);
    }
}
