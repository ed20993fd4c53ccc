/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's usage example, kept compiling and checked: every line reaches a consumer once. */
class ReadmeExampleTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void readmeExampleDeliversEveryLineOnceAndStops() throws InterruptedException {
        ConcurrentLinkedQueue<String> printed = new ConcurrentLinkedQueue<>();
        // --- as in README.md, with System.out.println replaced by printed::add ---
        Handoff<String> jobs = Handoffs.create("lock-split:1024");
        List<Thread> consumers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            consumers.add(Thread.ofVirtual().start(() -> {
                try {
                    while (true) printed.add(jobs.take());
                } catch (HandoffClosedException | InterruptedException closedAndDrained) { }
            }));
        }
        for (String line : List.of("a", "b", "c")) jobs.put(line);
        jobs.close();
        for (Thread consumer : consumers) consumer.join();
        // ---
        assertEquals(List.of("a", "b", "c"), printed.stream().sorted().toList());
    }
}
