/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.guard.ReentryGuard;
import dev.handoff.internal.linked.Chunk;
import dev.handoff.internal.observe.CountedHandoffs;
import dev.handoff.internal.waiting.Spin;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Waiters;

import java.util.Arrays;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A bounded FIFO handoff on a linked list of array chunks with one lock for producers and another
 * for consumers, so that a put and a take run in parallel except when the queue is empty or full.
 *
 * <p>Elements leave in the order they arrived. They are stored in chunks of up to 64 slots, reused
 * once the consumers have emptied them, so a steady stream of inserts allocates nothing.
 * {@code remove(Object)} closes the gap by moving the elements behind it forward, taking time
 * proportional to the size. Operations
 * that need the whole list ({@code remove(Object)}, {@code contains}, {@code toArray},
 * iteration, {@code clear}) take both locks.
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
public class LockSplitQueue<E> extends AbstractHandoff<E> {
    /*
     * Implementation notes.
     *
     * The two-lock queue of Michael and Scott ("Simple, fast, and practical non-blocking and
     * blocking concurrent queue algorithms", PODC 1996), bounded as
     * java.util.concurrent.LinkedBlockingQueue is, but with a count per end instead of one
     * shared count (see "Counting"); the lock-split server design of the papers
     * (shared/seeds 001, section 3.5). Each list node is a chunk of chunkSize slots, filled
     * front to back, so a producer allocates once per chunk rather than once per element and a
     * consumer reads a run of elements from a few cache lines rather than from one node each.
     *
     *   takeEnd: chunk (head)  index (takeIndex)       putEnd: chunk (last)   index (putIndex)
     *             v                v                                  v                v
     *            [ null null e1 e2 ... ] -> [ e.. ... ] -> ... -> [ .. en null ... ] -> null
     *
     * Invariants:
     *   the elements, in order, are the slots from (head, takeIndex) up to (last, putIndex);
     *   every other slot of the chain is null; only consumers move takeEnd, under takeLock; only
     *   producers move putEnd, under putLock; last.next == null; takeIndex == chunkSize only while
     *   the first element (if any) is in head.next: a consumer moves to the next chunk when it
     *   takes from it, since head.next may not exist before;
     *   size = puts - takes, where puts = putEnd.passed and takes = takeEnd.passed;
     *   0 <= puts - takes <= capacity (see "Counting").
     *
     * Counting. A shared count, written by both sides on every element, would pull one cache line
     * back and forth between producers and consumers per element, whatever else they do. Here
     * each end counts the elements that passed it (puts, takes: longs that never wrap), and each
     * side keeps a copy of the other's count (otherSeen), re-read only when the copy says it must
     * stop: a producer re-reads takes only when puts - its copy reaches capacity, a consumer
     * re-reads puts only when its copy equals takes. The copies lag, never lead (counts only
     * grow), so what a copy shows is there: a producer that sees room by its copy has it, and a
     * consumer that sees an element by its copy has one. Hence 0 <= puts - takes <= capacity: a
     * producer increments puts only after seeing room, a consumer increments takes only after
     * seeing an element. A producer that streams into a queue with room never reads the
     * consumers' line, and a consumer that finds a run of elements reads the producers' line once
     * per run. Unlocked readers (size, poll's and peek's first look) read takes before puts: since
     * takes never passes puts, puts read later is at least takes read earlier, so the difference
     * is never negative; size() caps it at capacity, which concurrent removals and inserts between
     * the two reads could exceed.
     *
     * Signalling. A producer holds only putLock and a consumer only takeLock, so each signals the
     * other side by briefly taking the other lock. Neither side knows, without reading the other's
     * line, whether its insert or removal was the one that ended emptiness or fullness; so each
     * side counts its parked threads (class Waiters: consumers, producers) and the other side
     * takes the lock to signal only when that count is positive. The state change is the volatile
     * write of passed, which precedes the other side's read of the waiter count; a waiter counts
     * itself and then re-reads the other end's passed (volatile) before it parks: the Dekker
     * handshake whose proof is in Waiters. Both sides wake one thread per burst
     * (Waiters.oneWakeUpPerBurst): while a woken thread is on its way, no further signal is sent,
     * and a thread that proceeds passes the wake-up on (a put that leaves room to the next
     * waiting producer, a take that leaves elements to the next waiting consumer), re-reading the
     * other end's count when its copy says nothing is left, as the burst rule requires.
     *
     * No spinning before parking, unlike the other three kinds (class Spin). A consumer that
     * spins while the queue is empty takes each element the moment it is linked, so it works at
     * the producer's heels: the slot, the count and this object's fields cross between the CPUs
     * on every element. A consumer that parks instead lets the producer run ahead alone, and
     * then drains a run of elements the producer linked while it was waking up; the wake-up is
     * paid once per run, not per element, and spinning lost throughput in every shape
     * (docs/benchmarks.md, "Why each kind waits as it does"). The price is latency: an element put into an empty queue
     * waits for a wake-up, as in LinkedBlockingQueue; the circular buffer and the pipe spin for
     * callers who need the round trip.
     *
     * Layout. Each end (chunk, index, passed, otherSeen) is an object of its own, padded so that
     * the two ends never share a cache line (Chunk.End): each is written on every element by its
     * own side alone. This object's fields are written once (closed, at close) or never.
     *
     * Close. closed is written under putLock, and producers read it under putLock, so an insert
     * either completed before the close or sees it. Consumers read closed before puts: a consumer
     * that reads closed == true then sees every increment of puts by the inserts that completed
     * before the close (they happen-before the write of closed through putLock), so it reports
     * "closed and empty" only when that is true. close() then signals all waiters on both sides,
     * each under its own lock, so a thread between its check and its await cannot miss it.
     *
     * Visibility between writers and readers is provided as follows: a producer stores the
     * element in its slot (and, when it opens a chunk, links it through last.next), all plain
     * writes, and then writes puts (volatile); a consumer reads puts (volatile) before it reads a
     * slot or head.next, so the slot and link written before the write are visible to it. A
     * consumer that uses the copy another consumer read sees them too: that read, the copy and
     * the slot reads are ordered through takeLock. Producer and consumer share a chunk without
     * sharing a slot: the producer writes only slots at and after putIndex, the consumer reads and
     * clears only slots before the puts it read, which are before putIndex.
     *
     * Recycling. The consumer that leaves a chunk (every slot taken and cleared, no longer
     * reachable from head or last) gives it to spares, where the next producer that needs a
     * chunk finds it, so a steady stream allocates nothing (Chunk.Spares says how it is safe).
     */

