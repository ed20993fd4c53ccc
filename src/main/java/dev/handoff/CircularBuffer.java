/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.guard.ReentryGuard;
import dev.handoff.internal.observe.CountedHandoffs;
import dev.handoff.internal.waiting.Spin;
import dev.handoff.internal.waiting.Parking;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * A bounded FIFO handoff backed by a fixed array: the classic circular buffer, and the baseline
 * every other handoff is measured against.
 *
 * <p>Elements leave in the order they arrived. One lock guards the whole buffer, so a producer and
 * a consumer never work at the same time; in exchange the buffer allocates nothing per element and
 * its capacity is exactly the array's length.
 *
 * <p>A thread that finds the buffer empty (to take) or full (to put) parks at once, as in
 * {@link java.util.concurrent.ArrayBlockingQueue}, or spins briefly first: see {@link Waiting}.
 * Blocked threads wait on {@link java.util.concurrent.locks.Condition}s, never on a monitor, so a
 * virtual thread blocked here does not pin its carrier.
 *
 * <p>The code the buffer calls while it holds its lock (a {@code drainTo} target's {@code add},
 * the {@code equals} that {@code remove(Object)} and {@code contains} ask) must not use the
 * buffer: an operation it makes on it throws
 * {@link IllegalStateException}, and the operation it was called from changes nothing more.
 *
 * <p>See {@link Handoff} for closing, interruption, iteration and memory-consistency effects.
 *
 * @param <E> the type of elements held
 */
public class CircularBuffer<E> extends AbstractHandoff<E> {
    /*
     * Implementation notes.
     *
     * The bounded buffer of the producer/consumer problem (Dijkstra; the shared buffer of the
     * papers in shared/seeds, 001 section 3.4 and 004 section 3): an array of references and two
     * indices that walk it circularly.
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
     * does"). The waiter counts are the spinners' hint only.
     *
     * Waiting is PARK by default because a consumer that spins takes each element at the
     * producer's heels, so the lock, the count and the cell cross between the CPUs for every
     * element; a parked consumer lets the producer fill the buffer alone while it wakes, and then
     * drains it alone, as in ArrayBlockingQueue (docs/twins.md). SPIN_THEN_PARK is for callers
     * who want the latency or have many more consumers than CPUs. With it, take() spins before
     * taking the lock while an opaque read of count says empty, put() while it says full, as
     * class Spin describes (one spinner per side, none while others of its side are parked);
     * the decision is made again under the lock. The spin reads count and never writes it, so it
     * does not fight the lock holder for the lock's cache line. The timed offer/poll never spin,
     * so that a timeout <= 0 never waits.
     *
     * Close: the closed flag is written under lock, and every blocked thread rechecks it under lock
     * after each wake-up, so close() with signalAll() on both conditions cannot be missed by a
     * thread that is about to wait (it either reads closed == true before waiting, or is already
     * in a condition's wait queue when signalAll runs).
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

    /**
     * Elements inside. Guarded by lock. Invariant: 0 <= count <= items.length. Written under lock
     * with setOpaque (see setCount) so that take()'s and put()'s spinners may read it without the lock.
     */
    private int count;

    /** Consumers parked in notEmpty.await(). Written under lock; volatile for the spinners' hint. */
    private volatile int waitingConsumers;

    /** Producers parked in notFull.await(). Written under lock; volatile for the spinners' hint. */
    private volatile int waitingProducers;

    /** Set once by close(), under lock; volatile for isClosed(). */
    private volatile boolean closed;

    /** Refuses calls from the code that drainTo and remove(Object) run under lock. */
    private final ReentryGuard reentry;

    /** Guards every field above. */
    private final ReentrantLock lock;

    /** Consumers wait here while the buffer is empty. */
    private final Condition notEmpty;

    /** Producers wait here while the buffer is full. */
    private final Condition notFull;

    /** Whether take() and put() spin before they park (Waiting.SPIN_THEN_PARK). */
    private final boolean spin;

    /** Lets one consumer at a time spin in take() (see Spin). */
    private final Spin.Gate consumerSpin = new Spin.Gate();

