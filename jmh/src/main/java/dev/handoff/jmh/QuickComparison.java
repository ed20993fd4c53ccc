/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import dev.handoff.Handoffs;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The quickest comparison of the handoffs against {@link ArrayBlockingQueue}: one producer and one
 * consumer passing elements through a queue of 1024 with blocking {@code put}/{@code take}.
 * The score to read is {@code handoffs}, counted by the consumer.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class QuickComparison {

    private static final Integer ELEMENT = 42;

    @Param({"abq", "circular", "lock-split"})
    public String kind;

    private BlockingQueue<Integer> queue;

    @Setup(Level.Iteration)
    public void createQueue() {
        queue = "abq".equals(kind) ? new ArrayBlockingQueue<>(1024) : Handoffs.create(kind + ":1024");
    }

    /** Elements the consumer took in one iteration: the honest throughput. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Taken {
        public long handoffs;
    }

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public void producer() throws InterruptedException {
        queue.put(ELEMENT);
    }

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public Integer consumer(Taken taken) throws InterruptedException {
        Integer e = queue.take();
        taken.handoffs++;
        return e;
    }

    /** Unblocks whichever side is parked when the iteration ends, so no thread stays blocked. */
    @TearDown(Level.Iteration)
    public void unblock() {
        queue.clear();
    }
}
