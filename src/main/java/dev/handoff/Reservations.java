/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A count of reservations with a closed bit, in one volatile long:
 * {@code closed (bit 63) | pending (bits 32..62) | available (bits 0..31)}.
 * Acquiring takes one from available by CAS; a thread that finds none spins for a few
 * microseconds (untimed acquire only), then parks on a Condition (never polls) and is
 * signalled by the next release. Once closed with nothing available and
 * nothing pending the count is exhausted: that state is final, and every waiter is woken to
 * see it.
 *
 * <p>Lost wake-ups are excluded by a Dekker pair, which needs sequentially consistent
 * (volatile) accesses: a releaser changes state, then reads waiters; a waiter increments
 * waiters (under lock), then re-reads state before it awaits. At least one sees the other;
 * a releaser that sees a waiter signals under the same lock, which the waiter holds until it
 * is inside await.
 *
 * <p>Used by {@link ParallelHashTable} (takeable: elements consumers may take;
 * fillable: empty slots producers may fill) and by {@link ClassedHandoff} (elements of any class
 * that consumers may take).
 */
final class Reservations {
    static final int ACQUIRED = 1;
    static final int NONE = 0;
    static final int EXHAUSTED = -1;

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

    /** Threads inside acquire's slow path. Written under lock, read by releasers. */
    private volatile int waiters;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Lets one thread at a time spin in acquire() (see Spin). */
    private final Spin.Gate spin = new Spin.Gate();
    private final Runnable onWait;
    /** The table, and which of its waits this count's waiters are: for JFR (class Wait). */
    private final Handoff<?> owner;
    private final Wait wait;

    Reservations(int available, Runnable onWait, Handoff<?> owner, Wait wait) {
        this.state = available;
        this.onWait = onWait;
        this.owner = owner;
        this.wait = wait;
    }

    static int available(long s) {
        return (int) (s & AVAILABLE_MASK);
    }

    static int pending(long s) {
        return (int) ((s & ~CLOSED) >>> 32);
    }

    static boolean closed(long s) {
        return s < 0;
    }

    /** Closed, nothing available, nothing pending: final. */
    static boolean exhausted(long s) {
        return s == CLOSED;
    }

    int available() {
        return available(state);
    }

    boolean isClosed() {
        return closed(state);
    }

    /**
     * Takes up to max available reservations at once, holding them as pending until
     * handBack() or settle(), so that nobody reports the count exhausted while they may
     * return. Never waits.
     *
     * @return how many were taken, 0 if none was available
     */
    int tryAcquireHeld(int max) {
        for (;;) {
            long s = state;
            int n = Math.min(available(s), max);
            if (n == 0) {
                return 0;
            }
            if (STATE.compareAndSet(this, s, s - n + n * PENDING_ONE)) {
                return n;
            }
        }
    }

    /** Takes one available reservation if there is one; never waits. */
    int tryAcquire() {
        for (;;) {
            long s = state;
            if (available(s) == 0) {
                return exhausted(s) ? EXHAUSTED : NONE;
            }
            long next = s - 1;
            if (STATE.compareAndSet(this, s, next)) {
                if (exhausted(next)) {
                    wakeAll(); // this took the last one after close: the rest must see it
                }
                return ACQUIRED;
            }
        }
    }

    /** Takes one reservation, spinning briefly and then parking while none is available. */
    int acquire() throws InterruptedException {
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
        // waiters: volatile read, a hint only; await() rechecks everything under the lock.
        if (waiters > 0 || !spin.tryEnter()) {
            return NONE;
        }
        try {
            for (int i = 0; i < Spin.ROUNDS && waiters == 0; i++) {
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
    int acquireNanos(long nanos) throws InterruptedException {
        int r = tryAcquire();
        return r != NONE || nanos <= 0L ? r : await(true, nanos);
    }

    private int await(boolean timed, long nanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            waiters++; // volatile write, then the state read in tryAcquire: the Dekker pair
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
                        nanos = wait.awaitNanos(changed, nanos, owner);
                    } else {
                        wait.await(changed, owner);
                    }
                }
            } finally {
                waiters--;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Returns one reservation to available and wakes one waiter. */
    void release() {
        STATE.getAndAdd(this, 1L); // volatile: then the waiters read in signalOne
        signalOne();
    }

    /**
     * Adds one pending unless closed: an insert that will publish. A producer calls it after
     * reserving a space; false means the table closed, and the insert is refused.
     */
    boolean announce() {
        long previous = (long) STATE.getAndAdd(this, PENDING_ONE);
        if (closed(previous)) {
            settle(1); // undo: the insert will not happen
            return false;
        }
        return true;
    }

    /** Turns one pending into one available: a published insert. */
    void publish() {
        STATE.getAndAdd(this, 1L - PENDING_ONE); // pending >= 1 here, so no borrow
        signalOne();
    }

    /** Turns n held reservations (pending) back into available ones, and wakes n waiters. */
    void handBack(int n) {
        if (n > 0) {
            STATE.getAndAdd(this, n * (1L - PENDING_ONE)); // pending >= n here
            for (int i = 0; i < n; i++) {
                signalOne();
            }
        }
    }

    /** Drops n pending: held elements that left for good, or an insert that was undone. */
    void settle(int n) {
        long next = (long) STATE.getAndAdd(this, -n * PENDING_ONE) - n * PENDING_ONE;
        if (exhausted(next)) {
            wakeAll();
        }
    }

    /** Sets the closed bit and wakes every waiter to recheck. Idempotent. */
    void close() {
        STATE.getAndBitwiseOr(this, CLOSED);
        wakeAll();
    }

    private void signalOne() {
        if (waiters > 0) { // volatile read after the state change: the Dekker pair
            lock.lock();
            try {
                changed.signal();
            } finally {
                lock.unlock();
            }
        }
    }

    private void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        long s = state;
        return "available=" + available(s) + " pending=" + pending(s) + (closed(s) ? " closed" : "");
    }
}
