/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Importance classes on the buffered kinds ({@link ClassedHandoff}) and on the pipe: the take
 * rule and its bound, capacity per class, classifier errors, the factory, closing, and exactly-once
 * delivery under concurrency. The contract suite runs on the same handoffs through the
 * {@code Classed*ContractTest} classes; {@link ClassedHandoffProperties} checks any sequence of
 * calls against a model of the rule.
 */
@Timeout(value = 60, unit = SECONDS)
class ClassedHandoffTest {

    /** An element that names its class; ids are unique within a test. */
    record Job(int importanceClass, int id) implements Importance {
    }

    /** How long a group of threads may take before the test calls it a hang. */
    private static final long DEADLINE_SECONDS = 20;

    private static Handoff<Job> create(String kind, int capacity, int classes, int fair) {
        return Handoffs.create(kind + ":" + capacity + ",classes=" + classes + ",fair=" + fair);
    }

    private static boolean fifo(String kind) {
        return !kind.equals("pht");
    }

    private static List<Integer> classesOf(List<Job> jobs) {
        return jobs.stream().map(Job::importanceClass).toList();
    }

    // ---- the take rule ----

    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void takesServeTheMostImportantNonEmptyClassFirst(String kind) {
        Handoff<Job> h = create(kind, 4, 3, 1000); // no fair take among the first 999
        for (Job j : List.of(new Job(2, 0), new Job(1, 1), new Job(0, 2), new Job(2, 3), new Job(0, 4))) {
            assertTrue(h.offer(j));
        }
        List<Job> taken = new ArrayList<>();
        for (Job peeked; (peeked = h.peek()) != null; ) {
            Job polled = h.poll();
            assertEquals(peeked.importanceClass(), polled.importanceClass(), "peek() shows the class poll() serves");
            taken.add(polled);
        }
        assertEquals(List.of(0, 0, 1, 2, 2), classesOf(taken));
        if (fifo(kind)) {
            assertEquals(List.of(2, 4, 1, 0, 3), taken.stream().map(Job::id).toList(), "FIFO within a class");
        }
    }

    /**
     * The bound of the take rule, exactly: with every class full, the least important class is
     * first served by take number K*N (so the bound is reached), and in every run of K*N
     * consecutive takes during which a class is non-empty that class is served; for a FIFO kind
     * the element at position p of its class leaves within (p + 1)*K*N takes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void fairnessBoundHoldsAndIsReached(String kind) {
        for (int k = 2; k <= 4; k++) {
            for (int n : new int[] {1, 2, 3, 5, 16}) {
                int perClass = 3 * k * n;
                Handoff<Job> h = create(kind, perClass, k, n);
                int[][] position = new int[k][perClass];
                int id = 0;
                for (int p = 0; p < perClass; p++) {
                    for (int c = 0; c < k; c++) {
                        position[c][p] = id;
                        assertTrue(h.offer(new Job(c, id++)));
                    }
                }
                List<Job> taken = new ArrayList<>();
                for (Job j; (j = h.poll()) != null; ) {
                    taken.add(j);
                }
                String where = kind + " K=" + k + " N=" + n;
                assertEquals(k * perClass, taken.size(), where);
                assertEquals(k * n - 1, classesOf(taken).indexOf(k - 1),
                        where + ": the least important class is first served by take K*N");
                assertEveryWindowServesEveryNonEmptyClass(classesOf(taken), k, k * n, perClass, where);
                if (fifo(kind)) {
                    for (int t = 0; t < taken.size(); t++) {
                        Job j = taken.get(t);
                        int p = Arrays.binarySearch(position[j.importanceClass()], j.id());
                        assertTrue(t < (p + 1) * k * n, where + ": position " + p + " of class "
                                + j.importanceClass() + " left at take " + (t + 1));
                    }
                }
            }
        }
    }

    /** In the takes' class sequence, every window of `window` takes serves each class non-empty throughout it. */
    private static void assertEveryWindowServesEveryNonEmptyClass(List<Integer> served, int k, int window,
            int perClass, String where) {
        int[] left = new int[k]; // elements of each class still inside before take t
        Arrays.fill(left, perClass);
        int[][] leftBefore = new int[served.size()][];
        for (int t = 0; t < served.size(); t++) {
            leftBefore[t] = left.clone();
            left[served.get(t)]--;
        }
        for (int start = 0; start + window <= served.size(); start++) {
            for (int c = 0; c < k; c++) {
                int end = start + window - 1;
                boolean nonEmptyThroughout = leftBefore[end][c] > 0; // counts only fall
                if (nonEmptyThroughout && !served.subList(start, end + 1).contains(c)) {
                    fail(where + ": class " + c + " non-empty yet not served in takes " + (start + 1) + ".." + (end + 1));
                }
            }
        }
    }

