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
 * An asynchronous logger's call pattern, one part at a time: four producers and one consumer, as
 * Log4j2's {@code AsyncAppender} drives its queue. A producer formats its line
 * ({@code producerTokens} of CPU), then, with {@code offerFirst}, offers and puts only when the
 * offer fails (the appender's way), else puts at once; the consumer takes, with
 * {@code isEmptyAfterTake} asks {@code isEmpty()} (the appender's end-of-batch test), then writes
 * the line ({@code consumerTokens}). Set both to true and the work to the appender's to see the
 * client in the suite; set one at a time to see which part of the pattern a kind pays for.
 *
 * <p>Not in the suite: run it by hand, {@code java -jar jmh/target/benchmarks.jar ClientPattern
 * -p kind=abq,circular,circular+core=cells}, and read {@link Tally}'s scores as for
 * {@link WorkThroughput}. On the 2-CPU machine (commit {@code e303f4d}) it did not reproduce the
 * logger: {@code core=cells} moved 1.17x-1.36x ABQ's handoffs in all four combinations, at
 * 0.93x-1.09x its CPU per handoff, where the real appender took 1.30x ABQ's time.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(2)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
public class ClientPattern {

    /** A {@link Queues} name. */
    @Param({"abq", "circular+core=cells"})
    public String kind;

    @Param("1024")
    public int capacity;

    /** Offer before put, as the appender does; else put at once. */
    @Param({"true", "false"})
    public boolean offerFirst;

    /** Ask isEmpty() after every take, as the appender's thread does. */
    @Param({"true", "false"})
    public boolean isEmptyAfterTake;

    /** A producer's work per line, in {@link Blackhole#consumeCPU} tokens. */
    @Param("150")
    public long producerTokens;

    /** The consumer's work per line. */
    @Param("500")
    public long consumerTokens;

    private MeasuredQueue queue;

    @Setup(Level.Iteration)
    public void open(IterationParams iteration) {
        queue = MeasuredQueue.open(kind, capacity, iteration);
    }

    @TearDown(Level.Iteration)
    public void close() {
        queue.close();
    }

    @Benchmark
    @Group("p4c1")
    @GroupThreads(4)
    public void p4c1Put(Producer p, Tally t, Control c) throws InterruptedException {
        Blackhole.consumeCPU(producerTokens);
        Integer e = p.nextElement();
        if (!offerFirst || !queue.offer(e, t, c)) {
            queue.put(e, t, c);
        }
    }

    @Benchmark
    @Group("p4c1")
    @GroupThreads(1)
    public boolean p4c1Take(Tally t, Control c) throws InterruptedException {
        queue.take(t, c);
        boolean endOfBatch = isEmptyAfterTake && queue.isEmpty();
        Blackhole.consumeCPU(consumerTokens);
        return endOfBatch;
    }
}
