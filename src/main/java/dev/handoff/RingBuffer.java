/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * A bounded FIFO circular buffer whose producers and consumers do not share a lock: the
 * {@code core=ring} form of {@link CircularBuffer} ({@code circular:N,core=ring}).
 *
 * <p>Elements leave in the order their inserts took their places. A put and a take that find
 * room or an element each claim a cell with one compare-and-set and never block one another;
 * only a thread that must wait (the buffer empty for a take, full for a put), and the operations
 * that look inside the buffer ({@code remove(Object)}, the bulk removals, {@code contains},
 * {@code peek}, {@code toArray}, {@code drainTo}), take a lock. Those inside operations stop the
 * puts and takes while they run, so they see, and change, one consistent state. The buffer
 * allocates nothing per element; its capacity is exact.
 *
 * <p>Waiting, the {@link CircularBuffer.Waiting} policy, closing, and the statistics behave as in
 * {@link CircularBuffer}. See {@link Handoff} for closing, interruption, iteration and
 * memory-consistency effects.
 *
 * @param <E> the type of elements held
 */
public final class RingBuffer<E> extends CircularBuffer<E> {
    /*
     * Implementation notes.
     *
     * The bounded MPMC queue of Dmitry Vyukov ("Bounded MPMC queue", 1024cores.net): a cell
     * array, a sequence number per cell, and two ever-growing positions, tail for producers and
     * head for consumers. Position p lives in cell index(p) = p mod capacity. A cell's sequence
     * says whose turn it is:
     *
     *   sequence == 2p        free: the producer of position p may fill it
     *   sequence == 2p + 1    full: the consumer of position p may empty it
     *                         (and then sets 2(p + capacity), freeing it for the next lap)
     *
     *        head                  tail
     *         v                     v
     *   [ e3 | e4 | e5 | free | free | e2? ]   (positions wrap; head <= tail <= head + capacity)
     *
     * A producer reads tail t, finds the cell free for t, claims t with CAS(tail, t, t + 1), then
     * stores the element and publishes it by setting the sequence to t + 1 (release). A consumer
     * mirrors it on head. A sequence lagging behind the position means full (for a producer) or
     * empty (for a consumer), unless the other side is between its claim and its release: then
     * the strict check (fullAt, emptyAt: tail - head against capacity or 0) says to wait a few
     * spins for it, so that poll() returns null only when the buffer was empty at some instant.
     * Sequences count in steps of two so that full-with-p and free-for-p + capacity differ even
     * at capacity 1; they are ints (capacity <= 2^29, compared by difference); positions are longs, and
     * the two high bits of tail and head carry flags:
     *
     *   CLOSED (tail): set once by close(). A producer that reads it refuses; a CAS that raced
     *     with it fails, so every successful insert precedes the close, and a consumer that saw
     *     closed before finding the buffer empty knows nothing more can come.
     *   FROZEN (tail and head): set, under lock, by the inside operations (freeze). A fast path
     *     that reads it waits for the lock (awaitThaw) and retries. freeze() then waits until the
     *     operations that claimed before it have released their cells, and the holder owns every
     *     cell until thaw() rewrites the indices. Removals compact toward tail (head moves up,
     *     tail stays), so positions never decrease and a stale claim still fails its CAS.
     *
     * Waiting (theorem: no lost wake-up, jcstress Handoff_11_RingWakeUp). A consumer that must
     * wait takes the lock, counts itself in waitingConsumers, issues a full fence and tries
     * once more before it awaits notEmpty; a producer publishes, issues a full fence, then
     * reads waitingConsumers and signals only when it is positive. Of the two fenced pairs
     * (count then try; publish then read) at least one sees the other: the consumer finds the
     * element, or the producer finds the waiter and signals under the lock, which the waiter
     * holds from its count until it awaits. While one signalled consumer has not yet come back
     * from its await (consumerWakePending), producers do not signal again: that consumer clears
     * the flag, fences and tries again (the same Dekker pair), and after taking an element it
     * signals the next waiter if elements remain, so a burst of puts costs one wake-up, not a
     * lock per put. Producers waiting for room mirror this with waitingProducers and notFull.
     * close() sets CLOSED and closed, and signals all, under lock.
     *
     * Visibility between writers and readers is provided as follows: a producer's element store
     * precedes its release of the cell's sequence, which a consumer reads with acquire before it
     * claims and reads the element; the consumer's null store precedes its release of the next
     * lap's sequence, which the next producer reads with acquire. The inside operations'
     * rewrites are published by thaw()'s volatile stores of the indices, which every fast path
     * reads first.
     */