    // ---- capacity per class ----

    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void capacityIsPerClassAndAFullClassBlocksOnlyItsOwnProducers(String kind) throws Exception {
        Handoff<Job> h = create(kind, 2, 3, 16);
        assertEquals(6, h.capacity(), "K times the capacity of a class");
        assertEquals(6, h.remainingCapacity());
        assertTrue(h.offer(new Job(0, 0)));
        assertTrue(h.offer(new Job(0, 1)));
        assertFalse(h.offer(new Job(0, 2)), "class 0 is full");
        assertEquals(4, h.remainingCapacity(), "the room of the other classes");
        assertEquals(6, h.size() + h.remainingCapacity());
        try (Workers workers = new Workers()) {
            Thread blocked = workers.start("class-0 producer", () -> h.put(new Job(0, 3)));
            ContractSupport.awaitBlocked(blocked);
            assertTrue(h.offer(new Job(2, 4)), "a class-2 offer succeeds while class 0 is full");
            h.put(new Job(1, 5)); // does not block: class 1 has room
            assertEquals(4, h.size());
            assertEquals(0, h.poll().importanceClass(), "most important first");
            workers.awaitAll(List.of(blocked), Workers.deadlineIn(10)); // the room it waited for
            workers.assertNoFailures();
        }
        assertEquals(4, h.size());
        assertEquals(6, h.size() + h.remainingCapacity());
        List<Job> left = new ArrayList<>();
        h.drainTo(left);
        assertEquals(List.of(0, 0, 1, 2), classesOf(left), "drainTo: class by class, most important first");
    }

