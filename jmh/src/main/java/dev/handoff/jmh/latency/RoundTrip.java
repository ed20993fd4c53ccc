/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.latency;

import dev.handoff.Handoff;
import dev.handoff.jmh.Queues;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * One element's round trip: the benchmark thread puts it into {@code ping}, an echo thread takes it
 * and puts it into {@code pong}, the benchmark thread takes it back. Only one element is ever in
 * flight, so this is the latency of two handoffs with an idle queue, including whatever waking the
 * other thread costs ({@link MachineLimits} measures a park/unpark pair alone).
 *
 * <p>Reported as an average and, in {@code SampleTime} mode, as percentiles; with the average,
 * {@code cpuCores}, the CPU the two threads kept busy ({@link Cpu}), so that a round trip won by
 * spinning shows what it burns.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar RoundTrip -p kind=abq,circular} (JDK 21+).
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 2, time = 1)
public class RoundTrip {

    private static final Object ELEMENT = new Object();
    private static final Object STOP = new Object();

    /** A {@link Queues} name: a peer or a handoff variant. */
    @Param({"abq", "jox", "lbq", "ltq", "ltq-transfer", "sq", "jox-rendezvous", "jctools", "disruptor",
            "circular", "circular+stats", "circular+sojourn", "circular+wait=spin", "circular+core=ring", "circular+core=ring+wait=spin",
            "lock-split", "lock-split+stats", "lock-split+sojourn",
            "pht+slots=monitor", "pht+slots=monitor+stats", "pht+slots=monitor+sojourn", "pht+slots=cas", "pht+slots=cas+stats", "pht+slots=cas+sojourn", "pht+slots=cas+search=probe", "pht+slots=cas+search=cursor",
            "pipe", "pipe+stats"})
    public String kind;

    @Param("1024")
    public int capacity;

    private BlockingQueue<Object> ping;
    private BlockingQueue<Object> pong;
    private Thread echo;

    @Setup(Level.Trial)
    public void startEcho() {
        ping = Queues.create(kind, capacity);
        pong = Queues.create(kind, capacity);
        echo = Thread.ofPlatform().daemon().name("echo").start(this::echo);
    }

    private void echo() {
        try {
            for (Object e; (e = ping.take()) != STOP; ) {
                pong.put(e);
            }
        } catch (InterruptedException e) {
            // stopped by stopEcho()
        }
    }

    /**
     * The CPUs the round trips kept busy: the benchmark thread's and the echo thread's CPU time
     * over the iteration's wall time. 2 means both threads ran all the time (they spin between
     * elements), near 0 that both slept; the CPU one round trip costs is this times its time.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Cpu {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

        /** Both threads' CPU time over wall time in the iteration. */
        public double cpuCores;

        private long cpuAtStart;
        private long wallAtStart;

        @Setup(Level.Iteration)
        public void start(RoundTrip trip) {
            cpuCores = 0;
            wallAtStart = System.nanoTime();
            cpuAtStart = trip.cpuOfBothThreads();
        }

        @TearDown(Level.Iteration)
        public void stop(RoundTrip trip) {
            long cpu = trip.cpuOfBothThreads() - cpuAtStart;
            long wall = System.nanoTime() - wallAtStart;
            cpuCores = wall > 0 ? (double) cpu / wall : 0;
        }
    }

    /** CPU time so far of the benchmark thread (the caller) and the echo thread, in ns. */
    long cpuOfBothThreads() {
        long echoCpu = Cpu.THREADS.getThreadCpuTime(echo.threadId()); // -1 once the echo has ended
        return Cpu.THREADS.getCurrentThreadCpuTime() + Math.max(0, echoCpu);
    }

    @Benchmark
    public Object roundTrip(Cpu cpu) throws InterruptedException {
        ping.put(ELEMENT);
        return pong.take();
    }

    @TearDown(Level.Trial)
    public void stopEcho() throws InterruptedException {
        if (!ping.offer(STOP, 1, TimeUnit.SECONDS)) {
            echo.interrupt();
        }
        echo.join(TimeUnit.SECONDS.toMillis(5));
        for (BlockingQueue<Object> q : java.util.List.of(ping, pong)) {
            if (q instanceof Handoff<?> handoff) {
                handoff.close();
            }
        }
    }
}
