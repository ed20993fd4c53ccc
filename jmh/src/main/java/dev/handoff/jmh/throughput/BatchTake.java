/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import com.google.common.collect.Queues;
import dev.handoff.Handoff;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
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
import org.openjdk.jmh.infra.Control;
import org.openjdk.jmh.infra.IterationParams;

/**
 * One consumer taking in batches of up to {@code batch} elements from four producers that
 * {@code put}, three ways: the handoff's batch take ({@code batchTake}: {@link Handoff#take(
 * java.util.Collection, int)}; on a JDK queue the same by hand, {@code take()} then
 * {@code drainTo(c, batch - 1)}), a loop of polls ({@code pollLoop}: {@code take()} then
 * {@code poll()} until null or the batch is full, what consumer code writes by hand), and Guava's
 * {@link Queues#drain} ({@code guavaDrain}, which waits up to {@code drainTimeoutMicros} for a
 * full batch).
 *
 * <p>Read the secondary score {@code handoffs} (elements the consumer took per second; see
 * {@link Tally}), not the primary one, which counts calls. {@link EndOfWindow} frees the threads
 * still blocked when a window ends.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar BatchTake -p kind=abq,circular}
 * (JDK 21+); docs/regenerate.md renders it into docs/data with JmhTable.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(2)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
public class BatchTake {

    /** A {@link dev.handoff.jmh.Queues} name: {@code abq} is the JDK yardstick. */
    @Param({"abq", "circular", "lock-split", "pht+slots=cas"})
    public String kind;

    @Param("1024")
    public int capacity;

    /** The most elements one call takes. */
    @Param("64")
    public int batch;

    /** How long Guava's drain waits for a full batch. */
    @Param("100")
    public long drainTimeoutMicros;

    private BlockingQueue<Object> queue;
    private EndOfWindow window;

    @Setup(Level.Iteration)
    public void open(IterationParams iteration) {
        queue = dev.handoff.jmh.Queues.create(kind, capacity);
        window = new EndOfWindow(queue, iteration.getTime().convertTo(TimeUnit.NANOSECONDS));
    }

    @TearDown(Level.Iteration)
    public void close() {
        window.stop();
        if (queue instanceof Handoff<?> handoff) {
            handoff.close();
        }
    }

    /** The consumer's batch, reused. */
    @State(Scope.Thread)
    public static class Batch {
        final List<Object> elements = new ArrayList<>();
    }

    private void put(Producer producer, Tally tally, Control control) throws InterruptedException {
        window.watch(control);
        tally.join(window);
        queue.put(producer.nextElement());
    }

    /** Counts the batch's elements, POISON excepted; returns the batch size. */
    private static int count(List<Object> taken, Tally tally) {
        int n = 0;
        for (Object e : taken) {
            if (e != EndOfWindow.POISON) {
                n++;
            }
        }
        tally.took(n);
        return taken.size();
    }

    // ---- the handoff's batch take ----

    @Benchmark
    @Group("batchTake")
    @GroupThreads(4)
    public void batchTakePut(Producer p, Tally t, Control c) throws InterruptedException {
        put(p, t, c);
    }

    @Benchmark
    @Group("batchTake")
    @GroupThreads(1)
    @SuppressWarnings("unchecked")
    public int batchTake(Batch b, Tally t, Control c) throws InterruptedException {
        window.watch(c);
        t.join(window);
        b.elements.clear();
        if (queue instanceof Handoff<?> h) {
            ((Handoff<Object>) h).take(b.elements, batch);
        } else {
            b.elements.add(queue.take());
            queue.drainTo(b.elements, batch - 1);
        }
        return count(b.elements, t);
    }

    // ---- a loop of polls ----

    @Benchmark
    @Group("pollLoop")
    @GroupThreads(4)
    public void pollLoopPut(Producer p, Tally t, Control c) throws InterruptedException {
        put(p, t, c);
    }

    @Benchmark
    @Group("pollLoop")
    @GroupThreads(1)
    public int pollLoop(Batch b, Tally t, Control c) throws InterruptedException {
        window.watch(c);
        t.join(window);
        b.elements.clear();
        b.elements.add(queue.take());
        for (int i = 1; i < batch; i++) {
            Object e = queue.poll();
            if (e == null) {
                break;
            }
            b.elements.add(e);
        }
        return count(b.elements, t);
    }

    // ---- Guava's Queues.drain ----

    @Benchmark
    @Group("guavaDrain")
    @GroupThreads(4)
    public void guavaDrainPut(Producer p, Tally t, Control c) throws InterruptedException {
        put(p, t, c);
    }

    @Benchmark
    @Group("guavaDrain")
    @GroupThreads(1)
    public int guavaDrain(Batch b, Tally t, Control c) throws InterruptedException {
        window.watch(c);
        t.join(window);
        b.elements.clear();
        Queues.drain(queue, b.elements, batch, drainTimeoutMicros, TimeUnit.MICROSECONDS);
        return count(b.elements, t);
    }
}
