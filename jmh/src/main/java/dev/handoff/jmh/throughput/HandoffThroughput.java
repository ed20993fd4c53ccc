/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import dev.handoff.jmh.Queues;
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
 * Producers and consumers passing elements through one queue with blocking {@code put} and
 * {@code take}, in the shapes the issue names: 1 producer / 1 consumer ({@code p1c1}),
 * 1P/4C ({@code p1c4}), 4P/4C ({@code p4c4}), 8P/8C ({@code p8c8}, the many-core shape: 16
 * threads, oversubscribed on a small machine), 1P/50C ({@code p1c50}, as the papers' servers: a shape no user has on a small machine,
 * kept for the many-core runs) and 4P/1C with a slow consumer ({@code p4c1slow}: the consumer burns about a
 * microsecond of CPU per element, {@link #SLOW_CONSUMER_TOKENS}, so the queue stays full and the
 * producers mostly wait for room, as behind an asynchronous logger).
 *
 * <p>No work between operations: the queue is all the threads do, so these shapes rank the queues'
 * own paths, and a lock convoy that parks every thread but one can look best.
 * {@link WorkThroughput} puts work between the operations, as users do.
 *
 * <p>Read the secondary scores of {@link Tally}: {@code handoffs} (elements consumers took per
 * second of the window, on one clock), {@code cpuCores}, {@code processCores} and
 * {@code switchesPerHandoff}; not JMH's primary score, which adds up calls of every thread and is
 * badly wrong when threads are oversubscribed. Every queue is new for each iteration;
 * {@link EndOfWindow} measures the window and frees the threads still blocked when it ends.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar HandoffThroughput -p kind=abq,circular -prof gc}
 * (JDK 21+); the suite ({@code dev.handoff.jmh.report.Suite}) runs it for docs/benchmarks.md.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(2)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
public class HandoffThroughput {

    /**
     * The {@link Blackhole#consumeCPU(long)} tokens the slow consumer of {@code p4c1slow} burns per
     * element: about a microsecond on the 2-CPU AMD EPYC machine it was measured on (JDK 25).
     */
    static final long SLOW_CONSUMER_TOKENS = 500;

    /** A {@link Queues} name: a peer or a handoff variant. */
    @Param({"abq", "jox", "lbq", "ltq", "ltq-transfer", "sq", "jox-rendezvous", "jctools", "disruptor",
            "circular", "circular+stats", "circular+sojourn", "circular+wait=spin", "circular+core=ring", "circular+core=ring+wait=spin",
            "lock-split", "lock-split+stats", "lock-split+sojourn",
            "pht+slots=monitor", "pht+slots=monitor+stats", "pht+slots=monitor+sojourn", "pht+slots=cas", "pht+slots=cas+stats", "pht+slots=cas+sojourn", "pht+slots=cas+search=probe", "pht+slots=cas+search=cursor",
            "pipe", "pipe+stats",
            "circular+classes=2", "circular+classes=4", "lock-split+classes=2", "lock-split+classes=4",
            "pht+slots=cas+classes=2", "pht+slots=cas+classes=4"})
    public String kind;

    @Param("1024")
    public int capacity;

    private MeasuredQueue queue;

    @Setup(Level.Iteration)
    public void open(IterationParams iteration) {
        queue = MeasuredQueue.open(kind, capacity, iteration);
    }

    @TearDown(Level.Iteration)
    public void close() {
        queue.close();
    }

    private void put(Producer producer, Tally tally, Control control) throws InterruptedException {
        queue.put(producer.nextElement(), tally, control);
    }

    private Object take(Tally tally, Control control) throws InterruptedException {
        return queue.take(tally, control);
    }

    // ---- 1 producer, 1 consumer ----

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public void p1c1Put(Producer p, Tally t, Control c) throws InterruptedException {
        put(p, t, c);
    }

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public Object p1c1Take(Tally t, Control c) throws InterruptedException {
        return take(t, c);
    }

    // ---- 1 producer, 4 consumers ----

    @Benchmark
    @Group("p1c4")
    @GroupThreads(1)
    public void p1c4Put(Producer p, Tally t, Control c) throws InterruptedException {
        put(p, t, c);
    }

    @Benchmark
    @Group("p1c4")
    @GroupThreads(4)
    public Object p1c4Take(Tally t, Control c) throws InterruptedException {
        return take(t, c);
    }

    // ---- 4 producers, 4 consumers ----

    @Benchmark
    @Group("p4c4")
    @GroupThreads(4)
    public void p4c4Put(Producer p, Tally t, Control c) throws InterruptedException {
        put(p, t, c);
    }

    @Benchmark
    @Group("p4c4")
    @GroupThreads(4)
    public Object p4c4Take(Tally t, Control c) throws InterruptedException {
        return take(t, c);
    }

    // ---- 8 producers, 8 consumers: one thread per core on a 16-core machine ----

    @Benchmark
    @Group("p8c8")
    @GroupThreads(8)
    public void p8c8Put(Producer p, Tally t, Control c) throws InterruptedException {
        put(p, t, c);
    }

    @Benchmark
    @Group("p8c8")
    @GroupThreads(8)
    public Object p8c8Take(Tally t, Control c) throws InterruptedException {
        return take(t, c);
    }

    // ---- 1 producer, 50 consumers: oversubscribed, as the papers' servers ----

    @Benchmark
    @Group("p1c50")
    @GroupThreads(1)
    public void p1c50Put(Producer p, Tally t, Control c) throws InterruptedException {
        put(p, t, c);
    }

    @Benchmark
    @Group("p1c50")
    @GroupThreads(50)
    public Object p1c50Take(Tally t, Control c) throws InterruptedException {
        return take(t, c);
    }

    // ---- 4 producers, 1 slow consumer: the queue stays full, producers wait for room ----

    @Benchmark
    @Group("p4c1slow")
    @GroupThreads(4)
    public void p4c1slowPut(Producer p, Tally t, Control c) throws InterruptedException {
        put(p, t, c);
    }

    @Benchmark
    @Group("p4c1slow")
    @GroupThreads(1)
    public Object p4c1slowTake(Tally t, Control c) throws InterruptedException {
        Object e = take(t, c);
        Blackhole.consumeCPU(SLOW_CONSUMER_TOKENS); // the work of handling the element
        return e;
    }
}