    @Test
    void classesTimesCapacityMustFitAnInt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Handoffs.create("lock-split:715827883,classes=3"));
        assertTrue(e.getMessage().contains("Integer.MAX_VALUE"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Handoffs.create("circular:1000000000,classes=64"),
                "refused before allocating any class");
        assertEquals(3 * 715827882, Handoffs.create("lock-split:715827882,classes=3").capacity());
    }

    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void sizePlusRemainingCapacityIsCapacityAtEveryStep(String kind) {
        Handoff<Job> h = create(kind, 3, 3, 2);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 9; i++) {
                assertTrue(h.offer(new Job(i % 3, i)));
                assertEquals(9, h.size() + h.remainingCapacity(), "after an offer");
            }
            for (int c = 0; c < 3; c++) {
                assertFalse(h.offer(new Job(c, 99)), "every class full");
            }
            for (int i = 0; i < 9; i++) {
                assertNotNull(h.poll());
                assertEquals(9, h.size() + h.remainingCapacity(), "after a poll");
            }
        }
    }

    // ---- bad classes and classifiers ----

    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht", "pipe"})
    void aClassOutsideTheRangeIsRejectedAndNothingIsInserted(String kind) throws Exception {
        Handoff<Job> h = create(kind, 4, 3, 16);
        for (Job bad : List.of(new Job(3, 0), new Job(-1, 1), new Job(Integer.MIN_VALUE, 2))) {
            assertThrows(IllegalArgumentException.class, () -> h.offer(bad), "offer " + bad);
            assertThrows(IllegalArgumentException.class, () -> h.offer(bad, 0, SECONDS), "timed offer " + bad);
            assertThrows(IllegalArgumentException.class, () -> h.put(bad), "put " + bad);
            assertThrows(IllegalArgumentException.class, () -> h.add(bad), "add " + bad);
            assertThrows(IllegalArgumentException.class, () -> h.addAll(List.of(bad)), "addAll " + bad);
        }
        assertTrue(h.isEmpty());
        assertNull(h.poll());
        assertCloseLeavesNothingPending(h);
    }

    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht", "pipe"})
    void aClassifierThatThrowsInsertsNothing(String kind) throws Exception {
        UnsupportedOperationException broken = new UnsupportedOperationException("classifier broke");
        Handoff<Job> h = Handoffs.create(kind + ":4,classes=2", (Job j) -> {
            if (j.id() == 13) {
                throw broken;
            }
            return j.importanceClass();
        });
        Job unlucky = new Job(0, 13);
        assertSame(broken, assertThrows(UnsupportedOperationException.class, () -> h.offer(unlucky)));
        assertSame(broken, assertThrows(UnsupportedOperationException.class, () -> h.offer(unlucky, 1, HOURS)));
        assertSame(broken, assertThrows(UnsupportedOperationException.class, () -> h.put(unlucky)));
        assertSame(broken, assertThrows(UnsupportedOperationException.class, () -> h.add(unlucky)));
        assertTrue(h.isEmpty());
        assertFalse(h.contains(unlucky));
        assertThrows(NullPointerException.class, () -> h.offer(null), "null is refused before the classifier sees it");
        assertCloseLeavesNothingPending(h);
    }

    /** After close, a handoff with nothing inside reports closed and empty at once: no insert was left pending. */
    private static void assertCloseLeavesNothingPending(Handoff<Job> h) throws InterruptedException {
        h.close();
        assertThrows(HandoffClosedException.class, h::take); // would wait forever on a leaked announce
        assertThrows(HandoffClosedException.class, () -> h.take(1, HOURS));
    }

    // ---- the factory ----

    @Test
    void customClassifierAndSpecOptions() {
        Handoff<String> h = Handoffs.create("circular:4,classes=2", (String s) -> s.startsWith("!") ? 0 : 1);
        assertTrue(h.offer("a") && h.offer("!b") && h.offer("c"));
        assertEquals("!b", h.poll());
        assertEquals("a", h.poll());
        assertEquals(8, h.capacity());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Handoffs.create("circular:4", (String s) -> 0));
        assertTrue(e.getMessage().contains("classes="), e.getMessage());
        assertThrows(NullPointerException.class, () -> Handoffs.create("circular:4,classes=2", null));

        for (String bad : List.of("circular:4,classes=0", "circular:4,classes=65", "circular:4,classes=x",
                "circular:4,classes", "circular:4,classes=2,fair=0", "circular:4,classes=2,fair=x",
                "circular:4,fair=3", "pipe:4,classes=2,fair=-1", "lock-split:4,classes=2,wait=spin")) {
            IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> Handoffs.create(bad), bad);
            assertTrue(thrown.getMessage().contains(bad), thrown.getMessage());
        }

        assertInstanceOf(CircularBuffer.class, Handoffs.create("circular:4,classes=1"), "one class: the kind itself");
        assertEquals(4, Handoffs.create("circular:4,classes=1").capacity());
        assertInstanceOf(ClassedHandoff.class, Handoffs.create("pht:4,classes=2,slots=monitor"));
        assertInstanceOf(PipeHandoff.class, Handoffs.create("pipe:4,classes=3"));
        assertEquals(4, Handoffs.create("pipe:4,classes=3").capacity(), "a pipe's capacity stays its worker slots");
        assertTrue(Handoffs.create("lock-split:4,classes=2,stats").stats().enabled());
        assertFalse(Handoffs.create("lock-split:4,classes=2").stats().enabled());
        assertEquals(Handoff.Ordering.UNORDERED, Handoffs.create("circular:4,classes=2").ordering());
        assertEquals(CircularBuffer.Waiting.SPIN_THEN_PARK, ((CircularBuffer<?>) Handoffs.create(
                "circular:4,wait=spin,classes=1")).waiting(), "the kind's options still apply");
    }

    @Test
    void byImportancePutsElementsThatSayNothingLast() {
        Classifier<Object> c = Classifier.byImportance(3);
        assertEquals(2, c.classOf("plain"));
        assertEquals(0, c.classOf(new Job(0, 1)));
        assertEquals(1, c.classOf(new Job(1, 1)));
        assertThrows(IllegalArgumentException.class, () -> Classifier.byImportance(0));
    }

    // ---- views ----

    @Test
    void viewsListTheClassesMostImportantFirst() {
        Handoff<Job> h = create("circular", 4, 3, 16);
        Job a = new Job(2, 0);
        Job b = new Job(1, 1);
        Job c = new Job(0, 2);
        Job d = new Job(2, 3);
        h.addAll(List.of(a, b, c, d));
        assertEquals(List.of(c, b, a, d), Arrays.asList(h.toArray()));
        assertEquals("[" + c + ", " + b + ", " + a + ", " + d + "]", h.toString());
        assertSame(c, h.peek());
        assertTrue(h.contains(b));
        assertTrue(h.remove(b), "remove(Object) finds an element of any class");
        assertFalse(h.contains(b));
        assertFalse(h.remove(b));
        assertEquals(3, h.size());
        assertEquals(9, h.remainingCapacity());
        List<Job> drained = new ArrayList<>();
        assertEquals(2, h.drainTo(drained, 2));
        assertEquals(List.of(c, a), drained, "class by class");
        assertEquals(List.of(d), Arrays.asList(h.toArray()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void drainToLosesNothingWhenTheTargetThrows(String kind) {
        Handoff<Job> h = create(kind, 2, 3, 16);
        for (int i = 0; i < 6; i++) {
            h.add(new Job(i % 3, i));
        }
        List<Job> sink = new ArrayList<>() {
            @Override
            public boolean add(Job e) {
                if (size() == 3) {
                    throw new IllegalStateException("target full");
                }
                return super.add(e);
            }
        };
        assertThrows(IllegalStateException.class, () -> h.drainTo(sink));
        assertEquals(List.of(0, 0, 1), classesOf(sink), "three moved, class by class, before the target threw");
        assertEquals(3, h.size(), "the rest, the refused one included, still inside and takeable");
        assertEquals(3, h.remainingCapacity());
        List<Job> all = new ArrayList<>(sink);
        for (Job j; (j = h.poll()) != null; ) {
            all.add(j);
        }
        assertEquals(List.of(0, 1, 2, 3, 4, 5), all.stream().map(Job::id).sorted().toList(), "each element once");
    }

    // ---- counters ----

    @Test
    void statsCountPutsTakesAndWaits() throws Exception {
        Handoff<Job> h = Handoffs.create("circular:1,classes=2,stats");
        assertTrue(h.offer(new Job(1, 0)));
        assertFalse(h.offer(new Job(1, 1)), "class 1 full: not counted");
        try (Workers workers = new Workers()) {
            Thread producer = workers.start("producer", () -> h.put(new Job(1, 2)));
            ContractSupport.awaitBlocked(producer);
            assertEquals(1, h.stats().producerWaits(), "the put that found its class full");
            assertEquals(0, h.take().id());
            workers.awaitAll(List.of(producer), Workers.deadlineIn(10));
            assertEquals(2, h.take().id());
            Thread consumer = workers.start("consumer", h::take);
            ContractSupport.awaitBlocked(consumer);
            h.put(new Job(0, 3));
            workers.awaitAll(List.of(consumer), Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
        HandoffStats stats = h.stats();
        assertEquals(3, stats.puts(), stats.toString());
        assertEquals(3, stats.takes(), stats.toString());
        assertTrue(stats.consumerWaits() >= 1, stats.toString());
    }

    // ---- closing ----

    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void closeKeepsEveryClassForConsumersAndOfferReturnsFalse(String kind) throws Exception {
        Handoff<Job> h = create(kind, 2, 3, 2);
        for (int i = 0; i < 6; i++) {
            h.put(new Job(i % 3, i));
        }
        h.close();
        assertFalse(h.offer(new Job(0, 10)), "offer after close: false");
        assertFalse(h.offer(new Job(0, 11), 1, HOURS), "timed offer after close: false, at once");
        assertThrows(HandoffClosedException.class, () -> h.put(new Job(0, 12)));
        assertThrows(HandoffClosedException.class, () -> h.add(new Job(0, 13)));
        assertThrows(HandoffClosedException.class, () -> h.addAll(List.of(new Job(1, 14))));
        assertEquals(6, h.size(), "close keeps every class");
        List<Job> taken = new ArrayList<>();
        taken.add(h.take());
        taken.add(h.poll());
        taken.add(h.poll(1, HOURS));
        assertEquals(3, h.drainTo(taken));
        assertEquals(List.of(0, 1, 2, 3, 4, 5), taken.stream().map(Job::id).sorted().toList());
        assertThrows(HandoffClosedException.class, h::take, "closed and empty");
        assertThrows(HandoffClosedException.class, () -> h.take(1, HOURS), "closed and empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void closeWakesBlockedThreads(String kind) throws Exception {
        Handoff<Job> full = create(kind, 1, 2, 16);
        full.add(new Job(0, 0));
        full.add(new Job(1, 1));
        Handoff<Job> empty = create(kind, 1, 2, 16);
        AtomicInteger woken = new AtomicInteger();
        try (Workers workers = new Workers()) {
            List<Thread> blocked = List.of(
                    workers.start("put", () -> {
                        assertThrows(HandoffClosedException.class, () -> full.put(new Job(0, 2)));
                        woken.incrementAndGet();
                    }),
                    workers.start("timed offer", () -> {
                        assertFalse(full.offer(new Job(1, 3), 1, HOURS), "returns false when the handoff closes");
                        woken.incrementAndGet();
                    }),
                    workers.start("take", () -> {
                        assertThrows(HandoffClosedException.class, empty::take);
                        woken.incrementAndGet();
                    }),
                    workers.start("timed take", () -> {
                        assertThrows(HandoffClosedException.class, () -> empty.take(1, HOURS));
                        woken.incrementAndGet();
                    }));
            blocked.forEach(ContractSupport::awaitBlocked);
            full.close();
            empty.close();
            workers.awaitAll(blocked, Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
        assertEquals(4, woken.get());
        assertEquals(List.of(0, 1), classesOf(List.of(full.take(), full.take())), "nothing blocked got in");
    }

    // ---- concurrency ----

    /**
     * One producer per class and three consumers (take, timed poll, and small drains) on small
     * classes: every element is taken exactly once, and for a FIFO kind each consumer sees each
     * class in order.
     */
    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void everyElementOfEveryClassIsTakenExactlyOnce(String kind) throws Exception {
        int classes = 3;
        int perProducer = 30_000;
        Handoff<Job> h = create(kind, 4, classes, 4);
        AtomicIntegerArray taken = new AtomicIntegerArray(classes * perProducer);
        try (Workers workers = new Workers()) {
            List<Thread> producers = new ArrayList<>();
            for (int c = 0; c < classes; c++) {
                int cls = c;
                producers.add(workers.start("producer-" + c, () -> {
                    for (int i = 0; i < perProducer && !workers.stop.get(); i++) {
                        Job j = new Job(cls, cls * perProducer + i);
                        if (i % 2 == 0) {
                            h.put(j);
                        } else {
                            while (!h.offer(j, 1, MILLISECONDS) && !workers.stop.get()) {
                                // its class is full: try again
                            }
                        }
                    }
                }));
            }
            List<Thread> consumers = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                int id = c;
                consumers.add(workers.start("consumer-" + c, () -> {
                    int[] last = {-1, -1, -1};
                    List<Job> batch = new ArrayList<>();
                    while (!workers.stop.get()) {
                        batch.clear();
                        try {
                            switch (id) {
                                case 0 -> batch.add(h.take());
                                case 1 -> {
                                    Job j = h.poll(100, MICROSECONDS);
                                    if (j != null) {
                                        batch.add(j);
                                    } else if (h.isClosed() && h.isEmpty()) {
                                        return;
                                    }
                                }
                                default -> {
                                    if (h.drainTo(batch, 3) == 0) {
                                        if (h.isClosed() && h.isEmpty()) {
                                            return;
                                        }
                                        Thread.yield(); // nothing to drain: let the producers run
                                    }
                                }
                            }
                        } catch (HandoffClosedException closedAndEmpty) {
                            return;
                        }
                        for (Job j : batch) {
                            if (taken.incrementAndGet(j.id()) != 1) {
                                workers.fail(j + " taken twice");
                            }
                            if (fifo(kind) && j.id() <= last[j.importanceClass()]) {
                                workers.fail("FIFO within class " + j.importanceClass() + ": " + j + " after id "
                                        + last[j.importanceClass()]);
                            }
                            last[j.importanceClass()] = j.id();
                        }
                    }
                }));
            }
            long deadline = Workers.deadlineIn(DEADLINE_SECONDS);
            workers.awaitAll(producers, deadline);
            h.close();
            workers.awaitAll(consumers, deadline);
            workers.assertNoFailures();
        }
        assertTrue(h.isEmpty());
        for (int i = 0; i < taken.length(); i++) {
            assertEquals(1, taken.get(i), "element " + i + " taken once");
        }
    }

    /**
     * Producers of every class and consumers run flat out; the handoff is closed in the middle.
     * Every element whose insert returned normally (or true) is taken exactly once; every refused
     * one (put threw, the timed offer returned false) is nowhere; nobody hangs.
     */
    @ParameterizedTest
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void closeUnderLoadLosesNothingAndHangsNobody(String kind) throws Exception {
        int n = 1 << 20;
        Handoff<Job> h = create(kind, 2, 3, 2);
        AtomicInteger next = new AtomicInteger();
        AtomicIntegerArray put = new AtomicIntegerArray(n);
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicInteger takenCount = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        try (Workers workers = new Workers()) {
            List<Thread> all = new ArrayList<>();
            for (int p = 0; p < 4; p++) {
                int id = p;
                all.add(workers.start("producer-" + p, () -> {
                    while (!workers.stop.get()) {
                        int e = next.getAndIncrement();
                        if (e >= n) {
                            return;
                        }
                        Job j = new Job(e % 3, e);
                        if (id % 2 == 0) {
                            try {
                                h.put(j);
                            } catch (HandoffClosedException closed) {
                                refused.incrementAndGet();
                                return;
                            }
                        } else if (!h.offer(j, 1, HOURS)) {
                            refused.incrementAndGet(); // closed: an hour has not passed
                            return;
                        }
                        put.incrementAndGet(e);
                    }
                }));
            }
            for (int c = 0; c < 4; c++) {
                int id = c;
                all.add(workers.start("consumer-" + c, () -> {
                    while (!workers.stop.get()) {
                        Job j;
                        if (id % 2 == 0) {
                            try {
                                j = h.take();
                            } catch (HandoffClosedException closedAndEmpty) {
                                return;
                            }
                        } else {
                            try {
                                j = h.take(1, HOURS);
                            } catch (HandoffClosedException closedAndEmpty) {
                                return;
                            }
                        }
                        if (taken.incrementAndGet(j.id()) != 1) {
                            workers.fail(j + " taken twice");
                        }
                        takenCount.incrementAndGet();
                    }
                }));
            }
            long deadline = Workers.deadlineIn(DEADLINE_SECONDS);
            while (takenCount.get() < 20_000 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            h.close();
            workers.awaitAll(all, deadline);
            workers.assertNoFailures();
        }
        assertEquals(4, refused.get(), "every producer was refused once, by the close");
        assertTrue(h.isEmpty());
        for (int e = 0; e < n; e++) {
            if (taken.get(e) != put.get(e)) {
                fail("element " + e + " put " + put.get(e) + " time(s), taken " + taken.get(e) + " time(s)");
            }
        }
    }

    // ---- the pipe ----

    /**
     * Three producers of classes 2, 0 and 1 wait for a worker, in line in that order; a worker
     * then takes three times: it gets the class-0 element, then class 1, then class 2. (The
     * producers are in line before the worker comes, so none of them can hand over directly.)
     */
    @Test
    void pipeWakesAWaitingProducerOfTheMostImportantClassFirst() throws Exception {
        PipeHandoff<Job> pipe = (PipeHandoff<Job>) Handoffs.<Job>create("pipe:2,classes=3");
        try (Workers workers = new Workers(); PipeWorker<Job> worker = pipe.register()) {
            List<Thread> producers = new ArrayList<>();
            for (Job j : List.of(new Job(2, 0), new Job(0, 1), new Job(1, 2))) {
                Thread t = workers.start("producer of class " + j.importanceClass(), () -> pipe.put(j));
                ContractSupport.awaitBlocked(t);
                // A count of 1 means it waits in the line of its class, where the worker will
                // serve the lines in class order.
                while (pipe.waitingProducersOfClass(j.importanceClass()) != 1) {
                    Thread.yield();
                }
                producers.add(t);
            }
            List<Job> taken = List.of(worker.take(), worker.take(), worker.take());
            assertEquals(List.of(0, 1, 2), classesOf(taken), "most important waiting producer first");
            workers.awaitAll(producers, Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
    }

    @Test
    void pipeProducersOfEveryClassMeetWorkersExactlyOnce() throws Exception {
        int classes = 3;
        int perProducer = 5_000;
        Handoff<Job> pipe = Handoffs.create("pipe:4,classes=" + classes + ",fair=2");
        AtomicIntegerArray taken = new AtomicIntegerArray(classes * perProducer);
        try (Workers workers = new Workers()) {
            List<Thread> producers = new ArrayList<>();
            for (int c = 0; c < classes; c++) {
                int cls = c;
                producers.add(workers.start("producer-" + c, () -> {
                    for (int i = 0; i < perProducer && !workers.stop.get(); i++) {
                        pipe.put(new Job(cls, cls * perProducer + i));
                    }
                }));
            }
            List<Thread> consumers = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                consumers.add(workers.start("worker-" + c, () -> {
                    while (!workers.stop.get()) {
                        try {
                            Job j = pipe.take();
                            if (taken.incrementAndGet(j.id()) != 1) {
                                workers.fail(j + " taken twice");
                            }
                        } catch (HandoffClosedException closed) {
                            return;
                        }
                    }
                }));
            }
            long deadline = Workers.deadlineIn(DEADLINE_SECONDS);
            workers.awaitAll(producers, deadline);
            pipe.close();
            workers.awaitAll(consumers, deadline);
            workers.assertNoFailures();
        }
        for (int i = 0; i < taken.length(); i++) {
            assertEquals(1, taken.get(i), "element " + i + " handed over once");
        }
    }
}
