/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.waiting;


import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The threads parked on one {@link Condition} of a lock, counted, so that the thread that changes
 * the state they wait on takes the lock to signal only when the count says someone may be parked.
 * Every kind that parks on a condition waits through one of these: it is the one place where
 * "count the waiter, re-check after the fence, await" is written, and where its proof lives.
 *
 * <p>The waiting side calls {@link #await} or {@link #awaitNanos} holding the lock, in its own
 * loop that re-checks the state after every return (a signal is a hint, never the state). The
 * changing side first changes the state by a volatile access (a volatile write, getAndAdd,
 * compareAndSet, or a lock release that another volatile access follows), then calls
 * {@link #signalOne()} or {@link #signalAll()}, without the lock.
 *
 * <p>Built by {@link #oneWakeUpPerBurst}, it signals once for a burst of changes: while a
 * signalled thread has not yet come back from its await, {@link #signalOne()} sends nothing more,
 * and the caller's waiting loop must pass the wake-up on ({@link #signalOneHeld()}) when it
 * proceeds and the state lets another waiter proceed too.
 */
public final class Waiters {
    /*
     * Why no wake-up is lost. A waiter increments count (getAndAdd: volatile) and then reads the
     * state through stillBlocked; the changer writes the state (volatile) and then reads count
     * (volatile). These four accesses are all sequentially consistent, so in the one total order
     * either the waiter's state read follows the changer's write (it sees the change and does not
     * park), or the changer's count read follows the waiter's increment (it sees a waiter and
     * signals). The signal is sent under the lock, which the waiter holds from its re-check until
     * Condition.await has queued it and released the lock, so a signal cannot fall between the
     * re-check and the park. A waiter that is signalled but finds the state taken by a faster
     * thread loops in its caller and waits again; signalOne wakes one waiter per state change, so
     * each change that can serve one waiter wakes one.
     *
     * The stillBlocked test must read the state with a volatile (or stronger) access: an opaque or
     * plain read would let it be ordered before the increment.
     *
     * One wake-up per burst (the wakePending option). A signal sets wakePending under the lock;
     * signalOne skips while it is set, so a burst of changes costs one lock and one unpark. No
     * change is lost while it is set: the signaller saw count > 0 under the lock, where every
     * counted thread is inside Condition.await, so the signal moves one of them out, or one is
     * already out (timed out, interrupted) and waiting for the lock; either way a counted thread
     * comes back, and when it does it clears wakePending (volatile) and its caller re-checks the
     * state (volatile). A changer that skipped wrote the state (volatile) and then read
     * wakePending (volatile) as set, so that read precedes the clear in the total order of these
     * accesses, the change precedes the re-check, and the returning thread sees the change. If
     * the change can serve more threads than the returning one, its caller passes the wake-up on
     * (signalOneHeld, which sets wakePending again), so each waiter that a burst can serve is
     * woken in turn. A thread that returns without having parked clears nothing: it was never
     * signalled. Clearing early would only cost an extra signal.
     */

    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(Waiters.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ReentrantLock lock;
    private final Condition condition;
    /** Which wait of the handoff this is, and the handoff: for JFR (class Parking). */
    private final Parking wait;
    private final Object owner;

    /** Threads between their increment in await and their decrement after it. */
    private volatile int count;

    /** Whether signalOne sends one wake-up per burst (see the notes). */
    private final boolean oneWakeUpPerBurst;

    /**
     * Whether await counts its thread in count. Only signalOne, signalOneHeld and any() read the
     * count; waiters whose changer always signals under the lock (signalOneHeldAlways) need none.
     */
    private final boolean counted;

    /**
     * With oneWakeUpPerBurst: a signalled thread has not yet come back from its await, so
     * signalOne need not signal again. Written under the lock; read by signalOne without it.
     */
    private volatile boolean wakePending;

    /**
     * @param lock the lock the waiters hold while they check and park; the changer takes it only
     *        to signal
     * @param wait which of the handoff's waits this is (for the JFR event)
     * @param owner the handoff, named in the JFR event
     */
    public Waiters(ReentrantLock lock, Parking wait, Object owner) {
        this(lock, wait, owner, false, true);
    }

    private Waiters(ReentrantLock lock, Parking wait, Object owner, boolean oneWakeUpPerBurst, boolean counted) {
        this.lock = lock;
        this.condition = lock.newCondition();
        this.wait = wait;
        this.owner = owner;
        this.oneWakeUpPerBurst = oneWakeUpPerBurst;
        this.counted = counted;
    }

    /**
     * Waiters for a changer that changes the state under the lock and signals there, always
     * ({@link #signalOneHeldAlways()}, {@link #signalAllHeld()}, {@link #signalAll()}), as
     * {@code ArrayBlockingQueue} does. Unless {@code counted}, nobody reads a count, so await
     * keeps none and parks at once, and {@link #signalOne()}, {@link #signalOneHeld()} and
     * {@link #any()} are not for these; {@code counted} keeps the count for a caller that reads
     * {@link #any()} (a spinner that stops spinning once a thread of its side parks).
     *
     * @param lock as for the constructor
     * @param wait as for the constructor
     * @param owner as for the constructor
     * @param counted whether await counts its thread
     */
    public static Waiters signalledUnderLock(ReentrantLock lock, Parking wait, Object owner, boolean counted) {
        return new Waiters(lock, wait, owner, false, counted);
    }

    /**
     * Waiters that signal once per burst of changes (see the class comment): the caller's waiting
     * loop passes the wake-up on with {@link #signalOneHeld()} whenever it proceeds and the state
     * lets another waiter proceed too.
     *
     * @param lock as for the constructor
     * @param wait as for the constructor
     * @param owner as for the constructor
     */
    public static Waiters oneWakeUpPerBurst(ReentrantLock lock, Parking wait, Object owner) {
        return new Waiters(lock, wait, owner, true, true);
    }

    /**
     * Parks until signalled, unless {@code stillBlocked} turns false once the caller is counted.
     * Call only when holding the lock; the caller re-checks the state after this returns.
     *
     * @throws InterruptedException if interrupted while parked (the lock is held again)
     */
    public void await(BooleanSupplier stillBlocked) throws InterruptedException {
        // assert lock.isHeldByCurrentThread();
        if (!counted) {
            wait.await(condition, owner); // the caller checked the state under the lock its changer signals under
            return;
        }
        COUNT.getAndAdd(this, 1); // volatile, then the state read: pairs with the read in signalOne
        if (!stillBlocked.getAsBoolean()) {
            COUNT.getAndAdd(this, -1);
            return;
        }
        try {
            wait.await(condition, owner);
        } finally {
            cameBack();
        }
    }

    /**
     * As {@link #await}, for at most {@code nanos}.
     *
     * @return the time left: {@code nanos} when it did not park, at most 0 when the time ran out
     * @throws InterruptedException if interrupted while parked (the lock is held again)
     */
    public long awaitNanos(BooleanSupplier stillBlocked, long nanos) throws InterruptedException {
        // assert lock.isHeldByCurrentThread();
        if (!counted) {
            return wait.awaitNanos(condition, nanos, owner); // as in await
        }
        COUNT.getAndAdd(this, 1); // as in await
        if (!stillBlocked.getAsBoolean()) {
            COUNT.getAndAdd(this, -1);
            return nanos;
        }
        try {
            return wait.awaitNanos(condition, nanos, owner);
        } finally {
            cameBack();
        }
    }

    /**
     * {@link #awaitNanos} when {@code timed}, else {@link #await}: the one wait of every kind's
     * blocking loop. Call only when holding the lock.
     *
     * @param stillBlocked the re-check, a volatile read of the state (see the class notes)
     * @param timed whether the wait ends after {@code nanos}
     * @param nanos the time left, read only when timed
     * @return the time left: {@code nanos} unchanged when untimed or when it did not park
     * @throws InterruptedException if interrupted while parked (the lock is held again)
     */
    public long await(BooleanSupplier stillBlocked, boolean timed, long nanos) throws InterruptedException {
        if (timed) {
            return awaitNanos(stillBlocked, nanos);
        }
        await(stillBlocked);
        return nanos;
    }

    /** Leaves the count after an await, however it ended. Call only when holding the lock. */
    private void cameBack() {
        if (oneWakeUpPerBurst) {
            // volatile, then the caller's re-check of the state: pairs with the read in signalOne
            wakePending = false;
        }
        COUNT.getAndAdd(this, -1);
    }

    /** Whether a signal may be needed: someone is counted, and no signalled thread is on its way. */
    private boolean mayNeedSignal() {
        // volatile reads after the caller's state change: pair with the increment in await and
        // the clear in cameBack
        return count > 0 && !(oneWakeUpPerBurst && wakePending);
    }

    /**
     * Wakes one waiter if any may be parked. Call after the volatile state change that may let
     * one proceed, without the lock.
     */
    public void signalOne() {
        if (mayNeedSignal()) {
            lock.lock();
            try {
                signalOneHeld();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Wakes one waiter, for a caller that already holds the lock (a waiter passing a wake-up on
     * to the next, when the state lets more than one proceed).
     */
    public void signalOneHeld() {
        // assert lock.isHeldByCurrentThread();
        if (mayNeedSignal()) {
            if (oneWakeUpPerBurst) {
                wakePending = true; // cleared by whichever counted thread comes back from await next
            }
            condition.signal();
        }
    }

    /**
     * Wakes one waiter whether or not any is counted, for a caller that holds the lock and changed
     * the state under it, as {@code ArrayBlockingQueue} signals: with nobody waiting,
     * {@link Condition#signal()} under the lock only reads the condition's queue head. Only for
     * waiters built without one wake-up per burst.
     */
    public void signalOneHeldAlways() {
        // assert lock.isHeldByCurrentThread() && !oneWakeUpPerBurst;
        condition.signal();
    }

    /** As {@link #signalAll()}, for a caller that already holds the lock. */
    public void signalAllHeld() {
        // assert lock.isHeldByCurrentThread();
        condition.signalAll();
    }

    /** Wakes every waiter to re-check, unconditionally (closing, or a final state). */
    public void signalAll() {
        lock.lock();
        try {
            condition.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether some thread may be parked or about to park: a volatile read. */
    public boolean any() {
        return count > 0;
    }

    /** How many threads are counted in (for tests and toString). */
    public int count() {
        return count;
    }
}
