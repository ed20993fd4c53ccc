/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pool;

import dev.handoff.Handoff;
import dev.handoff.HandoffSpec;
import dev.handoff.HandoffStats;

import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.Spliterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The work queue of an {@link ElasticPool}: a handoff whose {@link #offer(Object)} refuses a task
 * unless a pool thread waits for it, so that {@link java.util.concurrent.ThreadPoolExecutor}
 * starts a new thread instead of queueing while it is below its maximum size. Every other method
 * is the handoff's own; in particular every other insert ({@code put}, the timed {@code offer},
 * {@code add}) goes straight to it.
 *
 * @param <E> the element type: the pool's tasks
 */
public final class ElasticQueue<E> implements Handoff<E> {
    /*
     * Growth before queueing, the technique of Tomcat's TaskQueue and Elasticsearch's
     * ExecutorScalingQueue. Once its core threads exist, ThreadPoolExecutor.execute offers a task
     * to its queue and starts a thread beyond the core only when that offer fails. So offer
     * refuses unless more threads wait in take()/poll(timeout) than there are tasks inside
     * (idle > size()): then a waiting thread is free for this task. Refused, the task gets a new
     * thread while the pool is below its maximum; at the maximum the pool hands it to its
     * RejectedExecutionHandler, ElasticPool's, which puts it into the handoff with
     * offerAtMaximum, and passes it to the user's handler only if the handoff refuses it too
     * (full or closed) or the pool is shut down.
     *
     * idle is a hint, read without a lock, and the pool's size is not read at all (it takes the
     * pool's main lock). Two submitters may both count one waiting thread and both queue, and a
     * thread may time out just as a task is queued for it: the task then waits for the next
     * thread to come free although the pool could still grow. Neither loses or doubles a task:
     * each is inside the handoff or with a thread, and the pool takes it from there.
     */

    private final Handoff<E> handoff;

    /** The threads inside take() or poll(timeout): pool threads waiting for a task. */
    private final AtomicInteger idle = new AtomicInteger();

    /**
     * @param handoff the handoff that holds the tasks
     * @throws NullPointerException if handoff is null
     */
    public ElasticQueue(Handoff<E> handoff) {
        this.handoff = Objects.requireNonNull(handoff, "handoff");
    }

    /**
     * Inserts e only if a thread waits for it: more threads wait in {@code take()} or the timed
     * {@code poll} than there are elements inside. Returns {@code false} otherwise, so that the
     * pool starts a thread for it (or, at its maximum, calls its handler).
     */
    @Override
    public boolean offer(E e) {
        int waiting = idle.get();
        return waiting > 0 && handoff.size() < waiting && handoff.offer(e);
    }

    /**
     * Inserts e if the handoff has room, whether or not a thread waits: the pool's handler calls
     * it once the pool is at its maximum size.
     */
    public boolean offerAtMaximum(E e) {
        return handoff.offer(e);
    }

    @Override
    public E take() throws InterruptedException {
        idle.incrementAndGet();
        try {
            return handoff.take();
        } finally {
            idle.decrementAndGet();
        }
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        idle.incrementAndGet();
        try {
            return handoff.poll(timeout, unit);
        } finally {
            idle.decrementAndGet();
        }
    }

    @Override
    public E take(long timeout, TimeUnit unit) throws InterruptedException {
        idle.incrementAndGet();
        try {
            return handoff.take(timeout, unit);
        } finally {
            idle.decrementAndGet();
        }
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
        return handoff.addAll(notThis(c));
    }

    @Override
    public boolean add(E e) {
        return handoff.add(e);
    }

    @Override
    public void put(E e) throws InterruptedException {
        handoff.put(e);
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        return handoff.offer(e, timeout, unit);
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

    @Override
    public Ordering ordering() {
        return handoff.ordering();
    }

    @Override
    public void close() {
        handoff.close();
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
