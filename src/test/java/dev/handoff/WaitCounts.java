/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * How often the threads of a handoff park, per element: the figures docs/benchmarks.md uses to
 * say which goals wake-ups stop. P producers {@code put} and C consumers {@code take} as fast as
 * they can (the shapes of the JMH throughput benchmark) for a warm-up second and then
 * {@value #SECONDS} measured seconds, on a handoff built with {@code ,stats}; prints, per shape
 * and kind, handoffs per second and the handoff's own counters divided by the elements moved:
 * consumer and producer waits (each a park on a condition or in a slot), insert probes per put,
 * search probes per take and conflicts (insert and search: a slot won by another thread) per
 * element taken. On a machine without Maven ({@code jmh/many-core.sh}) the library's classes
 * and this one are all it needs.
 * Run from the repository root:
 * <pre>
 * mvn -B -q -pl src test-compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java \
 *     -cp src/target/test-classes:src/target/classes:$(cat src/target/test.classpath) dev.handoff.WaitCounts
 * </pre>
 * Arguments, all optional: the kind specs (default: each kind at capacity 1024, the pipe with 64
 * slots, as in the JMH suite).
 */
public final class WaitCounts {

    static final int SECONDS = 3;

    static final int[][] SHAPES = {{1, 1}, {1, 4}, {4, 4}, {8, 8}, {1, 50}};

    private WaitCounts() {
    }

    public static void main(String[] args) throws InterruptedException {
        List<String> specs = args.length > 0 ? List.of(args)
                : List.of("circular:1024", "circular:1024,wait=spin", "lock-split:1024", "pht:1024",
                        "pht:1024,slots=monitor", "pipe:64");
        System.out.println("| shape | kind | handoffs/s | consumer waits per take | producer waits per put"
                + " | insert probes per put | search probes per take | conflicts per element |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (int[] shape : SHAPES) {
            for (String spec : specs) {
                System.out.println(row(shape[0], shape[1], spec));
            }
        }
    }

    /** Runs one shape on a fresh handoff and formats its row. */
    static String row(int producers, int consumers, String spec) throws InterruptedException {
        Handoff<Integer> handoff = Handoffs.create(spec + ",stats");
        LongAdder taken = new LongAdder();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < consumers; i++) {
            threads.add(Thread.ofPlatform().daemon().start(() -> consume(handoff, taken)));
        }
        for (int i = 0; i < producers; i++) {
            threads.add(Thread.ofPlatform().daemon().start(() -> produce(handoff)));
        }
        Thread.sleep(1000); // warm-up
        long elementsBefore = taken.sum();
        HandoffStats before = handoff.stats();
        Thread.sleep(SECONDS * 1000L);
        HandoffStats after = handoff.stats();
        long elements = taken.sum() - elementsBefore;
        handoff.close(); // producers throw HandoffClosedException, consumers drain and throw
        for (Thread t : threads) {
            t.join(5000);
        }
        long puts = after.puts() - before.puts();
        long takes = after.takes() - before.takes();
        return String.format(Locale.ROOT, "| %dP/%dC | %s | %.2f M | %.3f | %.3f | %.2f | %.2f | %.3f |",
                producers, consumers, spec, elements / (SECONDS * 1e6),
                perElement(after.consumerWaits() - before.consumerWaits(), takes),
                perElement(after.producerWaits() - before.producerWaits(), puts),
                perElement(after.insertProbes() - before.insertProbes(), puts),
                perElement(after.searchProbes() - before.searchProbes(), takes),
                perElement(after.conflicts() - before.conflicts(), takes));
    }

    private static double perElement(long count, long elements) {
        return elements == 0 ? Double.NaN : (double) count / elements;
    }

    private static void consume(Handoff<Integer> handoff, LongAdder taken) {
        try {
            for (;;) {
                handoff.take();
                taken.increment();
            }
        } catch (HandoffClosedException | InterruptedException end) {
            // closed and empty: the run is over
        }
    }

    private static void produce(Handoff<Integer> handoff) {
        try {
            for (int i = 0; ; i++) {
                handoff.put(i);
            }
        } catch (HandoffClosedException | InterruptedException end) {
            // closed: the run is over
        }
    }
}
