/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.classes;

import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;
import dev.handoff.internal.waiting.Waiters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A count of item reservations with a closed bit, in one volatile long:
 * {@code closed (bit 63) | pending (bits 32..62) | available (bits 0..31)}.
 * Acquiring takes one from available by CAS; a thread that finds none may spin briefly
 * (untimed acquire only, as {@link Spinner} allows), then parks on a Condition (never polls) and
 * is signalled by the next release. It still hands out what is available once closed, and is
 * exhausted once closed with nothing available and nothing pending: that state is final, and
 * every waiter is woken to see it.
 *
 * <p>Lost wake-ups are excluded as {@link Waiters} shows: every change of state is a volatile
 * access that precedes the releaser's look at the waiters, and a waiter re-reads state (volatile)
 * after counting itself and before it parks.
 *
 * <p>The handoff with importance classes keeps one (takeable: elements of any class that
 * consumers may take).
 */
public final class Reservations {
    /** An acquire's outcome: the caller holds one reservation. */
    public static final int ACQUIRED = 1;
    /** An acquire's outcome: nothing available yet (a poll, or a timed acquire that ran out). */
    public static final int NONE = 0;
    /** An acquire's outcome: closed, nothing available, nothing pending; final. */
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
    private final Waiters notEmpty;
    /** The acquirers' re-check after counting themselves: nothing available and not exhausted. */
    private final BooleanSupplier stillEmpty = this::noneAvailableYet;
    /** Whether, and how long, an acquirer spins before it parks. */
    private final Spinner takeSpinner = new Spinner();
    /** Counts a park in the owner's statistics. */
    private final Runnable onWait;

    /**
     * A count of items, none available at first, exhausted once closed with nothing available
     * and nothing pending.
     *
     * @param onWait counts a park in the owner's statistics
     * @param owner the handoff, and {@code wait} which of its waits this count's acquirers are:
     *        for JFR (class Parking)
     */
    public Reservations(Runnable onWait, Object owner, Parking wait) {
        this.onWait = onWait;
        this.notEmpty = new Waiters(lock, wait, owner);
    }

    private static int available(long s) {
        return (int) (s & AVAILABLE_MASK);
    }

    private static int pending(long s) {
        return (int) ((s & ~CLOSED) >>> 32);
    }

    private static boolean closed(long s) {
        return s < 0;
    }

    /** Final: closed, nothing available, nothing pending. */
    private static boolean exhausted(long s) {
        return s == CLOSED;
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

    /**
     * Takes one reservation, waiting while none is available: the take (untimed: spinning briefly,
     * then parking) and the timed poll (parking at most nanos, never spinning; never waiting when
     * {@code nanos <= 0}). Throws if the caller is interrupted on entry, even when a reservation
     * is available, as a take of the JDK's queues does.
     *
     * @return ACQUIRED, EXHAUSTED, or (timed) NONE when the time ran out
     * @throws InterruptedException if interrupted on entry or while parked
     */
    public int acquire(boolean timed, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        int r = tryAcquire();
        if (r != NONE || timed && nanos <= 0L) {
            return r;
        }
        if (!timed) {
            r = spinThenTryAcquire();
        }
        return r != NONE ? r : await(timed, nanos);
    }

    /**
     * The spin before parking, as long as takeSpinner allows: re-reads state until it shows a
     * reservation (or the final state), then tries once. A thread does not spin while others
     * already wait in await(): they are ahead of it in line, and the spin ends when one parks.
     *
     * @return ACQUIRED or EXHAUSTED, or NONE if the spin ended without either (or lost the try)
     */
    private int spinThenTryAcquire() {
        // notEmpty.any(): a hint only, await() rechecks everything under the lock
        if (notEmpty.any() || !takeSpinner.spinUntil(this, 0L, Reservations::reservable, Reservations::othersWait)) {
            return NONE;
        }
        return tryAcquire();
    }

    /** The spin's condition: a reservation or the final state shows (a volatile read). */
    private static boolean reservable(Reservations r, long unused) {
        return r.availableOrExhausted();
    }

    /** Whether threads wait in await(): they are ahead of this one, which stops spinning. */
    private static boolean othersWait(Reservations r, long unused) {
        return r.notEmpty.any();
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
                nanos = notEmpty.await(stillEmpty, timed, nanos);
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
        notEmpty.signalOne();
    }

    /**
     * Adds one pending unless closed: an insert that will publish. False means the count is
     * closed, and the insert is refused.
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
        notEmpty.signalOne(); // after the volatile change, as Waiters requires
    }

    /** Turns n held reservations (pending) back into available ones, and wakes n waiters. */
    public void handBack(int n) {
        if (n > 0) {
            STATE.getAndAdd(this, n * (1L - PENDING_ONE)); // pending >= n here
            for (int i = 0; i < n; i++) {
                notEmpty.signalOne();
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
        STATE.getAndBitwiseOr(this, CLOSED); // volatile: every later tryAcquire and stillEmpty sees it
        wakeAll();
    }

    /** Wakes every waiter to recheck: after a change that may have made this count final. */
    private void wakeAll() {
        notEmpty.signalAll();
    }

    @Override
    public String toString() {
        long s = state;
        return "available=" + available(s) + " pending=" + pending(s) + (closed(s) ? " closed" : "");
    }
}