    /** Slots per chunk, unless the capacity is smaller. */
    static final int CHUNK_SIZE = 64;

    /** The bound. */
    private final int capacity;

    /** Slots per chunk of this queue: min(CHUNK_SIZE, capacity). */
    private final int chunkSize;

    /**
     * The consumers' end, guarded by takeLock (but for the volatile read of takes): chunk is
     * head, the chunk of the first element; index is takeIndex, its slot, which equals chunkSize
     * when the first element is in head.next (head advances lazily, at the next removal); passed
     * is takes; otherSeen is the consumers' copy of puts.
     */
    private final Chunk.End takeEnd = new Chunk.End();

    /**
     * The producers' end, guarded by putLock (but for the volatile read of puts): chunk is last,
     * the chunk of the last element, with last.next == null; index is putIndex, its next free
     * slot, chunkSize when last is full; passed is puts; otherSeen is the producers' copy of takes.
     */
    private final Chunk.End putEnd = new Chunk.End();

    /** Chunks the consumers left, for the producers (see "Recycling"). */
    private final Chunk.Spares spares = new Chunk.Spares();

    /** Set once by close(), under putLock; volatile so that consumers and isClosed() see it. */
    private volatile boolean closed;

    /** Held by take, poll and every removal. */
    private final ReentrantLock takeLock = new ReentrantLock();

    /** Refuses calls from the code that drainTo and remove(Object) run under takeLock. */
    private final ReentryGuard reentry = new ReentryGuard(takeLock);

