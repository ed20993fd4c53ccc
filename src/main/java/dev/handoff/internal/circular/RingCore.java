/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;
import dev.handoff.internal.waiting.Waiters;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The {@code core=ring} core of a circular buffer: producers and consumers do not share a lock.
 * A put and a take that find room or an element each claim a cell with one compare-and-set and
 * never block one another; only a thread that must wait, and the operations that look inside
 * (removal by predicate, {@code contains}, {@code peek}, {@code toArray}, {@code drainTo}), take
 * the lock. Those inside operations stop the puts and takes while they run, so they see, and
 * change, one consistent state. Elements leave in the order their inserts took their places; the
 * core allocates nothing per element.
 *
 * @param <E> the type of elements held
 */
public final class RingCore<E> implements BufferCore<E> {
    /*
     * Implementation notes.
     *
     * The cells are a SequencedRing (Vyukov's bounded MPMC queue: a sequence per cell, CAS on
     * head and tail; its notes have the algorithm, the CLOSED and FROZEN flags and the
     * visibility argument). This class adds waiting, closing and the operations that look
     * inside: those hold lock, which is also the ring's gate, and freeze the ring while they run.
     *
     * Waiting (theorem: no lost wake-up; jcstress Handoff_12_Ring, its TwoTakesWakeOnTwoPuts and
     * TwoPutsWakeOnTwoTakes for the burst rule, and WaitersTest) is Waiters' protocol with
     * one wake-up per burst, whose proof is in Waiters' notes: a consumer that must wait takes
     * the lock and waits in notEmpty while the ring looks empty, and after taking an element
     * passes the wake-up on if elements remain; producers waiting for room mirror it with
     * notFull. The state change Waiters asks for is the claiming CAS on tail (a put) or head
     * (a take), a volatile write; the waiter's re-check (stillEmpty, stillFull) reads the other
     * index with a volatile read. A fast path therefore needs no fence of its own: after its CAS
     * it reads the count, which stays in every cache until someone waits. A waiter that finds
     * the other side claimed but not yet released does not park: its next try waits for the
     * release. close() closes the ring (its CLOSED flag), sets closed and signals all, under lock.
     *
     * With spin, a take or put that fails its first try retries for as long as the side's
     * Spinner allows, and only while no thread of its side waits, before it takes the lock.
     *
     * Visibility between writers and readers is provided as follows: each element's release
     * and acquire are the ring's (SequencedRing); the waiters' counts are Waiters', ordered
     * against the indices as described above.
     */

    private static final int OFFERED = SequencedRing.OFFERED, FULL = SequencedRing.FULL,
            REFUSED = SequencedRing.REFUSED;

    /** The cells; lock is its gate. */
    private final SequencedRing ring;

    /** Set once by close(), under lock, with CLOSED in tail; volatile for isClosed(). */
    private volatile boolean closed;

    /** Guards waiting, closing and the inside operations; never taken by a put or take that succeeds at once. */
    private final ReentrantLock lock = new ReentrantLock();

    /** Consumers waiting for an element: signalled once per burst of puts. */
    private final Waiters notEmpty;

    /** Producers waiting for room: signalled once per burst of takes. */
    private final Waiters notFull;

    /** The consumers' re-check, a volatile read of tail after the count (Waiters). */
    private final BooleanSupplier stillEmpty;

    /** The producers' re-check, a volatile read of head after the count (Waiters). */
    private final BooleanSupplier stillFull;

    /** Whether take() and put() may retry before they take the lock to wait. */
    private final boolean spin;

    /** One per side, used only with spin: Spinner.latencyFirst(), as wait=spin asks. */
    private final Spinner takeSpinner = Spinner.latencyFirst(), putSpinner = Spinner.latencyFirst();

    private final Counters counters;

