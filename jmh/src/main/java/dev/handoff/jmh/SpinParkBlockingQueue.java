/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import java.lang.invoke.VarHandle;
import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jctools.queues.MpmcArrayQueue;

/**
 * JCTools' lock-free {@link MpmcArrayQueue} made blocking, the fastest peer of the scoreboard:
 * a thread that finds the queue empty (or full) spins, then yields, then parks on a condition;
 * the other side signals only when a waiter has announced itself.
 *
 * <p>A benchmark peer, not a library class: {@code iterator()} and {@code size()} are JCTools'
 * (weakly consistent, approximate), and there is no close.
 *
 * @param <E> the element type
 */
public final class SpinParkBlockingQueue<E> extends AbstractQueue<E> implements BlockingQueue<E> {
    /*
     * Implementation notes.
     *
     * A waiter announces itself (waitingConsumers/waitingProducers, an atomic increment, so a full
     * fence) and then re-polls under the lock before awaiting. The other side publishes its
     * element, then fullFence(), then reads the announcement; so either it sees the waiter and
     * signals under the lock (which the waiter holds until it awaits, so the signal cannot fall
     * between the re-poll and the await), or the waiter's re-poll sees the element (Dekker).
     */

    /** Polls before yielding, then yields before parking: a few microseconds of spinning. */
    private static final int SPINS = 256;
    private static final int YIELDS = 4;

    private final MpmcArrayQueue<E> queue;
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final AtomicInteger waitingConsumers = new AtomicInteger();
    private final AtomicInteger waitingProducers = new AtomicInteger();

    /**
     * @param capacity the bound; JCTools rounds it up to a power of two internally
     */
    public SpinParkBlockingQueue(int capacity) {
        this.queue = new MpmcArrayQueue<>(capacity);
        this.capacity = capacity;
    }

    @Override
    public boolean offer(E e) {
        Objects.requireNonNull(e);
        if (!queue.offer(e)) {
            return false;
        }
        wake(waitingConsumers, notEmpty);
        return true;
    }

    @Override
    public E poll() {
        E e = queue.poll();
        if (e != null) {
            wake(waitingProducers, notFull);
        }
        return e;
    }

    @Override
    public void put(E e) throws InterruptedException {
        offer(e, Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    }

    @Override
    public E take() throws InterruptedException {
        return poll(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(e);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        for (int i = 0; i < SPINS + YIELDS; i++) {
            if (offer(e)) {
                return true;
            }
            backOff(i);
        }
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        waitingProducers.incrementAndGet(); // full fence: pairs with fullFence() in wake()
        try {
            while (!queue.offer(e)) {
                if (nanos <= 0L) {
                    return false;
                }
                nanos = notFull.awaitNanos(nanos);
            }
        } finally {
            waitingProducers.decrementAndGet();
            lock.unlock();
        }
        wake(waitingConsumers, notEmpty);
        return true;
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        for (int i = 0; i < SPINS + YIELDS; i++) {
            E e = poll();
            if (e != null) {
                return e;
            }
            backOff(i);
        }
        long nanos = unit.toNanos(timeout);
        E e;
        lock.lockInterruptibly();
        waitingConsumers.incrementAndGet(); // full fence: pairs with fullFence() in wake()
        try {
            while ((e = queue.poll()) == null) {
                if (nanos <= 0L) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
        } finally {
            waitingConsumers.decrementAndGet();
            lock.unlock();
        }
        wake(waitingProducers, notFull);
        return e;
    }

    private static void backOff(int i) {
        if (i < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    /** After publishing a change, wakes one waiter of the other side if one announced itself. */
    private void wake(AtomicInteger waiting, Condition condition) {
        VarHandle.fullFence(); // the change before the read: pairs with incrementAndGet() of the waiter
        if (waiting.get() > 0) {
            lock.lock();
            try {
                condition.signal();
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public E peek() {
        return queue.peek();
    }

    @Override
    public int size() {
        return queue.size();
    }

    @Override
    public int remainingCapacity() {
        return Math.max(0, capacity - queue.size());
    }

    @Override
    public Iterator<E> iterator() {
        return queue.iterator();
    }

    @Override
    public int drainTo(Collection<? super E> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super E> c, int maxElements) {
        int n = 0;
        E e;
        while (n < maxElements && (e = poll()) != null) {
            c.add(e);
            n++;
        }
        return n;
    }
}
