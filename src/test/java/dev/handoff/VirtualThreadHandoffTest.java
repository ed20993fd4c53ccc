/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind with thousands of virtual producers and consumers, started directly and through
 * {@link Executors#newVirtualThreadPerTaskExecutor()}: every element reaches exactly one consumer,
 * and close() ends every consumer. The buffered kinds get a small capacity so that both sides
 * block often; the pipe gets one worker slot per consumer.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VirtualThreadHandoffTest {

    static final int PRODUCERS = 2_000;
    static final int CONSUMERS = 1_000;
    static final int PER_PRODUCER = 5;

    static Stream<String> kinds() {
        return Handoffs.kinds().stream();
    }

    /** A spec for kind under which both sides of the workload block. */
    static String blockingSpec(String kind, int consumers) {
        return kind + ":" + (kind.equals("pipe") ? consumers : 8) + ",stats";
    }

    /** One consumer: takes until the handoff is closed and empty, counting what it gets. */
    static void consume(Handoff<Integer> handoff, AtomicIntegerArray received, AtomicInteger failures) {
        try {
            while (true) {
                if (received.getAndIncrement(handoff.take()) != 0) {
                    failures.incrementAndGet();
                }
            }
        } catch (HandoffClosedException closedAndEmpty) {
            // done
        } catch (Throwable t) {
            failures.incrementAndGet();
        }
    }

    /** One producer: puts its PER_PRODUCER elements. */
    static void produce(Handoff<Integer> handoff, int producer, AtomicInteger failures) {
        try {
            for (int i = 0; i < PER_PRODUCER; i++) {
                handoff.put(producer * PER_PRODUCER + i);
            }
        } catch (Throwable t) {
            failures.incrementAndGet();
        }
    }

    static void assertEachReceivedOnce(AtomicIntegerArray received, AtomicInteger failures, Handoff<?> handoff) {
        assertEquals(0, failures.get());
        for (int e = 0; e < received.length(); e++) {
            assertEquals(1, received.get(e), "element " + e);
        }
        HandoffStats stats = handoff.stats();
        assertEquals(received.length(), stats.puts());
        assertEquals(received.length(), stats.takes());
        assertTrue(stats.consumerWaits() > 0, "consumers blocked: " + stats);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void thousandsOfVirtualProducersAndConsumers(String kind) throws InterruptedException {
        Handoff<Integer> handoff = Handoffs.create(blockingSpec(kind, CONSUMERS));
        AtomicIntegerArray received = new AtomicIntegerArray(PRODUCERS * PER_PRODUCER);
        AtomicInteger failures = new AtomicInteger();
        List<Thread> consumers = new ArrayList<>();
        for (int c = 0; c < CONSUMERS; c++) {
            consumers.add(Thread.ofVirtual().start(() -> consume(handoff, received, failures)));
        }
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            producers.add(Thread.ofVirtual().start(() -> produce(handoff, producer, failures)));
        }
        for (Thread t : producers) {
            t.join();
        }
        handoff.close();
        for (Thread t : consumers) {
            t.join();
        }
        assertEachReceivedOnce(received, failures, handoff);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void withAVirtualThreadPerTaskExecutor(String kind) throws Exception {
        Handoff<Integer> handoff = Handoffs.create(blockingSpec(kind, CONSUMERS));
        AtomicIntegerArray received = new AtomicIntegerArray(PRODUCERS * PER_PRODUCER);
        AtomicInteger failures = new AtomicInteger();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> consumers = new ArrayList<>();
            for (int c = 0; c < CONSUMERS; c++) {
                consumers.add(executor.submit(() -> consume(handoff, received, failures)));
            }
            List<Future<?>> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int producer = p;
                producers.add(executor.submit(() -> produce(handoff, producer, failures)));
            }
            for (Future<?> f : producers) {
                f.get();
            }
            handoff.close();
            for (Future<?> f : consumers) {
                f.get();
            }
        } // close() waits for every task
        assertEachReceivedOnce(received, failures, handoff);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aPoolOfVirtualThreadsOnEveryKind(String kind) throws Exception {
        int threads = 64;
        var pool = Handoffs.newThreadPool(kind + ":" + threads, threads, Thread.ofVirtual().factory(),
                new java.util.concurrent.ThreadPoolExecutor.CallerRunsPolicy());
        AtomicIntegerArray runs = new AtomicIntegerArray(5_000);
        for (int id = 0; id < runs.length(); id++) {
            int task = id;
            pool.execute(() -> {
                runs.incrementAndGet(task);
                try {
                    Thread.sleep(0, 100_000); // a blocking call: the virtual thread unmounts
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        for (int id = 0; id < runs.length(); id++) {
            assertEquals(1, runs.get(id), "task " + id);
        }
        assertTrue(pool.getCompletedTaskCount() > 0);
    }
}
