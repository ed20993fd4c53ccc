/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.SerializationContract.serialClone;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.HandoffStats.SojournTimes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code sojourn} option beyond the contract suite (which the {@code *SojournContractTest}
 * classes run on it): what is timed, a lower bound on a time that is known to have passed (never
 * an upper one), that the option is off unless asked for and independent of {@code stats}, that
 * importance classes classify the element and not its stamp, serialization, and a thread pool's
 * queue wait.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SojournHandoffTest {

    private static final long FIFTY_MS = TimeUnit.MILLISECONDS.toNanos(50);

    /** Waits until at least nanos have passed since start, whatever sleep's precision. */
    private static void stayAtLeast(long start, long nanos) throws InterruptedException {
        for (long left; (left = start + nanos - System.nanoTime()) > 0; ) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"circular:4,sojourn", "circular:4,core=ring,sojourn", "circular:4,core=cells,sojourn",
            "lock-split:4,sojourn", "pht:5,sojourn", "pht:5,key=hash,slots=monitor,sojourn",
            "circular:4,classes=2,sojourn"})
    void anElementThatStayedFiftyMillisecondsIsTimedAtLeastThat(String spec) throws Exception {
        Handoff<String> h = Handoffs.create(spec);
        h.put("x");
        stayAtLeast(System.nanoTime(), FIFTY_MS); // the stamp was read before this clock read
        assertEquals("x", h.take());
        SojournTimes t = h.stats().sojourn();
        assertEquals(1, t.count());
        assertTrue(t.maxNanos() >= FIFTY_MS, () -> "stayed 50 ms, timed " + t);
        assertTrue(t.p50Nanos() >= FIFTY_MS && t.p999Nanos() >= FIFTY_MS, t::toString);
        assertTrue(t.totalNanos() >= FIFTY_MS && t.meanNanos() >= FIFTY_MS, t::toString);
    }

    private static final String[] EVERY_KIND = {"circular:4,sojourn", "circular:4,core=ring,sojourn",
            "circular:4,core=cells,sojourn", "lock-split:4,sojourn", "lock-split:200,sojourn", "pht:5,sojourn",
            "pht:5,key=hash,slots=monitor,sojourn", "pht:5,search=cursor,sojourn", "circular:4,classes=2,sojourn",
            "pht:5,classes=3,sojourn"};

    static String[] everyKind() {
        return EVERY_KIND;
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("everyKind")
    void theOldestElementsAgeGrowsBehindAStuckConsumerAndIsZeroWhenEmpty(String spec) throws Exception {
        Handoff<String> h = Handoffs.create(spec);
        assertEquals(0, h.stats().sojourn().oldestAgeNanos(), "empty");
        long before = System.nanoTime();
        h.put("first");
        stayAtLeast(System.nanoTime(), FIFTY_MS); // no consumer
        long beforeSecond = System.nanoTime();
        h.put("second");
        long age = h.stats().sojourn().oldestAgeNanos();
        long bound = System.nanoTime() - before;
        assertTrue(age >= FIFTY_MS && age <= bound, () -> "first stayed 50 ms (at most " + bound + " ns): " + age);
        assertEquals(0, h.stats().sojourn().count(), "nothing was handed out");

        h.remove("first"); // whatever the kind's order, the oldest leaves
        long left = h.stats().sojourn().oldestAgeNanos();
        long secondBound = System.nanoTime() - beforeSecond;
        assertTrue(left <= secondBound, () -> "only second is inside (at most " + secondBound + " ns): " + left);
        h.take();
        assertEquals(0, h.stats().sojourn().oldestAgeNanos(), "empty again");
    }

    @Test
    void theOldestAgeFollowsTheHeadAcrossChunksOfTheLockSplitQueue() throws Exception {
        Handoff<Integer> h = Handoffs.create("lock-split:300,sojourn");
        for (int i = 0; i < 130; i++) { // three chunks of 64
            h.put(i);
        }
        stayAtLeast(System.nanoTime(), FIFTY_MS);
        long beforeLast = System.nanoTime();
        h.put(130);
        for (int i = 0; i < 130; i++) {
            assertTrue(h.stats().sojourn().oldestAgeNanos() >= FIFTY_MS, "element " + i + " is at the head");
            assertEquals(i, h.take());
        }
        long age = h.stats().sojourn().oldestAgeNanos();
        long bound = System.nanoTime() - beforeLast;
        assertTrue(age <= bound, () -> "only the last one is inside (at most " + bound + " ns): " + age);
    }

    @Test
    void everyWayOutToAConsumerIsTimedAndNoOtherWayIs() throws Exception {
        Handoff<Integer> h = Handoffs.create("circular:16,stats,sojourn");
        for (int i = 0; i < 16; i++) {
            h.put(i);
        }
        h.poll();
        h.take();
        h.poll(1, TimeUnit.SECONDS);
        h.remove();                                        // Queue.remove(): the head, to the caller
        List<Integer> into = new ArrayList<>();
        assertEquals(2, h.drainTo(into, 2));
        assertEquals(2, h.take(into, 2));
        assertEquals(2, h.poll(into, 2, 1, TimeUnit.SECONDS));
        assertEquals(10, h.stats().sojourn().count(), "4 singly, 6 in batches");
        assertEquals(List.of(4, 5, 6, 7, 8, 9), into, "elements, never stamps");

        assertEquals(10, h.peek());
        assertTrue(h.contains(11));
        assertTrue(h.remove((Object) 11));
        assertTrue(h.removeIf(e -> e == 12));
        Iterator<Integer> it = h.iterator();
        assertEquals(10, it.next());
        it.remove();
        assertEquals(List.of(13, 14, 15), List.of(h.toArray(new Integer[0])));
        h.clear();
        assertTrue(h.isEmpty());
        HandoffStats stats = h.stats();
        assertEquals(10, stats.sojourn().count(), "removed elements were handed to no consumer");
        assertEquals(16, stats.takes(), "the counters count every removal");
    }

    @Test
    void theOptionIsOffUnlessAskedForAndIndependentOfStats() throws Exception {
        Handoff<String> plain = Handoffs.create("circular:4,stats");
        assertInstanceOf(CircularBuffer.class, plain, "no decorator, no timing code");
        assertSame(SojournTimes.disabled(), plain.stats().sojourn());
        assertSame(HandoffStats.disabled(), Handoffs.create("lock-split:4").stats());

        Handoff<String> timedOnly = Handoffs.create("lock-split:4,sojourn");
        timedOnly.put("a");
        timedOnly.take();
        assertFalse(timedOnly.stats().enabled(), "sojourn does not turn counting on");
        assertEquals(0, timedOnly.stats().puts());
        assertTrue(timedOnly.stats().sojourn().enabled());
        assertEquals(1, timedOnly.stats().sojourn().count());

        Handoff<String> both = Handoffs.create("pht:5,stats,sojourn");
        both.put("a");
        both.take();
        assertEquals(1, both.stats().puts());
        assertEquals(1, both.stats().takes());
        assertEquals(1, both.stats().sojourn().count());
    }

    /** Classes 0 for strings that start with "!": a classifier that fails on anything but a String. */
    record Bang() implements Classifier<String>, Serializable {
        @Override
        public int classOf(String e) {
            return e.startsWith("!") ? 0 : 1;
        }
    }

    @Test
    void importanceClassesClassifyTheElementNotItsStamp() throws Exception {
        Handoff<String> custom = Handoffs.create("circular:4,classes=2,sojourn", new Bang());
        custom.put("a");
        custom.put("!b");
        assertEquals("!b", custom.take());
        assertEquals("a", custom.take());
        assertEquals(2, custom.stats().sojourn().count());

        Handoff<Object> byImportance = Handoffs.create("lock-split:4,classes=2,sojourn");
        Importance urgent = () -> 0;
        byImportance.put("later");
        byImportance.put(urgent);
        assertSame(urgent, byImportance.take(), "Importance is read from the element");
    }

    @Test
    void aSerializedCopyKeepsTheOptionAndHoldsTheElements() throws Exception {
        Handoff<String> h = Handoffs.create("lock-split:4,stats,sojourn");
        h.put("a");
        h.put("b");
        Handoff<String> copy = serialClone(h);
        assertInstanceOf(SojournHandoff.class, copy);
        assertEquals(h.spec(), copy.spec());
        assertEquals("lock-split:4,stats,sojourn", copy.spec().toString());
        assertEquals(List.of("a", "b"), List.of(copy.toArray()));
        assertEquals(0, copy.stats().sojourn().count(), "times are not part of the form");
        assertEquals("a", copy.take());
        assertEquals(1, copy.stats().sojourn().count(), "the copy times from its own puts");

        Handoff<String> classed = Handoffs.create("circular:4,classes=2,sojourn", new Bang());
        classed.put("a");
        classed.put("!b");
        Handoff<String> classedCopy = serialClone(classed);
        assertEquals(classed.spec(), classedCopy.spec());
        assertEquals("!b", classedCopy.take(), "the classifier travels");
    }

    @Test
    void aThreadPoolsQueueWaitIsTimed() throws Exception {
        ThreadPoolExecutor pool = Handoffs.newThreadPool("circular:16,sojourn", 1);
        try {
            CountDownLatch release = new CountDownLatch(1);
            pool.execute(() -> { // the first task starts the thread and is not queued
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            CountDownLatch ran = new CountDownLatch(3);
            for (int i = 0; i < 3; i++) {
                pool.execute(ran::countDown); // queued behind the blocked thread
            }
            stayAtLeast(System.nanoTime(), FIFTY_MS); // all three were stamped before this clock read
            release.countDown();
            assertTrue(ran.await(30, TimeUnit.SECONDS));
            SojournTimes wait = ((Handoff<?>) pool.getQueue()).stats().sojourn();
            assertEquals(3, wait.count());
            assertTrue(wait.p50Nanos() >= FIFTY_MS, () -> "each waited 50 ms at least: " + wait);
        } finally {
            pool.shutdown();
        }
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    }
}