    /** The largest capacity a ring accepts: 2^29, so that cell sequences compare as ints. */
    public static final int MAX_CAPACITY = 1 << 29;

    /** In tail: the ring is closed to inserts. */
    private static final long CLOSED = 1L << 62;

    /** In tail and head: an inside operation owns the cells (freeze). */
    private static final long FROZEN = 1L << 61;

    private static final long FLAGS = CLOSED | FROZEN;

    /** tryOffer's results. */
    private static final int OFFERED = 0, FULL = 1, REFUSED = 2;

    /** The cells. Non-null exactly at the positions in [head, tail) once published. */
    private final Object[] items;

    /** Per cell, the position whose turn it is (see the notes). */
    private final int[] sequences;

    private final int capacity;

    /** capacity - 1 when capacity is a power of two, else -1 (index() divides). */
    private final int mask;

    /** Producers' next position, with CLOSED and FROZEN. On a cache line of its own. */
    private final RingIndex tail = new RingIndex();

    /** Consumers' next position, with FROZEN. On a cache line of its own. */
    private final RingIndex head = new RingIndex();

    /** Consumers in the lock's wait for an element. Written under lock; read by producers after their fence. */
    private volatile int waitingConsumers;

    /** Producers in the lock's wait for room. Written under lock; read by consumers after their fence. */
    private volatile int waitingProducers;

    /**
     * A consumer was signalled and has not yet come back from its await: producers need not
     * signal again, since the woken one passes the signal on (see the notes). Written under lock.
     */
    private volatile boolean consumerWakePending;

    /** A producer was signalled and has not yet come back from its await. Written under lock. */
    private volatile boolean producerWakePending;

    /** Set once by close(), under lock, with CLOSED in tail; volatile for isClosed(). */
    private volatile boolean closed;

    /** Guards waiting, closing and the inside operations; never taken by a put or take that succeeds at once. */
    private final ReentrantLock lock = new ReentrantLock();

    private final Condition notEmpty = lock.newCondition();

    private final Condition notFull = lock.newCondition();

    private final boolean spin;

    private final Spin.Gate consumerSpin = new Spin.Gate();

    private final Spin.Gate producerSpin = new Spin.Gate();

    private static final VarHandle ITEMS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle SEQUENCES = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle POSITION;