    /**
     * @param capacity the number of cells, checked by the caller (at most
     *        {@link SequencedRing#MAX_CAPACITY})
     * @param spin whether put() and take() may spin before they wait
     * @param counters where to count inserts, removals and waits
     * @param owner the buffer, named when a thread parks
     */
    public RingCore(int capacity, boolean spin, Counters counters, Object owner) {
        this.ring = new SequencedRing(capacity, lock);
        this.stillEmpty = ring::looksEmpty;
        this.stillFull = ring::looksFull;
        this.spin = spin;
        this.counters = counters;
        this.notEmpty = Waiters.oneWakeUpPerBurst(lock, Parking.TAKE, owner);
        this.notFull = Waiters.oneWakeUpPerBurst(lock, Parking.PUT, owner);
    }

    // ---- the fast paths: the ring's, then a wake-up if someone waits ----

    /** Inserts e if there is room: OFFERED, FULL, or REFUSED when closed. */
    private int tryOffer(E e) {
        int result = ring.offer(e);
        if (result == OFFERED) {
            afterPut();
        }
        return result;
    }

    /** Removes the oldest element, or returns null if the ring was empty at some instant. */
    @SuppressWarnings("unchecked")
    private E tryPoll() {
        E e = (E) ring.poll();
        if (e != null) {
            afterTake();
        }
        return e;
    }

    private void afterPut() {
        counters.countInsert();
        notEmpty.signalOne(); // after ring.offer's CAS on tail, as Waiters requires: no fence needed
    }

    private void afterTake() {
        counters.countRemoval();
        notFull.signalOne(); // after ring.poll's CAS on head, as Waiters requires: no fence needed
    }

    // ---- waiting (see the notes) ----

    /**
     * With spin, spins as the spinner allows while no other consumer waits, until the ring shows an
     * element (or closes, which ends the spin), then polls once; null if nothing came or another
     * consumer took it.
     */
    private E spinPoll() {
        if (!spin || notEmpty.any() || !takeSpinner.spinUntil(this, 0L, RingCore::element, RingCore::isClosed)) {
            return null;
        }
        return tryPoll();
    }

    /** As spinPoll, for room: OFFERED, FULL (nothing came, or another producer took it) or REFUSED. */
    private int spinOffer(E e) {
        if (!spin || notFull.any() || !putSpinner.spinUntil(this, 0L, RingCore::room, RingCore::isClosed)) {
            return FULL;
        }
        return tryOffer(e);
    }

    /** The consumers' spin condition: volatile reads, hints; the ring's CAS decides. */
    private static boolean element(RingCore<?> core, long unused) {
        return !core.ring.looksEmpty();
    }

    /** The producers' spin condition: volatile reads, hints; the ring's CAS decides. */
    private static boolean room(RingCore<?> core, long unused) {
        return !core.ring.looksFull();
    }

    /** Whether the core is closed (volatile), which ends a spin. */
    private static boolean isClosed(RingCore<?> core, long unused) {
        return core.closed;
    }

