/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's examples, kept compiling and checked: the pool runs its task, every line of the
 * direct example reaches the consumer once and the consumer stops at the close, and the spec in
 * Java builds what it says.
 */
class ReadmeExampleTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void readmePoolExampleRunsItsTask() throws InterruptedException {
        ConcurrentLinkedQueue<String> printed = new ConcurrentLinkedQueue<>();
        // --- as in README.md, Usage, with System.out.println replaced by printed::add ---
        ThreadPoolExecutor pool = new ThreadPoolExecutor(8, 8, 0, TimeUnit.SECONDS,
                Handoffs.create("circular:1024"));          // or "lock-split:1024", "pht:1031", ...
        pool.execute(() -> printed.add("hello"));
        pool.shutdown();
        // ---
        assertTrue(pool.awaitTermination(20, TimeUnit.SECONDS));
        assertEquals(List.of("hello"), List.copyOf(printed));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void readmeDirectExampleDeliversEveryLineOnceAndStops() throws InterruptedException {
        ConcurrentLinkedQueue<String> printed = new ConcurrentLinkedQueue<>();
        // --- as in README.md, Usage, with System.out.println replaced by printed::add ---
        try (Handoff<String> lines = Handoffs.create("lock-split:1024")) {
            Thread consumer = Thread.ofVirtual().start(() -> {
                try {
                    while (true) printed.add(lines.take());   // waits while empty
                } catch (HandoffClosedException | InterruptedException closedAndDrained) { }
            });
            for (String line : List.of("a", "b", "c")) lines.put(line); // waits while full
            lines.close();          // no new elements; the consumer takes what is left, then stops
            consumer.join();
        }
        // ---
        assertEquals(List.of("a", "b", "c"), List.copyOf(printed));
    }

    @Test
    void readmeSpecInJavaIsTheSpecString() {
        // --- as in README.md, Usage ---
        CircularBuffer<Runnable> ring = Handoffs.circular(1024).ring().withStats().build();
        // ---
        assertEquals(CircularBuffer.Core.RING, ring.core());
        assertTrue(ring.stats().enabled());
        assertEquals(HandoffSpec.parse("circular:1024,core=ring,stats"), ring.spec());
    }
}
