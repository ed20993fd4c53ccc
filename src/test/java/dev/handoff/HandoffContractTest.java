/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.state.ActionChain;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract of {@link Handoff}, run against one kind. Every kind of handoff runs all of it.
 *
 * <h2>How a new handoff joins</h2>
 * Add one subclass in this package, named {@code <Kind>ContractTest} (surefire runs
 * {@code *Test}), that says how to build the kind:
 * <pre>{@code
 * class PipeHandoffContractTest extends HandoffContractTest {
 *     @Override
 *     protected <E> Handoff<E> newHandoff(int capacity) {
 *         return new PipeHandoff<>(capacity);
 *     }
 *
 *     @Override
 *     protected String kind() {          // its name in Handoffs.create; omit if it has none
 *         return "pipe";
 *     }
 *
 *     @Override
 *     protected boolean buffered() {     // only for a kind that holds no elements (see below)
 *         return false;
 *     }
 * }
 * }</pre>
 * Nothing else: the subclass inherits every JUnit test, the guava conformance suite (a
 * {@code @TestFactory}) and the jqwik property (jqwik runs {@code @Property} methods inherited
 * from an abstract class once per concrete subclass).
 *
 * <h2>Capabilities</h2>
 * <ul>
 *   <li>Ordering comes from the handoff itself, {@link Handoff#ordering()}: for an
 *       {@link Handoff.Ordering#UNORDERED} kind the guava suite drops
 *       {@code CollectionFeature.KNOWN_ORDER}, the stateful property uses a multiset model instead of
 *       an {@link java.util.ArrayDeque}, and the concurrent tests skip their per-producer order
 *       check.</li>
 *   <li>{@link #buffered()} is {@code true} by default. A kind that holds nothing (a
 *       {@code SynchronousQueue}-like pipe: {@code size()} is always 0 and {@code offer} succeeds only
 *       when a consumer waits) overrides it to return {@code false}. Each test that needs elements
 *       to sit inside starts with {@code assumeTrue(buffered(), ...)} and is then reported as
 *       skipped, not passed: the guava suite, {@code size() + remainingCapacity() == capacity()},
 *       drainTo moving elements, close keeping elements for consumers, producers woken by room,
 *       the bulk removals, the counters. Tests that only need a call not to block (null, interrupt and timeout tests)
 *       prepare the handoff so when buffered and otherwise call it on the empty handoff, where
 *       the contract is the same. The stateful property models an unbuffered kind as one of
 *       capacity 0. Every concurrent test runs for every kind.</li>
 *   <li>{@link #kind()} names the kind in {@link Handoffs#create(String)}; the factory and
 *       statistics tests are skipped when it is {@code null}.</li>
 * </ul>
 *
 * <p>If a kind's own issue defines one inherited test's subject differently, the subclass
 * overrides that test method, annotated {@code @Test}, with {@code assumeTrue(false, "why")}, so
 * that it is reported as skipped with the reason (an override without {@code @Test} would
 * silently drop it).
 *
 * <h2>Bounds</h2>
 * Each test has a {@link Timeout}; every concurrent test also waits for its threads with a
 * deadline, raises a stop flag and interrupts what is left, so a bug fails the build instead of
 * hanging it. Concurrent tests assert behaviour (exactly once, nothing lost, nobody hangs), never
 * speed. The sizes below keep one subclass well under a minute on two busy cores.
 */
@Timeout(value = 60, unit = SECONDS)
abstract class HandoffContractTest {

    /**
     * Creates a new, empty, open handoff of the kind under test.
     *
     * @param capacity the capacity asked for; a buffered kind must hold exactly this many
     * @param <E> the element type
     * @return the handoff
     * @throws IllegalArgumentException if {@code capacity <= 0}
     */
    protected abstract <E> Handoff<E> newHandoff(int capacity);

    /**
     * Returns the name of this kind in {@link Handoffs#create(String)}, or {@code null} if the
     * factory does not build it.
     */
    protected String kind() {
        return null;
    }

    /**
     * Returns whether elements can sit inside the handoff with nobody waiting for them; see
     * "Capabilities" in the class comment.
     */
    protected boolean buffered() {
        return true;
    }

    // ---- sizes of the concurrent tests ----

    /** Elements passed in each exactly-once run. */
    static final int ELEMENTS = 100_000;

    /** Capacity of the handoff in the concurrent tests: small, so both edges are hit often. */
    static final int SMALL = 8;

    /** How long a group of worker threads may take before the test calls it a hang. */
    static final long DEADLINE_SECONDS = 20;

    private Handoff<Integer> handoff(int capacity) {
        return newHandoff(capacity);
    }

    /**
     * A handoff for a test in which {@code consumers} threads may wait at once. An unbuffered
     * kind's capacity is the number of consumers that can wait in it (a pipe's worker slots), so
     * it gets at least one place per consumer; a buffered kind gets {@code capacity}.
     */
    private Handoff<Integer> handoffFor(int consumers, int capacity) {
        return handoff(buffered() ? capacity : Math.max(capacity, consumers));
    }

    /** Fills a buffered handoff with 0, 1, ... until full (or one past capacity); returns what it put. */
    private static List<Integer> fill(Handoff<Integer> h) {
        List<Integer> put = new ArrayList<>();
        for (int i = 0; i <= h.capacity() && h.offer(i); i++) {
            put.add(i);
        }
        return put;
    }

    /** Waits until t is parked (blocked in the handoff), or fails. */
    private static void awaitBlocked(Thread t) {
        long deadline = Workers.deadlineIn(10);
        while (true) {
            Thread.State state = t.getState();
            if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) {
                return;
            }
            if (state == Thread.State.TERMINATED) {
                fail(t.getName() + " ended instead of blocking");
            }
            if (System.nanoTime() > deadline) {
                fail(t.getName() + " did not block");
            }
            Thread.onSpinWait();
        }
    }

    // =====================================================================================
    // Queue and Collection conformance: guava-testlib
    // =====================================================================================

    @TestFactory
    Stream<DynamicNode> guavaQueueConformance() {
        assumeTrue(buffered(), "guava's Queue suite needs elements to stay inside");
        Handoff<String> sample = newHandoff(1);
        return GuavaConformance.queueSuite(sample.getClass().getSimpleName(), sample.ordering(), this::newHandoff);
    }

    // =====================================================================================
    // The sequential model: jqwik stateful property
    // =====================================================================================

    /** The capacity of the handoff that the next chain of {@link #behavesAsItsSequentialModel} starts with. */
    private int chainCapacity;

    /**
     * Any sequence of single-threaded calls, close included, behaves as the sequential model
     * (FIFO: an ArrayDeque; unordered: a multiset) says. See {@link ModelledHandoff}.
     */
    @Property(tries = 1000)
    void behavesAsItsSequentialModel(@ForAll @IntRange(min = 1, max = 5) int capacity,
            @ForAll("modelledHandoffs") ActionChain<ModelledHandoff> chain) {
        chainCapacity = capacity; // read by the chain's start, when run() begins
        chain.withInvariant("handoff matches model", ModelledHandoff::matchesModel).run();
    }

    @Provide
    Arbitrary<ActionChain<ModelledHandoff>> modelledHandoffs() {
        return ModelledHandoff.chains(() -> new ModelledHandoff(handoff(chainCapacity), chainCapacity, buffered()));
    }

    // =====================================================================================
    // Capacity and size
    // =====================================================================================

    @Test
    void capacityIsExactlyAsRequested() {
        for (int capacity : new int[] {1, 2, 3, 7, 100, 1000}) {
            Handoff<Integer> h = handoff(capacity);
            assertEquals(capacity, h.capacity(), "capacity()");
            if (buffered()) {
                assertEquals(capacity, h.remainingCapacity(), "remainingCapacity() when empty");
                assertEquals(capacity, fill(h).size(), "elements accepted before full");
                assertEquals(capacity, h.size(), "size() when full");
                assertEquals(0, h.remainingCapacity(), "remainingCapacity() when full");
            }
        }
    }

    @Test
    void capacityZeroOrNegativeIsRejected() {
        for (int capacity : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertThrows(IllegalArgumentException.class, () -> handoff(capacity), "capacity " + capacity);
        }
    }

    @Test
    void sizePlusRemainingCapacityIsCapacityAtEveryStep() {
        assumeTrue(buffered(), "an unbuffered kind defines its own remainingCapacity()");
        Handoff<Integer> h = handoff(5);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 5; i++) {
                assertTrue(h.offer(i));
                assertEquals(5, h.size() + h.remainingCapacity(), "after an offer");
            }
            assertFalse(h.offer(99), "offer to a full handoff");
            assertEquals(5, h.size() + h.remainingCapacity(), "after a refused offer");
            for (int i = 0; i < 5; i++) {
                assertNotNull(h.poll());
                assertEquals(5, h.size() + h.remainingCapacity(), "after a poll");
            }
        }
    }

    @Test
    void sizeAndRemainingCapacityStayWithinBoundsWhileHammered() throws Exception {
        Handoff<Integer> h = handoff(SMALL);
        int reads = 200_000;
        AtomicInteger changes = new AtomicInteger();
        try (Workers workers = new Workers()) {
            List<Thread> all = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                all.add(workers.start("offerer-" + t, () -> {
                    for (int i = 0; !workers.stop.get(); i++) {
                        if (h.offer(i)) {
                            changes.incrementAndGet();
                        }
                    }
                }));
                all.add(workers.start("poller-" + t, () -> {
                    while (!workers.stop.get()) {
                        if (h.poll() != null) {
                            changes.incrementAndGet();
                        }
                    }
                }));
            }
            all.add(workers.start("reader", () -> {
                for (int i = 0; i < reads && !workers.stop.get(); i++) {
                    int size = h.size();
                    int remaining = h.remainingCapacity();
                    if (size < 0 || size > SMALL) {
                        workers.fail("size() = " + size + " outside [0, " + SMALL + "]");
                    }
                    if (remaining < 0 || remaining > SMALL) {
                        workers.fail("remainingCapacity() = " + remaining + " outside [0, " + SMALL + "]");
                    }
                }
                workers.stop.set(true); // the hammers stop when the reader is done
            }));
            workers.awaitAll(all, Workers.deadlineIn(DEADLINE_SECONDS));
            workers.assertNoFailures();
        }
        if (buffered()) {
            assertTrue(changes.get() > 0, "the hammers changed the handoff while it was read");
        }
    }

    // =====================================================================================
    // Null elements
    // =====================================================================================

    /** A handoff where an insert would block or fail if it got past the null check. */
    private Handoff<Integer> fullHandoff() {
        Handoff<Integer> h = handoff(2);
        if (buffered()) {
            fill(h);
        }
        return h;
    }

    private static void assertNoNullInside(Handoff<Integer> h) {
        assertFalse(Arrays.asList(h.toArray()).contains(null), "no null inside");
    }

    @Test
    void addRejectsNull() {
        Handoff<Integer> h = handoff(2);
        assertThrows(NullPointerException.class, () -> h.add(null));
        assertTrue(h.isEmpty());
    }

    @Test
    void offerRejectsNull() {
        Handoff<Integer> h = handoff(2);
        assertThrows(NullPointerException.class, () -> h.offer(null));
        assertTrue(h.isEmpty());
        Handoff<Integer> full = fullHandoff();
        assertThrows(NullPointerException.class, () -> full.offer(null), "even when full");
        assertNoNullInside(full);
    }

    @Test
    void timedOfferRejectsNull() {
        Handoff<Integer> h = handoff(2);
        assertThrows(NullPointerException.class, () -> h.offer(null, 0, SECONDS));
        assertTrue(h.isEmpty());
        Handoff<Integer> full = fullHandoff();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(NullPointerException.class,
                () -> full.offer(null, 1, HOURS)), "even when full: rejected before waiting");
        assertNoNullInside(full);
    }

    @Test
    void putRejectsNull() {
        Handoff<Integer> h = handoff(2);
        assertThrows(NullPointerException.class, () -> h.put(null));
        assertTrue(h.isEmpty());
        Handoff<Integer> full = fullHandoff();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(NullPointerException.class,
                () -> full.put(null)), "even when full: rejected before waiting");
        assertNoNullInside(full);
    }

    @Test
    void addAllRejectsNull() {
        Handoff<Integer> h = handoff(4);
        assertThrows(NullPointerException.class, () -> h.addAll(Collections.singletonList(null)));
        assertTrue(h.isEmpty());
        if (buffered()) { // an unbuffered kind refuses 1 before it reaches the null
            assertThrows(NullPointerException.class, () -> h.addAll(Arrays.asList(1, null, 2)));
            assertNoNullInside(h);
        }
        assertThrows(NullPointerException.class, () -> h.addAll(null), "a null collection");
    }

    @Test
    void addAllOfItselfIsRejected() {
        Handoff<Integer> h = handoff(4);
        assertThrows(IllegalArgumentException.class, () -> h.addAll(h));
    }

    // =====================================================================================
    // drainTo
    // =====================================================================================

    @Test
    void drainToItselfIsRejected() {
        Handoff<Integer> h = handoff(4);
        if (buffered()) {
            h.add(1);
        }
        int size = h.size();
        assertThrows(IllegalArgumentException.class, () -> h.drainTo(h));
        assertThrows(IllegalArgumentException.class, () -> h.drainTo(h, 1));
        assertEquals(size, h.size(), "nothing moved");
        assertThrows(NullPointerException.class, () -> h.drainTo(null));
        assertThrows(NullPointerException.class, () -> h.drainTo(null, 1));
    }

    @Test
    void drainToWithNonPositiveMaxMovesNothing() {
        Handoff<Integer> h = handoff(4);
        if (buffered()) {
            h.add(1);
            h.add(2);
        }
        int size = h.size();
        List<Integer> sink = new ArrayList<>();
        for (int max : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertEquals(0, h.drainTo(sink, max), "drainTo(c, " + max + ")");
        }
        assertTrue(sink.isEmpty());
        assertEquals(size, h.size());
    }

    @Test
    void drainToMovesEveryElementOnce() {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Integer> h = handoff(10);
        for (int i = 0; i < 10; i++) {
            h.add(i);
        }
        List<Integer> sink = new ArrayList<>();
        assertEquals(3, h.drainTo(sink, 3));
        assertEquals(7, h.size());
        assertEquals(7, h.drainTo(sink));
        assertTrue(h.isEmpty());
        assertEquals(10, h.remainingCapacity());
        List<Integer> expected = List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        if (h.ordering() == Handoff.Ordering.FIFO) {
            assertEquals(expected, sink, "FIFO order");
        } else {
            assertEquals(expected, sink.stream().sorted().toList(), "every element once");
        }
    }

    @Test
    void drainToLosesNothingWhenTheTargetThrows() {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Integer> h = handoff(6);
        for (int i = 0; i < 6; i++) {
            h.add(i);
        }
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                if (size() == 2) {
                    throw new IllegalStateException("target full");
                }
                return super.add(e);
            }
        };
        assertThrows(IllegalStateException.class, () -> h.drainTo(sink));
        assertEquals(2, sink.size(), "two moved before the target threw");
        assertEquals(4, h.size(), "the rest, the refused one included, still inside");
        assertEquals(2, h.remainingCapacity());
        List<Integer> all = new ArrayList<>(sink);
        for (Object e : h.toArray()) {
            all.add((Integer) e);
        }
        assertEquals(List.of(0, 1, 2, 3, 4, 5), all.stream().sorted().toList(), "each element in exactly one place");
    }

    // =====================================================================================
    // Interruption: an interrupted caller gets InterruptedException, even when it would not block
    // =====================================================================================

    /** A handoff with one element and room for more, so put, offer, take and poll would not block. */
    private Handoff<Integer> handoffThatWouldNotBlock() {
        Handoff<Integer> h = handoff(4);
        if (buffered()) {
            h.add(1);
        }
        return h;
    }

    private static void assertInterruptedAndCleared(Handoff<Integer> h, BlockingCall call) {
        Object[] before = h.toArray();
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> call.run(h));
            assertFalse(Thread.currentThread().isInterrupted(), "interrupt status cleared");
            assertArrayEquals(before, h.toArray(), "nothing inserted or removed");
        } finally {
            Thread.interrupted(); // never leak the flag into the next test
        }
    }

    @FunctionalInterface
    private interface BlockingCall {
        void run(Handoff<Integer> h) throws InterruptedException;
    }

    @Test
    void interruptedPutThrowsEvenWhenNotFull() {
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.put(2));
    }

    @Test
    void interruptedTakeThrowsEvenWhenNotEmpty() {
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.take());
    }

    @Test
    void interruptedTimedOfferThrowsEvenWhenNotFull() {
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.offer(2, 1, HOURS));
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.offer(2, 0, NANOSECONDS));
    }

    @Test
    void interruptedTimedPollThrowsEvenWhenNotEmpty() {
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.poll(1, HOURS));
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.poll(0, NANOSECONDS));
    }

    @Test
    void interruptWakesBlockedPutAndItsElementStaysWithTheCaller() throws Exception {
        Handoff<Integer> h = fullHandoff();
        Object[] before = h.toArray();
        assertInterruptWakes(() -> h.put(99));
        assertArrayEquals(before, h.toArray(), "the element was not inserted");
        assertFalse(h.contains(99));
    }

    @Test
    void interruptWakesBlockedTake() throws Exception {
        Handoff<Integer> h = handoff(2);
        assertInterruptWakes(h::take);
        assertTrue(h.isEmpty());
    }

    private interface Call {
        void run() throws Exception;
    }

    /** Runs call in a thread, waits until it blocks, interrupts it: it must throw InterruptedException. */
    private static void assertInterruptWakes(Call call) throws Exception {
        try (Workers workers = new Workers()) {
            AtomicInteger interrupted = new AtomicInteger();
            Thread t = workers.start("blocked", () -> {
                try {
                    call.run();
                    workers.fail("returned instead of blocking");
                } catch (InterruptedException expected) {
                    interrupted.incrementAndGet();
                }
            });
            awaitBlocked(t);
            t.interrupt();
            workers.awaitAll(List.of(t), Workers.deadlineIn(10));
            workers.assertNoFailures();
            assertEquals(1, interrupted.get(), "InterruptedException thrown");
        }
    }

    // =====================================================================================
    // No lost wake-ups: blocked threads wake when they can proceed, without help from close
    // =====================================================================================

    /**
     * Four consumers block on an empty handoff; four elements arrive in quick succession, from
     * one thread, with nothing after them. Every consumer must wake and take one: a handoff that
     * signals only on the empty-to-non-empty edge must pass the wake-up on.
     */
    @Test
    void elementsArrivingWakeEveryBlockedConsumer() throws Exception {
        int consumers = 4;
        Handoff<Integer> h = handoffFor(consumers, consumers);
        AtomicIntegerArray taken = new AtomicIntegerArray(consumers);
        try (Workers workers = new Workers()) {
            List<Thread> blocked = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                blocked.add(workers.start("consumer-" + c, () -> taken.incrementAndGet(h.take())));
            }
            blocked.forEach(HandoffContractTest::awaitBlocked);
            for (int i = 0; i < consumers; i++) {
                assertTrue(h.offer(i), "room (or, unbuffered, a waiting consumer) for " + i);
            }
            workers.awaitAll(blocked, Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
        assertEachTakenOnce(taken);
    }

    /**
     * Four producers block on a full handoff; one drainTo empties it, with nothing after it.
     * Every producer must wake and put its element: a handoff that signals only on the
     * full-to-not-full edge must pass the wake-up on.
     */
    @Test
    void roomAppearingWakesEveryBlockedProducer() throws Exception {
        assumeTrue(buffered(), "needs elements inside");
        int producers = 4;
        Handoff<Integer> h = handoff(producers);
        List<Integer> before = fill(h);
        try (Workers workers = new Workers()) {
            List<Thread> blocked = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int e = 100 + p;
                blocked.add(workers.start("producer-" + p, () -> h.put(e)));
            }
            blocked.forEach(HandoffContractTest::awaitBlocked);
            List<Integer> drained = new ArrayList<>();
            assertEquals(before.size(), h.drainTo(drained));
            workers.awaitAll(blocked, Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
        assertEquals(List.of(100, 101, 102, 103), Arrays.stream(h.toArray()).map(Integer.class::cast).sorted().toList(),
                "every blocked producer put its element");
    }

    // =====================================================================================
    // Timeouts <= 0 never wait
    // =====================================================================================

    @Test
    void nonPositiveTimeoutOfferDoesNotWait() {
        Handoff<Integer> h = fullHandoff();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertFalse(h.offer(99, 0, NANOSECONDS));
            assertFalse(h.offer(99, -1, SECONDS));
            assertFalse(h.offer(99, Long.MIN_VALUE, NANOSECONDS));
            assertFalse(h.offer(99, Long.MIN_VALUE, HOURS));
        }, "a timeout <= 0 waited");
        assertFalse(h.contains(99));
    }

    @Test
    void nonPositiveTimeoutPollDoesNotWait() {
        Handoff<Integer> h = handoff(2);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertNull(h.poll(0, NANOSECONDS));
            assertNull(h.poll(-1, SECONDS));
            assertNull(h.poll(Long.MIN_VALUE, NANOSECONDS));
            assertNull(h.poll(Long.MIN_VALUE, HOURS));
        }, "a timeout <= 0 waited");
    }

    // =====================================================================================
    // Iterators are weakly consistent
    // =====================================================================================

    @Test
    void iteratorDoesNotThrowWhenTheHandoffChangesUnderIt() {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Integer> h = handoff(8);
        for (int i = 0; i < 8; i++) {
            h.add(i);
        }
        List<Integer> seen = new ArrayList<>();
        int next = 100;
        for (Integer e : h) { // modify while iterating: no ConcurrentModificationException
            seen.add(e);
            assertNotNull(h.poll());
            assertTrue(h.offer(next++));
        }
        assertEquals(8, h.size());
        assertEquals(seen.size(), seen.stream().distinct().count(), "no element returned twice");
        for (Integer e : seen) {
            assertTrue(e >= 0 && e < next, "returned only elements that were inserted");
        }
    }

    /** A value with equality by content, so that two distinct instances can be equal. */
    private record Tag(String name) {
    }

    @Test
    void iteratorRemoveRemovesTheElementItReturnedNotAnEqualOne() {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Tag> h = newHandoff(4);
        Tag first = new Tag("same");
        Tag other = new Tag("other");
        Tag second = new Tag("same"); // equal to first, not the same instance
        h.add(first);
        h.add(other);
        h.add(second);
        Iterator<Tag> it = h.iterator();
        boolean removed = false;
        while (it.hasNext()) {
            if (it.next() == second) {
                it.remove();
                removed = true;
            }
        }
        assertTrue(removed, "the iterator returned every element inside");
        List<Tag> left = new ArrayList<>();
        h.drainTo(left);
        assertEquals(2, left.size(), "exactly one element removed: " + left);
        assertTrue(left.stream().anyMatch(e -> e == first),
                "remove() took the equal element the iterator had not returned: " + left);
        assertTrue(left.stream().noneMatch(e -> e == second), "the returned element is still inside");
    }

    /** A value whose equals throws, as a broken user class might. */
    private record Touchy(int n) {
        @Override
        public boolean equals(Object o) {
            throw new UnsupportedOperationException("equals of a broken element class");
        }

        @Override
        public int hashCode() {
            return n;
        }
    }

    @Test
    void removeWhoseEqualsThrowsLeavesEveryElementTakeable() {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Object> h = newHandoff(4);
        h.add(1);
        h.add(2);
        assertThrows(UnsupportedOperationException.class, () -> h.remove(new Touchy(1)));
        assertEquals(2, h.size(), "nothing removed");
        Set<Object> taken = new HashSet<>();
        for (Object e; (e = h.poll()) != null; ) {
            taken.add(e);
        }
        assertEquals(Set.of(1, 2), taken, "every element can still be taken");
        assertTrue(h.offer(3) && h.offer(4) && h.offer(5) && h.offer(6), "and all the room is back");
    }

    // =====================================================================================
    // Bulk removal: an element has one owner, and a removal counts only what it removed
    // =====================================================================================

    /** The three bulk removals, each driven by a test of which elements should go. */
    enum BulkRemoval {
        REMOVE_IF, REMOVE_ALL, RETAIN_ALL;

        /** Runs this removal on h so that the elements {@code goes} accepts are removed. */
        boolean run(Handoff<Integer> h, Predicate<Integer> goes) {
            return switch (this) {
                case REMOVE_IF -> h.removeIf(goes);
                case REMOVE_ALL -> h.removeAll(new Asking(goes));
                case RETAIN_ALL -> h.retainAll(new Asking(goes.negate()));
            };
        }
    }

    /**
     * A collection whose {@code contains} asks a predicate, so that a test can act while
     * {@code removeAll} or {@code retainAll} looks at an element. Nothing else is needed of it.
     */
    private static final class Asking extends AbstractCollection<Integer> {
        private final Predicate<Integer> contains;

        Asking(Predicate<Integer> contains) {
            this.contains = contains;
        }

        @Override
        public boolean contains(Object o) {
            return contains.test((Integer) o);
        }

        @Override
        public Iterator<Integer> iterator() {
            throw new UnsupportedOperationException("only contains() is asked");
        }

        @Override
        public int size() {
            throw new UnsupportedOperationException("only contains() is asked");
        }
    }

    /**
     * Takes one element in another thread and returns it, failing if that thread cannot finish:
     * called from inside a bulk removal's test, which must not hold the handoff's lock meanwhile.
     */
    private static Integer takeInAnotherThread(Handoff<Integer> h) {
        FutureTask<Integer> take = new FutureTask<>(() -> h.poll(10, SECONDS));
        Thread.ofPlatform().name("other-consumer").daemon().start(take);
        try {
            return take.get(20, SECONDS);
        } catch (Exception e) {
            throw new AssertionError("another consumer could not take while a bulk removal tested", e);
        }
    }

    @ParameterizedTest
    @EnumSource(BulkRemoval.class)
    void bulkRemovalDoesNotCountAnElementAnotherConsumerTook(BulkRemoval removal) {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Integer> h = handoff(4);
        h.add(1);
        AtomicReference<Integer> takenMeanwhile = new AtomicReference<>();
        boolean reported = removal.run(h, e -> {
            if (takenMeanwhile.get() == null) {
                takenMeanwhile.set(takeInAnotherThread(h)); // the only element: this one
            }
            return true;
        });
        assertEquals(1, takenMeanwhile.get(), "the other consumer received the element");
        assertFalse(reported, removal + " reported a removal although the other consumer had the element");
        assertTrue(h.isEmpty());
    }

    @ParameterizedTest
    @EnumSource(BulkRemoval.class)
    void bulkRemovalCountsTheElementsItDidRemove(BulkRemoval removal) {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Integer> h = handoff(4);
        h.add(1);
        h.add(2);
        AtomicReference<Integer> takenMeanwhile = new AtomicReference<>();
        boolean reported = removal.run(h, e -> {
            if (takenMeanwhile.get() == null) {
                takenMeanwhile.set(takeInAnotherThread(h)); // one of the two, whichever the kind gives
            }
            return true;
        });
        assertNotNull(takenMeanwhile.get(), "the other consumer received an element");
        assertTrue(reported, removal + " removed the other element and must say so");
        assertTrue(h.isEmpty(), "each element went to exactly one owner: " + Arrays.toString(h.toArray()));
        assertEquals(h.capacity(), h.remainingCapacity(), "all the room is back");
    }

    @Test
    void bulkRemovalRemovesExactlyWhatItsTestAccepts() {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Integer> h = handoff(8);
        Set<Integer> inside = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            h.add(i);
            inside.add(i);
        }
        for (int i = 0; i < 4; i++) {
            assertTrue(inside.remove(h.poll()));
        }
        for (int i = 8; i < 12; i++) {
            h.add(i); // a circular buffer now wraps around its end
            inside.add(i);
        }
        assertElementsInOrder(h, inside);
        assertEquals(inside.removeIf(e -> e % 3 == 0), h.removeIf(e -> e % 3 == 0));
        assertElementsInOrder(h, inside);
        assertFalse(h.removeIf(e -> e % 3 == 0), "nothing left to remove");
        List<Integer> some = List.of(4, 5, 11, 99);
        assertEquals(inside.removeAll(some), h.removeAll(some));
        assertElementsInOrder(h, inside);
        assertFalse(h.removeAll(some));
        List<Integer> others = List.of(7, 10, 98);
        assertEquals(inside.retainAll(others), h.retainAll(others));
        assertElementsInOrder(h, inside);
        assertFalse(h.retainAll(others));
        assertEquals(h.capacity() - inside.size(), h.remainingCapacity());
        List<Integer> expected = new ArrayList<>(inside.stream().sorted().toList());
        for (int i = 20; h.remainingCapacity() > 0; i++) {
            assertTrue(h.offer(i), "room freed by the removals is usable");
            expected.add(i);
        }
        assertFalse(h.offer(99));
        List<Integer> all = new ArrayList<>();
        h.drainTo(all);
        assertEquals(expected, h.ordering() == Handoff.Ordering.FIFO ? all : all.stream().sorted().toList());
    }

    /** Checks that h holds exactly the given elements, in ascending order if it is FIFO. */
    private static void assertElementsInOrder(Handoff<Integer> h, Set<Integer> expected) {
        List<Integer> inside = new ArrayList<>();
        for (Object e : h.toArray()) {
            inside.add((Integer) e);
        }
        List<Integer> sorted = expected.stream().sorted().toList();
        assertEquals(sorted, h.ordering() == Handoff.Ordering.FIFO ? inside : inside.stream().sorted().toList());
        assertEquals(expected.size(), h.size());
    }

    @ParameterizedTest
    @EnumSource(BulkRemoval.class)
    void bulkRemovalWhoseTestThrowsRemovesNothing(BulkRemoval removal) {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Integer> h = handoff(4);
        h.add(1);
        h.add(2);
        h.add(3);
        AtomicInteger asked = new AtomicInteger();
        assertThrows(UnsupportedOperationException.class, () -> removal.run(h, e -> {
            if (asked.incrementAndGet() == 2) {
                throw new UnsupportedOperationException("a broken test");
            }
            return true;
        }));
        assertEquals(3, h.size(), "nothing removed");
        Set<Integer> taken = new HashSet<>();
        for (Integer e; (e = h.poll()) != null; ) {
            taken.add(e);
        }
        assertEquals(Set.of(1, 2, 3), taken, "every element can still be taken");
        assertEquals(h.capacity(), h.remainingCapacity(), "and all the room is back");
    }

    @Test
    void bulkRemovalRejectsNull() {
        Handoff<Integer> h = handoff(2);
        assertThrows(NullPointerException.class, () -> h.removeIf(null));
        assertThrows(NullPointerException.class, () -> h.removeAll(null));
        assertThrows(NullPointerException.class, () -> h.retainAll(null));
    }

    /**
     * Rounds of: fill the handoff, then a consumer polls while this thread runs a bulk removal
     * whose test dawdles, so that the consumer takes elements the removal has accepted. After
     * each round every element was taken, removed or left inside exactly once, only accepted
     * elements were removed, and the removal returned {@code true} exactly when it removed one.
     */
    @Test
    void bulkRemovalReportsExactlyWhatItRemovedWhileAConsumerTakes() throws Exception {
        assumeTrue(buffered(), "needs elements inside");
        int rounds = 300;
        Handoff<Integer> h = handoff(SMALL);
        AtomicIntegerArray owners = new AtomicIntegerArray(rounds * SMALL); // taken or left: one each
        try (Workers workers = new Workers()) {
            for (int round = 0; round < rounds; round++) {
                int first = round * SMALL;
                for (int e = first; e < first + SMALL; e++) {
                    h.add(e);
                }
                AtomicBoolean go = new AtomicBoolean();
                AtomicBoolean roundOver = new AtomicBoolean();
                Thread consumer = workers.start("consumer-" + round, () -> {
                    while (!go.get() && !roundOver.get()) {
                        Thread.yield();
                    }
                    while (!roundOver.get()) {
                        Integer e = h.poll();
                        if (e != null && owners.incrementAndGet(e) != 1) {
                            workers.fail("element " + e + " taken twice");
                        }
                    }
                });
                Set<Integer> accepted = new HashSet<>();
                BulkRemoval removal = BulkRemoval.values()[round % BulkRemoval.values().length];
                boolean reported = removal.run(h, e -> {
                    go.set(true);
                    Thread.yield(); // the consumer takes meanwhile
                    boolean goes = e % 2 == 1;
                    if (goes) {
                        accepted.add(e);
                    }
                    return goes;
                });
                roundOver.set(true);
                workers.awaitAll(List.of(consumer), Workers.deadlineIn(DEADLINE_SECONDS));
                List<Integer> left = new ArrayList<>();
                h.drainTo(left);
                for (Integer e : left) {
                    if (owners.incrementAndGet(e) != 1) {
                        fail("element " + e + " both taken and left inside");
                    }
                }
                int removed = 0;
                for (int e = first; e < first + SMALL; e++) {
                    if (owners.get(e) == 0) {
                        removed++;
                        assertTrue(accepted.contains(e), removal + " removed " + e + ", which its test did not accept");
                    }
                }
                assertEquals(removed > 0, reported, "round " + round + ": " + removal + " returned " + reported
                        + " having removed " + removed + " element(s)");
            }
            workers.assertNoFailures();
        }
    }

    @Test
    void iteratorNeverThrowsConcurrentModificationWhileOthersWork() throws Exception {
        Handoff<Integer> h = handoff(SMALL);
        try (Workers workers = new Workers()) {
            List<Thread> changers = List.of(
                    workers.start("offerer", () -> {
                        for (int i = 0; !workers.stop.get(); i = (i + 1) % 1000) {
                            h.offer(i);
                        }
                    }),
                    workers.start("poller", () -> {
                        while (!workers.stop.get()) {
                            h.poll();
                        }
                    }));
            try {
                for (int round = 0; round < 20_000; round++) {
                    for (Integer e : h) {
                        if (e == null || e < 0 || e >= 1000) {
                            fail("iterator returned " + e);
                        }
                    }
                }
            } catch (ConcurrentModificationException e) {
                fail("weakly consistent iterators never throw ConcurrentModificationException", e);
            } finally {
                workers.stop.set(true);
            }
            workers.awaitAll(changers, Workers.deadlineIn(DEADLINE_SECONDS));
            workers.assertNoFailures();
        }
    }

    /**
     * Streams of a handoff that others change must not throw: a spliterator that promised an
     * exact size (SIZED) while the handoff changed would make {@code stream().toArray()} fail.
     */
    @Test
    void streamsNeverThrowWhileOthersWork() throws Exception {
        Handoff<Integer> h = handoff(SMALL);
        try (Workers workers = new Workers()) {
            List<Thread> changers = List.of(
                    workers.start("offerer", () -> {
                        for (int i = 0; !workers.stop.get(); i = (i + 1) % 1000) {
                            h.offer(i);
                        }
                    }),
                    workers.start("poller", () -> {
                        while (!workers.stop.get()) {
                            h.poll();
                        }
                    }));
            try {
                // The window between a snapshot and a separate size() is small: many rounds.
                for (int round = 0; round < 1_000_000; round++) {
                    Object[] streamed = h.stream().toArray();
                    assertTrue(streamed.length <= SMALL, "at most capacity elements");
                    if (round % 1000 == 0) {
                        assertTrue(h.stream().allMatch(e -> e != null && e >= 0 && e < 1000), "only elements put");
                        assertTrue(h.parallelStream().count() <= SMALL);
                    }
                }
            } finally {
                workers.stop.set(true);
            }
            workers.awaitAll(changers, Workers.deadlineIn(DEADLINE_SECONDS));
            workers.assertNoFailures();
        }
    }

    // =====================================================================================
    // toString
    // =====================================================================================

    @Test
    void toStringOfEmptyIsBrackets() {
        Handoff<Integer> h = handoff(3);
        assertEquals("[]", h.toString(), "new");
        if (buffered()) {
            h.add(1);
            assertEquals("[1]", h.toString(), "one element");
            h.poll();
        }
        assertEquals("[]", h.toString(), "emptied");
        h.close();
        assertEquals("[]", h.toString(), "closed");
    }

    // =====================================================================================
    // Close
    // =====================================================================================

    @Test
    void closeIsIdempotentAndSeenByIsClosed() {
        Handoff<Integer> h = handoff(2);
        assertFalse(h.isClosed());
        h.close();
        assertTrue(h.isClosed());
        h.close();
        assertTrue(h.isClosed());
    }

    @Test
    void afterCloseOfferReturnsFalseAndPutAddAndAddAllThrow() throws Exception {
        Handoff<Integer> h = handoff(4);
        if (buffered()) {
            h.add(1);
        }
        h.close();
        Object[] before = h.toArray();
        assertFalse(h.offer(2), "offer reports \"not accepted\" by returning false, as BlockingQueue lets it");
        assertFalse(h.offer(2, 0, NANOSECONDS));
        assertFalse(h.offer(2, 1, HOURS));
        List<Call> inserts = List.of(
                () -> h.add(2),
                () -> h.put(2),
                () -> h.addAll(List.of(2, 3)));
        for (Call insert : inserts) {
            HandoffClosedException e = assertThrows(HandoffClosedException.class, insert::run);
            assertInstanceOf(IllegalStateException.class, e, "HandoffClosedException is an IllegalStateException");
            assertNotNull(e.getMessage(), "a clear message");
            assertTrue(e.getMessage().contains("closed"), "says closed, not full: " + e.getMessage());
        }
        assertArrayEquals(before, h.toArray(), "nothing inserted after close");
    }

    @Test
    void insertsAfterCloseAreRefusedAtOnceEvenWhenFull() {
        Handoff<Integer> h = fullHandoff();
        h.close();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertFalse(h.offer(9));
            assertFalse(h.offer(9, 1, HOURS));
            assertThrows(HandoffClosedException.class, () -> h.put(9));
            assertThrows(HandoffClosedException.class, () -> h.add(9));
        }, "a closed handoff must refuse at once, not wait for room");
    }

    @Test
    void consumersStillTakeEverythingInsideAfterClose() throws Exception {
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Integer> h = handoff(8);
        for (int i = 0; i < 6; i++) {
            h.put(i);
        }
        h.close();
        assertEquals(6, h.size(), "close keeps the elements");
        List<Integer> taken = new ArrayList<>();
        taken.add(h.take());
        taken.add(h.poll());
        taken.add(h.poll(1, HOURS));
        assertNotNull(h.peek());
        assertEquals(3, h.drainTo(taken));
        assertTrue(h.isEmpty());
        if (h.ordering() == Handoff.Ordering.FIFO) {
            assertEquals(List.of(0, 1, 2, 3, 4, 5), taken, "in FIFO order");
        } else {
            assertEquals(List.of(0, 1, 2, 3, 4, 5), taken.stream().sorted().toList());
        }
    }

    @Test
    void takeOnClosedAndEmptyThrowsHandoffClosedException() {
        Handoff<Integer> h = handoff(2);
        h.close();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            HandoffClosedException e = assertThrows(HandoffClosedException.class, h::take);
            assertNotNull(e.getMessage());
            assertThrows(HandoffClosedException.class, h::take, "and again");
        });
    }

    @Test
    void timedPollOnClosedAndEmptyReturnsNullAtOnce() {
        Handoff<Integer> h = handoff(2);
        h.close();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertNull(h.poll(1, HOURS));
            assertNull(h.poll());
            assertNull(h.peek());
        }, "poll on a closed, empty handoff must not wait");
    }

    @Test
    void closeWakesBlockedTakers() throws Exception {
        Handoff<Integer> h = handoffFor(3, 2);
        assertCloseWakes(h, 3, () -> {
            assertThrows(HandoffClosedException.class, h::take);
        });
    }

    @Test
    void closeWakesBlockedTimedPollers() throws Exception {
        Handoff<Integer> h = handoffFor(3, 2);
        assertCloseWakes(h, 3, () -> assertNull(h.poll(1, HOURS)));
    }

    @Test
    void closeWakesBlockedPuttersAndTheirElementsStayWithThem() throws Exception {
        Handoff<Integer> h = fullHandoff();
        Object[] before = h.toArray();
        AtomicInteger next = new AtomicInteger(100);
        assertCloseWakes(h, 3, () -> assertThrows(HandoffClosedException.class, () -> h.put(next.getAndIncrement())));
        assertArrayEquals(before, h.toArray(), "no blocked element got in");
    }

    @Test
    void closeWakesBlockedTimedOfferers() throws Exception {
        Handoff<Integer> h = fullHandoff();
        Object[] before = h.toArray();
        AtomicInteger next = new AtomicInteger(100);
        assertCloseWakes(h, 3, () -> assertFalse(h.offer(next.getAndIncrement(), 1, HOURS)));
        assertArrayEquals(before, h.toArray(), "no blocked element got in");
    }

    /** Starts n threads that each block in call, closes h, and checks they all finish the call. */
    private static void assertCloseWakes(Handoff<Integer> h, int n, Call call) throws Exception {
        try (Workers workers = new Workers()) {
            List<Thread> blocked = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                blocked.add(workers.start("blocked-" + i, call::run));
            }
            blocked.forEach(HandoffContractTest::awaitBlocked);
            h.close();
            workers.awaitAll(blocked, Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
    }

    // =====================================================================================
    // The factory and the counters
    // =====================================================================================

    @Test
    void factoryBuildsThisKindWithTheExactCapacity() {
        assumeTrue(kind() != null, "no factory name");
        assertTrue(Handoffs.kinds().contains(kind()), "Handoffs.kinds() lists " + kind());
        Handoff<Integer> made = Handoffs.create(kind() + ":7");
        assertSame(handoff(7).getClass(), made.getClass());
        assertEquals(7, made.capacity());
        assertFalse(made.stats().enabled(), "counting is off unless asked for");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Handoffs.create(kind() + ":0"));
        assertTrue(e.getMessage().contains("capacity"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Handoffs.create(kind() + ":7,no-such-option"));
        assertTrue(e.getMessage().contains("no-such-option"), e.getMessage());
    }

    @Test
    void statsCountPutsAndTakes() throws Exception {
        assumeTrue(kind() != null, "no factory name");
        assumeTrue(buffered(), "needs elements inside");
        Handoff<Integer> h = Handoffs.create(kind() + ":4,stats");
        assertTrue(h.stats().enabled());
        h.add(1);
        h.offer(2);
        h.put(3);
        h.offer(4, 1, SECONDS);
        assertFalse(h.offer(5), "full: not counted");
        assertNotNull(h.poll());
        assertNotNull(h.take());
        assertNotNull(h.poll(1, SECONDS));
        assertEquals(1, h.drainTo(new ArrayList<>()));
        assertNull(h.poll(), "empty: not counted");
        HandoffStats stats = h.stats();
        assertEquals(4, stats.puts(), "puts in " + stats);
        assertEquals(4, stats.takes(), "takes in " + stats);
    }

    // =====================================================================================
    // Exactly once under concurrency
    // =====================================================================================

    @ParameterizedTest(name = "{0} producers x {1} consumers")
    @CsvSource({"1, 1", "2, 2", "4, 4", "8, 8", "1, 50", "4, 1", "1, 4"})
    void everyElementIsTakenExactlyOnce(int producers, int consumers) throws Exception {
        exactlyOnce(producers, consumers, ELEMENTS, false);
    }

    @Test
    void everyElementIsTakenExactlyOnceByTenThousandVirtualConsumers() throws Exception {
        exactlyOnce(2, 10_000, ELEMENTS, true);
    }

    /**
     * P producers put the distinct elements 0..n-1 (producer p puts p, p + P, p + 2P, ... in
     * that order, by put, timed offer or offer in turn); C consumers take until the handoff is
     * closed and empty. Every element must be taken exactly once. For a FIFO kind each consumer
     * must also see each producer's elements in the order they were put.
     */
    private void exactlyOnce(int producers, int consumers, int n, boolean virtualConsumers) throws Exception {
        Handoff<Integer> h = handoffFor(consumers, SMALL);
        boolean fifo = h.ordering() == Handoff.Ordering.FIFO;
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        try (Workers workers = new Workers()) {
            List<Thread> consumerThreads = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                Workers.Body consume = () -> {
                    int[] lastSeqOfProducer = new int[producers];
                    Arrays.fill(lastSeqOfProducer, -1);
                    int round = 0;
                    while (!workers.stop.get()) {
                        Integer e;
                        try {
                            e = virtualConsumers || round++ % 2 == 0 ? h.take() : h.poll(1, MILLISECONDS);
                        } catch (HandoffClosedException closedAndEmpty) {
                            return;
                        }
                        if (e == null) {
                            if (h.isClosed() && h.isEmpty()) {
                                return;
                            }
                            continue;
                        }
                        if (e < 0 || e >= n || taken.incrementAndGet(e) != 1) {
                            workers.fail("element " + e + " taken twice or never put");
                            continue;
                        }
                        int p = e % producers;
                        int seq = e / producers;
                        if (fifo && seq <= lastSeqOfProducer[p]) {
                            workers.fail("FIFO: " + e + " taken after a later element of producer " + p);
                        }
                        lastSeqOfProducer[p] = seq;
                    }
                };
                consumerThreads.add(virtualConsumers
                        ? workers.startVirtual("consumer-" + c, consume)
                        : workers.start("consumer-" + c, consume));
            }
            List<Thread> producerThreads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int first = p;
                producerThreads.add(workers.start("producer-" + p, () -> {
                    int round = 0;
                    for (int e = first; e < n && !workers.stop.get(); e += producers) {
                        switch (round++ % 3) {
                            case 0 -> h.put(e);
                            case 1 -> {
                                while (!h.offer(e, 1, MILLISECONDS) && !workers.stop.get()) {
                                    // full: try again
                                }
                            }
                            default -> {
                                while (!h.offer(e) && !workers.stop.get()) {
                                    Thread.yield();
                                }
                            }
                        }
                    }
                }));
            }
            long deadline = Workers.deadlineIn(DEADLINE_SECONDS);
            workers.awaitAll(producerThreads, deadline);
            h.close(); // consumers finish what is inside, then see closed and empty
            workers.awaitAll(consumerThreads, deadline);
            workers.assertNoFailures();
        }
        assertTrue(h.isEmpty(), "consumers took everything");
        assertEachTakenOnce(taken);
    }

    private static void assertEachTakenOnce(AtomicIntegerArray taken) {
        int lost = 0;
        int firstLost = -1;
        for (int i = 0; i < taken.length(); i++) {
            if (taken.get(i) != 1) {
                lost++;
                firstLost = firstLost < 0 ? i : firstLost;
            }
        }
        assertEquals(0, lost, "elements not taken exactly once (first: " + firstLost + ")");
    }

    // =====================================================================================
    // Interrupt storm: nothing lost, nothing twice
    // =====================================================================================

    /**
     * Producers put fresh elements, consumers take them, and a third party interrupts them at
     * random, mostly while they are blocked. A put that returned put its element in; one that
     * threw did not. Afterwards each element that was put is either taken once or still inside;
     * each that was not put is nowhere.
     */
    @Test
    void interruptStormLosesNothingAndDuplicatesNothing() throws Exception {
        int producers = 3;
        int consumers = 3;
        int attemptsPerProducer = 10_000;
        int n = producers * attemptsPerProducer;
        Handoff<Integer> h = handoffFor(consumers, 2);
        AtomicInteger nextElement = new AtomicInteger();
        AtomicIntegerArray put = new AtomicIntegerArray(n);
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicInteger interruptedCalls = new AtomicInteger();
        try (Workers workers = new Workers()) {
            List<Thread> producerThreads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                producerThreads.add(workers.start("producer-" + p, () -> {
                    for (int i = 0; i < attemptsPerProducer && !workers.stop.get(); i++) {
                        int e = nextElement.getAndIncrement();
                        try {
                            boolean in = true;
                            if (i % 2 == 0) {
                                h.put(e);
                            } else {
                                in = h.offer(e, 100, MICROSECONDS);
                            }
                            if (in) {
                                put.incrementAndGet(e);
                            }
                        } catch (InterruptedException refused) {
                            interruptedCalls.incrementAndGet();
                        }
                    }
                }));
            }
            List<Thread> consumerThreads = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                int id = c;
                consumerThreads.add(workers.start("consumer-" + c, () -> {
                    while (!workers.stop.get()) {
                        try {
                            Integer e = id % 2 == 0 ? h.take() : h.poll(100, MICROSECONDS);
                            if (e != null && taken.incrementAndGet(e) != 1) {
                                workers.fail("element " + e + " taken twice");
                            }
                        } catch (InterruptedException ignored) {
                            interruptedCalls.incrementAndGet();
                        } catch (HandoffClosedException closedAndEmpty) {
                            return;
                        }
                        if (h.isClosed() && h.isEmpty()) {
                            return;
                        }
                    }
                }));
            }
            List<Thread> victims = new ArrayList<>(producerThreads);
            victims.addAll(consumerThreads);
            AtomicInteger interruptsWhileBlocked = new AtomicInteger();
            Thread interrupter = workers.start("interrupter", () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!workers.stop.get() && producerThreads.stream().anyMatch(Thread::isAlive)) {
                    Thread victim = victims.get(random.nextInt(victims.size()));
                    Thread.State state = victim.getState();
                    if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) {
                        victim.interrupt();
                        interruptsWhileBlocked.incrementAndGet();
                    } else if (random.nextInt(8) == 0) {
                        victim.interrupt(); // now and then, wherever it is
                    }
                    LockSupport.parkNanos(20_000);
                }
            });
            long deadline = Workers.deadlineIn(DEADLINE_SECONDS);
            workers.awaitAll(producerThreads, deadline);
            workers.awaitAll(List.of(interrupter), deadline);
            h.close();
            workers.awaitAll(consumerThreads, deadline);
            workers.assertNoFailures();
            assertTrue(interruptedCalls.get() > 0, "the storm interrupted some calls");
        }
        List<Integer> inside = new ArrayList<>();
        h.drainTo(inside);
        for (Integer e : inside) {
            taken.incrementAndGet(e); // taken or still inside: count both once
        }
        for (int e = 0; e < n; e++) {
            assertTrue(put.get(e) <= 1);
            if (taken.get(e) != put.get(e)) {
                fail("element " + e + " put " + put.get(e) + " time(s) but taken or left inside "
                        + taken.get(e) + " time(s)");
            }
        }
    }

    // =====================================================================================
    // Close under load
    // =====================================================================================

    /**
     * Producers and consumers run flat out on a small handoff, so that many are blocked, and the
     * handoff is closed in the middle. Nobody hangs; every element whose insert returned is
     * taken exactly once; every refused element (put threw, the timed offer returned false)
     * stays with its producer.
     */
    @Test
    void closeUnderLoadLosesNothingAndHangsNobody() throws Exception {
        int producers = 4;
        int consumers = 4;
        int n = 1 << 20; // far more than can pass before close
        Handoff<Integer> h = handoffFor(consumers, 4);
        AtomicInteger nextElement = new AtomicInteger();
        AtomicIntegerArray put = new AtomicIntegerArray(n);
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicInteger takenCount = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        try (Workers workers = new Workers()) {
            List<Thread> all = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int id = p;
                all.add(workers.start("producer-" + p, () -> {
                    while (!workers.stop.get()) {
                        int e = nextElement.getAndIncrement();
                        if (e >= n) {
                            return;
                        }
                        try {
                            if (id % 2 == 0) {
                                h.put(e);
                            } else if (!h.offer(e, 1, HOURS)) {
                                if (!h.isClosed()) {
                                    workers.fail("timed offer refused an element of an open handoff");
                                }
                                refused.incrementAndGet(); // closed: false, the element stays here
                                return;
                            }
                            put.incrementAndGet(e);
                        } catch (HandoffClosedException closed) {
                            refused.incrementAndGet();
                            return;
                        }
                    }
                }));
            }
            for (int c = 0; c < consumers; c++) {
                int id = c;
                all.add(workers.start("consumer-" + c, () -> {
                    while (!workers.stop.get()) {
                        Integer e;
                        if (id % 2 == 0) {
                            try {
                                e = h.take();
                            } catch (HandoffClosedException closedAndEmpty) {
                                return;
                            }
                        } else {
                            e = h.poll(1, HOURS);
                            if (e == null) {
                                return; // closed and empty
                            }
                        }
                        if (taken.incrementAndGet(e) != 1) {
                            workers.fail("element " + e + " taken twice");
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
            assertEquals(producers, refused.get(), "every producer was refused once, by the close");
        }
        assertTrue(h.isEmpty(), "consumers took everything put before close");
        for (int e = 0; e < n; e++) {
            if (taken.get(e) != put.get(e)) {
                fail("element " + e + " put " + put.get(e) + " time(s), taken " + taken.get(e) + " time(s)");
            }
        }
    }

    // =====================================================================================
    // A ThreadPoolExecutor on the handoff
    // =====================================================================================

    /** A task that counts its runs. */
    private record CountingTask(int id, AtomicIntegerArray runs, CountDownLatch gate, Thread submitter)
            implements Runnable {
        @Override
        public void run() {
            runs.incrementAndGet(id);
            if (gate != null && Thread.currentThread() != submitter) {
                try {
                    gate.await(); // hold the pool's threads until shutdownNow interrupts them
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Test
    void threadPoolRunsEverySubmittedTaskExactlyOnce() throws Exception {
        Handoff<Runnable> q = newHandoff(16);
        int tasks = 5_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 4, 1, SECONDS, q,
                new ThreadPoolExecutor.CallerRunsPolicy());
        try {
            for (int i = 0; i < tasks; i++) {
                pool.execute(new CountingTask(i, runs, null, null));
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(DEADLINE_SECONDS, SECONDS), "pool terminated");
        } finally {
            pool.shutdownNow();
        }
        assertEachTakenOnce(runs);
        assertTrue(q.isEmpty());
    }

    @Test
    void threadPoolShutdownNowReturnsExactlyTheTasksThatDidNotRun() throws Exception {
        Handoff<Runnable> q = newHandoff(64);
        int tasks = 300;
        AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
        CountDownLatch gate = new CountDownLatch(1); // never opened: shutdownNow interrupts the waiters
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 1, SECONDS, q,
                new ThreadPoolExecutor.CallerRunsPolicy());
        List<Runnable> notRun;
        try {
            for (int i = 0; i < tasks; i++) {
                pool.execute(new CountingTask(i, runs, gate, Thread.currentThread()));
            }
            notRun = pool.shutdownNow();
            assertTrue(pool.awaitTermination(DEADLINE_SECONDS, SECONDS), "pool terminated");
        } finally {
            pool.shutdownNow();
        }
        assertTrue(q.isEmpty(), "shutdownNow emptied the queue");
        int[] returned = new int[tasks];
        for (Runnable r : notRun) {
            returned[((CountingTask) r).id()]++;
        }
        for (int i = 0; i < tasks; i++) {
            assertEquals(1, runs.get(i) + returned[i],
                    "task " + i + ": ran " + runs.get(i) + " time(s), returned by shutdownNow " + returned[i] + " time(s)");
        }
        if (buffered()) {
            assertFalse(notRun.isEmpty(), "the pool's threads were held, so tasks were waiting in the queue");
        }
    }
}
