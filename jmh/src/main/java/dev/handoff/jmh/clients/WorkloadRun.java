/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import dev.handoff.jmh.ProcessCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One run of the pool workload in this JVM: submitters feed a pool CPU-bound tasks of a geometric
 * length, and the run reports what the pool did with them. {@link PoolWorkload} starts each run in
 * a JVM of its own; the tests call {@link #run} directly.
 *
 * <p>Back-pressure, the same for every pool: a submitter takes one of {@code inFlight} permits
 * before each {@code execute} (or {@code submit}) and the task gives it back when it ends, so no
 * more than {@code inFlight} tasks are queued or running; the queues have at least that capacity,
 * so a pool refuses a task only when its queue holds nothing (the pipe), and then the shared
 * {@link WorkloadPools#PUT_ON_REJECT} handler makes the submitter wait in {@code put}.
 *
 * <p>Measurement: submitters run for {@code warmupMillis}, then for a window of
 * {@code windowMillis}. A task counts when it ends inside the window; its queue wait, start time
 * minus the {@link System#nanoTime()} its submitter read just before handing it over, is recorded
 * in a histogram of the worker that ran it (no lock per task), and the histograms are added once
 * the pool has terminated. Process CPU time and context switches are read at both ends of the
 * window. With {@code fixedTasks > 0} there is no warm-up and no window: the submitters hand over
 * exactly that many tasks and every one counts (the tests' mode).
 */
final class WorkloadRun {

    private WorkloadRun() {
    }

    /** What the pool is asked to do. */
    enum Shape {
        /** Submitters hand over tasks as fast as the in-flight limit allows; core = max. */
        STEADY,
        /**
         * Each submitter hands over its share of {@code burst} tasks every {@code burstEveryMicros};
         * one that falls a whole period behind bursts at once and skips the bursts it missed.
         */
        GROWTH
    }

    /**
     * One run's settings.
     *
     * @param pool a {@link WorkloadPools} name
     * @param meanTokens the mean of the geometric {@link Blackhole#consumeCPU} tokens per task
     * @param virtualSubmitters submitters are virtual threads rather than platform threads
     * @param useSubmit {@code submit} (a {@code FutureTask} per task) instead of {@code execute}
     * @param core the pool's core threads; max the most
     */
    record Settings(String pool, Shape shape, long meanTokens, boolean virtualSubmitters, boolean useSubmit,
                    int core, int max, int submitters, int inFlight, int capacity,
                    long warmupMillis, long windowMillis, long fixedTasks,
                    int burst, long burstEveryMicros, long seed) {
    }

    /**
     * What one run measured.
     *
     * @param tasks tasks that ended in the window
     * @param waitCount values in the queue-wait histogram (equals tasks)
     * @param ctxSwitches voluntary and involuntary switches of the process's threads in the window, -1 where unknown
     * @param threadsStarted the pool's largest size, or where it keeps none the most threads it had
     *        when read, every millisecond and at the end
     */
    record Result(Settings settings, long tasks, long windowNanos, double tasksPerSecond,
                  long waitP50Nanos, long waitP99Nanos, long waitCount,
                  long cpuNanos, long ctxSwitches, int threadsStarted) {
    }

    /** Per worker thread: its histogram and count; read only after the pool has terminated. */
    private static final class Recorder {
        final LatencyHistogram waits = new LatencyHistogram();
        long tasks;
    }

    /** The state that tasks and submitters of one run share. */
    private static final class Control {
        final Semaphore inFlight;
        final ConcurrentLinkedQueue<Recorder> recorders = new ConcurrentLinkedQueue<>();
        final ThreadLocal<Recorder> recorder = ThreadLocal.withInitial(() -> {
            Recorder r = new Recorder();
            recorders.add(r);
            return r;
        });
        final AtomicIntegerArray ranCounts; // null unless a test counts runs per task
        volatile boolean measuring;
        volatile boolean stopping;

        Control(int inFlight, AtomicIntegerArray ranCounts) {
            this.inFlight = new Semaphore(inFlight);
            this.ranCounts = ranCounts;
        }
    }

    /** A task: burns its tokens, then records its queue wait if it ends inside the window. */
    private record Task(Control control, long submitted, long tokens, int id) implements Runnable {
        @Override
        public void run() {
            long started = System.nanoTime();
            Blackhole.consumeCPU(tokens);
            if (control.measuring) {
                Recorder r = control.recorder.get();
                r.waits.record(started - submitted);
                r.tasks++;
            }
            if (control.ranCounts != null) {
                control.ranCounts.incrementAndGet(id);
            }
            control.inFlight.release();
        }
    }

    /** Runs with the settings; {@code ranCounts}, if not null, counts the runs of each task id. */
    static Result run(Settings s, AtomicIntegerArray ranCounts) throws InterruptedException {
        WorkloadPools.Pool pool = WorkloadPools.create(s.pool(), s.core(), s.max(), s.capacity());
        ExecutorService executor = pool.executor();
        Control control = new Control(s.inFlight(), ranCounts);
        boolean fixed = s.fixedTasks() > 0;
        SplittableRandom seeds = new SplittableRandom(s.seed());
        List<Thread> submitters = new ArrayList<>();
        long firstId = 0;
        for (int i = 0; i < s.submitters(); i++) {
            long quota = fixed ? s.fixedTasks() / s.submitters() + (i < s.fixedTasks() % s.submitters() ? 1 : 0) : -1;
            Runnable loop = submitLoop(s, executor, control, seeds.split(), (int) firstId, quota);
            firstId += Math.max(quota, 0);
            Thread t = (s.virtualSubmitters() ? Thread.ofVirtual() : Thread.ofPlatform()).name("submitter-" + i).unstarted(loop);
            submitters.add(t);
        }

        int sampled = 0;
        long cpu0;
        long ctx0;
        long t0;
        if (fixed) {
            control.measuring = true;
            cpu0 = ProcessCounters.readCpuNanos();
            ctx0 = ProcessCounters.readContextSwitches();
            t0 = System.nanoTime();
            submitters.forEach(Thread::start);
            for (Thread t : submitters) {
                t.join();
            }
            awaitIdle(control, s);
        } else {
            submitters.forEach(Thread::start);
            sampled = sleepSampling(s.warmupMillis(), pool, sampled);
            cpu0 = ProcessCounters.readCpuNanos();
            ctx0 = ProcessCounters.readContextSwitches();
            t0 = System.nanoTime();
            control.measuring = true;
            sampled = sleepSampling(s.windowMillis(), pool, sampled);
            control.measuring = false;
        }
        long t1 = System.nanoTime();
        long cpu1 = ProcessCounters.readCpuNanos();
        long ctx1 = ProcessCounters.readContextSwitches();
        control.stopping = true;
        for (Thread t : submitters) {
            t.join();
        }
        awaitIdle(control, s);
        int threads = Math.max(pool.largestPoolSize(), Math.max(sampled, pool.poolSize()));
        shutDown(executor, s.pool());

        LatencyHistogram waits = new LatencyHistogram();
        long tasks = 0;
        for (Recorder r : control.recorders) {
            waits.add(r.waits);
            tasks += r.tasks;
        }
        long window = t1 - t0;
        return new Result(s, tasks, window, tasks * 1e9 / window,
                waits.percentile(50), waits.percentile(99), waits.count(),
                cpu1 - cpu0, ctx0 < 0 || ctx1 < 0 ? -1 : ctx1 - ctx0, threads);
    }

    private static Runnable submitLoop(Settings s, ExecutorService executor, Control control,
                                       SplittableRandom random, int firstId, long quota) {
        boolean growth = s.shape() == Shape.GROWTH;
        int share = Math.max(1, s.burst() / s.submitters());
        long period = TimeUnit.MICROSECONDS.toNanos(s.burstEveryMicros());
        return () -> {
            int id = firstId;
            long next = System.nanoTime();
            for (long n = 0; quota < 0 ? !control.stopping : n < quota; ) {
                int inBurst = growth ? share : 1;
                for (int k = 0; k < inBurst && (quota < 0 || n < quota); k++, n++) {
                    control.inFlight.acquireUninterruptibly();
                    Task task = new Task(control, System.nanoTime(), geometric(random, s.meanTokens()), id++);
                    if (s.useSubmit()) {
                        executor.submit(task);
                    } else {
                        executor.execute(task);
                    }
                }
                if (growth) {
                    next += period;
                    if (System.nanoTime() - next > period) {
                        next = System.nanoTime(); // a whole period behind: burst now, skip the ones missed
                    }
                    for (long wait; (wait = next - System.nanoTime()) > 0 && !control.stopping; ) {
                        LockSupport.parkNanos(wait);
                    }
                }
            }
        };
    }

    /**
     * Sleeps, reading the pool's size every millisecond; returns the most threads seen. For a pool
     * that keeps no largest size (EnhancedQueueExecutor), so that all pools are read alike.
     */
    private static int sleepSampling(long millis, WorkloadPools.Pool pool, int most) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            most = Math.max(most, pool.poolSize());
            LockSupport.parkNanos(Math.min(left, 1_000_000));
        }
        return most;
    }

    /** A geometric count with the given mean: {@code round(-mean * ln U)}, U uniform in (0, 1]. */
    static long geometric(SplittableRandom random, long mean) {
        return Math.round(-mean * Math.log(1.0 - random.nextDouble()));
    }

    /** Waits until every task handed over has ended: all permits are back. */
    private static void awaitIdle(Control control, Settings s) throws InterruptedException {
        if (!control.inFlight.tryAcquire(s.inFlight(), 60, TimeUnit.SECONDS)) {
            throw new IllegalStateException(s.pool() + ": tasks still in flight after 60 s");
        }
        control.inFlight.release(s.inFlight());
    }

    private static void shutDown(ExecutorService executor, String name) throws InterruptedException {
        try {
            executor.shutdownNow();
        } catch (UnsupportedOperationException e) {
            // the jox channel has no isEmpty(), which shutdownNow asks after draining; the
            // workers are interrupted by then and the pool terminates all the same
        }
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + ": the pool did not terminate");
        }
    }
}
