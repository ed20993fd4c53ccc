/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The numbers of docs/thread-pools.md: one dispatcher thread submits tasks, as the papers' accept
 * loop does, to a fixed pool on each handoff kind, platform and virtual threads, and to
 * {@link Executors#newVirtualThreadPerTaskExecutor()}, with a JDK {@link SynchronousQueue} pool as the
 * baseline of a direct-handoff pool. A task that finds the pool saturated is
 * {@code put} into the pool's handoff, so that the dispatcher waits for room (for the pipe: for a
 * free worker), as the papers' servers do; no task is rejected. Prints a Markdown table. Run from
 * the repository root, as docs/thread-pools.md says:
 * <pre>
 * mvn -B -q -pl src test-compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java \
 *     -cp src/target/test-classes:src/target/classes:$(cat src/target/test.classpath) dev.handoff.PoolComparison
 * </pre>
 */
public final class PoolComparison {

    static final int ROUNDS = 5;

    private PoolComparison() {
    }

    /** Waits for room in the pool's own handoff; refuses only once the pool is shut down. */
    static final RejectedExecutionHandler WAIT_FOR_ROOM = (task, pool) -> {
        if (pool.isShutdown()) {
            throw new RejectedExecutionException("pool is shut down");
        }
        try {
            pool.getQueue().put(task);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RejectedExecutionException("interrupted while waiting for room", e);
        }
    };

    /** Runs tasks that each sleep serviceMicros; returns the best wall time of ROUNDS, in ms. */
    static double run(String spec, int threads, ThreadFactory factory, int tasks, int serviceMicros) throws Exception {
        double best = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            ExecutorService pool = spec == null ? Executors.newVirtualThreadPerTaskExecutor()
                    : spec.equals("SynchronousQueue")
                    ? new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS, new SynchronousQueue<>(), factory, WAIT_FOR_ROOM)
                    : Handoffs.newThreadPool(spec, threads, factory, WAIT_FOR_ROOM);
            CountDownLatch done = new CountDownLatch(tasks);
            long start = System.nanoTime();
            for (int i = 0; i < tasks; i++) {
                pool.execute(() -> {
                    if (serviceMicros > 0) {
                        try {
                            TimeUnit.MICROSECONDS.sleep(serviceMicros);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    done.countDown();
                });
            }
            done.await();
            best = Math.min(best, (System.nanoTime() - start) / 1e6);
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
        return best;
    }

    public static void main(String[] args) throws Exception {
        int tasks = 20_000;
        int[][] configs = {{16, 0}, {150, 0}, {150, 1000}};
        System.out.println("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, JDK " + Runtime.version()
                + "; " + tasks + " tasks from one dispatcher, best of " + ROUNDS + " rounds, wall ms");
        List<String> header = new ArrayList<>(List.of("pool"));
        for (int[] c : configs) {
            header.add(c[0] + " threads, " + (c[1] == 0 ? "empty task" : c[1] / 1000 + " ms sleep"));
        }
        System.out.println("| " + String.join(" | ", header) + " |");
        System.out.println("|---".repeat(header.size()) + "|");
        for (String kind : Handoffs.kinds()) {
            for (boolean virtual : new boolean[] {false, true}) {
                StringBuilder row = new StringBuilder("| " + kind + (kind.equals("pipe") ? ":threads" : ":1024")
                        + (virtual ? ", virtual threads" : ", platform threads"));
                for (int[] c : configs) {
                    String spec = kind + ":" + (kind.equals("pipe") ? c[0] : 1024);
                    ThreadFactory factory = virtual ? Thread.ofVirtual().factory() : Thread.ofPlatform().factory();
                    row.append(String.format(Locale.ROOT, " | %.0f", run(spec, c[0], factory, tasks, c[1])));
                }
                System.out.println(row + " |");
            }
        }
        for (boolean virtual : new boolean[] {false, true}) {
            StringBuilder row = new StringBuilder("| JDK SynchronousQueue" + (virtual ? ", virtual threads" : ", platform threads"));
            for (int[] c : configs) {
                ThreadFactory factory = virtual ? Thread.ofVirtual().factory() : Thread.ofPlatform().factory();
                row.append(String.format(Locale.ROOT, " | %.0f", run("SynchronousQueue", c[0], factory, tasks, c[1])));
            }
            System.out.println(row + " |");
        }
        StringBuilder row = new StringBuilder("| newVirtualThreadPerTaskExecutor (no bound)");
        for (int[] c : configs) {
            row.append(String.format(Locale.ROOT, " | %.0f", run(null, 0, null, tasks, c[1])));
        }
        System.out.println(row + " |");
    }
}