    static {
        try {
            POSITION = MethodHandles.lookup().findVarHandle(RingIndex.class, "position", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One index, padded on both sides so that tail and head never share a cache line. */
    static final class RingIndex extends RingIndexPad {
        long position;
        long q0, q1, q2, q3, q4, q5, q6, q7;
    }

    /** Superclass fields come first in an object: the padding before RingIndex.position. */
    abstract static class RingIndexPad {
        long p0, p1, p2, p3, p4, p5, p6, p7;
    }

    /** Rejects a capacity outside [1, MAX_CAPACITY], naming the limit. */
    static int checkRingCapacity(int capacity) {
        return checkCapacity(capacity, MAX_CAPACITY, "RingBuffer.MAX_CAPACITY", "RingBuffer");
    }

    /**
     * Creates a ring of the given capacity.
     *
     * @param capacity the number of elements it holds
     * @param countStats whether {@link #stats()} counts puts, takes and waits
     * @param waiting how a thread waits for an element or for room
     * @throws IllegalArgumentException if {@code capacity <= 0} or {@code capacity > MAX_CAPACITY}
     * @throws NullPointerException if {@code waiting} is null
     */
    @SuppressWarnings("this-escape") // registers itself with CountedHandoffs, last (see there)
    public RingBuffer(int capacity, boolean countStats, Waiting waiting) {
        super(countStats, waiting);
        this.capacity = checkRingCapacity(capacity);
        this.spin = waiting == Waiting.SPIN_THEN_PARK;
        this.mask = Integer.bitCount(capacity) == 1 ? capacity - 1 : -1;
        this.items = new Object[capacity];
        this.sequences = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            sequences[i] = free(i); // every cell free for its first lap
        }
        CountedHandoffs.register(this); // last: JFR's dev.handoff.Stats reads it from another thread
    }

    @Override
    public Core core() {
        return Core.RING;
    }

    /** The sequence of a cell free for position p. */
    private static int free(long p) {
        return (int) (p << 1);
    }

    /** The sequence of a cell holding the element of position p. */
    private static int full(long p) {
        return (int) (p << 1) + 1;
    }

    private int index(long position) {
        return mask >= 0 ? (int) position & mask : (int) (position % capacity);
    }

    // ---- the lock-free fast paths (see the notes) ----

    /** Inserts e if there is room: OFFERED, FULL, or REFUSED when closed. */
    private int tryOffer(E e) {
        for (int k = 0; ; k++) {
            long t = (long) POSITION.getVolatile(tail);
            if ((t & FLAGS) != 0) {
                if ((t & CLOSED) != 0) {
                    return REFUSED;
                }
                awaitThaw();
                continue;
            }
            int cell = index(t);
            int lag = (int) SEQUENCES.getAcquire(sequences, cell) - free(t); // pairs with setRelease in tryPoll
            if (lag == 0 && POSITION.compareAndSet(tail, t, t + 1)) {
                items[cell] = e;
                SEQUENCES.setRelease(sequences, cell, full(t)); // publishes e: pairs with getAcquire in tryPoll
                afterPut();
                return OFFERED;
            }
            if (lag < 0 && fullAt(t)) {
                return FULL;
            }
            backOff(k); // lost the CAS, or a consumer is releasing this cell
        }
    }

    /** Removes the oldest element, or returns null if the ring was empty at some instant. */
    @SuppressWarnings("unchecked")
    private E tryPoll() {
        for (int k = 0; ; k++) {
            long h = (long) POSITION.getVolatile(head);
            if ((h & FROZEN) != 0) {
                awaitThaw();
                continue;
            }
            int cell = index(h);
            int lag = (int) SEQUENCES.getAcquire(sequences, cell) - full(h); // pairs with setRelease in tryOffer
            if (lag == 0 && POSITION.compareAndSet(head, h, h + 1)) {
                E e = (E) items[cell];
                items[cell] = null;
                // frees the cell for the next lap, after the read and the null store above:
                // pairs with getAcquire in tryOffer
                SEQUENCES.setRelease(sequences, cell, free(h + capacity));
                afterTake();
                return e;
            }
            if (lag < 0 && emptyAt(h)) {
                return null;
            }
            backOff(k); // lost the CAS, or a producer is publishing this cell
        }
    }

    /** Whether a producer at position t finds the ring full (not merely a consumer still releasing). */
    private boolean fullAt(long t) {
        long h = (long) POSITION.getVolatile(head);
        return (h & FROZEN) == 0 && t - h >= capacity;
    }

    /** Whether a consumer at position h finds the ring empty (not merely a producer still publishing). */
    private boolean emptyAt(long h) {
        long t = (long) POSITION.getVolatile(tail);
        return (t & FROZEN) == 0 && (t & ~FLAGS) == h;
    }

    /** An index's position without its flags. */
    private static long position(RingIndex index) {
        return (long) POSITION.getVolatile(index) & ~FLAGS;
    }

    private static void backOff(int round) {
        if (round < Spin.SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // the thread we wait for may be off its CPU
        }
    }

    private void afterPut() {
        counters.put();
        VarHandle.fullFence(); // publish, then read the count: pairs with the fence in awaitElement
        if (waitingConsumers > 0 && !consumerWakePending) {
            wakeConsumer();
        }
    }

    private void afterTake() {
        counters.take();
        VarHandle.fullFence(); // release, then read the count: pairs with the fence in awaitRoom
        if (waitingProducers > 0 && !producerWakePending) {
            wakeProducer();
        }
    }

    /** Signals one waiting consumer unless one is already on its way. Takes the lock (reentrant). */
    private void wakeConsumer() {
        lock.lock();
        try {
            if (waitingConsumers > 0 && !consumerWakePending) {
                consumerWakePending = true; // cleared by whoever comes back from await next
                notEmpty.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Signals one waiting producer unless one is already on its way. Takes the lock (reentrant). */
    private void wakeProducer() {
        lock.lock();
        try {
            if (waitingProducers > 0 && !producerWakePending) {
                producerWakePending = true;
                notFull.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits while an inside operation holds the cells. Never called holding lock. */
    private void awaitThaw() {
        lock.lock(); // freeze() runs entirely under lock
        lock.unlock();
    }

    // ---- waiting (see the notes) ----

    /** With SPIN_THEN_PARK, polls for a few microseconds if no other consumer spins or waits. */
    private E spinPoll() {
        if (!spin || waitingConsumers > 0 || !consumerSpin.tryEnter()) {
            return null;
        }
        try {
            for (int i = 0; i < Spin.ROUNDS && !closed; i++) {
                Spin.pause(i);
                E e = tryPoll();
                if (e != null) {
                    return e;
                }
            }
            return null;
        } finally {
            consumerSpin.exit();
        }
    }

    /** With SPIN_THEN_PARK, offers for a few microseconds if no other producer spins or waits. */
    private int spinOffer(E e) {
        if (!spin || waitingProducers > 0 || !producerSpin.tryEnter()) {
            return FULL;
        }
        try {
            int result = FULL;
            for (int i = 0; i < Spin.ROUNDS && result == FULL; i++) {
                Spin.pause(i);
                result = tryOffer(e);
            }
            return result;
        } finally {
            producerSpin.exit();
        }
    }

    /**
     * Waits for an element under lock. Returns it, or null when timed and the time ran out or the
     * ring is closed and empty; throws when untimed and closed and empty (but a pool worker waits on).
     */
    private E awaitElement(boolean timed, long nanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            waitingConsumers++;
            VarHandle.fullFence(); // count, then try: pairs with the fence in afterPut
            try {
                while (true) {
                    boolean closedBefore = closed; // read before the try: closed and then empty is final
                    E e = tryPoll();
                    if (e != null) {
                        if (waitingConsumers > 1 && !emptyAt(position(head))) {
                            wakeConsumer(); // pass the wake-up on: more elements, more waiters
                        }
                        return e;
                    }
                    if (closedBefore && (timed || !calledByPoolWorker())) {
                        if (timed) {
                            return null;
                        }
                        throw closedAndEmpty();
                    }
                    if (timed && nanos <= 0L) {
                        return null;
                    }
                    counters.consumerWait();
                    try {
                        if (timed) {
                            nanos = Wait.TAKE.awaitNanos(notEmpty, nanos, this);
                        } else {
                            Wait.TAKE.await(notEmpty, this);
                        }
                    } finally {
                        consumerWakePending = false;
                        VarHandle.fullFence(); // clear, then try again: pairs with the fence in afterPut
                    }
                }
            } finally {
                waitingConsumers--;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits for room under lock: OFFERED, REFUSED when closed, FULL when timed out. */
    private int awaitRoom(E e, boolean timed, long nanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            waitingProducers++;
            VarHandle.fullFence(); // count, then try: pairs with the fence in afterTake
            try {
                while (true) {
                    int result = tryOffer(e);
                    if (result == OFFERED && waitingProducers > 1 && !fullAt(position(tail))) {
                        wakeProducer(); // pass the wake-up on: more room, more waiters
                    }
                    if (result != FULL || (timed && nanos <= 0L)) {
                        return result;
                    }
                    counters.producerWait();
                    try {
                        if (timed) {
                            nanos = Wait.PUT.awaitNanos(notFull, nanos, this);
                        } else {
                            Wait.PUT.await(notFull, this);
                        }
                    } finally {
                        producerWakePending = false;
                        VarHandle.fullFence(); // clear, then try again: pairs with the fence in afterTake
                    }
                }
            } finally {
                waitingProducers--;
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- inserting ----

    @Override
    public boolean offer(E e) {
        checkElement(e);
        return tryOffer(e) == OFFERED;
    }

    @Override
    public void put(E e) throws InterruptedException {
        checkElement(e);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        int result = tryOffer(e);
        if (result == FULL) {
            result = spinOffer(e);
        }
        if (result == FULL) {
            result = awaitRoom(e, false, 0L);
        }
        if (result == REFUSED) {
            throw closedToInserts();
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        checkElement(e);
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        int result = tryOffer(e);
        if (result == FULL && nanos > 0L) {
            result = awaitRoom(e, true, nanos);
        }
        return result == OFFERED;
    }

    // ---- removing ----

    @Override
    public E poll() {
        return tryPoll();
    }

    @Override
    public E take() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        E e = tryPoll();
        if (e == null) {
            e = spinPoll();
        }
        return e != null ? e : awaitElement(false, 0L);
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        E e = tryPoll();
        return e != null || nanos <= 0L ? e : awaitElement(true, nanos);
    }

    // ---- the inside operations: under lock, with the cells frozen ----

    /**
     * Stops the fast paths and waits for the claims made before it to be released; returns the
     * positions [head, tail). Call only when holding lock; end with thaw().
     */
    private long[] freeze() {
        // assert lock.isHeldByCurrentThread();
        long t = (long) POSITION.getAndBitwiseOr(tail, FROZEN) & ~FLAGS;
        long h = (long) POSITION.getAndBitwiseOr(head, FROZEN) & ~FLAGS;
        for (long p = h; p < h + capacity; p++) {
            int settled = p < t ? full(p) : free(p); // full below tail, free from tail on
            for (int k = 0; (int) SEQUENCES.getAcquire(sequences, index(p)) != settled; k++) {
                backOff(k); // pairs with the setRelease of the producer or consumer still in flight
            }
        }
        return new long[] {h, t};
    }

    /** Ends a freeze with head at newHead (tail unchanged), releasing the fast paths. */
    private void thaw(long newHead) {
        long t = (long) POSITION.getVolatile(tail) & ~FROZEN;
        POSITION.setVolatile(tail, t); // publishes the rewritten cells: pairs with getVolatile in the fast paths
        POSITION.setVolatile(head, newHead);
    }

    /** The elements at positions [from, to), in order. Call only while frozen. */
    private List<Object> elements(long from, long to) {
        List<Object> inside = new ArrayList<>((int) (to - from));
        for (long p = from; p < to; p++) {
            inside.add(items[index(p)]);
        }
        return inside;
    }

    /**
     * Keeps the given elements (in order, at most those from h to t) as the newest, freeing the
     * cells below them; returns the new head. Call only while frozen.
     */
    private long keepOnly(List<Object> kept, long h, long t) {
        long newHead = t - kept.size();
        for (long p = h; p < t; p++) {
            int cell = index(p);
            if (p < newHead) {
                items[cell] = null;
                sequences[cell] = free(p + capacity); // free for the next lap; thaw publishes it
            } else {
                items[cell] = kept.get((int) (p - newHead));
            }
        }
        int freed = (int) (newHead - h);
        counters.takes(freed);
        for (int i = 0; i < freed && lock.hasWaiters(notFull); i++) {
            notFull.signal(); // one producer per freed cell
        }
        return newHead;
    }

    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        if (maxElements <= 0) {
            return 0;
        }
        lock.lock();
        try {
            long[] frozen = freeze();
            long h = frozen[0], t = frozen[1];
            long to = h + Math.min(maxElements, t - h);
            long p = h;
            try {
                for (; p < to; p++) {
                    @SuppressWarnings("unchecked")
                    E e = (E) items[index(p)];
                    target.add(e); // if this throws, e is still inside: nothing is lost
                }
            } finally {
                thaw(keepOnly(elements(p, t), h, t));
            }
            return (int) (p - h);
        } finally {
            lock.unlock();
        }
    }

    @Override
    boolean removeFirst(Predicate<Object> match) {
        return removeWhere(match, true) > 0;
    }

    @Override
    int removeMatching(Predicate<Object> match) {
        return removeWhere(match, false);
    }

    /** Removes the first (or every) element match accepts; asks about each before changing anything. */
    private int removeWhere(Predicate<Object> match, boolean firstOnly) {
        lock.lock();
        try {
            long[] frozen = freeze();
            long h = frozen[0], t = frozen[1];
            List<Object> inside = elements(h, t);
            List<Object> kept = new ArrayList<>(inside.size());
            long newHead = h;
            try {
                boolean removed = false;
                for (Object e : inside) {
                    if ((firstOnly && removed) || !match.test(e)) {
                        kept.add(e);
                    } else {
                        removed = true;
                    }
                }
                newHead = keepOnly(kept, h, t);
            } finally {
                thaw(newHead);
            }
            return inside.size() - kept.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void clear() {
        while (tryPoll() != null) {
            // each poll counts and signals as a take does
        }
    }

    // ---- looking: a frozen, unchanged snapshot ----

    @Override
    public Object[] toArray() {
        lock.lock();
        try {
            long[] frozen = freeze();
            try {
                return elements(frozen[0], frozen[1]).toArray();
            } finally {
                thaw(frozen[0]);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        Object[] inside = toArray();
        return inside.length == 0 ? null : (E) inside[0];
    }

    @Override
    public boolean contains(Object o) {
        if (o == null) {
            return false;
        }
        for (Object e : toArray()) {
            if (o.equals(e)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int size() {
        while (true) {
            long h = (long) POSITION.getVolatile(head) & ~FLAGS;
            long t = (long) POSITION.getVolatile(tail) & ~FLAGS;
            if (h == ((long) POSITION.getVolatile(head) & ~FLAGS)) { // a consistent pair: head did not move
                return (int) Math.max(0L, Math.min(capacity, t - h));
            }
        }
    }

    @Override
    public int remainingCapacity() {
        return capacity - size();
    }

    @Override
    public int capacity() {
        return capacity;
    }

    // ---- closing ----

    @Override
    public void close() {
        lock.lock();
        try {
            POSITION.getAndBitwiseOr(tail, CLOSED); // every insert whose CAS succeeds precedes this
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
