/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link IdleThreads}, the stack of parked pool threads under {@link ElasticQueue}: the thread
 * that parked last gets the next hand-over, a waiter is filled once (hand-over, wake-up or its own
 * cancellation, never two), and cancelled waiters do not pile up in the stack.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleThreadsTest {

    private final IdleThreads idle = new IdleThreads();
    private final Handoff<Object> owner = Handoffs.create("circular:1");

    /** Starts a thread that pushes a waiter and awaits it (untimed); returns once it is parked. */
    private Thread parked(AtomicReference<Object> got) throws InterruptedException {
        Thread t = Thread.ofPlatform().start(() -> {
            IdleThreads.Waiter w = idle.push();
            try {
                got.set(idle.await(w, false, 0L, owner));
            } catch (InterruptedException e) {
                got.set(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (t.getState() != Thread.State.WAITING) {
            assertTrue(System.nanoTime() < deadline, "the thread parks");
            Thread.sleep(1);
        }
        return t;
    }

    @Test
    void theThreadThatParkedLastGetsTheNextHandOver() throws InterruptedException {
        List<AtomicReference<Object>> got = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            got.add(new AtomicReference<>());
            threads.add(parked(got.get(i)));
        }
        assertTrue(idle.handTo("a"));
        threads.get(2).join();
        assertEquals("a", got.get(2).get(), "the last to park");
        assertTrue(idle.handTo("b"));
        threads.get(1).join();
        assertEquals("b", got.get(1).get());
        assertTrue(idle.wakeOne());
        threads.get(0).join();
        assertSame(IdleThreads.WAKE, got.get(0).get(), "woken to look again");
        assertFalse(idle.handTo("c"), "nobody waits");
        assertEquals(0, idle.length());
    }

    @Test
    void aWaiterThatTimedOutIsNeverHandedAnything() throws InterruptedException {
        IdleThreads.Waiter w = idle.push();
        assertNull(idle.await(w, true, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5), owner), "timed out");
        assertFalse(idle.handTo("x"), "the cancelled waiter is not a waiting thread");
        assertFalse(idle.any());
    }

    @Test
    void aWaiterFilledBeforeItsCancelKeepsWhatItWasGiven() throws InterruptedException {
        IdleThreads.Waiter w = idle.push();
        assertTrue(idle.handTo("x"));
        assertFalse(idle.cancel(w), "filled first: the cancel loses");
        Thread.currentThread().interrupt();
        try {
            assertEquals("x", idle.await(w, false, 0L, owner), "returned at once, interrupted or not");
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt status is left set");
        }
    }

    @Test
    void anInterruptedWaiterThrowsAndIsCancelled() throws InterruptedException {
        AtomicReference<Object> got = new AtomicReference<>();
        Thread t = parked(got);
        t.interrupt();
        t.join();
        assertTrue(got.get() instanceof InterruptedException, "threw: " + got.get());
        assertFalse(idle.handTo("x"), "the interrupted thread no longer waits");
    }

    /**
     * Two threads whose timed waits overlap, so that each one's waiter is often cancelled under
     * the other's, above one thread that waits untimed: without clean() every cancelled waiter
     * would stay in the stack, one per wait.
     */
    @Test
    void cancelledWaitersDoNotPileUp() throws InterruptedException {
        AtomicReference<Object> bottom = new AtomicReference<>();
        Thread untimed = parked(bottom);
        int waits = 2_000;
        Runnable timedWaits = () -> {
            for (int i = 0; i < waits; i++) {
                IdleThreads.Waiter w = idle.push();
                try {
                    assertNull(idle.await(w, true, System.nanoTime() + 20_000, owner));
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
        };
        Thread a = Thread.ofPlatform().start(timedWaits);
        Thread b = Thread.ofPlatform().start(timedWaits);
        a.join();
        b.join();
        // two cleaners that race may each leave the other's last cancelled waiter linked
        assertTrue(idle.length() <= 3, idle.length() + " waiters left of " + (2 * waits + 1) + " pushed");
        assertTrue(idle.handTo("x"));
        untimed.join();
        assertEquals("x", bottom.get());
    }
}
