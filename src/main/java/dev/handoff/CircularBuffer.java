/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.circular.BufferCore;
import dev.handoff.internal.circular.CellsCore;
import dev.handoff.internal.circular.LockCore;
import dev.handoff.internal.circular.RingCore;
import dev.handoff.internal.circular.SequencedRing;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A bounded FIFO handoff backed by a fixed array: the classic circular buffer, and the baseline
 * every other handoff is measured against.
 *
 * <p>Elements leave in the order they arrived. The buffer allocates nothing per element and its
 * capacity is exact. What it is built on is its {@link Core}, chosen at construction:
 * <ul>
 *   <li>{@link Core#LOCK} (the default): one lock guards the whole buffer, as in
 *       {@link java.util.concurrent.ArrayBlockingQueue}, so a producer and a consumer never work
 *       at the same time.</li>
 *   <li>{@link Core#RING}: a put and a take that find room or an element each claim a cell with
 *       one compare-and-set and never block one another; only a thread that must wait, and the
 *       operations that look inside the buffer ({@code remove(Object)}, the bulk removals,
 *       {@code contains}, {@code peek}, {@code toArray}, {@code drainTo}), take a lock. Those
 *       inside operations stop the puts and takes while they run, so they see, and change, one
 *       consistent state.</li>
 *   <li>{@link Core#CELLS}: a put and a take each claim a position with one fetch-and-add on a
 *       counter of their own side, never retried, and meet at the position's cell; whichever
 *       comes first waits there, and its partner wakes exactly it. No lock on the way of a put
 *       or a take. The inside operations do not stop puts and takes: they see each cell as it
 *       is when they pass it, as {@code ConcurrentLinkedQueue}'s do. A put that gives up (time,
 *       interrupt, close) while later puts have claimed leaves its place empty until the takes
 *       pass it, and the buffer then holds one element fewer than its capacity.</li>
 * </ul>
 *
 * <p>A thread that finds the buffer empty (to take) or full (to put) parks at once, as in
 * {@code ArrayBlockingQueue}, or spins briefly first: see {@link Waiting}. Blocked threads wait
 * on {@link java.util.concurrent.locks.Condition}s or park, never on a monitor, so a virtual
 * thread blocked here does not pin its carrier.
 *
 * <p>The code the buffer calls while it holds its lock (a {@code drainTo} target's {@code add},
 * the {@code equals} that {@code remove(Object)} and {@code contains} ask) must not use the
 * buffer: an operation it makes on it throws {@link IllegalStateException}, and the operation it
 * was called from changes nothing more.
 *
 * <p>See {@link Handoff} for closing, interruption, iteration and memory-consistency effects.
 *
 * @param <E> the type of elements held
 */
public final class CircularBuffer<E> extends AbstractHandoff<E> {
    /*
     * Implementation notes.
     *
     * A thin BlockingQueue over one core (dev.handoff.internal.circular.BufferCore), as JDK 21's
     * SynchronousQueue is over its Transferer: this class checks the arguments and turns the
     * core's answers into the contract's exceptions (a put the core refused throws
     * closedToInserts(); a take the core answered with null, closed and empty, goes to
     * takeWhenClosedAndEmpty()); the algorithm, its invariants and its ordering arguments are
     * the core's (LockCore, RingCore).
     */

    /** The algorithm: one core, chosen by the spec. */
    private final BufferCore<E> core;

    /** The spec this buffer was built from, canonical (AbstractHandoff.specOf). */
    private final String spec;

    /** How its threads wait, and what it is built on: the spec's. */
    private final Waiting waiting;
    private final Core builtOn;

    /** How a thread that finds the buffer empty (to take) or full (to put) waits. */
    public enum Waiting {
        /**
         * Park at once, as {@link java.util.concurrent.ArrayBlockingQueue} does: the most
         * throughput for one producer and one consumer, at the cost of a wake-up for an element
         * put into an empty buffer. The default. (A put of a full {@link Core#CELLS} buffer spins
         * for a batch of room first: see there.)
         */
        PARK,
        /**
         * Spin briefly first, one thread per side at a time, then park: an element put into an
         * empty buffer reaches a spinning consumer without a wake-up, at the cost of CPU time
         * and, for one producer and one consumer, of throughput. A virtual thread parks at
         * once; a side whose recent spins did not pay spins only a few rounds, and now and then
         * a spin longer than a wake-up, so that two threads passing replies back and forth both
         * go back to spinning once one of them is answered.
         */
        SPIN_THEN_PARK;

        /** The value of this policy in a spec's {@code wait=} option: {@code park} or {@code spin}. */
        String specName() {
            return this == PARK ? "park" : "spin";
        }
    }

    /** What a buffer is built on: the {@code core=} option of a {@code circular} spec. */
    public enum Core {
        /**
         * One lock for every operation, with two conditions, as {@code ArrayBlockingQueue}. The
         * default. A take or poll that finds the lock held while producers wait for room spins
         * for the lock with either {@link Waiting} (one thread at a time, never a virtual
         * thread), then waits for it as usual. Capacity up to {@link #MAX_CAPACITY}.
         */
        LOCK,
        /**
         * A lock-free ring, a sequence per cell, that locks only to wait and to look inside.
         * Capacity up to {@link #MAX_RING_CAPACITY}.
         */
        RING,
        /**
         * Cells claimed by fetch-and-add: a put and a take each claim a position on a counter of
         * their own side, never retried, and meet at its cell, where whichever comes first waits
         * and its partner wakes exactly it. No lock on the way of a put or a take. A put that
         * finds the buffer full spins first with either {@link Waiting} (as
         * {@link Waiting#SPIN_THEN_PARK} spins: one thread at a time, never a virtual thread)
         * until a batch of room is free, a quarter of the capacity up to 256 places, and parks
         * only if no room came. Twice as many cells as the capacity (at most 2<sup>16</sup>
         * more), each an object of a word and two references (36 bytes with its array slot,
         * compressed references), all allocated at construction. Capacity up to
         * {@link #MAX_CAPACITY}.
         */
        CELLS;

        /** The value of this core in a spec's {@code core=} option: {@code lock}, {@code ring} or {@code cells}. */
        String specName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The largest capacity a buffer with {@link Core#LOCK} accepts: {@code Integer.MAX_VALUE - 8},
     * the longest array the JVM allocates (as {@code ArrayList} and {@code ArrayBlockingQueue}
     * assume). The array is allocated at construction, one reference per element, so the heap
     * must still have room for it.
     */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    /**
     * The largest capacity a buffer with {@link Core#RING} accepts: 2<sup>29</sup>, so that the
     * ring's cell sequences (twice a position) compare as ints.
     */
    public static final int MAX_RING_CAPACITY = SequencedRing.MAX_CAPACITY;

    /** Rejects a capacity outside [1, the core's limit], naming the limit. */
    static int checkCapacity(int capacity, Core core) {
        return core == Core.RING
                ? checkCapacity(capacity, MAX_RING_CAPACITY, "CircularBuffer.MAX_RING_CAPACITY", "CircularBuffer")
                : checkCapacity(capacity, MAX_CAPACITY, "CircularBuffer.MAX_CAPACITY", "CircularBuffer");
    }

    /**
     * Creates a buffer of the given capacity with {@link Core#LOCK} that parks waiting threads and
     * does not count statistics. Other options are chosen through a spec:
     * {@code Handoffs.circular(capacity).cells().withStats().build()}.
     *
     * @param capacity the number of elements it holds
     * @throws IllegalArgumentException if {@code capacity <= 0} or {@code capacity > MAX_CAPACITY}
     */
    public CircularBuffer(int capacity) {
        this(new HandoffSpec.Circular(capacity, Waiting.PARK, Core.LOCK, false));
    }

    /** Creates the buffer of a spec, which checked the capacity against its core. */
    CircularBuffer(HandoffSpec.Circular spec) {
        super(spec.stats());
        this.spec = spec.toString();
        this.waiting = spec.waiting();
        this.builtOn = spec.core();
        boolean spin = spec.waiting() == Waiting.SPIN_THEN_PARK;
        int cells = spec.capacity();
        this.core = switch (spec.core()) {
            case LOCK -> new LockCore<>(cells, spin, counters, this);
            case RING -> new RingCore<>(cells, spin, counters, this);
            case CELLS -> new CellsCore<>(cells, spin, counters, this);
        };
    }

    /**
     * Returns what this buffer is built on.
     *
     * @return {@link Core#LOCK}, {@link Core#RING} or {@link Core#CELLS}
     */
    public Core core() {
        return builtOn;
    }

    /**
     * Returns how this buffer's threads wait.
     *
     * @return {@link Waiting#PARK} or {@link Waiting#SPIN_THEN_PARK}
     */
    public Waiting waiting() {
        return waiting;
    }

    @Override
    public HandoffSpec.Circular spec() {
        return specOf(spec, HandoffSpec.Circular.class);
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
        return e != null ? e : takeWhenClosedAndEmpty(); // null: closed and empty, which is final
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
    public boolean contains(Object o) {
        return o != null && core.contains(o);
    }

    @Override
    public Object[] toArray() {
        return core.toArray();
    }

    @Override
    long oldestStamp(ToLongFunction<Object> stampOf) {
        return core.oldestStamp(stampOf);
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
