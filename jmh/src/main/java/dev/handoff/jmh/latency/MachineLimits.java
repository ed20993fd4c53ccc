/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.latency;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What the machine itself allows, measured beside the handoffs so that the scoreboard can say which
 * goal a physical limit blocks: no queue, only two threads and the hardware.
 *
 * <ul>
 *   <li>{@link #lineRoundTrip()}: the benchmark thread writes a sequence number into one volatile
 *       field, an echo thread spinning on it copies it into a second, the benchmark thread spins
 *       until it sees its number come back. One operation is one round trip of a cache line
 *       between two CPUs (each field's line moves once each way): the least a handoff costs when
 *       the consumer must see the producer's write before the producer can go on, which is every
 *       synchronous handoff (the pipe, {@code SynchronousQueue}, {@code LinkedTransferQueue.transfer}).
 *   <li>{@link #wakeRoundTrip()}: the same, but each side parks ({@link LockSupport#park}) until
 *       the other unparks it. One operation is two wake-ups of a parked thread on the other CPU:
 *       what a handoff costs per element when its threads park instead of spinning.
 * </ul>
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar MachineLimits} (JDK 21+). With two CPUs and
 * other load on the machine, the spinning echo may have to share a CPU with the benchmark thread;
 * the {@code Thread.yield()} in the spin loops keeps that from hanging, and shows as a slower
 * round trip.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
public class MachineLimits {

    /** Spins between yields in the spin loops; yields only matter when the CPUs are oversubscribed. */
    private static final int SPINS_PER_YIELD = 1 << 12;

    /** Written by the benchmark thread, read by the echo. */
    private volatile long ping;
    /** Written by the echo, read by the benchmark thread. */
    private volatile long pong;
    /** The benchmark's sequence number; only the benchmark thread uses it. */
    private long seq;
    private volatile boolean stop;
    private volatile Thread benchmarkThread;
    /** The other thread of the benchmark that runs: lineEcho() or wakeEcho(). */
    private Thread echo;

    /**
     * Starts the echo of the benchmark about to run, and only that one: a spinning line echo would
     * take a CPU from the wake round trip.
     */
    @Setup(Level.Trial)
    public void startEcho(BenchmarkParams params) {
        echo = params.getBenchmark().endsWith(".lineRoundTrip")
                ? Thread.ofPlatform().daemon().name("line-echo").start(this::lineEcho)
                : Thread.ofPlatform().daemon().name("wake-echo").start(this::wakeEcho);
    }

    // ---- one cache-line round trip ----

    private void lineEcho() {
        long seen = 0;
        for (int i = 1; !stop; i++) {
            long p = ping; // volatile read: pairs with the benchmark thread's volatile write
            if (p != seen) {
                seen = p;
                pong = p; // volatile write: the benchmark thread's spin reads it
            } else {
                spin(i);
            }
        }
    }

    /** One round trip of a cache line between the benchmark thread's CPU and the echo's. */
    @Benchmark
    public long lineRoundTrip() {
        long s = ++seq;
        ping = s;
        for (int i = 1; pong != s; i++) {
            spin(i);
        }
        return s;
    }

    // ---- two wake-ups of a parked thread ----

    private void wakeEcho() {
        long seen = 0;
        while (!stop) {
            long p = ping;
            if (p != seen) {
                seen = p;
                pong = p;
                LockSupport.unpark(benchmarkThread);
            } else {
                LockSupport.park(this); // spurious returns just loop
            }
        }
    }

    /** The benchmark thread wakes the parked echo, parks, and is woken by it. */
    @Benchmark
    public long wakeRoundTrip() {
        Thread me = Thread.currentThread();
        if (benchmarkThread != me) {
            benchmarkThread = me; // volatile, and written before ping: the echo unparks the right thread
        }
        long s = ++seq;
        ping = s;
        LockSupport.unpark(echo);
        while (pong != s) {
            LockSupport.park(this);
        }
        return s;
    }

    /** Round i of a spin loop: onSpinWait, and a yield every SPINS_PER_YIELD rounds. */
    private static void spin(int i) {
        if ((i & (SPINS_PER_YIELD - 1)) == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    @TearDown(Level.Trial)
    public void stopEchoes() throws InterruptedException {
        stop = true;
        LockSupport.unpark(echo);
        echo.join(TimeUnit.SECONDS.toMillis(5));
    }
}
