/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.circular.SequencedRing;
import dev.handoff.internal.observe.CountedHandoffs;
import dev.handoff.internal.waiting.Spin;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Waiters;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
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
 * puts and takes while they run, so they see, and change, one consistent state. The code they
 * call meanwhile (a {@code drainTo} target's {@code add}, the {@code equals} that
 * {@code remove(Object)} asks) must not use this buffer: a put, take or inside operation it makes
 * throws {@link IllegalStateException}, and the operation it was called from changes nothing
 * more. The buffer allocates nothing per element; its capacity is exact.
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
     * The cells are a SequencedRing (Vyukov's bounded MPMC queue: a sequence per cell, CAS on
     * head and tail; its notes have the algorithm, the CLOSED and FROZEN flags and the
     * visibility argument). This class adds waiting, closing and the operations that look
     * inside: those hold lock, which is also the ring's gate, and freeze the ring while they run.
     *
     * Waiting (theorem: no lost wake-up; jcstress Handoff_12_Ring, its TwoTakesWakeOnTwoPuts and
     * TwoPutsWakeOnTwoTakes for the burst rule, and WaitersTest) is Waiters' protocol with
     * one wake-up per burst, whose proof is in Waiters' notes: a consumer that must wait takes
     * the lock and waits in consumers while the ring looks empty, and after taking an element
     * passes the wake-up on if elements remain; producers waiting for room mirror it with
     * producers. The state change Waiters asks for is the claiming CAS on tail (a put) or head
     * (a take), a volatile write; the waiter's re-check (looksEmpty, looksFull) reads the other
     * index with a volatile read. A fast path therefore needs no fence of its own: after its CAS
     * it reads the count, which stays in every cache until someone waits. A waiter that finds
     * the other side claimed but not yet released does not park: its next try waits for the
     * release. close() closes the ring (its CLOSED flag), sets closed and signals all, under lock.
     *
     * Visibility between writers and readers is provided as follows: each element's release
     * and acquire are the ring's (SequencedRing); the waiters' counts are Waiters', ordered
     * against the indices as described above.
     */

    /** The largest capacity a ring accepts: 2^29, so that cell sequences compare as ints. */
    public static final int MAX_CAPACITY = SequencedRing.MAX_CAPACITY;

    private static final int OFFERED = SequencedRing.OFFERED, FULL = SequencedRing.FULL,
            REFUSED = SequencedRing.REFUSED;

    /** The cells; lock is its gate. */
    private final SequencedRing ring;

    /** Set once by close(), under lock, with CLOSED in tail; volatile for isClosed(). */
    private volatile boolean closed;

    /** Guards waiting, closing and the inside operations; never taken by a put or take that succeeds at once. */
    private final ReentrantLock lock = new ReentrantLock();

    /** Consumers waiting for an element: signalled once per burst of puts. */
    private final Waiters consumers = Waiters.oneWakeUpPerBurst(lock, Parking.TAKE, this);

    /** Producers waiting for room: signalled once per burst of takes. */
    private final Waiters producers = Waiters.oneWakeUpPerBurst(lock, Parking.PUT, this);

    /** The consumers' re-check, a volatile read of tail after the count (Waiters). */
    private final BooleanSupplier stillEmpty;

    /** The producers' re-check, a volatile read of head after the count (Waiters). */
    private final BooleanSupplier stillFull;

    private final boolean spin;

    private final Spin.Gate consumerSpin = new Spin.Gate();

    private final Spin.Gate producerSpin = new Spin.Gate();

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
        this.ring = new SequencedRing(checkRingCapacity(capacity), lock);
        this.stillEmpty = ring::looksEmpty;
        this.stillFull = ring::looksFull;
        this.spin = waiting == Waiting.SPIN_THEN_PARK;
        CountedHandoffs.register(this); // last: JFR's dev.handoff.Stats reads it from another thread
    }

    @Override
    public Core core() {
        return Core.RING;
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
        consumers.signalOne(); // after ring.offer's CAS on tail, as Waiters requires: no fence needed
    }

    private void afterTake() {
        counters.countRemoval();
        producers.signalOne(); // after ring.poll's CAS on head, as Waiters requires: no fence needed
    }

    // ---- waiting (see the notes) ----

    /** With SPIN_THEN_PARK, polls for a few microseconds if no other consumer spins or waits. */
    private E spinPoll() {
        if (!spin || consumers.any() || !consumerSpin.tryEnter()) {
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
        if (!spin || producers.any() || !producerSpin.tryEnter()) {
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
            while (true) {
                boolean closedBefore = closed; // read before the try: closed and then empty is final
                E e = tryPoll();
                if (e != null) {
                    if (!ring.looksEmpty()) {
                        consumers.signalOneHeld(); // pass the wake-up on: more elements (Waiters' burst rule)
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
                if (timed) {
                    nanos = consumers.awaitNanos(stillEmpty, nanos);
                } else {
                    consumers.await(stillEmpty);
                }
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
                    producers.signalOneHeld(); // pass the wake-up on: more room (Waiters' burst rule)
                }
                if (result != FULL || (timed && nanos <= 0L)) {
                    return result;
                }
                counters.producerWait();
                if (timed) {
                    nanos = producers.awaitNanos(stillFull, nanos);
                } else {
                    producers.await(stillFull);
                }
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

    /** Counts and signals for the cells an inside operation freed. Call only when holding lock. */
    private void freed(long cells) {
        counters.countRemovals((int) cells);
        if (cells > 0) {
            producers.signalOneHeld(); // the woken producer passes it on while room is left
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
            consumers.signalAllHeld(); // consumers: take what is left, or see closed-and-empty
            producers.signalAllHeld(); // producers: put throws, the timed offer returns false
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
