/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import dev.handoff.internal.guard.ReentryGuard;
import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;
import dev.handoff.internal.waiting.Waiters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The {@code core=lock} core of a circular buffer, the default: an array and two indices under
 * one lock, with two conditions, as {@link java.util.concurrent.ArrayBlockingQueue}. A producer
 * and a consumer never work at the same time; the core allocates nothing per element.
 *
 * @param <E> the type of elements held
 */
public final class LockCore<E> implements BufferCore<E> {
    /*
     * Implementation notes.
     *
     * The bounded buffer of the producer/consumer problem (Dijkstra), which both of Roussev and
     * Wu's servers pass sockets through ("Client-server design alternatives: back to pipes but
     * with threads", ICN 2001, LNCS 2094, section 3.4; "Distributed computing using Java: a
     * comparison of two server designs", Journal of Systems Architecture 52(7), 2006, section 3):
     * an array of references and two indices that walk it circularly.
     *
     *        takeIndex              putIndex
     *            v                     v
     *   [ null | e1 | e2 | e3 | e4 | null | null ]     count == 4
     *
     * Invariants, all under lock:
     *   0 <= count <= items.length;
     *   the live elements are items[takeIndex], items[takeIndex + 1], ... (mod length), count of
     *   them, every one non-null; every other cell is null (so nothing the buffer gave out is kept
     *   reachable by it);
     *   putIndex == (takeIndex + count) mod length.
     *
     * The papers' buffer used one monitor and notifyAll, so every put woke every waiting worker
     * and all but one went back to sleep. Here the lock has two conditions, notEmpty for consumers
     * and notFull for producers, and each insert or removal signals one waiter of the other side,
     * unconditionally, as ArrayBlockingQueue does: under the one lock, signal() with nobody waiting
     * only reads the condition's queue head (docs/benchmarks.md, "Why each kind waits as it
     * does"). Every state change is made under the lock the waiters re-check under, so no wake-up
     * can be lost; the waiter counts are the spinners' hint only (notFull's always, notEmpty's
     * with spin).
     *
     * Waiting is PARK by default because a consumer that spins takes each element at the producer's
     * heels, so the lock, the count and the cell cross between the CPUs for every element; a parked
     * consumer lets the producer fill the buffer alone while it wakes, and then drains it alone, as
     * in ArrayBlockingQueue (docs/data/twins-731c963.md). With spin, take() spins before the lock
     * while an opaque read of count says empty, put() while it says full, as the side's Spinner
     * allows and while no thread of its side is parked; the lock decides again. The spin only reads
     * count, so it does not fight the lock holder for the line. The timed offer and poll never
     * spin for an element or room, so that a timeout <= 0 never waits for one.
     *
     * A take or poll (timed or not) that finds the lock held while a producer waits for room
     * spins, in either mode, until the lock looks free, as its Spinner allows, and then takes it
     * (importance classes take from their class's core by poll). Producers waiting on a full
     * buffer mean that the consumers are what the queue waits for, and the holder is then most
     * likely a producer that was woken for one put, which holds the lock for a few hundred
     * nanoseconds: parking there would cost the consumer a wake-up that every waiting producer
     * waits out too (docs/benchmarks.md, the slow consumer). With no producer waiting, a take
     * that finds the lock held parks as in ArrayBlockingQueue, for the reason of the paragraph
     * above: a consumer that spun for every held lock would take at the producer's heels. The
     * spin reads the lock's state and notFull's count, and writes nothing; like any wait for the
     * lock, it may delay a poll with a timeout <= 0, never for an element.
     *
     * Close: the closed flag is written under lock, and every blocked thread rechecks it under lock
     * after each wake-up, so close() with a signal to all on both sides cannot be missed by a
     * thread that is about to wait (it either reads closed == true before waiting, or is already
     * in a condition's wait queue when the signal runs).
     *
     * Every operation asks the ReentryGuard before it takes the lock, as the guard's contract
     * says, so that the critical section, which every producer and consumer waits for, holds
     * only what the lock guards.
     *
     * Visibility between writers and readers is provided as follows: every access to items,
     * takeIndex, putIndex and count happens while holding lock (except the spinners' opaque reads
     * of count, which only decide how long to spin and are never acted on), so the unlock at the
     * end of a put happens-before the lock at the start of the take that removes its element.
     * closed is also volatile so that isClosed() can read it without the lock; the lock still
     * orders it against the buffer's state on every path that acts on it.
     */

