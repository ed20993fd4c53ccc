/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.classes;

import dev.handoff.Handoff;
import dev.handoff.internal.waiting.Spin;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Waiters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A count of item reservations with a closed bit, in one volatile long:
 * {@code closed (bit 63) | pending (bits 32..62) | available (bits 0..31)}.
 * Acquiring takes one from available by CAS; a thread that finds none spins for a few
 * microseconds (untimed acquire only), then parks on a Condition (never polls) and is
 * signalled by the next release. It still hands out what is available once closed, and is
 * exhausted once closed with nothing available, nothing pending and nothing under way in its
 * owner: that state is final, and every waiter is woken to see it.
 *
 * <p>Lost wake-ups are excluded as {@link Waiters} shows: every change of state is a volatile
 * access that precedes the releaser's look at the waiters, and a waiter re-reads state (volatile)
 * after counting itself and before it parks.
 *
 * <p>Used by {@link ClassedHandoff} (takeable: elements of any class that consumers may take).
 */
public final class Reservations {
    public static final int ACQUIRED = 1;
    public static final int NONE = 0;
    public static final int EXHAUSTED = -1;

    private static final long CLOSED = Long.MIN_VALUE;
    private static final long PENDING_ONE = 1L << 32;
    private static final long AVAILABLE_MASK = 0xFFFF_FFFFL;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Reservations.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** closed | pending | available. Every access is volatile: see the class comment. */
    private volatile long state;

    /** Guards the parking of acquirers (their re-check and await); no state is guarded by it. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Acquirers parked, or about to park, until a reservation or the final state appears. */
    private final Waiters waiters;
    /** Whether an acquirer must still wait: nothing available and not exhausted. */
    private final BooleanSupplier noneYet = this::noneAvailableYet;
    /** Lets one thread at a time spin in acquire() (see Spin). */
    private final Spin.Gate spin = new Spin.Gate();
    /** Counts a park in the owner's statistics. */
    private final Runnable onWait;
    /**
     * Whether the owner has nothing under way that may still make an item available (a volatile
     * read); with closed, nothing available and nothing pending, the final state.
     */
    private final BooleanSupplier nothingUnderWay;

    private Reservations(Runnable onWait, Handoff<?> owner, Parking wait, BooleanSupplier nothingUnderWay) {
        this.onWait = onWait;
        this.waiters = new Waiters(lock, wait, owner);
        this.nothingUnderWay = nothingUnderWay;
    }

    /**
     * A count of items, none available at first, exhausted once closed with nothing available,
     * nothing pending and {@code nothingUnderWay} true. nothingUnderWay must read volatile state,
     * and whatever makes it true must be followed by a call to {@link #wakeAll()}.
     *
     * @param owner the handoff, and {@code wait} which of its waits this count's acquirers are:
     *        for JFR (class Parking)
     */
    public static Reservations ofItems(Runnable onWait, Handoff<?> owner, Parking wait, BooleanSupplier nothingUnderWay) {
        return new Reservations(onWait, owner, wait, nothingUnderWay);
    }

    public static int available(long s) {
        return (int) (s & AVAILABLE_MASK);
    }

    public static int pending(long s) {
        return (int) ((s & ~CLOSED) >>> 32);
    }

    public static boolean closed(long s) {
        return s < 0;
    }

    /** Final: closed, nothing available, nothing pending and nothing under way in the owner. */
    private boolean exhausted(long s) {
        return s == CLOSED && nothingUnderWay.getAsBoolean();
    }

    public int available() {
        return available(state);
    }

    public boolean isClosed() {
        return closed(state);
    }

    /**
     * Takes up to max available reservations at once, holding them as pending until
     * handBack() or settle(), so that nobody reports the count exhausted while they may
     * return. Never waits.
     *
     * @return how many were taken, 0 if none was available
     */
    public int tryAcquireHeld(int max) {
        for (;;) {
            long s = state;
            int n = Math.min(available(s), max);
            if (n == 0) {
                return 0;
            }
            // Volatile CAS against every other update of state; the held reservations leave
            // available before anyone can see the count exhausted (pending keeps it alive).
            if (STATE.compareAndSet(this, s, s - n + n * PENDING_ONE)) {
                return n;
            }
        }
    }

    /** Takes one available reservation if there is one; never waits. */
    public int tryAcquire() {
        for (;;) {
            long s = state;
            if (available(s) == 0) {
                return exhausted(s) ? EXHAUSTED : NONE;
            }
            long next = s - 1;
            // Volatile CAS: pairs with the getAndAdd of release/publish that made one available.
            if (STATE.compareAndSet(this, s, next)) {
                if (exhausted(next)) {
                    wakeAll(); // this took the last one after close: the rest must see it
                }
                return ACQUIRED;
            }
        }
    }

