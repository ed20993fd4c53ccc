/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import dev.handoff.jmh.Queues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Throughput of two or more queues measured in alternating short windows in one JVM, and each
 * one's ratio to the first taken window by window: a comparison that the machine's changing
 * state cannot tilt.
 *
 * <p>Why: on the reference machine the host moves the two vCPUs near each other and apart again
 * within seconds ({@code MachineLimits.lineRoundTrip} flips between about 70 and 320 ns from one
 * one-second iteration to the next), and a 1P/1C handoff that moves a cache line or two per
 * element speeds up or slows down with it by as much as 4x. {@link HandoffThroughput} runs one
 * queue after another, so two queues' medians can come from different machine states. Here the
 * queues take turns in windows of a few hundred milliseconds (order A B B A, so neither always
 * goes first), and the ratio is taken between neighbouring windows.
 *
 * <p>Each window builds a fresh queue of capacity 1024, starts the producers ({@code put}) and
 * consumers ({@code take}) of the shape, lets them run a quarter window, counts the elements the
 * consumers take in the window, then stops the producers and frees the consumers with one
 * {@link EndOfWindow#POISON} each. Unlike a JMH fork, one JVM runs every queue, so the call
 * {@code queue.put} is megamorphic for all of them alike.
 *
 * <p>Run (JDK 21+): {@code java -cp jmh/target/benchmarks.jar
 * dev.handoff.jmh.throughput.PairedThroughput [--shape p1c1] [--window-ms 200] [--rounds 30]
 * lbq lock-split}; the names are those of {@code Queues}.
 */
public final class PairedThroughput {

    private static final Integer[] ELEMENTS =
            new SplittableRandom(2026).ints(4096).boxed().toArray(Integer[]::new);

    /** Longs between two consumers' counters, so that they do not share a cache line. */
    private static final int STRIDE = 16;

    private PairedThroughput() {
    }

    public static void main(String[] args) throws InterruptedException {
        String shape = "p1c1";
        long windowMillis = 200;
        int rounds = 30;
        List<String> kinds = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--shape" -> shape = args[++i];
                case "--window-ms" -> windowMillis = Long.parseLong(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> kinds.add(args[i]);
            }
        }
        if (kinds.size() < 2) {
            throw new IllegalArgumentException("name at least two queues, the first is the yardstick");
        }
        int[] threads = parseShape(shape);
        long window = TimeUnit.MILLISECONDS.toNanos(windowMillis);
        for (String kind : kinds) { // warm-up: JIT-compile every queue's paths before measuring
            for (int i = 0; i < 5; i++) {
                measure(kind, threads[0], threads[1], window);
            }
        }
        double[][] rates = new double[kinds.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < kinds.size(); k++) {
                int q = r % 2 == 0 ? k : kinds.size() - 1 - k; // A B, then B A
                rates[q][r] = measure(kinds.get(q), threads[0], threads[1], window);
            }
        }
        report(shape, windowMillis, rounds, kinds, rates);
    }

    /** {"p1c4"} to {1, 4}. */
    static int[] parseShape(String shape) {
        Matcher m = Pattern.compile("p(\\d+)c(\\d+)").matcher(shape);
        if (!m.matches()) {
            throw new IllegalArgumentException("shape must look like p1c4, was " + shape);
        }
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
    }

    /** Runs one window of the given queue; returns the elements consumers took per second. */
    static double measure(String kind, int producers, int consumers, long windowNanos)
            throws InterruptedException {
        BlockingQueue<Object> queue = Queues.create(kind, 1024);
        AtomicLongArray taken = new AtomicLongArray((consumers + 1) * STRIDE);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> producerThreads = new ArrayList<>();
        List<Thread> consumerThreads = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            int slot = (c + 1) * STRIDE;
            consumerThreads.add(Thread.ofPlatform().daemon().start(() -> consume(queue, taken, slot)));
        }
        for (int p = 0; p < producers; p++) {
            int start = p * 64;
            producerThreads.add(Thread.ofPlatform().daemon().start(() -> produce(queue, stop, start)));
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(windowNanos) / 4);
        long before = sum(taken);
        long t0 = System.nanoTime();
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(windowNanos));
        long after = sum(taken);
        long t1 = System.nanoTime();
        stop.set(true);
        for (Thread t : producerThreads) {
            joinOrFail(t, kind); // consumers still take, so a producer blocked in put returns
        }
        for (int c = 0; c < consumers; c++) {
            queue.put(EndOfWindow.POISON);
        }
        for (Thread t : consumerThreads) {
            joinOrFail(t, kind);
        }
        return (after - before) * 1e9 / (t1 - t0);
    }

    /** Waits for t; a thread still blocked after 10 s is a lost wake-up, and ends the run. */
    private static void joinOrFail(Thread t, String kind) throws InterruptedException {
        if (!t.join(Duration.ofSeconds(10))) {
            throw new IllegalStateException(kind + ": " + t + " still blocked 10 s after its window");
        }
    }

    private static void produce(BlockingQueue<Object> queue, AtomicBoolean stop, int start) {
        try {
            for (int i = start; !stop.getOpaque(); i++) { // opaque: the stop is a hint, seen soon enough
                queue.put(ELEMENTS[i & (ELEMENTS.length - 1)]);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void consume(BlockingQueue<Object> queue, AtomicLongArray taken, int slot) {
        try {
            for (long n = 1; queue.take() != EndOfWindow.POISON; n++) {
                taken.setOpaque(slot, n); // one writer per slot; the main thread reads it twice
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long sum(AtomicLongArray taken) {
        long s = 0;
        for (int i = 0; i < taken.length(); i += STRIDE) {
            s += taken.getOpaque(i);
        }
        return s;
    }

    private static void report(String shape, long windowMillis, int rounds, List<String> kinds,
            double[][] rates) {
        System.out.printf(Locale.ROOT, "shape %s, %d rounds of %d ms windows%n", shape, rounds, windowMillis);
        System.out.printf(Locale.ROOT, "%-22s %12s %12s %28s%n", "kind", "median/s", "IQR/2",
                "ratio to " + kinds.get(0) + " (q1 median q3)");
        for (int k = 0; k < kinds.size(); k++) {
            double[] ratio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratio[r] = rates[k][r] / rates[0][r];
            }
            double[] q = quartiles(rates[k]);
            double[] rq = quartiles(ratio);
            System.out.printf(Locale.ROOT, "%-22s %10.2f M %10.2f M %8.2f %8.2f %8.2f%n", kinds.get(k),
                    q[1] / 1e6, (q[2] - q[0]) / 2e6, rq[0], rq[1], rq[2]);
        }
    }

    /** First quartile, median, third quartile. */
    static double[] quartiles(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return new double[] {at(v, 0.25), at(v, 0.5), at(v, 0.75)};
    }

    private static double at(double[] sorted, double p) {
        double i = p * (sorted.length - 1);
        int lo = (int) Math.floor(i);
        int hi = (int) Math.ceil(i);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
    }
}