    /** The cells. Invariant: exactly the count cells from takeIndex on are non-null. */
    private final Object[] items;

    /** Cell of the next take. Guarded by lock. */
    private int takeIndex;

    /** Cell of the next put. Guarded by lock. Invariant: (takeIndex + count) mod items.length. */
    private int putIndex;

    /** Elements inside, 0 to items.length. Guarded by lock; written opaque for the spinners (setCount). */
    private int count;

    /** Set once by close(), under lock; volatile for isClosed(). */
    private volatile boolean closed;

    /** Guards every field above. */
    private final ReentrantLock lock = new ReentrantLock();

    /** Refuses calls from the code that drainTo, remove and contains run under lock. */
    private final ReentryGuard reentry = new ReentryGuard(lock);

    /** Consumers waiting while the buffer is empty; signalled on every insert. */
    private final Waiters notEmpty;

    /** Producers waiting while the buffer is full; signalled on every removal. */
    private final Waiters notFull;

    /** The consumers' and the producers' re-checks, read under lock. */
    private final BooleanSupplier stillEmpty, stillFull;

    /** Whether take() and put() may spin before they take the lock to wait. */
    private final boolean spin;

    /** One per side, used only with spin, which keeps looking (Spinner.latencyFirst): see spinWhileCountIs. */
    private final Spinner takeSpinner = Spinner.latencyFirst(), putSpinner = Spinner.latencyFirst();

    /** A take's spin for a lock held while producers wait, in either mode: spinForLockWhileProducersWait. */
    private final Spinner lockSpinner = new Spinner();

    private final Counters counters;

    private static final VarHandle COUNT, TAKE_INDEX;

