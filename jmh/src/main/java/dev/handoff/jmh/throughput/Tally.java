/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One benchmark thread's part in a {@link EndOfWindow measured window}, and the window's figures
 * as JMH's secondary scores of an iteration.
 *
 * <p>Every producer and consumer method takes one: the first call of an iteration joins the
 * thread to the window ({@link #join}), a consumer counts each element it takes ({@link #took}).
 * The window reads every tally twice, when JMH opens the measurement and when it closes it, on
 * one clock; the figures are what happened between the two reads. When the iteration ends,
 * exactly one thread's tally reports them (the other threads report 0, and JMH sums the threads):
 * <ul>
 * <li>{@code handoffs}: elements consumers took per second of the window;
 * <li>{@code cpuCores}: the benchmark threads' CPU time over the window, the CPUs they kept busy;
 * <li>{@code processCores}: the whole JVM's CPU time over the window (adds GC, JIT and the
 *     window's own thread);
 * <li>{@code switchesPerHandoff}: context switches of every thread of the JVM (voluntary and
 *     involuntary, {@code /proc/self/task/*&#47;status}) per element taken; NaN where there is no
 *     {@code /proc}.
 * </ul>
 * CPU-seconds per million handoffs are {@code cpuCores / handoffs * 1e6}.
 *
 * <p>JMH prints the sum of these scores over the iterations as their score; the pages read each
 * iteration's value from the JSON ({@code rawData}).
 *
 * <p>Why one clock: JMH divides a thread's count by that thread's own measured time, which
 * starts when the thread leaves its warm-up call and ends when it leaves its last call; a thread
 * blocked in {@code take} at either edge has a window of its own that differs from the others',
 * and the sum of per-thread rates is then no rate of the queue.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class Tally {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Elements taken per second of the window; set on one thread only. */
    public double handoffs;
    /** CPUs the benchmark threads kept busy; set on one thread only. */
    public double cpuCores;
    /** CPUs the whole JVM kept busy; set on one thread only. */
    public double processCores;
    /** Context switches of the JVM's threads per element taken; set on one thread only. */
    public double switchesPerHandoff;

    /**
     * Elements this thread took in the iteration. Written by its thread only, with an opaque store
     * so that the window thread's opaque read sees a recent value without a fence per element (a
     * stale read moves an element across the window's edge, one of millions).
     */
    private long taken;
    private static final VarHandle TAKEN;

    static {
        try {
            TAKEN = MethodHandles.lookup().findVarHandle(Tally.class, "taken", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private EndOfWindow window;
    private long threadId;
    private long cpuAtJoin;

    @Setup(Level.Iteration)
    public void reset() {
        handoffs = cpuCores = processCores = switchesPerHandoff = 0;
        TAKEN.setOpaque(this, 0L);
        window = null;
    }

    /** Joins this thread to the iteration's window, once; cheap on every later call. */
    public void join(EndOfWindow w) {
        if (window != w) {
            window = w;
            threadId = Thread.currentThread().threadId();
            cpuAtJoin = THREADS.getCurrentThreadCpuTime();
            w.register(this);
        }
    }

    /** Counts one element taken. */
    public void took() {
        TAKEN.setOpaque(this, (long) TAKEN.getOpaque(this) + 1);
    }

    /** Counts n elements taken at once. */
    public void took(int n) {
        TAKEN.setOpaque(this, (long) TAKEN.getOpaque(this) + n);
    }

    /** Read by the window's thread. */
    long taken() {
        return (long) TAKEN.getOpaque(this);
    }

    /** This thread's CPU time, read by the window's thread; -1 if the JVM cannot tell. */
    long cpuTime() {
        return THREADS.getThreadCpuTime(threadId);
    }

    /** This thread's CPU time when it joined: the start of a thread that joined after the window opened. */
    long cpuAtJoin() {
        return cpuAtJoin;
    }

    /** The thread whose tally the window picks reports the window's figures; the others 0. */
    @TearDown(Level.Iteration)
    public void report() {
        if (window == null || !window.claimReport()) {
            return;
        }
        EndOfWindow.Figures f = window.figures();
        handoffs = f.handoffsPerSecond();
        cpuCores = f.threadCores();
        processCores = f.processCores();
        switchesPerHandoff = f.switchesPerHandoff();
    }
}
