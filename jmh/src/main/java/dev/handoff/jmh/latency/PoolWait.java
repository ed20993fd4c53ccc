/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.latency;

import dev.handoff.Handoffs;
import dev.handoff.jmh.Queues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long a task waits in a thread pool's queue before a worker starts it, per queue kind: the
 * tail that an unordered handoff may lengthen. A web server's pool in small: {@code --workers}
 * threads run tasks of {@code --work-us} microseconds each (a sleep, so that the workers need no
 * CPU), and one submitting thread keeps about {@code --backlog} tasks waiting in the queue (it
 * submits a task whenever fewer than workers + backlog are unfinished). A task's wait is the time
 * from just before its {@code execute} to the start of its run; the first tenth of each run is
 * left out as warm-up.
 *
 * <p>The kinds take turns, run by run ({@code --repeat} rounds, A B C A B C ...), so that a
 * change in the machine's state meets all of them; each percentile printed is the median over
 * the rounds, and the ratio is each kind's median p99 to the first kind's.
 *
 * <p>Run (JDK 21+): {@code java -cp jmh/target/benchmarks.jar dev.handoff.jmh.latency.PoolWait
 * [--workers 8] [--backlog 45] [--work-us 1000] [--tasks 8000] [--repeat 5] [--capacity 101]
 * lock-split abq pht+slots=cas ...}; the names are those of {@code Queues} (a handoff runs on
 * {@link Handoffs#newThreadPool(String, int)}, a JDK queue on a plain {@link ThreadPoolExecutor}).
 */
public final class PoolWait {
    private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999, 1.0};

    private PoolWait() {
    }

    /**
     * Measures and prints one table.
     *
     * @param args options and queue names, as in the class comment
     * @throws InterruptedException if interrupted while waiting for a run to end
     */
    public static void main(String[] args) throws InterruptedException {
        int workers = 8;
        int backlog = 45;
        long workNanos = TimeUnit.MICROSECONDS.toNanos(1000);
        int tasks = 8000;
        int repeat = 5;
        int capacity = 101;
        List<String> kinds = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--backlog" -> backlog = Integer.parseInt(args[++i]);
                case "--work-us" -> workNanos = TimeUnit.MICROSECONDS.toNanos(Long.parseLong(args[++i]));
                case "--tasks" -> tasks = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--capacity" -> capacity = Integer.parseInt(args[++i]);
                default -> kinds.add(args[i]);
            }
        }
        if (kinds.isEmpty() || workers <= 0 || backlog < 0 || tasks < 10 || repeat <= 0 || backlog >= capacity) {
            throw new IllegalArgumentException("name at least one queue; workers, tasks and repeat positive, "
                    + "0 <= backlog < capacity");
        }
        int workerCount = workers;
        int slots = capacity;
        kinds.forEach(kind -> pool(kind, workerCount, slots).shutdown()); // bad names fail before any run
        double[][][] quantiles = new double[kinds.size()][repeat][];
        for (int r = 0; r < repeat; r++) {
            for (int k = 0; k < kinds.size(); k++) {
                ThreadPoolExecutor pool = pool(kinds.get(k), workers, capacity);
                quantiles[k][r] = quantiles(run(pool, workers + backlog, tasks, workNanos));
            }
        }
        System.out.printf(Locale.ROOT, "pool wait: %d workers, backlog %d, %d us tasks, %d tasks x %d rounds, capacity %d, "
                + "%d CPUs, %s%n", workers, backlog, TimeUnit.NANOSECONDS.toMicros(workNanos), tasks, repeat, capacity,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"));
        System.out.println("| queue | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | p99 / " + kinds.get(0) + " |");
        System.out.println("|---|---|---|---|---|---|---|");
        double yardstick = median(quantiles[0], 2);
        for (int k = 0; k < kinds.size(); k++) {
            StringBuilder row = new StringBuilder("| " + kinds.get(k) + " |");
            for (int q = 0; q < QUANTILES.length; q++) {
                row.append(String.format(Locale.ROOT, " %.2f |", median(quantiles[k], q) / 1e6));
            }
            row.append(String.format(Locale.ROOT, " %.2fx |", median(quantiles[k], 2) / yardstick));
            System.out.println(row);
        }
    }

    private static ThreadPoolExecutor pool(String kind, int workers, int capacity) {
        if (kind.startsWith("pipe") || kind.startsWith("sq")) {
            throw new IllegalArgumentException("'" + kind + "' queues nothing (a direct handoff): a pool on it"
                    + " refuses tasks instead of letting them wait, so there is no queue wait to measure");
        }
        if (Queues.isHandoff(kind)) {
            return Handoffs.newThreadPool(Queues.handoffSpec(kind, capacity), workers);
        }
        return new ThreadPoolExecutor(workers, workers, 0L, TimeUnit.MILLISECONDS, Queues.create(kind, capacity));
    }

    /** Runs tasks through pool, at most unfinished at once; returns each task's wait in ns. */
    private static long[] run(ThreadPoolExecutor pool, int unfinished, int tasks, long workNanos)
            throws InterruptedException {
        Semaphore room = new Semaphore(unfinished);
        CountDownLatch done = new CountDownLatch(tasks);
        long[] waits = new long[tasks];
        for (int i = 0; i < tasks; i++) {
            room.acquire();
            int task = i;
            long submitted = System.nanoTime();
            pool.execute(() -> {
                waits[task] = System.nanoTime() - submitted;
                sleep(workNanos);
                room.release();
                done.countDown();
            });
        }
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("a task never ran: " + pool);
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        return Arrays.copyOfRange(waits, tasks / 10, tasks); // the latch's countDown happens-before await
    }

    /** Sleeps about nanos, as a task whose work blocks. */
    private static void sleep(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private static double[] quantiles(long[] waits) {
        long[] sorted = waits.clone();
        Arrays.sort(sorted);
        double[] q = new double[QUANTILES.length];
        for (int i = 0; i < q.length; i++) {
            q[i] = sorted[(int) Math.min(sorted.length - 1, Math.floor(QUANTILES[i] * sorted.length))];
        }
        return q;
    }

    /** The median over rounds of quantile q. */
    private static double median(double[][] rounds, int q) {
        double[] values = new double[rounds.length];
        for (int r = 0; r < rounds.length; r++) {
            values[r] = rounds[r][q];
        }
        Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
