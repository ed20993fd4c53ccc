/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import dev.handoff.HandoffClosedException;
import java.util.AbstractQueue;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The papers' shared buffer, kept as the historical baseline of the server experiment: a bounded
 * FIFO array guarded by one monitor, where every put and every take wakes <em>all</em> waiting
 * threads with {@code notifyAll()}. It lives here, beside the experiment, and not in the library,
 * because the library's blocking paths never use monitors.
 *
 * <p>It is a plain {@link BlockingQueue} (nulls rejected, timeouts {@code <= 0} never wait, an
 * interrupted caller of a blocking method gets {@link InterruptedException}), so the experiment can
 * put it behind a {@link java.util.concurrent.ThreadPoolExecutor} too. Like a handoff it can be
 * closed: after {@link #close()} inserts throw {@link HandoffClosedException}, consumers take what
 * is left, and then {@link #take()} throws {@link HandoffClosedException} and the timed
 * {@link #poll(long, TimeUnit)} returns {@code null}.
 *
 * @param <E> the type of elements held
 */
public final class MonitorBuffer<E> extends AbstractQueue<E> implements BlockingQueue<E>, AutoCloseable {
    /*
     * Implementation notes.
     *
     * The shared buffer of Roussev and Wu (2001) section 3.3 and Roussev and Wu (2006) section 3: an array and two indices
     * that walk it circularly, all under the buffer's own monitor. Java monitors have one wait
     * set, so producers waiting for room and consumers waiting for an element sleep together, and
     * a notify() could wake a thread of the wrong side; the papers therefore call notifyAll()
     * after every change, waking every sleeper although at most one can proceed (the "thundering
     * herd" Roussev and Wu (2006) blames for the buffer's cost). This class keeps exactly that, so that the
     * experiment measures it. Unlike the papers' appendix it waits in a loop (no wait(500) polling)
     * and tests and sets under one lock (no check-then-set race).
     *
     *        takeIndex              putIndex
     *            v                     v
     *   [ null | e1 | e2 | e3 | e4 | null | null ]     count == 4
     *
     * Invariants, all under the monitor: 0 <= count <= items.length; the count cells from
     * takeIndex on (mod length) hold the elements, every other cell is null;
     * putIndex == (takeIndex + count) mod length.
     *
     * Visibility between writers and readers is provided as follows: every field is read and
     * written only inside synchronized methods of this object, so the monitor exit at the end of
     * a put happens-before the monitor entry of the take that removes its element.
     */

    /** The cells. Guarded by this. */
    private final Object[] items;

    /** Cell of the next take. Guarded by this. */
    private int takeIndex;

    /** Cell of the next put. Guarded by this. */
    private int putIndex;

    /** Elements inside. Guarded by this. */
    private int count;

    /** Set once by close(). Guarded by this. */
    private boolean closed;

    /**
     * Creates an empty buffer.
     *
     * @param capacity the number of cells
     * @throws IllegalArgumentException if capacity is not positive
     */
    public MonitorBuffer(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be > 0, was " + capacity);
        }
        items = new Object[capacity];
    }

    /** Call only when holding this monitor, with count < items.length. */
    private void enqueue(E e) {
        items[putIndex] = e;
        putIndex = (putIndex + 1) % items.length;
        count++;
        notifyAll(); // the papers' wake-up: every sleeper, producers and consumers alike
    }

    /** Call only when holding this monitor, with count > 0. */
    private E dequeue() {
        @SuppressWarnings("unchecked")
        E e = (E) items[takeIndex];
        items[takeIndex] = null;
        takeIndex = (takeIndex + 1) % items.length;
        count--;
        notifyAll();
        return e;
    }

    private static void checkInterrupt() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    private void checkOpen() {
        // assert Thread.holdsLock(this);
        if (closed) {
            throw new HandoffClosedException("buffer closed");
        }
    }

    @Override
    public synchronized boolean offer(E e) {
        Objects.requireNonNull(e);
        checkOpen();
        if (count == items.length) {
            return false;
        }
        enqueue(e);
        return true;
    }

    @Override
    public synchronized void put(E e) throws InterruptedException {
        Objects.requireNonNull(e);
        checkInterrupt();
        while (count == items.length && !closed) {
            wait();
        }
        checkOpen();
        enqueue(e);
    }

    @Override
    public synchronized boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(e);
        checkInterrupt();
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (count == items.length && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        checkOpen();
        enqueue(e);
        return true;
    }

    @Override
    public synchronized E take() throws InterruptedException {
        checkInterrupt();
        while (count == 0 && !closed) {
            wait();
        }
        if (count == 0) {
            throw new HandoffClosedException("buffer closed and empty");
        }
        return dequeue();
    }

    @Override
    public synchronized E poll(long timeout, TimeUnit unit) throws InterruptedException {
        checkInterrupt();
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (count == 0 && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return count == 0 ? null : dequeue();
    }

    @Override
    public synchronized E poll() {
        return count == 0 ? null : dequeue();
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized E peek() {
        return (E) items[takeIndex];
    }

    @Override
    public synchronized int size() {
        return count;
    }

    @Override
    public synchronized int remainingCapacity() {
        return items.length - count;
    }

    @Override
    public int drainTo(Collection<? super E> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    @Override
    public synchronized int drainTo(Collection<? super E> c, int maxElements) {
        Objects.requireNonNull(c);
        if (c == this) {
            throw new IllegalArgumentException("cannot drain a buffer into itself");
        }
        int moved = 0;
        while (moved < maxElements && count > 0) {
            c.add(dequeue());
            moved++;
        }
        return moved;
    }

    /** Returns a snapshot iterator: it never throws ConcurrentModificationException. */
    @Override
    public Iterator<E> iterator() {
        return Arrays.asList(snapshot()).iterator();
    }

    @SuppressWarnings("unchecked")
    private synchronized E[] snapshot() {
        Object[] copy = new Object[count];
        for (int i = 0; i < count; i++) {
            copy[i] = items[(takeIndex + i) % items.length];
        }
        return (E[]) copy;
    }

    /** Closes the buffer to inserts and wakes every waiting thread. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        notifyAll();
    }
}