    /**
     * Waits for an element under lock. Returns it, or null when the ring is closed and empty, or
     * timed and the time ran out.
     */
    private E awaitElement(boolean timed, long nanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (true) {
                boolean closedBefore = closed; // read before the try: closed and then empty is final
                E e = tryPoll();
                if (e != null) {
                    if (!ring.looksEmpty()) {
                        notEmpty.signalOneHeld(); // pass the wake-up on: more elements (Waiters' burst rule)
                    }
                    return e;
                }
                if (closedBefore || (timed && nanos <= 0L)) {
                    return null;
                }
                counters.consumerWait();
                nanos = notEmpty.await(stillEmpty, timed, nanos);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits for room under lock: OFFERED, REFUSED when closed, FULL when timed out. */
    private int awaitRoom(E e, boolean timed, long nanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (true) {
                int result = tryOffer(e);
                if (result == OFFERED && !ring.looksFull()) {
                    notFull.signalOneHeld(); // pass the wake-up on: more room (Waiters' burst rule)
                }
                if (result != FULL || (timed && nanos <= 0L)) {
                    return result;
                }
                counters.producerWait();
                nanos = notFull.await(stillFull, timed, nanos);
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- inserting ----

    @Override
    public boolean offer(E e) {
        return tryOffer(e) == OFFERED;
    }

    @Override
    public boolean put(E e) throws InterruptedException {
        return insert(e, false, 0L);
    }

    @Override
    public boolean offer(E e, long nanos) throws InterruptedException {
        return insert(e, true, nanos);
    }

    /** The put and the timed offer: false when closed, or timed and out of time; throws if interrupted. */
    private boolean insert(E e, boolean timed, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        int result = tryOffer(e);
        if (result == FULL && !timed) {
            result = spinOffer(e);
        }
        if (result == FULL && (!timed || nanos > 0L)) {
            result = awaitRoom(e, timed, nanos);
        }
        return result == OFFERED; // else REFUSED (closed), or FULL: out of time
    }

    // ---- removing ----

    @Override
    public E poll() {
        return tryPoll();
    }

    @Override
    public E take() throws InterruptedException {
        return remove(false, 0L);
    }

    @Override
    public E poll(long nanos) throws InterruptedException {
        return remove(true, nanos);
    }

    /** The take and the timed poll: null when closed and empty, or timed and out of time; throws if interrupted. */
    private E remove(boolean timed, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        E e = tryPoll();
        if (e == null && !timed) {
            e = spinPoll();
        }
        return e != null || (timed && nanos <= 0L) ? e : awaitElement(timed, nanos);
    }

    // ---- the inside operations: under lock, with the cells frozen ----

    /** Counts and signals for the cells an inside operation freed. Call only when holding lock. */
    private void freed(long cells) {
        counters.countRemovals((int) cells);
        if (cells > 0) {
            notFull.signalOneHeld(); // the woken producer passes it on while room is left
        }
    }

    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        lock.lock();
        try {
            long[] frozen = ring.freeze();
            long h = frozen[0], t = frozen[1];
            long to = h + Math.min(maxElements, t - h);
            long p = h;
            try {
                for (; p < to; p++) {
                    @SuppressWarnings("unchecked")
                    E e = (E) ring.elementAt(p);
                    target.add(e); // if this throws, e is still inside: nothing is lost
                }
            } finally {
                ring.thaw(ring.keepOnly(ring.elements(p, t), h, t));
                freed(p - h);
            }
            return (int) (p - h);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean removeFirst(Predicate<Object> match) {
        return removeWhere(match, true) > 0;
    }

    @Override
    public int removeMatching(Predicate<Object> match) {
        return removeWhere(match, false);
    }

    /** Removes the first (or every) element match accepts; asks about each before changing anything. */
    private int removeWhere(Predicate<Object> match, boolean firstOnly) {
        lock.lock();
        try {
            long[] frozen = ring.freeze();
            long h = frozen[0], t = frozen[1];
            List<Object> inside = ring.elements(h, t);
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
                newHead = ring.keepOnly(kept, h, t);
            } finally {
                ring.thaw(newHead);
                freed(newHead - h);
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
            long[] frozen = ring.freeze();
            try {
                return ring.elements(frozen[0], frozen[1]).toArray();
            } finally {
                ring.thaw(frozen[0]);
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
    public long oldestStamp(ToLongFunction<Object> stampOf) {
        return ring.oldestStamp(stampOf);
    }

    @Override
    public int size() {
        return ring.size();
    }

    @Override
    public int remainingCapacity() {
        return ring.capacity() - ring.size();
    }

    @Override
    public int capacity() {
        return ring.capacity();
    }

    // ---- closing ----

    @Override
    public void close() {
        lock.lock();
        try {
            ring.close(); // every insert that succeeded precedes this
            closed = true;
            notEmpty.signalAllHeld(); // consumers: take what is left, or see closed-and-empty
            notFull.signalAllHeld();  // producers: put refused, the timed offer returns false
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
