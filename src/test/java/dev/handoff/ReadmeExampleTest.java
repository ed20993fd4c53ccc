/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.ParallelHashTable.SlotForm;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's examples, kept compiling and checked: every line of the usage example reaches a
 * consumer once; the configuration example builds what its comments say.
 */
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

    @Test
    void readmeConfigurationExampleBuildsWhatItSays() throws InterruptedException {
        // --- as in README.md, Configuration ---
        Handoff<Runnable> a = Handoffs.create("circular:1024,wait=spin,stats");           // from a string
        CircularBuffer<Runnable> b = Handoffs.circular(1024).spinning().withStats().build(); // the same, in Java
        ParallelHashTable<Runnable> t = Handoffs.hashTable(1031).slots(SlotForm.MONITOR).build();

        HandoffSpec spec = HandoffSpec.parse(System.getProperty("queue", "pht:1031")); // checked here, once
        ThreadPoolExecutor pool = Handoffs.newThreadPool(spec, 8);
        // ---
        assertEquals("work queue: pht:1031,slots=cas,key=random,search=summary", "work queue: " + spec);
        assertEquals(((CircularBuffer<?>) a).waiting(), b.waiting());
        assertEquals(a.stats().enabled(), b.stats().enabled());
        assertEquals(SlotForm.MONITOR, t.slotForm());
        assertEquals(1031, pool.getQueue().remainingCapacity());
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    }
}
