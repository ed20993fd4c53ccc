/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.assertInterruptWakes;
import static dev.handoff.ContractSupport.assertInterruptedAndCleared;
import static dev.handoff.ContractSupport.awaitBlocked;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.handoff.ContractSupport.Call;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Close: idempotent; inserts are refused at once, consumers still take what is inside, and
 * every blocked thread wakes but a timed poller, which waits out its timeout: once closed and
 * empty, take() and take(timeout) throw, and the timed poll waits as on an open, empty handoff.
 */
interface ClosingContract extends ContractSubject {

    @Test
    default void closeIsIdempotentAndSeenByIsClosed() {
        Handoff<Integer> h = handoffOf(2);
        assertFalse(h.isClosed());
        h.close();
        assertTrue(h.isClosed());
        h.close();
        assertTrue(h.isClosed());
    }

    @Test
    default void afterCloseOfferReturnsFalseAndPutAddAndAddAllThrow() throws Exception {
        Handoff<Integer> h = handoffOf(4);
        if (holdsElements()) {
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
    default void insertsAfterCloseAreRefusedAtOnceEvenWhenFull() {
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
    default void consumersStillTakeEverythingInsideAfterClose() throws Exception {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(8);
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
    default void takeOnClosedAndEmptyThrowsHandoffClosedException() {
        Handoff<Integer> h = handoffOf(2);
        h.close();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            HandoffClosedException e = assertThrows(HandoffClosedException.class, h::take);
            assertNotNull(e.getMessage());
            assertThrows(HandoffClosedException.class, h::take, "and again");
        });
    }

    /** How long the tests of a timed poll that waits out its timeout on a closed handoff wait. */
    long WAIT_OUT_MILLIS = 150;

    @Test
    default void timedPollOnClosedAndEmptyWaitsOutItsTimeoutThenReturnsNull() throws Exception {
        Handoff<Integer> h = handoffOf(2);
        h.close();
        long start = System.nanoTime();
        assertNull(h.poll(WAIT_OUT_MILLIS, MILLISECONDS));
        long waited = System.nanoTime() - start;
        assertTrue(waited >= MILLISECONDS.toNanos(WAIT_OUT_MILLIS),
                "waited the whole timeout, as on an open, empty handoff: " + waited + " ns");
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertNull(h.poll(0, NANOSECONDS), "a timeout <= 0 never waits");
            assertNull(h.poll(-1, HOURS));
            assertNull(h.poll());
            assertNull(h.peek());
        }, "poll without a timeout on a closed, empty handoff must not wait");
    }

    @Test
    default void interruptEndsATimedPollWaitingOutItsTimeoutOnAClosedHandoff() throws Exception {
        Handoff<Integer> h = handoffOf(2);
        h.close();
        assertInterruptWakes(() -> h.poll(1, HOURS));
        assertInterruptedAndCleared(h, closed -> closed.poll(1, HOURS)); // interrupted on entry
    }

    @Test
    default void timedTakeOnClosedAndEmptyThrowsAtOnce() {
        Handoff<Integer> h = handoffOf(2);
        h.close();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            HandoffClosedException e = assertThrows(HandoffClosedException.class, () -> h.take(1, HOURS));
            assertNotNull(e.getMessage());
            assertThrows(HandoffClosedException.class, () -> h.take(0, NANOSECONDS), "a timeout <= 0 too");
            assertThrows(HandoffClosedException.class, () -> h.take(1, HOURS), "and again");
        }, "take(timeout) on a closed, empty handoff must not wait");
    }

    @Test
    default void timedTakeOnAClosedHandoffStillTakesWhatIsInside() throws Exception {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(4);
        h.put(1);
        h.close();
        assertEquals(1, h.take(1, HOURS));
        assertThrows(HandoffClosedException.class, () -> h.take(1, HOURS), "then closed and empty");
    }

    @Test
    default void closeWakesBlockedTakers() throws Exception {
        Handoff<Integer> h = handoffFor(3, 2);
        assertCloseWakes(h, 3, () -> {
            assertThrows(HandoffClosedException.class, h::take);
        });
    }

    @Test
    default void closeWakesBlockedTimedTakers() throws Exception {
        Handoff<Integer> h = handoffFor(3, 2);
        assertCloseWakes(h, 3, () -> assertThrows(HandoffClosedException.class, () -> h.take(1, HOURS)));
    }

    /**
     * A timed poller blocked at the close keeps waiting: the close does not end its timeout, and
     * it returns {@code null} at its deadline, as on an open, empty handoff.
     */
    @Test
    default void timedPollersBlockedAtTheCloseWaitUntilTheirDeadline() throws Exception {
        Handoff<Integer> h = handoffFor(3, 2);
        long timeout = MILLISECONDS.toNanos(3 * WAIT_OUT_MILLIS);
        try (Workers workers = new Workers()) {
            List<Thread> blocked = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                blocked.add(workers.start("blocked-" + i, () -> {
                    long start = System.nanoTime();
                    assertNull(h.poll(timeout, NANOSECONDS));
                    long waited = System.nanoTime() - start;
                    assertTrue(waited >= timeout, "returned before its deadline: after " + waited + " ns");
                }));
            }
            blocked.forEach(ContractSupport::awaitBlocked);
            h.close();
            Thread.sleep(WAIT_OUT_MILLIS / 3);
            for (Thread t : blocked) {
                Thread.State s = t.getState();
                assertTrue(s == Thread.State.TIMED_WAITING || s == Thread.State.TERMINATED,
                        t.getName() + " is " + s + " after the close: waiting, not spinning");
            }
            workers.awaitAll(blocked, Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
    }

    @Test
    default void closeWakesBlockedPuttersAndTheirElementsStayWithThem() throws Exception {
        Handoff<Integer> h = fullHandoff();
        Object[] before = h.toArray();
        AtomicInteger next = new AtomicInteger(100);
        assertCloseWakes(h, 3, () -> assertThrows(HandoffClosedException.class, () -> h.put(next.getAndIncrement())));
        assertArrayEquals(before, h.toArray(), "no blocked element got in");
    }

    @Test
    default void closeWakesBlockedTimedOfferers() throws Exception {
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
            blocked.forEach(ContractSupport::awaitBlocked);
            h.close();
            workers.awaitAll(blocked, Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
    }
}
