/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Waiters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The waiting primitive alone: counted waiters, re-check after the count, signal only when counted. */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a speed check
class WaitersTest {
    private final ReentrantLock lock = new ReentrantLock();
    private final Handoff<Integer> owner = Handoffs.circular(1).build();
    private final Waiters waiters = new Waiters(lock, Parking.TAKE, owner);
    /** The state the waiters wait on: how many permits there are. Volatile, as Waiters requires. */
    private final AtomicInteger permits = new AtomicInteger();

    /** The waiting side's loop, as each kind writes it: re-check after every return. */
    private void acquire() throws InterruptedException {
        lock.lock();
        try {
            while (!tryTake()) {
                waiters.await(() -> permits.get() == 0);
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean tryTake() {
        for (int p = permits.get(); p > 0; p = permits.get()) {
            if (permits.compareAndSet(p, p - 1)) {
                return true;
            }
        }
        return false;
    }

    private void release() {
        permits.incrementAndGet(); // the volatile state change, then the count read in signalOne
        waiters.signalOne();
    }

    /**
     * Until n threads are counted in: each is then parked, or holds the lock until it is, so a
     * signal (which takes the lock) reaches it.
     */
    private void awaitCounted(int n) {
        while (waiters.count() != n) {
            LockSupport.parkNanos(50_000); // not a spin: the waiters need the CPU to get counted
        }
    }

    @Test
    void aParkedWaiterIsWokenBySignalOne() throws Exception {
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                acquire();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        awaitCounted(1);
        assertTrue(waiters.any());
        release();
        waiter.join();
        assertFalse(waiters.any());
        assertEquals(0, permits.get());
    }

    @Test
    void awaitDoesNotParkWhenTheStateChangedBeforeTheCount() throws Exception {
        lock.lock();
        try {
            waiters.await(() -> false); // would park forever if it ignored the re-check
            assertEquals(123L, waiters.awaitNanos(() -> false, 123L));
        } finally {
            lock.unlock();
        }
        assertFalse(waiters.any());
    }

    @Test
    void awaitNanosReturnsNoTimeLeftWhenNobodySignals() throws Exception {
        lock.lock();
        try {
            assertTrue(waiters.awaitNanos(() -> true, TimeUnit.MILLISECONDS.toNanos(5)) <= 0L);
        } finally {
            lock.unlock();
        }
        assertFalse(waiters.any());
    }

    @Test
    void signalOneWithNobodyCountedDoesNotTakeTheLock() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread holder = Thread.ofPlatform().start(() -> {
            lock.lock();
            try {
                held.countDown();
                done.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            } finally {
                lock.unlock();
            }
        });
        held.await();
        waiters.signalOne(); // would block on the held lock if it did not read the count first
        done.countDown();
        holder.join();
    }

    @Test
    void anInterruptedWaiterLeavesTheCount() throws Exception {
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                acquire();
                throw new AssertionError("acquired without a permit");
            } catch (InterruptedException expected) {
                // the count must be back to 0 below
            }
        });
        awaitCounted(1);
        waiter.interrupt();
        waiter.join();
        assertFalse(waiters.any());
    }

    /** Many short races between one release and waiters arriving: every waiter gets its permit. */
    @Test
    void noWakeUpIsLostWhenReleasesRaceWaiters() throws Exception {
        raceWaiters(2_000, this::acquire, this::release);
        assertFalse(waiters.any());
    }

    /** An acquire that may be interrupted. */
    private interface Acquire {
        void run() throws InterruptedException;
    }

    /** Rounds of three waiters racing three releases; every waiter must get its permit. */
    private void raceWaiters(int rounds, Acquire acquire, Runnable release) throws InterruptedException {
        int threads = 3;
        for (int round = 0; round < rounds; round++) {
            Thread[] ts = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                ts[t] = Thread.ofPlatform().start(() -> {
                    try {
                        acquire.run();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                });
            }
            for (int t = 0; t < threads; t++) {
                release.run();
            }
            for (Thread t : ts) {
                t.join();
            }
            assertEquals(0, permits.get());
        }
    }

    @Test
    void signalAllWakesEveryWaiter() throws Exception {
        AtomicInteger returned = new AtomicInteger();
        Thread[] ts = new Thread[3];
        for (int t = 0; t < ts.length; t++) {
            ts[t] = Thread.ofPlatform().start(() -> {
                lock.lock();
                try {
                    waiters.await(() -> true); // one wait, however it ends
                    returned.incrementAndGet();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                } finally {
                    lock.unlock();
                }
            });
        }
        awaitCounted(ts.length);
        waiters.signalAll();
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(3, returned.get());
    }

    // ---- one wake-up per burst ----

    private final Waiters burst = Waiters.oneWakeUpPerBurst(lock, Parking.TAKE, owner);

    /** The waiting loop the burst rule asks for: after taking, pass the wake-up on if permits remain. */
    private void acquirePassingOn() throws InterruptedException {
        lock.lock();
        try {
            while (!tryTake()) {
                burst.await(() -> permits.get() == 0);
            }
            if (permits.get() > 0) {
                burst.signalOneHeld();
            }
        } finally {
            lock.unlock();
        }
    }

    private void releaseInBurst() {
        permits.incrementAndGet(); // the volatile state change, then signalOne's reads
        burst.signalOne();
    }

    @Test
    void aBurstSignalsOnceWhileTheSignalledWaiterIsOnItsWay() throws Exception {
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                acquirePassingOn();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        while (burst.count() != 1) {
            Thread.onSpinWait();
        }
        lock.lock();
        try {
            permits.incrementAndGet();
            burst.signalOneHeld(); // the waiter is on its way, but cannot come back while we hold the lock
            // a second change in the burst must not wait for the lock: it would block here for ever
            Thread second = Thread.ofPlatform().start(this::releaseInBurst);
            second.join();
        } finally {
            lock.unlock();
        }
        waiter.join();
        assertEquals(1, permits.get()); // the second permit stays for the next taker
        assertFalse(burst.any());
    }

    /** Bursts of releases race waiters that pass the wake-up on: every waiter gets its permit. */
    @Test
    void noWakeUpIsLostWhenBurstsRaceWaitersPassingItOn() throws Exception {
        raceWaiters(1_000, this::acquirePassingOn, this::releaseInBurst);
        assertFalse(burst.any());
    }
}