    /** Consumers parked on takeLock while the queue is empty, woken one per burst (notes). */
    private final Waiters consumers = Waiters.oneWakeUpPerBurst(takeLock, Parking.TAKE, this);

    /** Held by put, offer and every insert. */
    private final ReentrantLock putLock = new ReentrantLock();

    /** Producers parked on putLock while the queue is full, woken one per burst (notes). */
    private final Waiters producers = Waiters.oneWakeUpPerBurst(putLock, Parking.PUT, this);

    /**
     * The waiters' re-checks after counting themselves: volatile reads of the other end's count
     * (and of closed), never the copy.
     */
    private final BooleanSupplier stillFull = this::isFull;
    private final BooleanSupplier stillEmpty = () -> putEnd.passed == takeEnd.passed;
    private final BooleanSupplier stillEmptyAndOpen = () -> stillEmpty.getAsBoolean() && !closed;

    /**
     * The largest capacity a queue accepts: {@code Integer.MAX_VALUE}, as for
     * {@link java.util.concurrent.LinkedBlockingQueue}. Chunks are allocated as elements arrive,
     * never up front, so a queue of this capacity costs no more to build than a small one.
     */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE;

    /**
     * Creates a queue of the given capacity that does not count statistics.
     *
     * @param capacity the number of elements it holds, at most {@link #MAX_CAPACITY}
     * @throws IllegalArgumentException if {@code capacity <= 0}
     */
    public LockSplitQueue(int capacity) {
        this(capacity, false);
    }

    /**
     * Creates a queue of the given capacity.
     *
     * @param capacity the number of elements it holds
     * @param countStats whether {@link #stats()} counts puts, takes and waits
     * @throws IllegalArgumentException if {@code capacity <= 0}
     */
    @SuppressWarnings("this-escape") // registers itself with CountedHandoffs, last (see there)
    public LockSplitQueue(int capacity, boolean countStats) {
        super(countStats);
        this.capacity = checkCapacity(capacity, "LockSplitQueue");
        this.chunkSize = Math.min(CHUNK_SIZE, capacity);
        takeEnd.chunk = putEnd.chunk = new Chunk(chunkSize);
        CountedHandoffs.register(this); // last: JFR's dev.handoff.Stats reads it from another thread
    }

    // ---- list operations; each names the lock its caller holds ----

    /** Stores e in the next free slot, linking a new chunk if last is full. Call holding putLock. */
    private void enqueue(E e) {
        // assert putLock.isHeldByCurrentThread() && room() > 0;
        Chunk.End end = putEnd;
        if (end.index == chunkSize) {
            Chunk next = spares.take(chunkSize);
            end.chunk.next = next; // plain: published with e by the write of puts in insert()
            end.chunk = next;
            end.index = 0;
        }
        end.chunk.items[end.index++] = e; // plain: published by the write of puts in insert()
    }

    /** Removes and returns the first element. Call only holding takeLock, with available() > 0. */
    @SuppressWarnings("unchecked")
    private E dequeue() {
        // assert takeLock.isHeldByCurrentThread() && available() > 0;
        Chunk.End end = takeEnd;
        if (end.index == chunkSize) {
            Chunk used = end.chunk;
            end.chunk = used.next; // not null: the first element is in it
            end.index = 0;
            spares.give(used); // every slot taken and cleared
        }
        Object[] items = end.chunk.items;
        E e = (E) items[end.index];
        items[end.index++] = null;
        return e;
    }

    /** The first element, left in place. Call only holding takeLock, with available() > 0. */
    @SuppressWarnings("unchecked")
    private E first() {
        Chunk.End end = takeEnd;
        return (E) (end.index == chunkSize ? end.chunk.next.items[0] : end.chunk.items[end.index]);
    }

    /**
     * How many more elements the producers may insert: by their copy of takes, re-read when the
     * copy says the queue is full (see "Counting"). Call only when holding putLock.
     */
    private long room() {
        Chunk.End end = putEnd;
        long room = capacity - (end.passed - end.otherSeen);
        if (room <= 0) {
            end.otherSeen = takeEnd.passed; // volatile read: pairs with the write in extract()
            room = capacity - (end.passed - end.otherSeen);
        }
        return room;
    }

