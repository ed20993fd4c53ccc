/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.linked;

import dev.handoff.internal.guard.ReentryGuard;
import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Waiters;

import java.util.Collection;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The algorithm of the lock-split queue: a {@link ChunkedList} with one lock for producers and
 * another for consumers, so that a put and a take run in parallel except when the queue is empty
 * or full. {@code dev.handoff.LockSplitQueue} is a thin {@link java.util.concurrent.BlockingQueue}
 * over it, as {@code CircularBuffer} is over its core: the queue checks the arguments (every
 * element non-null, a drain's target neither null nor the queue and {@code maxElements > 0},
 * {@code contains}' argument non-null, the capacity positive, a timeout in nanoseconds) and turns
 * this core's answers into the {@code Handoff} contract's exceptions; this core never throws them.
 * <ul>
 *   <li>{@link #offer(Object)}, {@link #put} and {@link #offer(Object, long)} return {@code false}
 *       when the core is closed (before or while they wait), and the element stays with the
 *       caller; {@code put} returns {@code false} for no other reason.</li>
 *   <li>{@link #take} returns {@code null} exactly when the core is closed and empty, which is
 *       final; {@link #poll(long)} when the time ran out or it is closed and empty;
 *       {@link #poll()} when it is empty at some instant.</li>
 * </ul>
 *
 * <p>A thread that finds the queue empty (to take) or full (to put) parks at once and is woken
 * by the put or take that changes that, or by a thread of its own side that proceeded and left
 * more. The code the core calls while it holds a lock (a drain target's {@code add}, the
 * {@code test} of a predicate) must not use the queue: a call back into the core throws
 * {@link IllegalStateException}, and the operation it was called from changes nothing more.
 *
 * @param <E> the type of elements held
 */
public final class LockSplitCore<E> {
    /*
     * Implementation notes.
     *
     * The two-lock queue of Michael and Scott ("Simple, fast, and practical non-blocking and
     * blocking concurrent queue algorithms", PODC 1996), bounded as
     * java.util.concurrent.LinkedBlockingQueue is, but with a count per end instead of one
     * shared count; the lock-split server design of Roussev and Wu ("Client-server design
     * alternatives: back to pipes but with threads", ICN 2001, section 3.4). The list is a
     * ChunkedList, a chain of array chunks whose notes give its invariants, the counting per end,
     * the layout, the visibility of elements and the recycling of chunks. This class adds the
     * locks that guard the ends, the waiting and the closing.
     *
     * Signalling. A producer holds only putLock and a consumer only takeLock, so each signals the
     * other side by briefly taking the other lock. Neither side knows, without reading the other's
     * line, whether its insert or removal was the one that ended emptiness or fullness; so each
     * side counts its parked threads (class Waiters: notEmpty, notFull) and the other side
     * takes the lock to signal only when that count is positive. The state change is the volatile
     * write of the end's count, which precedes the other side's read of the waiter count; a waiter
     * counts itself and then re-reads the other end's count (volatile) before it parks: the Dekker
     * handshake whose proof is in Waiters. Both sides wake one thread per burst
     * (Waiters.oneWakeUpPerBurst): while a woken thread is on its way, no further signal is sent,
     * and a thread that proceeds passes the wake-up on (a put that leaves room to the next
     * waiting producer, a take that leaves elements to the next waiting consumer), re-reading the
     * other end's count when its copy says nothing is left, as the burst rule requires.
     *
     * No spinning before parking, unlike the other kinds (class Spinner). A consumer that spins
     * while the queue is empty works at the producer's heels, and every element's slot and count
     * cross between the CPUs; one that parks lets the producer run ahead, then drains the run it
     * linked meanwhile, paying one wake-up per run (docs/benchmarks.md, "Why each kind waits as
     * it does"). The price is latency, as in LinkedBlockingQueue.
     *
     * This object's own fields are written once (closed, at close) or never; the list's two ends
     * are on cache lines of their own.
     *
     * Close. closed is written under putLock, and producers read it under putLock, so an insert
     * either completed before the close or sees it. Consumers read closed before puts: a consumer
     * that reads closed == true then sees every increment of puts by the inserts that completed
     * before the close (they happen-before the write of closed through putLock), so it reports
     * "closed and empty" only when that is true. close() then signals all waiters on both sides,
     * each under its own lock, so a thread between its check and its await cannot miss it.
     */

    /** The bound. */
    private final int capacity;

    /** The elements; its put end is guarded by putLock, its take end by takeLock. */
    private final ChunkedList<E> list;

    /** Set once by close(), under putLock; volatile so that consumers and isClosed() see it. */
    private volatile boolean closed;

    /** Held by take, poll and every removal. */
    private final ReentrantLock takeLock;

    /** Refuses calls from the code that drainTo and the removals by predicate run under takeLock. */
    private final ReentryGuard reentry;

    /** Consumers parked on takeLock while the queue is empty, woken one per burst (notes). */
    private final Waiters notEmpty;

    /** Held by put, offer and every insert. */
    private final ReentrantLock putLock;

    /** Producers parked on putLock while the queue is full, woken one per burst (notes). */
    private final Waiters notFull;

    /**
     * The waiters' re-checks after counting themselves: volatile reads of both ends' counts (and
     * of closed), never a side's copy.
     */
    private final BooleanSupplier stillFull;
    private final BooleanSupplier stillEmpty;

    /** Where the core counts its inserts, removals and waits. */
    private final Counters counters;

    /**
     * @param capacity the bound, positive (checked by the caller)
     * @param counters where to count inserts, removals and waits
     * @param owner the queue, named when a thread parks
     */
    public LockSplitCore(int capacity, Counters counters, Object owner) {
        this.capacity = capacity;
        this.counters = counters;
        // Each side's lock is allocated with its own waiters, consumers' then producers', as the
        // two-lock queue's fields were laid out when it was measured (the layout is the JVM's).
        this.takeLock = new ReentrantLock();
        this.reentry = new ReentryGuard(takeLock);
        this.notEmpty = Waiters.oneWakeUpPerBurst(takeLock, Parking.TAKE, owner);
        this.putLock = new ReentrantLock();
        this.notFull = Waiters.oneWakeUpPerBurst(putLock, Parking.PUT, owner);
        this.list = new ChunkedList<>(capacity);
        this.stillFull = list::isFullNow;
        this.stillEmpty = () -> list.isEmptyNow() && !closed;
    }

    /**
     * Takes both locks, putLock first, after refusing a call back from drainTo's target, which
     * holds takeLock: taking putLock then would invert the order and could deadlock.
     */
    private void fullyLock() {
        reentry.check();
        putLock.lock();
        takeLock.lock();
    }

    private void fullyUnlock() {
        takeLock.unlock();
        putLock.unlock();
    }

    // ---- inserting: false when closed ----

    /** Inserts e if there is room now and the core is open; {@code false} when full or closed. */
    public boolean offer(E e) {
        reentry.check(); // before putLock: a drainTo target holds takeLock (see fullyLock)
        putLock.lock();
        try {
            if (closed || list.room() == 0) {
                return false; // closed: refused, and the element stays with the caller
            }
            insert(e);
        } finally {
            putLock.unlock();
        }
        afterInsert();
        return true;
    }

    /** Inserts e, waiting for room while the core is full; {@code false} only when closed. */
    public boolean put(E e) throws InterruptedException {
        reentry.check(); // before putLock: a drainTo target holds takeLock (see fullyLock)
        putLock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            while (!closed && list.room() == 0) {
                awaitNotFull(false, 0L);
            }
            if (closed) {
                return false; // the caller throws, holding no lock of this core
            }
            insert(e);
        } finally {
            putLock.unlock();
        }
        afterInsert();
        return true;
    }

    /**
     * Inserts e, waiting at most nanos for room; never waits when {@code nanos <= 0}. Returns
     * {@code false} when the time ran out or the core is closed.
     */
    public boolean offer(E e, long nanos) throws InterruptedException {
        reentry.check(); // before putLock: a drainTo target holds takeLock (see fullyLock)
        putLock.lockInterruptibly();
        try {
            while (!closed && list.room() == 0) {
                if (nanos <= 0L) {
                    return false;
                }
                nanos = awaitNotFull(true, nanos);
            }
            if (closed) {
                return false; // also when woken by close(): the element stays with the caller
            }
            insert(e);
        } finally {
            putLock.unlock();
        }
        afterInsert();
        return true;
    }

    /** Stores e and counts it. Call only when holding putLock, with room() > 0. */
    private void insert(E e) {
        list.put(e); // its write of puts publishes e, and precedes the waiter reads below
        counters.countInsert();
        // the waiter count is stable under putLock; room() re-reads takes if the copy says full
        if (notFull.any() && list.room() > 0) {
            notFull.signalOneHeld(); // pass the wake-up on: room for the next waiting one
        }
    }

    /** Called after releasing putLock: wakes a consumer if one is parked and none on its way. */
    private void afterInsert() {
        notEmpty.signalOne(); // after the write of puts in insert(), as Waiters requires
    }

    /**
     * Parks until signalled (for at most nanos when timed), announcing the wait first; returns
     * the time left. Call only when holding putLock, having seen the queue full; the caller
     * re-checks.
     */
    private long awaitNotFull(boolean timed, long nanos) throws InterruptedException {
        counters.producerWait();
        return notFull.await(stillFull, timed, nanos);
    }

    // ---- removing: null when there is nothing ----

    /** Removes the first element, or returns {@code null} if the core was empty at some instant. */
    public E poll() {
        if (list.looksEmpty()) {
            return null; // no lock when plainly empty
        }
        E e;
        reentry.check();
        takeLock.lock();
        try {
            if (list.available() == 0) {
                return null;
            }
            e = list.take();
            extract();
        } finally {
            takeLock.unlock();
        }
        afterExtract();
        return e;
    }

    /** Removes the first element, waiting while empty and open; {@code null} exactly when closed and empty. */
    public E take() throws InterruptedException {
        return awaitAndTake(false, 0L);
    }

    /**
     * Removes the first element, waiting at most nanos; never waits when {@code nanos <= 0}.
     * Returns {@code null} when the time ran out or the core is closed and empty.
     */
    public E poll(long nanos) throws InterruptedException {
        return awaitAndTake(true, nanos);
    }

    private E awaitAndTake(boolean timed, long nanos) throws InterruptedException {
        E e = null;
        reentry.check();
        takeLock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            if (awaitNotEmpty(timed, nanos)) {
                e = list.take();
                extract();
            }
        } finally {
            takeLock.unlock();
        }
        if (e != null) {
            afterExtract();
        }
        return e;
    }

    /**
     * Waits until an element is there to take: true then; false once the queue is closed and
     * drained, or when timed and nanos ran out. Announces each park. Call only when holding
     * takeLock.
     */
    private boolean awaitNotEmpty(boolean timed, long nanos) throws InterruptedException {
        while (list.available() == 0) {
            if (timed && nanos <= 0L || closed && list.available() == 0) { // closed first: see "Close"
                return false; // timed out, or closed and drained
            }
            counters.consumerWait();
            nanos = notEmpty.await(stillEmpty, timed, nanos);
        }
        return true;
    }

    /** Counts one removal. Call only when holding takeLock, right after list.take(). */
    private void extract() {
        counters.countRemoval();
        // the waiter count is stable under takeLock; available() re-reads puts if the copy is used
        if (notEmpty.any() && list.available() > 0) {
            notEmpty.signalOneHeld(); // pass the wake-up on: elements for the next waiting one
        }
    }

    /** Called after releasing takeLock: wakes a producer if one is parked and none on its way. */
    private void afterExtract() {
        notFull.signalOne(); // after the write of takes in list.take(), as Waiters requires
    }

    /**
     * Moves at most maxElements (positive) of the first elements to target, in order. If target's
     * {@code add} throws, the element it was given is still first, and the exception is relayed.
     *
     * @return how many elements were moved
     */
    public int drainTo(Collection<? super E> target, int maxElements) {
        long removed;
        reentry.check();
        takeLock.lock();
        long takesBefore = list.takes();
        try {
            return list.drainTo(target, maxElements, reentry);
        } finally {
            removed = list.takes() - takesBefore; // also when the target threw midway
            counters.countRemovals(removed);
            takeLock.unlock();
            if (removed > 0) { // room was made, whether or not the target threw: a waiting producer may go
                notFull.signalOne(); // after the write of takes above, as Waiters requires
            }
        }
    }

    /** Removes the first element for which match holds; whether one was removed. */
    public boolean removeFirst(Predicate<Object> match) {
        return removeWhere(match, 1) == 1;
    }

    /**
     * Removes every element for which match holds, asking match once per element; how many. If
     * match throws, what it accepted before is removed and the exception is relayed.
     */
    public int removeMatching(Predicate<Object> match) {
        return removeWhere(match, Integer.MAX_VALUE);
    }

    /**
     * Removes the first {@code limit} elements that match, closing the gaps (see
     * ChunkedList.removeWhere), and counts what it removed, also when match throws.
     */
    private int removeWhere(Predicate<Object> match, int limit) {
        fullyLock();
        long takesBefore = list.takes();
        try {
            return list.removeWhere(match, limit, reentry);
        } finally {
            int removed = (int) (list.takes() - takesBefore); // the list counts them out as taken
            if (removed > 0) {
                counters.countRemovals(removed);
                notFull.signalOneHeld(); // insert() passes the wake-up on to the others room was made for
            }
            fullyUnlock();
        }
    }

    /** Removes every element, counting each as a removal. */
    public void clear() {
        fullyLock();
        try {
            int removed = list.clear(); // counted out as taken: as in list.take()
            counters.countRemovals(removed);
            if (removed > 0) {
                notFull.signalAllHeld();
            }
        } finally {
            fullyUnlock();
        }
    }

    // ---- looking ----

    /** The first element, or {@code null} if empty. */
    public E peek() {
        if (list.looksEmpty()) {
            return null;
        }
        takeLock.lock();
        try {
            return list.available() > 0 ? list.first() : null;
        } finally {
            takeLock.unlock();
        }
    }

    /** The stamp of the first element that has one, read without either lock (ChunkedList.oldestStamp). */
    public long oldestStamp(ToLongFunction<Object> stampOf) {
        return list.oldestStamp(stampOf);
    }

    /** Whether an element equal to o (non-null) is inside. */
    public boolean contains(Object o) {
        fullyLock();
        try {
            return list.contains(o);
        } finally {
            fullyUnlock();
        }
    }

    /** A consistent copy of the elements, first to last. */
    public Object[] toArray() {
        fullyLock();
        try {
            return list.toArray();
        } finally {
            fullyUnlock();
        }
    }

    /** The number of elements inside, read without a lock. */
    public int size() {
        return list.size();
    }

    /** {@link #capacity()} less {@link #size()}. */
    public int remainingCapacity() {
        return capacity - size();
    }

    /** The bound; fixed. */
    public int capacity() {
        return capacity;
    }

    // ---- closing ----

    /**
     * Closes the core to inserts and wakes every waiting thread: a waiting insert returns
     * {@code false}, a waiting take takes what is left and then returns {@code null}. Idempotent.
     */
    public void close() {
        reentry.check(); // before putLock, as in fullyLock
        putLock.lock();
        try {
            closed = true;               // under putLock: an insert finished before this, or sees it
            notFull.signalAllHeld();     // producers: put returns false, the timed offer too
        } finally {
            putLock.unlock();
        }
        notEmpty.signalAll();            // consumers: take what is left, or see closed-and-empty
    }

    /** Whether {@link #close()} has been called: a volatile read. */
    public boolean isClosed() {
        return closed;
    }
}