    /** Lets one producer at a time spin in put(). */
    private final Spin.Gate producerSpin = new Spin.Gate();

    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(CircularBuffer.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How a thread that finds the buffer empty (to take) or full (to put) waits. */
    public enum Waiting {
        /**
         * Park at once, as {@link java.util.concurrent.ArrayBlockingQueue} does: the most
         * throughput for one producer and one consumer, at the cost of a wake-up for an element
         * put into an empty buffer. The default.
         */
        PARK,
        /**
         * Spin briefly first, one thread per side at a time, then park: an element put into an
         * empty buffer reaches a spinning consumer without a wake-up, at the cost of CPU time
         * and, for one producer and one consumer, of throughput.
         */
        SPIN_THEN_PARK;

        /** The value of this policy in a spec's {@code wait=} option: {@code park} or {@code spin}. */
        String specName() {
            return this == PARK ? "park" : "spin";
        }
    }

    /** What a buffer is built on: the {@code core=} option of a {@code circular} spec. */
    public enum Core {
        /** One lock for every operation, as {@code ArrayBlockingQueue}: this class. The default. */
        LOCK,
        /** A lock-free ring, a sequence per cell, that locks only to wait: a {@link RingBuffer}. */
        RING;

        /** The value of this core in a spec's {@code core=} option: {@code lock} or {@code ring}. */
        String specName() {
            return this == LOCK ? "lock" : "ring";
        }
    }

    /**
     * The largest capacity a buffer accepts: {@code Integer.MAX_VALUE - 8}, the longest array
     * the JVM allocates (as {@code ArrayList} and {@code ArrayBlockingQueue} assume). The array
     * is allocated at construction, one reference per element, so the heap must still have room
     * for it.
     */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    /** Rejects a capacity outside [1, MAX_CAPACITY], naming the limit. */
    static int checkCapacity(int capacity) {
        return checkCapacity(capacity, MAX_CAPACITY, "CircularBuffer.MAX_CAPACITY", "CircularBuffer");
    }

    /**
     * Creates a buffer of the given capacity that parks waiting threads and does not count
     * statistics.
     *
     * @param capacity the number of elements it holds
     * @throws IllegalArgumentException if {@code capacity <= 0} or {@code capacity > MAX_CAPACITY}
     */
    public CircularBuffer(int capacity) {
        this(capacity, false, Waiting.PARK);
    }

    /**
     * Creates a buffer of the given capacity that parks waiting threads.
     *
     * @param capacity the number of elements it holds
     * @param countStats whether {@link #stats()} counts puts, takes and waits
     * @throws IllegalArgumentException if {@code capacity <= 0} or {@code capacity > MAX_CAPACITY}
     */
    public CircularBuffer(int capacity, boolean countStats) {
        this(capacity, countStats, Waiting.PARK);
    }

    /**
     * Creates a buffer of the given capacity.
     *
     * @param capacity the number of elements it holds
     * @param countStats whether {@link #stats()} counts puts, takes and waits
     * @param waiting how a thread waits for an element or for room
     * @throws IllegalArgumentException if {@code capacity <= 0} or {@code capacity > MAX_CAPACITY}
     * @throws NullPointerException if {@code waiting} is null
     */
    @SuppressWarnings("this-escape") // registers itself with CountedHandoffs, last (see there)
    public CircularBuffer(int capacity, boolean countStats, Waiting waiting) {
        super(countStats);
        this.spin = Objects.requireNonNull(waiting, "waiting") == Waiting.SPIN_THEN_PARK;
        this.items = new Object[checkCapacity(capacity)];
        this.lock = new ReentrantLock();
        this.reentry = new ReentryGuard(lock);
        this.notEmpty = lock.newCondition();
        this.notFull = lock.newCondition();
        CountedHandoffs.register(this); // last: JFR's dev.handoff.Stats reads it from another thread
    }

    /** For {@link RingBuffer}, which keeps its own cells, lock and waiting: none of this class's. */
    CircularBuffer(boolean countStats, Waiting waiting) {
        super(countStats);
        this.spin = Objects.requireNonNull(waiting, "waiting") == Waiting.SPIN_THEN_PARK;
        this.items = null;
        this.lock = null;
        this.reentry = null;
        this.notEmpty = null;
        this.notFull = null;
    }

    /**
     * Returns what this buffer is built on.
     *
     * @return {@link Core#LOCK}, or {@link Core#RING} for a {@link RingBuffer}
     */
    public Core core() {
        return Core.LOCK;
    }

    @Override
    public HandoffSpec.Circular spec() {
        return new HandoffSpec.Circular(capacity(), waiting(), core(), counters.enabled());
    }

    /**
     * Returns how this buffer's threads wait.
     *
     * @return {@link Waiting#PARK} or {@link Waiting#SPIN_THEN_PARK}
     */
    public Waiting waiting() {
        return spin ? Waiting.SPIN_THEN_PARK : Waiting.PARK;
    }

    // ---- the cell operations everything else is built on; call only when holding lock ----

    /** Inserts at putIndex. Call only when holding lock, with count < items.length. */
    private void enqueue(E e) {
        // assert lock.isHeldByCurrentThread() && count < items.length;
        items[putIndex] = e;
        putIndex = next(putIndex);
        setCount(count + 1);
        counters.countInsert();
        notEmpty.signal(); // unconditionally, as ArrayBlockingQueue: see the notes
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
        notFull.signal(); // unconditionally, as ArrayBlockingQueue: see the notes
        return e;
    }

    /**
     * The cell of the first element from takeIndex on that match accepts, or -1. Call only when
     * holding lock; match is the caller's code, so this buffer refuses to be called back meanwhile.
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

    // ---- waiting with SPIN_THEN_PARK: spin on the count, then park (see the notes) ----

    /**
     * With SPIN_THEN_PARK, spins while count reads {@code value}, for at most Spin.ROUNDS rounds,
     * unless another thread of the side spins ({@code gate}) or is parked ({@code parked > 0}):
     * see Spin. No lock; a hint only.
     */
    private void spinWhileCountIs(int value, Spin.Gate gate, int parked) {
        // getOpaque pairs with setOpaque in setCount
        if (!spin || (int) COUNT.getOpaque(this) != value || parked > 0 || !gate.tryEnter()) {
            return;
        }
        try {
            for (int i = 0; i < Spin.ROUNDS && (int) COUNT.getOpaque(this) == value && !closed; i++) {
                Spin.pause(i);
            }
        } finally {
            gate.exit();
        }
    }

    private int next(int index) {
        return ++index == items.length ? 0 : index;
    }

    // ---- inserting ----

    @Override
    public boolean offer(E e) {
        checkElement(e);
        lock.lock();
        try {
            reentry.check();
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
    public void put(E e) throws InterruptedException {
        checkElement(e);
        spinWhileCountIs(items.length, producerSpin, waitingProducers);
        lock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            reentry.check();
            ensureOpen();
            while (count == items.length) {
                counters.producerWait();
                waitingProducers++;
                try {
                    Parking.PUT.await(notFull, this);
                } finally {
                    waitingProducers--;
                }
                ensureOpen();
            }
            enqueue(e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        checkElement(e);
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            reentry.check();
            while (!closed && count == items.length) {
                if (nanos <= 0L) {
                    return false;
                }
                counters.producerWait();
                waitingProducers++;
                try {
                    nanos = Parking.PUT.awaitNanos(notFull, nanos, this);
                } finally {
                    waitingProducers--;
                }
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
        lock.lock();
        try {
            reentry.check();
            return count == 0 ? null : dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public E take() throws InterruptedException {
        spinWhileCountIs(0, consumerSpin, waitingConsumers);
        lock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            reentry.check();
            while (count == 0) {
                if (closed && !calledByPoolWorker()) {
                    throw closedAndEmpty();
                }
                // Open, or closed and asked by a pool worker, which waits on as if open (Handoff,
                // "Under a ThreadPoolExecutor"): nothing can arrive then, so only an interrupt ends it.
                counters.consumerWait();
                waitingConsumers++;
                try {
                    Parking.TAKE.await(notEmpty, this);
                } finally {
                    waitingConsumers--;
                }
            }
            return dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            reentry.check();
            while (count == 0) {
                if (closed || nanos <= 0L) {
                    return null;
                }
                counters.consumerWait();
                waitingConsumers++;
                try {
                    nanos = Parking.TAKE.awaitNanos(notEmpty, nanos, this);
                } finally {
                    waitingConsumers--;
                }
            }
            return dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        if (maxElements <= 0) {
            return 0;
        }
        lock.lock();
        try {
            reentry.check();
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
    boolean removeFirst(Predicate<Object> match) {
        lock.lock();
        try {
            reentry.check();
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
    int removeMatching(Predicate<Object> match) {
        lock.lock();
        try {
            reentry.check();
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
            notFull.signal(); // one producer per freed cell
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
        notFull.signal();
    }

    @Override
    public void clear() {
        lock.lock();
        try {
            reentry.check();
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
        lock.lock();
        try {
            reentry.check();
            return (E) items[takeIndex]; // null exactly when count == 0
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean contains(Object o) {
        if (o == null) {
            return false;
        }
        lock.lock();
        try {
            reentry.check();
            return indexOfFirst(o::equals) >= 0;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Object[] toArray() {
        lock.lock();
        try {
            reentry.check();
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

    @Override
    public Ordering ordering() {
        return Ordering.FIFO;
    }

    // ---- closing ----

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            notEmpty.signalAll(); // consumers: take what is left, or see closed-and-empty
            notFull.signalAll();  // producers: put throws, the timed offer returns false
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