    /**
     * How many elements the consumers may take, at least: by their copy of puts, re-read when the
     * copy says the queue is empty (see "Counting"). Call only when holding takeLock.
     */
    private long available() {
        long available = takeEnd.otherSeen - takeEnd.passed;
        return available > 0 ? available : availableNow();
    }

    /** How many elements the consumers may take, by puts re-read. Call only holding takeLock. */
    private long availableNow() {
        Chunk.End end = takeEnd;
        // volatile read: pairs with the write in insert(), and publishes the slots it counts
        end.otherSeen = putEnd.passed;
        return end.otherSeen - end.passed;
    }

    /**
     * Adds n to an end's count: a volatile write, so that the other side reading it sees what was
     * done before, and so that it precedes this side's read of the other side's waiter count
     * (the Dekker handshake in Waiters). Call only when holding that end's lock.
     */
    private static void pass(Chunk.End end, long n) {
        end.passed = end.passed + n; // only this side writes it, under its lock: no update is lost
    }

    /**
     * Takes both locks, putLock first, after refusing a call back from drainTo's target, which
     * holds takeLock: taking putLock then would invert the order and could deadlock.
     */
    private void fullyLock() {
        reentry.check();
        putLock.lock();
        takeLock.lock();
    }

    private void fullyUnlock() {
        takeLock.unlock();
        putLock.unlock();
    }

    /** Whether a consumer that found the queue empty should give up. Call holding takeLock. */
    private boolean closedAndDrained() {
        return closed && available() == 0; // closed first: see "Close" in the notes
    }

    /** Whether the queue was empty at some moment during the call, read without a lock. */
    private boolean looksEmpty() {
        long takes = takeEnd.passed; // first: see "Counting"
        return putEnd.passed == takes;
    }

    // ---- inserting ----

    @Override
    public boolean offer(E e) {
        checkElement(e);
        reentry.check(); // before putLock: a drainTo target holds takeLock (see fullyLock)
        putLock.lock();
        try {
            if (closed || room() == 0) {
                return false; // closed: refused, and the element stays with the caller
            }
            insert(e);
        } finally {
            putLock.unlock();
        }
        afterInsert();
        return true;
    }

