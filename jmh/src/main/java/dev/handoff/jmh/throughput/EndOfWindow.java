/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import dev.handoff.jmh.ProcessCounters;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.infra.Control;

/**
 * One iteration's measurement window, read on one clock, and the thread that frees the benchmark
 * threads still blocked in {@code put} or {@code take} when it ends.
 *
 * <p>A daemon thread waits for JMH to open the measurement ({@link Control#startMeasurement}, set
 * by the first benchmark thread that leaves its warm-up loop), reads every {@link Tally}, the
 * benchmark threads' and the JVM's CPU time and the JVM's context switches, sleeps through the
 * window (it costs the measurement nothing), waits for JMH to close it
 * ({@link Control#stopMeasurement}, set by the first thread that leaves its measured loop) and
 * reads them again: {@link #figures()} is the difference. Both edges are seen within
 * {@value #EDGE_POLL_MICROS} microseconds.
 *
 * <p>From then on, until {@link #stop()}, it offers {@link #POISON} (a blocked consumer takes it
 * and returns) and polls with a short timeout (a blocked producer's {@code put} or
 * {@code transfer} completes). Consumers do not count {@code POISON}, and the window has already
 * closed when the first one is offered.
 */
public final class EndOfWindow {

    /** The element that frees a blocked consumer; never counted as a handoff. */
    public static final Object POISON = new Object();

    /** How often the window's thread looks for JMH's opening and closing of the measurement. */
    static final long EDGE_POLL_MICROS = 50;

    private final BlockingQueue<Object> queue;
    private final long windowEndsNanos;
    private final Thread freer;
    private final List<Tally> tallies = new CopyOnWriteArrayList<>();
    private final AtomicBoolean reportClaimed = new AtomicBoolean();
    private final CountDownLatch measured = new CountDownLatch(1);
    private volatile Control control;
    private volatile boolean stopped;
    /** Written by the window's thread before {@code measured} counts down; read after awaiting it. */
    private Figures figures = Figures.NONE;

    /**
     * @param queue the queue the benchmark threads block on
     * @param windowNanos how long the iteration lasts
     */
    public EndOfWindow(BlockingQueue<Object> queue, long windowNanos) {
        this.queue = queue;
        this.windowEndsNanos = System.nanoTime() + windowNanos;
        this.freer = Thread.ofPlatform().daemon().name("end-of-window").unstarted(this::run);
        freer.start();
    }

    /** Called from the benchmark methods: hands over JMH's control of this iteration, once. */
    public void watch(Control c) {
        if (control == null) {
            control = c; // the same instance for every thread of the iteration
        }
    }

    /** A thread's tally joins the window; see {@link Tally#join}. */
    void register(Tally tally) {
        tallies.add(tally);
    }

    /** True for exactly one caller: the tally that reports the figures. */
    boolean claimReport() {
        return reportClaimed.compareAndSet(false, true);
    }

    /**
     * The window's figures, once it has closed; {@link Figures#NONE} if it never opened or closed
     * (an iteration stopped early) or the window's thread is late by more than 10 s.
     */
    Figures figures() {
        try {
            if (!measured.await(10, TimeUnit.SECONDS)) {
                return Figures.NONE;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Figures.NONE;
        }
        return figures;
    }

    /** Waits, at most a second, until the window's thread has read both edges or given up. */
    private void awaitMeasured() {
        try {
            measured.await(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            measure();
        } catch (RuntimeException e) {
            System.err.println("end-of-window: the window was not measured: " + e); // figures stay NONE
        } finally {
            measured.countDown();
        }
        freeBlockedThreads();
    }

    private void measure() {
        while (!stopped && !edge(true)) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(EDGE_POLL_MICROS));
        }
        if (stopped) {
            return;
        }
        Snapshot opened = Snapshot.of(tallies);
        long sleep;
        while (!stopped && (sleep = windowEndsNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(sleep);
        }
        while (!stopped && !edge(false)) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(EDGE_POLL_MICROS));
        }
        if (!stopped) {
            figures = Figures.between(opened, Snapshot.of(tallies));
        }
    }

    /** Whether JMH has opened (or, with opening false, closed) the measurement. */
    private boolean edge(boolean opening) {
        Control c = control;
        return c != null && (opening ? c.startMeasurement : c.stopMeasurement);
    }

    private void freeBlockedThreads() {
        while (!stopped) {
            queue.offer(POISON); // a consumer blocked in take() returns with it
            try {
                // a producer blocked in put() or transfer() completes; timed, because the pipe's
                // untimed poll() never meets a producer
                queue.poll(20, TimeUnit.MICROSECONDS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Called at iteration teardown, once every benchmark thread has left its loop. */
    public void stop() {
        if (edge(false)) {
            // JMH has closed the measurement, and its threads may leave their loops and reach the
            // iteration's teardown before the window's thread next looks (EDGE_POLL_MICROS): let it
            // read the closing edge first, else the iteration's figures would be lost (NaN)
            awaitMeasured();
        }
        stopped = true;
        LockSupport.unpark(freer);
        try {
            freer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What one read of the window saw. */
    private record Snapshot(long nanos, long taken, Map<Tally, Long> threadCpu, long processCpu, long switches) {

        /**
         * Reads the clock and the tallies, then the CPU times and switches: the rate is taken
         * from the first two.
         */
        static Snapshot of(List<Tally> tallies) {
            long nanos = System.nanoTime();
            long taken = 0;
            for (Tally t : tallies) {
                taken += t.taken();
            }
            Map<Tally, Long> cpu = new HashMap<>();
            for (Tally t : tallies) {
                cpu.put(t, t.cpuTime());
            }
            return new Snapshot(nanos, taken, cpu, ProcessCounters.readCpuNanos(), ProcessCounters.readContextSwitches());
        }

        /** The benchmark threads' CPU time since opened; a thread that joined later counts from its join. */
        long threadCpuSince(Snapshot opened) {
            long sum = 0;
            for (Map.Entry<Tally, Long> e : threadCpu.entrySet()) {
                Long start = opened.threadCpu.get(e.getKey());
                sum += e.getValue() - (start != null ? start : e.getKey().cpuAtJoin());
            }
            return sum;
        }
    }

    /**
     * What happened in the window.
     *
     * @param handoffsPerSecond elements taken per second
     * @param threadCores the benchmark threads' CPU time over the window
     * @param processCores the JVM's CPU time over the window
     * @param switchesPerHandoff the JVM's context switches per element taken; NaN without /proc
     */
    record Figures(double handoffsPerSecond, double threadCores, double processCores, double switchesPerHandoff) {

        static final Figures NONE = new Figures(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        static Figures between(Snapshot opened, Snapshot closed) {
            double nanos = closed.nanos - opened.nanos;
            long taken = closed.taken - opened.taken;
            double switches = opened.switches < 0 || closed.switches < 0 ? Double.NaN
                    : (double) (closed.switches - opened.switches) / Math.max(taken, 1);
            return new Figures(taken * 1e9 / nanos, closed.threadCpuSince(opened) / nanos,
                    (closed.processCpu - opened.processCpu) / nanos, switches);
        }
    }
}
