/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import dev.handoff.jmh.throughput.MeasuredQueue;
import dev.handoff.jmh.throughput.Tally;
import java.util.concurrent.ArrayBlockingQueue;
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
 * The quickest comparison of the handoffs against {@link ArrayBlockingQueue}: one producer and one
 * consumer passing elements through a queue of 1024 with blocking {@code put}/{@code take}, about
 * a minute in all. The score to read is {@code handoffs}, elements taken per second of the
 * window ({@link dev.handoff.jmh.throughput.Tally}; JMH's printed score sums the iterations). The whole scoreboard is {@code throughput.HandoffThroughput} and
 * {@code latency.RoundTrip}; docs/benchmarks.md says how to run it.
 *
 * <p>Run: {@code mvn -B -DskipTests -P quick -pl jmh -am clean verify}, or
 * {@code java -jar jmh/target/benchmarks.jar QuickComparison} (JDK 21+).
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class QuickComparison {

    private static final Integer ELEMENT = 42;

    @Param({"abq", "circular", "lock-split", "pht", "pipe"})
    public String kind;

    private MeasuredQueue queue;

    @Setup(Level.Iteration)
    public void createQueue(IterationParams iteration) {
        queue = MeasuredQueue.open(kind, 1024, iteration);
    }

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public void producer(Tally tally, Control control) throws InterruptedException {
        queue.put(ELEMENT, tally, control);
    }

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public Object consumer(Tally tally, Control control) throws InterruptedException {
        return queue.take(tally, control);
    }

    /** Frees whichever side is blocked when the window ends (see {@link MeasuredQueue}). */
    @TearDown(Level.Iteration)
    public void unblock() {
        queue.close();
    }
}