    @Override
    public void put(E e) throws InterruptedException {
        checkElement(e);
        reentry.check(); // before putLock: a drainTo target holds takeLock (see fullyLock)
        putLock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            ensureOpen();
            while (room() == 0) {
                awaitNotFull();
                ensureOpen();
            }
            insert(e);
        } finally {
            putLock.unlock();
        }
        afterInsert();
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        checkElement(e);
        long nanos = unit.toNanos(timeout);
        reentry.check(); // before putLock: a drainTo target holds takeLock (see fullyLock)
        putLock.lockInterruptibly();
        try {
            while (!closed && room() == 0) {
                if (nanos <= 0L) {
                    return false;
                }
                nanos = awaitNotFull(nanos);
            }
            if (closed) {
                return false; // also when woken by close(): the element stays with the caller
            }
            insert(e);
        } finally {
            putLock.unlock();
        }
        afterInsert();
        return true;
    }

    /** Stores e and counts it. Call only when holding putLock, with room() > 0. */
    private void insert(E e) {
        enqueue(e);
        pass(putEnd, 1); // publishes e and a chunk it linked: pairs with the read in availableNow()
        counters.countInsert();
        // the waiter count is stable under putLock; room() re-reads takes if the copy says full
        if (producers.any() && room() > 0) {
            producers.signalOneHeld(); // pass the wake-up on: room for the next waiting one
        }
    }

    /** Called after releasing putLock: wakes a consumer if one is parked and none on its way. */
    private void afterInsert() {
        consumers.signalOne(); // after the write of puts in insert(), as Waiters requires
    }

    /** Whether the queue is full by puts and takes both read (volatile), not by the copy. */
    private boolean isFull() {
        return putEnd.passed - takeEnd.passed >= capacity;
    }

    /**
     * Parks until signalled, announcing the wait first. Call only when holding putLock, having
     * seen the queue full; the caller re-checks.
     */
    private void awaitNotFull() throws InterruptedException {
        counters.producerWait();
        producers.await(stillFull);
    }

    /** As awaitNotFull(), for at most nanos; returns the time left. */
    private long awaitNotFull(long nanos) throws InterruptedException {
        counters.producerWait();
        return producers.awaitNanos(stillFull, nanos);
    }

    // ---- removing ----

    @Override
    public E poll() {
        if (looksEmpty()) {
            return null; // no lock when plainly empty
        }
        E e;
        takeLock.lock();
        try {
            reentry.check();
            if (available() == 0) {
                return null;
            }
            e = dequeue();
            extract();
        } finally {
            takeLock.unlock();
        }
        afterExtract();
        return e;
    }

    @Override
    public E take() throws InterruptedException {
        E e;
        takeLock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            reentry.check();
            while (available() == 0) {
                if (!closedAndDrained()) {
                    awaitNotEmpty();
                } else if (calledByPoolWorker()) {
                    consumers.await(stillEmpty); // a pool worker waits on, as if open (Handoff): only an interrupt ends this
                } else {
                    throw closedAndEmpty();
                }
            }
            e = dequeue();
            extract();
        } finally {
            takeLock.unlock();
        }
        afterExtract();
        return e;
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        E e;
        takeLock.lockInterruptibly();
        try {
            reentry.check();
            while (available() == 0) {
                if (nanos <= 0L || closedAndDrained()) {
                    return null;
                }
                nanos = awaitNotEmpty(nanos);
            }
            e = dequeue();
            extract();
        } finally {
            takeLock.unlock();
        }
        afterExtract();
        return e;
    }

    /** Counts one removal. Call only when holding takeLock, right after dequeue(). */
    private void extract() {
        pass(takeEnd, 1); // the slot was cleared before: pairs with the read of takes in room()
        counters.countRemoval();
        // the waiter count is stable under takeLock; available() re-reads puts if the copy is used
        if (consumers.any() && available() > 0) {
            consumers.signalOneHeld(); // pass the wake-up on: elements for the next waiting one
        }
    }

    /** Called after releasing takeLock: wakes a producer if one is parked and none on its way. */
    private void afterExtract() {
        producers.signalOne(); // after the write of takes in extract(), as Waiters requires
    }

    /**
     * Parks until signalled, announcing the wait first. Call only when holding takeLock, having
     * seen the queue empty; the caller re-checks.
     */
    private void awaitNotEmpty() throws InterruptedException {
        counters.consumerWait();
        consumers.await(stillEmptyAndOpen);
    }

    /** As awaitNotEmpty(), for at most nanos; returns the time left. */
    private long awaitNotEmpty(long nanos) throws InterruptedException {
        counters.consumerWait();
        return consumers.awaitNanos(stillEmptyAndOpen, nanos);
    }

    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        if (maxElements <= 0) {
            return 0;
        }
        int moved = 0;
        takeLock.lock();
        try {
            reentry.check();
            long n = Math.min(maxElements, availableNow()); // all there are, not the copy's count
            try {
                while (moved < n) {
                    reentry.add(target, first()); // if this throws, the element is still inside
                    dequeue();
                    moved++;
                }
            } finally {
                pass(takeEnd, moved); // as in extract()
                counters.countRemovals(moved);
            }
        } finally {
            takeLock.unlock();
        }
        if (moved > 0) {
            producers.signalOne(); // after the write of takes above, as Waiters requires
        }
        return moved;
    }

    @Override
    boolean removeFirst(Predicate<Object> match) {
        fullyLock();
        try {
            return removeWhere(match, 1) == 1;
        } finally {
            fullyUnlock();
        }
    }

    @Override
    int removeMatching(Predicate<Object> match) {
        fullyLock();
        try {
            return removeWhere(match, Integer.MAX_VALUE);
        } finally {
            fullyUnlock();
        }
    }

    /**
     * Removes the first {@code limit} elements that match, closing the gaps: the elements behind
     * each one move forward, in order. Returns how many it removed. If match throws, what it
     * removed so far stays removed and the rest stay in order. Call only when holding both locks.
     */
    private int removeWhere(Predicate<Object> match, int limit) {
        Chunk.Cursor from = new Chunk.Cursor(takeEnd.chunk, takeEnd.index);
        Chunk.Cursor to = new Chunk.Cursor(takeEnd.chunk, takeEnd.index);
        int unread = lockedSize(), removed = 0;
        try {
            for (; unread > 0 && removed < limit; unread--) {
                Object e = from.peek();
                if (reentry.test(match, e)) {
                    removed++;
                } else {
                    to.put(e);
                }
                from.next();
            }
        } finally {
            for (; unread > 0; unread--) { // the one under test when match threw, and the rest
                to.put(from.next());
            }
            if (removed > 0) {
                truncate(to.chunk(), to.index(), removed);
            }
        }
        return removed;
    }

    /**
     * Ends the list at slot index of chunk end, which drops the chunks after it, clears the slots
     * after it, and counts out the removed elements. Call only when holding both locks.
     */
    private void truncate(Chunk end, int index, int removed) {
        Arrays.fill(end.items, index, chunkSize, null);
        end.next = null;
        putEnd.chunk = end;
        putEnd.index = index;
        counters.countRemovals(removed);
        pass(takeEnd, removed); // counted as taken, so puts - takes stays the size; as in extract()
        producers.signalOneHeld(); // insert() passes the wake-up on to the others room was made for
    }

    /** puts - takes, exactly. Call only when holding both locks. */
    private int lockedSize() {
        return (int) (putEnd.passed - takeEnd.passed);
    }

    @Override
    public void clear() {
        fullyLock();
        try {
            takeEnd.chunk = putEnd.chunk = new Chunk(chunkSize); // the old chain goes to GC whole
            takeEnd.index = putEnd.index = 0;
            int removed = lockedSize();
            pass(takeEnd, removed); // counted as taken; as in extract()
            counters.countRemovals(removed);
            if (removed > 0) {
                producers.signalAllHeld();
            }
        } finally {
            fullyUnlock();
        }
    }

    // ---- looking ----

    @Override
    public E peek() {
        if (looksEmpty()) {
            return null;
        }
        takeLock.lock();
        try {
            return available() > 0 ? first() : null;
        } finally {
            takeLock.unlock();
        }
    }

    @Override
    public boolean contains(Object o) {
        if (o == null) {
            return false;
        }
        fullyLock();
        try {
            for (Object e : elements()) {
                if (o.equals(e)) {
                    return true;
                }
            }
            return false;
        } finally {
            fullyUnlock();
        }
    }

    @Override
    public Object[] toArray() {
        fullyLock();
        try {
            return elements();
        } finally {
            fullyUnlock();
        }
    }

    /** A copy of the elements in order. Call only when holding both locks. */
    private Object[] elements() {
        Object[] copy = new Object[lockedSize()];
        Chunk.Cursor c = new Chunk.Cursor(takeEnd.chunk, takeEnd.index);
        for (int n = 0; n < copy.length; n++) {
            copy[n] = c.next();
        }
        return copy;
    }

    @Override
    public int size() {
        long takes = takeEnd.passed; // first: see "Counting"
        return (int) Math.min(putEnd.passed - takes, capacity);
    }

    @Override
    public int remainingCapacity() {
        return capacity - size();
    }

    @Override
    public HandoffSpec.LockSplit spec() {
        return new HandoffSpec.LockSplit(capacity(), counters.enabled());
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public Ordering ordering() {
        return Ordering.FIFO;
    }

    // ---- closing ----

    @Override
    public void close() {
        reentry.check(); // before putLock, as in fullyLock
        putLock.lock();
        try {
            closed = true;               // under putLock: an insert finished before this, or sees it
            producers.signalAllHeld();   // producers: put throws, the timed offer returns false
        } finally {
            putLock.unlock();
        }
        consumers.signalAll();           // consumers: take what is left, or see closed-and-empty
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
