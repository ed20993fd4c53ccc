/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import dev.handoff.internal.waiting.Spinner;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * The cells of a {@link RingCore}: a bounded lock-free MPMC ring with a sequence per cell. It
 * inserts and removes without blocking, and says when it is full, empty or closed; waiting is
 * the caller's. Elements are non-null.
 */
public final class SequencedRing {
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
     * stores the element and publishes it by setting the sequence to full(t) (release). A
     * consumer mirrors it on head. A sequence lagging behind the position means full (for a
     * producer) or empty (for a consumer), unless the other side is between its claim and its
     * release: then the strict check (fullAt, emptyAt: tail - head against capacity or 0) says to
     * wait a few spins for it, so that poll() returns null only when the ring was empty at some
     * instant. Sequences count in steps of two so that full-with-p and free-for-(p + capacity)
     * differ even at capacity 1; they are ints compared by difference (capacity <= 2^29).
     * Positions are longs, and two high bits of tail and head carry flags:
     *
     *   CLOSED (tail): set once by close(). A producer that reads it refuses; a CAS that raced
     *     with it fails, so every successful insert precedes the close, and a consumer that saw
     *     closed before finding the ring empty knows nothing more can come.
     *   FROZEN (tail and head): set by freeze(), which the caller runs holding gate. A fast path
     *     that reads it waits for gate (awaitThaw) and retries. freeze() then waits until the
     *     operations that claimed before it have released their cells, and the holder owns every
     *     cell until thaw() rewrites the indices. Removals compact toward tail (head moves up,
     *     tail stays), so positions never decrease and a stale claim still fails its CAS. A gate
     *     holder that meets FROZEN froze the ring itself and called back in (from a drain's
     *     target or remove's equals): awaitThaw and a second freeze() throw, since the thaw it
     *     would wait for cannot come, and a nested thaw would end the outer freeze early.
     *
     * Visibility between writers and readers is provided as follows: a producer's element store
     * precedes its release of the cell's sequence, which a consumer reads with acquire before it
     * claims and reads the element; the consumer's null store precedes its release of the next
     * lap's sequence, which the next producer reads with acquire. The frozen rewrites are
     * published by thaw()'s volatile stores of the indices, which every fast path reads first.
     */

    /** The largest capacity: 2^29, so that cell sequences (twice a position) compare as ints. */
    public static final int MAX_CAPACITY = 1 << 29;

    /** In tail: the ring is closed to inserts. */
    private static final long CLOSED = 1L << 62;

    /** In tail and head: a frozen operation owns the cells. */
    private static final long FROZEN = 1L << 61;

    private static final long FLAGS = CLOSED | FROZEN;

    /** offer's results. */
    public static final int OFFERED = 0, FULL = 1, REFUSED = 2;

    /** The cells. Non-null exactly at the positions in [head, tail) once published. */
    private final Object[] items;

    /** Per cell, whose turn it is (see the notes). */
    private final int[] sequences;

    private final int capacity;

    /** capacity - 1 when capacity is a power of two, else -1 (index() divides). */
    private final int mask;

    /** Producers' next position, with CLOSED and FROZEN. On a cache line of its own. */
    private final RingIndex tail = new RingIndex();

    /** Consumers' next position, with FROZEN. On a cache line of its own. */
    private final RingIndex head = new RingIndex();

    /** Held by whoever freezes the ring; a fast path of another thread that finds it frozen waits for it. */
    private final ReentrantLock gate;

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
    public static final class RingIndex extends RingIndexPad {
        public long position;
        public long q0, q1, q2, q3, q4, q5, q6, q7;
    }

    /** Superclass fields come first in an object: the padding before RingIndex.position. */
    public abstract static class RingIndexPad {
        public long p0, p1, p2, p3, p4, p5, p6, p7;
    }

    /** A ring of capacity cells (checked by the caller), frozen only by holders of gate. */
    public SequencedRing(int capacity, ReentrantLock gate) {
        this.capacity = capacity;
        this.gate = gate;
        this.mask = Integer.bitCount(capacity) == 1 ? capacity - 1 : -1;
        this.items = new Object[capacity];
        this.sequences = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            sequences[i] = free(i); // every cell free for its first lap
        }
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

    public int capacity() {
        return capacity;
    }

    // ---- the lock-free fast paths ----

    /** Inserts e if there is room: OFFERED, FULL, or REFUSED when closed. */
    public int offer(Object e) {
        for (int waits = 0; ; ) {
            long t = (long) POSITION.getVolatile(tail);
            if ((t & FLAGS) != 0) {
                if ((t & CLOSED) != 0) {
                    return REFUSED;
                }
                awaitThaw();
                continue;
            }
            int cell = index(t);
            int lag = (int) SEQUENCES.getAcquire(sequences, cell) - free(t); // pairs with setRelease in poll
            if (lag == 0 && POSITION.compareAndSet(tail, t, t + 1)) {
                items[cell] = e;
                SEQUENCES.setRelease(sequences, cell, full(t)); // publishes e: pairs with getAcquire in poll
                return OFFERED;
            }
            if (lag < 0) {
                if (fullAt(t)) {
                    return FULL;
                }
                Spinner.pauseForPartner(waits++); // a consumer is releasing this cell
            } else if (lag == 0) {
                Thread.onSpinWait(); // lost the CAS to another producer, which took t: try t + 1
            } // else t is stale: read it again
        }
    }

    /** Removes the oldest element, or returns null if the ring was empty at some instant. */
    public Object poll() {
        for (int waits = 0; ; ) {
            long h = (long) POSITION.getVolatile(head);
            if ((h & FROZEN) != 0) {
                awaitThaw();
                continue;
            }
            int cell = index(h);
            int lag = (int) SEQUENCES.getAcquire(sequences, cell) - full(h); // pairs with setRelease in offer
            if (lag == 0 && POSITION.compareAndSet(head, h, h + 1)) {
                Object e = items[cell];
                items[cell] = null;
                // frees the cell for the next lap, after the read and the null store above:
                // pairs with getAcquire in offer
                SEQUENCES.setRelease(sequences, cell, free(h + capacity));
                return e;
            }
            if (lag < 0) {
                if (emptyAt(h)) {
                    return null;
                }
                Spinner.pauseForPartner(waits++); // a producer is publishing this cell
            } else if (lag == 0) {
                Thread.onSpinWait(); // lost the CAS to another consumer, which took h: try h + 1
            } // else h is stale: read it again
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

    /**
     * Whether the ring looks empty now: a hint, but read with volatile reads of head and then
     * tail, so that it can serve as a waiter's re-check (Waiters) after the count. False while a
     * producer has claimed a cell and not yet published it.
     */
    public boolean looksEmpty() {
        return emptyAt(position(head));
    }

    /** Whether the ring looks full now: as looksEmpty, reading tail and then head. */
    public boolean looksFull() {
        return fullAt(position(tail));
    }

    private static long position(RingIndex index) {
        return (long) POSITION.getVolatile(index) & ~FLAGS;
    }

    /**
     * Waits while a frozen operation holds the cells.
     *
     * @throws IllegalStateException if the caller holds gate: it froze the ring itself and
     *         called back in, and would wait for its own thaw for ever
     */
    private void awaitThaw() {
        // Only a gate holder freezes, and its thaw precedes its unlock, so a holder that reads
        // FROZEN froze the ring itself (the lock orders any other holder's thaw before this read).
        if (gate.isHeldByCurrentThread()) {
            throw calledFromInsideAFreeze();
        }
        gate.lock(); // freeze() to thaw() runs entirely under gate
        gate.unlock();
    }

    private static IllegalStateException calledFromInsideAFreeze() {
        return new IllegalStateException("the ring buffer was called from inside one of its own operations that"
                + " stop puts and takes (a drainTo target's add, or the equals that remove(Object) asks)");
    }

    /** The elements inside, between 0 and capacity, from a consistent pair of positions. */
    public int size() {
        while (true) {
            long h = position(head);
            long t = position(tail);
            if (h == position(head)) { // head did not move while tail was read
                return (int) Math.max(0L, Math.min(capacity, t - h));
            }
        }
    }

    /**
     * The stamp of the first element from head on that has one, or {@code Long.MAX_VALUE}: a
     * walk of the cells between head and tail that neither claims nor waits. A cell counts only
     * while its sequence says it is full for the position walked (read with acquire, which pairs
     * with the producer's setRelease in offer, so the element read after it is the one published);
     * a cell emptied or refilled meanwhile is passed over or read as it was.
     *
     * @param stampOf an element's stamp, or {@code Long.MAX_VALUE} for an element without one
     */
    public long oldestStamp(ToLongFunction<Object> stampOf) {
        long h = position(head);
        for (long p = h, t = Math.min(position(tail), h + capacity); p < t; p++) {
            int cell = index(p);
            if ((int) SEQUENCES.getAcquire(sequences, cell) == full(p)) {
                Object e = items[cell];
                long stamp = e == null ? Long.MAX_VALUE : stampOf.applyAsLong(e);
                if (stamp != Long.MAX_VALUE) {
                    return stamp;
                }
            }
        }
        return Long.MAX_VALUE;
    }

    /** Refuses every later insert; every insert that succeeded precedes this. */
    public void close() {
        POSITION.getAndBitwiseOr(tail, CLOSED); // makes every later CAS of offer on tail fail: its partner
    }

    // ---- frozen: the caller holds gate from freeze() to thaw() ----

    /**
     * Stops the fast paths and waits for the claims made before it to be released; returns the
     * positions {head, tail}. Call only when holding gate; end with thaw().
     */
    public long[] freeze() {
        // assert gate.isHeldByCurrentThread();
        long frozenTail = (long) POSITION.getAndBitwiseOr(tail, FROZEN);
        if ((frozenTail & FROZEN) != 0) { // frozen already, by this gate holder: a nested thaw would end it early
            throw calledFromInsideAFreeze();
        }
        long t = frozenTail & ~FLAGS;
        long h = (long) POSITION.getAndBitwiseOr(head, FROZEN) & ~FLAGS;
        for (long p = h; p < h + capacity; p++) {
            int settled = p < t ? full(p) : free(p); // full below tail, free from tail on
            for (int k = 0; (int) SEQUENCES.getAcquire(sequences, index(p)) != settled; k++) {
                Spinner.pauseForPartner(k); // pairs with the setRelease of the producer or consumer still in flight
            }
        }
        return new long[] {h, t};
    }

    /** Ends a freeze with head at newHead (tail unchanged), releasing the fast paths. */
    public void thaw(long newHead) {
        long t = (long) POSITION.getVolatile(tail) & ~FROZEN;
        POSITION.setVolatile(tail, t); // publishes the rewritten cells: pairs with getVolatile in the fast paths
        POSITION.setVolatile(head, newHead);
    }

    /** The element at position p. Call only while frozen, with p in [head, tail). */
    public Object elementAt(long p) {
        return items[index(p)];
    }

    /** The elements at positions [from, to), in order. Call only while frozen. */
    public List<Object> elements(long from, long to) {
        List<Object> inside = new ArrayList<>((int) (to - from));
        for (long p = from; p < to; p++) {
            inside.add(items[index(p)]);
        }
        return inside;
    }

    /**
     * Keeps the given elements (in order, at most those from h to t) as the newest, freeing the
     * cells below them; returns the new head for thaw(). Call only while frozen.
     */
    public long keepOnly(List<Object> kept, long h, long t) {
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
        return newHead;
    }
}
