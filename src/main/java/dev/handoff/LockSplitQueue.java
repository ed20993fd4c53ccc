/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.linked.LockSplitCore;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A bounded FIFO handoff on a linked list of array chunks with one lock for producers and another
 * for consumers, so that a put and a take run in parallel except when the queue is empty or full.
 *
 * <p>Elements leave in the order they arrived. They are stored in chunks of up to 64 slots, reused
 * once the consumers have emptied them, so a steady stream of inserts allocates nothing.
 * {@code remove(Object)} closes the gap by moving the elements behind it forward, taking time
 * proportional to the size. Operations that need the whole list ({@code remove(Object)},
 * {@code contains}, {@code toArray}, iteration, {@code clear}) take both locks.
 *
 * <p>A thread that finds the queue empty (to take) or full (to put) parks at once, as in
 * {@link java.util.concurrent.LinkedBlockingQueue}, and is woken by the put or take that changes
 * that, or by a thread of its own side that proceeded and left more. It never spins: a consumer
 * waiting at the producer's heels would pull every element's cache lines across the CPUs, where
 * one that parks drains a run of them at once. For an element to reach a waiting consumer in
 * under a microsecond, use {@link CircularBuffer} with
 * {@link CircularBuffer.Waiting#SPIN_THEN_PARK} or the pipe handoff. Blocked threads wait on
 * {@link java.util.concurrent.locks.Condition}s, never on a monitor, so a virtual thread blocked
 * here does not pin its carrier.
 *
 * <p>The code the queue calls while it holds a lock (a {@code drainTo} target's {@code add}, the
 * {@code equals} that {@code remove(Object)} asks) must not use the queue: an operation it makes
 * on it throws {@link IllegalStateException}, and the operation it was called from changes
 * nothing more.
 *
 * <p>See {@link Handoff} for closing, interruption, iteration and memory-consistency effects.
 *
 * @param <E> the type of elements held
 */
public final class LockSplitQueue<E> extends AbstractHandoff<E> {
    /*
     * Implementation notes.
     *
     * A thin BlockingQueue over dev.handoff.internal.linked.LockSplitCore, as CircularBuffer is
     * over its core: this class checks the arguments and turns the core's answers into the
     * contract's exceptions (a put the core refused throws closedToPut(), outside the core's
     * locks; a take the core answered with null, closed and empty, goes to
     * takeWhenClosedAndEmpty()); the algorithm, its invariants and its ordering arguments are
     * the core's.
     */

    /** The algorithm. */
    private final LockSplitCore<E> core;

    /** The spec this queue was built from, canonical (AbstractHandoff.specOf). */
    private final String spec;

    /**
     * The largest capacity a queue accepts: {@code Integer.MAX_VALUE}, as for
     * {@link java.util.concurrent.LinkedBlockingQueue}. Chunks are allocated as elements arrive,
     * never up front, so a queue of this capacity costs no more to build than a small one.
     */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE;

    /**
     * Creates a queue of the given capacity that does not count statistics. A queue that counts
     * is built through a spec: {@code Handoffs.lockSplit(capacity).withStats().build()}.
     *
     * @param capacity the number of elements it holds, at most {@link #MAX_CAPACITY}
     * @throws IllegalArgumentException if {@code capacity <= 0}
     */
    public LockSplitQueue(int capacity) {
        this(new HandoffSpec.LockSplit(capacity, false));
    }

    /** Creates the queue of a spec, which checked the capacity. */
    LockSplitQueue(HandoffSpec.LockSplit spec) {
        super(spec.stats());
        this.spec = spec.toString();
        this.core = new LockSplitCore<>(spec.capacity(), counters, this);
    }

    // ---- inserting ----

    @Override
    public boolean offer(E e) {
        checkElement(e);
        return core.offer(e);
    }

    @Override
    public void put(E e) throws InterruptedException {
        checkElement(e);
        if (!core.put(e)) {
            throw closedToPut(); // the core refuses a put only when closed
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        checkElement(e);
        return core.offer(e, unit.toNanos(timeout));
    }

    // ---- removing ----

    @Override
    public E poll() {
        return core.poll();
    }

    @Override
    public E take() throws InterruptedException {
        E e = core.take();
        return e != null ? e : takeWhenClosedAndEmpty(); // throws, but to a pool's own code (Handoff, "Under a thread pool")
    }

    @Override
    E timedTake(long nanos) throws InterruptedException {
        return core.poll(nanos); // null: timed out, or closed and empty
    }

    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        return maxElements <= 0 ? 0 : core.drainTo(target, maxElements);
    }

    @Override
    boolean removeFirst(Predicate<Object> match) {
        return core.removeFirst(match);
    }

    @Override
    int removeMatching(Predicate<Object> match) {
        return core.removeMatching(match);
    }

    @Override
    public void clear() {
        core.clear();
    }

    // ---- looking ----

    @Override
    public E peek() {
        return core.peek();
    }

    @Override
    long oldestStamp(ToLongFunction<Object> stampOf) {
        return core.oldestStamp(stampOf);
    }

    @Override
    public boolean contains(Object o) {
        return o != null && core.contains(o);
    }

    @Override
    public Object[] toArray() {
        return core.toArray();
    }

    @Override
    public int size() {
        return core.size();
    }

    @Override
    public int remainingCapacity() {
        return core.remainingCapacity();
    }

    @Override
    public HandoffSpec.LockSplit spec() {
        return specOf(spec, HandoffSpec.LockSplit.class);
    }

    @Override
    public int capacity() {
        return core.capacity();
    }

    @Override
    public Ordering ordering() {
        return Ordering.FIFO;
    }

    // ---- closing ----

    @Override
    public void close() {
        core.close();
    }

    @Override
    public boolean isClosed() {
        return core.isClosed();
    }
}
