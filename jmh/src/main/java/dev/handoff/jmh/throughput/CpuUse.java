/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The CPU one benchmark thread kept busy during an iteration, as a share of one CPU: its CPU time
 * over the wall time from iteration setup to teardown. JMH sums {@code cpuCores} over the threads,
 * so the score is the number of CPUs the benchmark threads burnt (at most 2 on a 2-CPU machine),
 * and handoffs per CPU-second = handoffs per second / cpuCores.
 *
 * <p>A per-thread ratio rather than a count divided by JMH's per-thread time, because a thread
 * that was blocked when the window opened has a tiny window of its own.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CpuUse {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** This thread's CPU time over wall time in the iteration; summed over threads by JMH. */
    public double cpuCores;

    private long cpuAtStart;
    private long wallAtStart;

    @Setup(Level.Iteration)
    public void start() {
        cpuCores = 0;
        wallAtStart = System.nanoTime();
        cpuAtStart = THREADS.getCurrentThreadCpuTime();
    }

    @TearDown(Level.Iteration)
    public void stop() {
        long cpu = THREADS.getCurrentThreadCpuTime() - cpuAtStart;
        long wall = System.nanoTime() - wallAtStart;
        cpuCores = wall > 0 ? (double) cpu / wall : 0;
    }
}
