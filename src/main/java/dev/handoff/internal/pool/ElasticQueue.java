/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pool;

import dev.handoff.Handoff;
import dev.handoff.HandoffSpec;
import dev.handoff.HandoffStats;

import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.Spliterator;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The work queue of an {@link ElasticPool}: a handoff whose {@link #offer(Object)} hands a task
 * straight to a pool thread that waits for one and refuses it when none waits, so that
 * {@link java.util.concurrent.ThreadPoolExecutor} starts a new thread instead of queueing while
 * it is below its maximum size. The handoff holds only the tasks queued at the maximum
 * ({@link #offerAtMaximum}) and those inserted by the other inserts ({@code put}, the timed
 * {@code offer}, {@code add}, {@code addAll}), which go straight to it and then wake a waiting
 * thread, if one waits, to take what they inserted. A thread waits in {@link #take()},
 * {@link #poll(long, TimeUnit)} or {@link #take(long, TimeUnit)}: it takes from the handoff, and
 * while the handoff is empty it parks until a task is handed to it, something is inserted, the
 * queue is closed, the time runs out or it is interrupted. Every other method is the handoff's
 * own, and {@code size()}, {@code isEmpty()} and the rest count only what the handoff holds: a
 * task handed to a thread is with that thread.
 *
 * <p>Close the queue through {@link #close()}, which wakes the waiting threads so that they
 * wait as the handoff's rules for a closed handoff say; once closed, {@code offer} hands nothing
 * over.
 *
 * <p>Memory consistency: actions in a thread before it inserts or hands over a task
 * happen-before the actions that follow the task's removal in the thread that takes it.
 *
 * @param <E> the element type: the pool's tasks
 */
public final class ElasticQueue<E> implements Handoff<E> {
    /*
     * Growth before queueing, the technique of Tomcat's TaskQueue and Elasticsearch's
     * ExecutorScalingQueue, with the hand-over to a parked thread of JBoss Threads'
     * EnhancedQueueExecutor. Once its core threads exist, ThreadPoolExecutor.execute offers a task
     * to its queue and starts a thread beyond the core only when that offer fails. So offer
     * succeeds only by handing the task to a parked thread (IdleThreads.handTo): a CAS on that
     * thread's waiter and an unpark, no lock, and the woken thread runs the task without going
     * back to the handoff. With no thread parked, offer refuses: the task gets a new thread while
     * the pool is below its maximum; at the maximum the pool hands it to its
     * RejectedExecutionHandler, ElasticPool's, which calls offerAtMaximum: hand over if a thread
     * parked meanwhile, else insert into the handoff, and pass the task to the user's handler only
     * if the handoff refuses it too (full or closed) or the pool is shut down.
     *
     * A thread that waits (awaitTask) polls the handoff; only if it finds nothing does it push a
     * waiter, re-check the handoff (isEmpty) and park. Every insert into the handoff is followed
     * by wakeAfterInsert: a full fence and a wake-up of one parked thread, if any. That is the
     * store-buffering (Dekker) pattern:
     *
     *   inserter:  insert into handoff;  fullFence;  read top of the idle stack
     *   waiter:    push onto idle stack; fullFence;  handoff.isEmpty()
     *
     * With a full fence between each side's write and its read, the two reads cannot both miss
     * the other side's write, whatever accesses the handoff uses inside. So either the inserter
     * sees the waiter (and wakes it, or another that parked later, which then polls) or the
     * waiter sees the element (it cancels its waiter and polls again). Invariant: while the
     * handoff holds an element, some pool thread is running (it polls before it parks again) or
     * is woken or about to be; a pool left without threads is covered by ElasticPool's recheck.
     * A woken thread that finds the element already taken parks again: a wake-up is a hint. A
     * round of awaitTask that sees isEmpty() false and then poll() null lost the element to
     * another consumer, so the loop never waits for another thread without parking (the
     * handoff's poll itself waits out an insert under way, as its kind says).
     *
     * Direct hand-over bypasses the handoff's order, importance classes included, but only while
     * a thread is parked, that is while the handoff was just seen empty by that thread.
     *
     * Close: close() closes the handoff, fences, and wakes every parked thread; a waiter re-checks
     * isClosed() after its push and fence, so a close is not missed. A thread that finds the
     * handoff closed and empty waits in the handoff's own take or poll, whose rules for a closed
     * handoff (a pool's own take waits until interrupted, the timed poll waits out its time,
     * take(timeout) throws) are the handoff's.
     */

    /** How a thread waits: each of take, the timed poll and the timed take. */
    private enum Wait {
        TAKE, POLL, TAKE_TIMED
    }

    private final Handoff<E> handoff;

    /** The threads parked in take, poll(timeout) or take(timeout), each waiting for a task. */
    private final IdleThreads idle = new IdleThreads();

    /**
     * @param handoff the handoff that holds the tasks
     * @throws NullPointerException if handoff is null
     */
    public ElasticQueue(Handoff<E> handoff) {
        this.handoff = Objects.requireNonNull(handoff, "handoff");
    }

    /**
     * Hands e to a thread that is parked in {@code take()}, the timed {@code poll} or the timed
     * {@code take}, if one is and the handoff is open; returns {@code false} otherwise, so that the
     * pool starts a thread for it (or, at its maximum, calls its handler). It never inserts e into
     * the handoff.
     */
    @Override
    public boolean offer(E e) {
        Objects.requireNonNull(e);
        return idle.any() && !handoff.isClosed() && idle.handTo(e);
    }

    /**
     * Hands e to a parked thread if one is parked, else inserts it if the handoff has room: the
     * pool's handler calls it once the pool is at its maximum size. Returns {@code false} if the
     * handoff is closed, or full and no thread is parked.
     */
    public boolean offerAtMaximum(E e) {
        Objects.requireNonNull(e);
        if (handoff.isClosed()) {
            return false;
        }
        if (idle.handTo(e)) {
            return true;
        }
        if (!handoff.offer(e)) {
            return false;
        }
        wakeAfterInsert();
        return true;
    }

    /** After an insert into the handoff: wakes a parked thread, if any, to take it (see the notes). */
    private void wakeAfterInsert() {
        VarHandle.fullFence(); // between the insert and the read of the idle stack: pairs with the fence in awaitTask
        if (idle.any()) {
            idle.wakeOne();
        }
    }

    @Override
    public E take() throws InterruptedException {
        return awaitTask(Wait.TAKE, 0L);
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        return awaitTask(Wait.POLL, unit.toNanos(timeout));
    }

    @Override
    public E take(long timeout, TimeUnit unit) throws InterruptedException {
        return awaitTask(Wait.TAKE_TIMED, unit.toNanos(timeout));
    }

    /**
     * Takes from the handoff, parking while it is empty until a task is handed over, something is
     * inserted, the queue closes, the time runs out (not for TAKE) or the thread is interrupted.
     */
    @SuppressWarnings("unchecked")
    private E awaitTask(Wait how, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        boolean timed = how != Wait.TAKE;
        if (timed && nanos <= 0L) { // never waits; and a deadline of now + Long.MIN_VALUE would overflow
            E e = handoff.poll();
            return e != null || !handoff.isClosed() ? e : whenClosed(how, 0L);
        }
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        for (;;) {
            E e = handoff.poll();
            if (e != null) {
                return e;
            }
            if (handoff.isClosed()) {
                return whenClosed(how, timed ? deadline - System.nanoTime() : 0L);
            }
            if (timed && deadline - System.nanoTime() <= 0L) {
                return null;
            }
            IdleThreads.Waiter w = idle.push();
            VarHandle.fullFence(); // between the push and the re-check: pairs with the fence in wakeAfterInsert and close
            if ((!handoff.isEmpty() || handoff.isClosed()) && idle.cancel(w)) {
                continue; // something came, or the close: look again
            }
            Object x = idle.await(w, timed, deadline, this); // at once if w was filled before the cancel
            if (x != null && x != IdleThreads.WAKE) {
                return (E) x; // handed over by offer or offerAtMaximum
            }
            // woken to look again, or timed out (the loop polls once more before it returns null)
        }
    }

    /** The handoff's own wait on a closed handoff: its rules for a pool's thread and for others. */
    private E whenClosed(Wait how, long nanosLeft) throws InterruptedException {
        return switch (how) {
            case TAKE -> handoff.take();
            case POLL -> handoff.poll(Math.max(0L, nanosLeft), TimeUnit.NANOSECONDS);
            case TAKE_TIMED -> handoff.take(Math.max(0L, nanosLeft), TimeUnit.NANOSECONDS);
        };
    }

    // ---- the rest is the handoff's ----

    private <C> C notThis(C c) {
        if (c == this) {
            throw new IllegalArgumentException("cannot move a handoff's elements into itself");
        }
        return c;
    }

    @Override
    public int take(Collection<? super E> into, int max) throws InterruptedException {
        return handoff.take(notThis(into), max);
    }

    @Override
    public int poll(Collection<? super E> into, int max, long timeout, TimeUnit unit) throws InterruptedException {
        return handoff.poll(notThis(into), max, timeout, unit);
    }

    @Override
    public int drainTo(Collection<? super E> c) {
        return handoff.drainTo(notThis(c));
    }

    @Override
    public int drainTo(Collection<? super E> c, int maxElements) {
        return handoff.drainTo(notThis(c), maxElements);
    }

    @Override
    public boolean addAll(Collection<? extends E> c) {
        try {
            return handoff.addAll(notThis(c));
        } finally {
            wakeAfterInsert(); // also when it threw part way: what it inserted stays inside
            for (int i = 1, n = c.size(); i < n && idle.any() && idle.wakeOne(); i++) {
                // one more thread per further element, while any waits
            }
        }
    }

    @Override
    public boolean add(E e) {
        handoff.add(e);
        wakeAfterInsert();
        return true;
    }

    @Override
    public void put(E e) throws InterruptedException {
        handoff.put(e);
        wakeAfterInsert();
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        if (!handoff.offer(e, timeout, unit)) {
            return false;
        }
        wakeAfterInsert();
        return true;
    }

    @Override
    public E poll() {
        return handoff.poll();
    }

    @Override
    public E remove() {
        return handoff.remove();
    }

    @Override
    public E element() {
        return handoff.element();
    }

    @Override
    public E peek() {
        return handoff.peek();
    }

    @Override
    public boolean remove(Object o) {
        return handoff.remove(o);
    }

    @Override
    public boolean contains(Object o) {
        return handoff.contains(o);
    }

    @Override
    public boolean containsAll(Collection<?> c) {
        return handoff.containsAll(c);
    }

    @Override
    public boolean removeAll(Collection<?> c) {
        return handoff.removeAll(c);
    }

    @Override
    public boolean retainAll(Collection<?> c) {
        return handoff.retainAll(c);
    }

    @Override
    public boolean removeIf(Predicate<? super E> filter) {
        return handoff.removeIf(filter);
    }

    @Override
    public void clear() {
        handoff.clear();
    }

    @Override
    public int size() {
        return handoff.size();
    }

    @Override
    public boolean isEmpty() {
        return handoff.isEmpty();
    }

    @Override
    public int remainingCapacity() {
        return handoff.remainingCapacity();
    }

    @Override
    public Iterator<E> iterator() {
        return handoff.iterator();
    }

    @Override
    public Spliterator<E> spliterator() {
        return handoff.spliterator();
    }

    @Override
    public Object[] toArray() {
        return handoff.toArray();
    }

    @Override
    public <T> T[] toArray(T[] a) {
        return handoff.toArray(a);
    }

    @Override
    public int capacity() {
        return handoff.capacity();
    }

    /**
     * {@return {@link Ordering#UNORDERED}, whatever the handoff's order}: a task handed to a
     * parked thread passes the tasks inside the handoff, so even one producer's tasks may be taken
     * out of the order it inserted them.
     */
    @Override
    public Ordering ordering() {
        return Ordering.UNORDERED;
    }

    /** Closes the handoff and wakes every parked thread, which then waits as the handoff's rules say. */
    @Override
    public void close() {
        handoff.close();
        VarHandle.fullFence(); // between the close and the read of the idle stack: pairs with the fence in awaitTask
        idle.wakeAll();
    }

    @Override
    public boolean isClosed() {
        return handoff.isClosed();
    }

    @Override
    public HandoffStats stats() {
        return handoff.stats();
    }

    @Override
    public HandoffSpec spec() {
        return handoff.spec();
    }

    @Override
    public String toString() {
        return handoff.toString();
    }
}