    /** The cells, read without the lock only by oldestStamp. */
    private static final VarHandle ITEMS = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(LockCore.class, "count", int.class);
            TAKE_INDEX = MethodHandles.lookup().findVarHandle(LockCore.class, "takeIndex", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * @param capacity the number of cells, checked by the caller
     * @param spin whether put() and take() may spin before they wait
     * @param counters where to count inserts, removals and waits
     * @param owner the buffer, named when a thread parks
     */
    public LockCore(int capacity, boolean spin, Counters counters, Object owner) {
        this.items = new Object[capacity];
        this.stillEmpty = () -> count == 0;
        this.stillFull = () -> count == items.length;
        this.spin = spin;
        this.counters = counters;
        this.notEmpty = Waiters.signalledUnderLock(lock, Parking.TAKE, owner, spin); // counted for the spinners
        this.notFull = Waiters.signalledUnderLock(lock, Parking.PUT, owner, true); // counted for both spins
    }

    // ---- the cell operations everything else is built on; call only when holding lock ----

    /** Inserts at putIndex. Call only when holding lock, with count < items.length. */
    private void enqueue(E e) {
        // assert lock.isHeldByCurrentThread() && count < items.length;
        items[putIndex] = e;
        putIndex = next(putIndex);
        setCount(count + 1);
        counters.countInsert();
        notEmpty.signalOneHeldAlways(); // unconditionally, as ArrayBlockingQueue: see the notes
    }

    /** Removes from takeIndex. Call only when holding lock, with count > 0. */
    private E dequeue() {
        // assert lock.isHeldByCurrentThread() && count > 0;
        @SuppressWarnings("unchecked")
        E e = (E) items[takeIndex];
        items[takeIndex] = null;
        takeIndex = next(takeIndex);
        setCount(count - 1);
        counters.countRemoval();
        notFull.signalOneHeldAlways(); // unconditionally, as ArrayBlockingQueue: see the notes
        return e;
    }

    /**
     * The cell of the first element from takeIndex on that match accepts, or -1. Call only when
     * holding lock; match is the caller's code, which may not call back in (ReentryGuard).
     */
    private int indexOfFirst(Predicate<Object> match) {
        for (int i = 0, k = takeIndex; i < count; i++, k = next(k)) {
            if (reentry.test(match, items[k])) {
                return k;
            }
        }
        return -1;
    }

    /** Writes count. Call only when holding lock. */
    private void setCount(int n) {
        // opaque: read without the lock only by the spinners, as a hint (pairs with getOpaque in
        // spinWhileCountIs); the lock orders everything else
        COUNT.setOpaque(this, n);
    }

    private int next(int index) {
        return ++index == items.length ? 0 : index;
    }

    /** Spins while count reads blocked (0 for a take, full for a put), as the notes say. No lock. */
    private void spinWhileCountIs(int blocked, Spinner spinner, Waiters side) {
        if (countIs(this, blocked) && !side.any()) { // blocked, and no thread of the side parked ahead of this one
            spinner.spinUntil(this, blocked, LockCore::countMoved, LockCore::isClosed);
        }
    }

    private static boolean countIs(LockCore<?> core, long n) {
        return (int) COUNT.getOpaque(core) == n; // pairs with setOpaque in setCount
    }

    /** The spin's condition: count no longer reads blocked. */
    private static boolean countMoved(LockCore<?> core, long blocked) {
        return !countIs(core, blocked);
    }

    /** Whether the core is closed (volatile), which ends a spin. */
    private static boolean isClosed(LockCore<?> core, long unused) {
        return core.closed;
    }

    /**
     * Before a take or poll takes the lock: while a producer waits for room and the lock is held,
     * spins until the lock is free, as lockSpinner allows (see the notes). No lock.
     */
    private void spinForLockWhileProducersWait() {
        // both volatile reads, both hints: the lock decides
        if (notFull.any() && lock.isLocked()) {
            lockSpinner.spinUntil(lock, 0L, (held, unused) -> !held.isLocked()); // a read: no CAS on the lock's line until it looks free
        }
    }

    // ---- inserting ----

    @Override
    public boolean offer(E e) {
        reentry.check();
        lock.lock();
        try {
            if (closed || count == items.length) {
                return false; // closed: refused, and the element stays with the caller
            }
            enqueue(e);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean put(E e) throws InterruptedException {
        if (spin) {
            spinWhileCountIs(items.length, putSpinner, notFull);
        }
        return insert(e, false, 0L);
    }

    @Override
    public boolean offer(E e, long nanos) throws InterruptedException {
        return insert(e, true, nanos);
    }

    /** Inserts e once there is room; false when closed, or timed and the time ran out. */
    private boolean insert(E e, boolean timed, long nanos) throws InterruptedException {
        reentry.check();
        lock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            while (!closed && count == items.length) {
                if (timed && nanos <= 0L) {
                    return false;
                }
                counters.producerWait();
                nanos = notFull.await(stillFull, timed, nanos);
            }
            if (closed) {
                return false; // also when woken by close(): the element stays with the caller
            }
            enqueue(e);
            return true;
        } finally {
            lock.unlock();
        }
    }

    // ---- removing ----

    @Override
    public E poll() {
        reentry.check();
        spinForLockWhileProducersWait();
        lock.lock();
        try {
            return count == 0 ? null : dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public E take() throws InterruptedException {
        if (spin) {
            spinWhileCountIs(0, takeSpinner, notEmpty);
        }
        return remove(false, 0L);
    }

    @Override
    public E poll(long nanos) throws InterruptedException {
        return remove(true, nanos);
    }

    /** Removes the oldest element once there is one; null when closed and empty, or timed out. */
    private E remove(boolean timed, long nanos) throws InterruptedException {
        reentry.check();
        spinForLockWhileProducersWait();
        lock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            while (count == 0) {
                if (closed || (timed && nanos <= 0L)) {
                    return null; // closed and empty under lock: final
                }
                counters.consumerWait();
                nanos = notEmpty.await(stillEmpty, timed, nanos);
            }
            return dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        reentry.check();
        lock.lock();
        try {
            int moved = 0;
            while (moved < maxElements && count > 0) {
                @SuppressWarnings("unchecked")
                E e = (E) items[takeIndex];
                reentry.add(target, e); // if this throws, e is still inside: nothing is lost
                dequeue();
                moved++;
            }
            return moved;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean removeFirst(Predicate<Object> match) {
        reentry.check();
        lock.lock();
        try {
            int k = indexOfFirst(match);
            if (k < 0) {
                return false;
            }
            removeAt(k);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int removeMatching(Predicate<Object> match) {
        reentry.check();
        lock.lock();
        try {
            boolean[] doomed = new boolean[count];
            int n = 0;
            // Ask about every element before changing anything: if match throws, nothing moved.
            for (int i = 0, k = takeIndex; i < count; i++, k = next(k)) {
                if (match.test(items[k])) {
                    doomed[i] = true;
                    n++;
                }
            }
            if (n > 0) {
                compact(doomed, n);
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes the n elements whose positions from takeIndex are marked in doomed, moving the
     * others toward takeIndex in order. Call only when holding lock.
     */
    private void compact(boolean[] doomed, int n) {
        // assert lock.isHeldByCurrentThread() && doomed.length == count;
        int to = takeIndex;
        for (int i = 0, from = takeIndex; i < doomed.length; i++, from = next(from)) {
            if (!doomed[i]) {
                items[to] = items[from];
                to = next(to);
            }
        }
        putIndex = to;
        for (int i = 0; i < n; i++, to = next(to)) {
            items[to] = null; // the freed cells: nothing given out stays reachable from here
        }
        setCount(count - n);
        counters.countRemovals(n);
        for (int i = 0; i < n; i++) {
            notFull.signalOneHeldAlways(); // one producer per freed cell
        }
    }

    /** Removes the element in cell k, closing the gap. Call only when holding lock. */
    private void removeAt(int k) {
        // assert lock.isHeldByCurrentThread() && items[k] != null;
        if (k == takeIndex) {
            dequeue();
            return;
        }
        for (int from = next(k); from != putIndex; k = from, from = next(from)) {
            items[k] = items[from];
        }
        items[k] = null;
        putIndex = k;
        setCount(count - 1);
        counters.countRemoval();
        notFull.signalOneHeldAlways();
    }

    @Override
    public void clear() {
        reentry.check();
        lock.lock();
        try {
            while (count > 0) {
                dequeue();
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- looking ----

    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        reentry.check();
        lock.lock();
        try {
            return (E) items[takeIndex]; // null exactly when count == 0
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads takeIndex, count and the cells without the lock, each with an opaque read: a racy
     * read, which may see a stale index and so an element just taken, or a cell just cleared.
     */
    @Override
    public long oldestStamp(ToLongFunction<Object> stampOf) {
        int n = Math.min((int) COUNT.getOpaque(this), items.length);
        for (int i = 0, k = (int) TAKE_INDEX.getOpaque(this); i < n; i++, k = next(k)) {
            Object e = ITEMS.getOpaque(items, k);
            long stamp = e == null ? Long.MAX_VALUE : stampOf.applyAsLong(e);
            if (stamp != Long.MAX_VALUE) {
                return stamp;
            }
        }
        return Long.MAX_VALUE;
    }

    @Override
    public boolean contains(Object o) {
        reentry.check();
        lock.lock();
        try {
            return indexOfFirst(o::equals) >= 0;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Object[] toArray() {
        reentry.check();
        lock.lock();
        try {
            Object[] copy = new Object[count];
            for (int i = 0, k = takeIndex; i < count; i++, k = next(k)) {
                copy[i] = items[k];
            }
            return copy;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int remainingCapacity() {
        lock.lock();
        try {
            return items.length - count;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int capacity() {
        return items.length;
    }

    // ---- closing ----

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            notEmpty.signalAllHeld(); // consumers: take what is left, or see closed-and-empty
            notFull.signalAllHeld();  // producers: put refused, the timed offer returns false
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