    /** Takes one reservation, spinning briefly and then parking while none is available. */
    public int acquire() throws InterruptedException {
        int r = tryAcquire();
        if (r == NONE) {
            r = spinThenTryAcquire();
        }
        return r != NONE ? r : await(false, 0L);
    }

    /**
     * The brief wait before parking (class Spin): re-reads state and tries again whenever it
     * shows a reservation (or the final state), for at most Spin.ROUNDS rounds. A thread
     * does not spin while others already wait in await() (they are ahead of it in line) or
     * while another thread spins on this count.
     *
     * @return ACQUIRED or EXHAUSTED, or NONE if the spin ended without either
     */
    private int spinThenTryAcquire() {
        // a hint only: await() rechecks everything under the lock
        if (waiters.any()) {
            return NONE;
        }
        if (!spin.tryEnter()) {
            // another thread spins: give it the CPU a few times before parking, which with more
            // threads than CPUs lets the thread that releases run without a wake-up
            return Spin.yieldUntil(this::availableOrExhausted) ? tryAcquire() : NONE;
        }
        try {
            for (int i = 0; i < Spin.ROUNDS && !waiters.any(); i++) {
                Spin.pause(i);
                long s = state; // volatile read; the CAS in tryAcquire decides
                if (available(s) != 0 || exhausted(s)) {
                    int r = tryAcquire();
                    if (r != NONE) {
                        return r;
                    }
                }
            }
            return NONE;
        } finally {
            spin.exit();
        }
    }

    /** Takes one reservation, parking at most nanos while none is available; never spins. */
    public int acquireNanos(long nanos) throws InterruptedException {
        int r = tryAcquire();
        return r != NONE || nanos <= 0L ? r : await(true, nanos);
    }

    private int await(boolean timed, long nanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            for (;;) {
                int r = tryAcquire();
                if (r != NONE) {
                    return r;
                }
                if (timed && nanos <= 0L) {
                    return NONE;
                }
                onWait.run();
                if (timed) {
                    nanos = waiters.awaitNanos(noneYet, nanos);
                } else {
                    waiters.await(noneYet);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether an acquire may succeed now, or the count is final: a volatile read of state. */
    private boolean availableOrExhausted() {
        long s = state;
        return available(s) != 0 || exhausted(s);
    }

    /** The waiters' re-check after counting themselves: a volatile read of state. */
    private boolean noneAvailableYet() {
        long s = state;
        return available(s) == 0 && !exhausted(s);
    }

    /** Adds one available reservation and wakes one waiter: an element put back in place. */
    public void release() {
        STATE.getAndAdd(this, 1L); // volatile: then signalOne reads the waiter count
        waiters.signalOne();
    }

    /**
     * Adds one pending unless closed: an insert that will publish. A producer calls it after
     * reserving a space; false means the table closed, and the insert is refused.
     */
    public boolean announce() {
        long previous = (long) STATE.getAndAdd(this, PENDING_ONE);
        if (closed(previous)) {
            settle(1); // undo: the insert will not happen
            return false;
        }
        return true;
    }

    /** Turns one pending into one available: a published insert. */
    public void publish() {
        STATE.getAndAdd(this, 1L - PENDING_ONE); // pending >= 1 here, so no borrow
        waiters.signalOne(); // after the volatile change, as Waiters requires
    }

    /** Turns n held reservations (pending) back into available ones, and wakes n waiters. */
    public void handBack(int n) {
        if (n > 0) {
            STATE.getAndAdd(this, n * (1L - PENDING_ONE)); // pending >= n here
            for (int i = 0; i < n; i++) {
                waiters.signalOne();
            }
        }
    }

    /** Drops n pending: held elements that left for good, or an insert that was undone. */
    public void settle(int n) {
        // Volatile: pairs with the tryAcquire that sees the count exhausted after it.
        long next = (long) STATE.getAndAdd(this, -n * PENDING_ONE) - n * PENDING_ONE;
        if (exhausted(next)) {
            wakeAll();
        }
    }

    /** Sets the closed bit and wakes every waiter to recheck. Idempotent. */
    public void close() {
        STATE.getAndBitwiseOr(this, CLOSED); // volatile: every later tryAcquire and noneAvailableYet sees it
        wakeAll();
    }

    /** Wakes every waiter to recheck: after a change that may have made this count final. */
    public void wakeAll() {
        waiters.signalAll();
    }

    @Override
    public String toString() {
        long s = state;
        return "available=" + available(s) + " pending=" + pending(s) + (closed(s) ? " closed" : "");
    }
}
