/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * that; it never spins, which keeps the throughput of one producer and one consumer at
 * LinkedBlockingQueue's. For an element to reach a waiting consumer in under a microsecond, use
 * {@link CircularBuffer} with {@link CircularBuffer.Waiting#SPIN_THEN_PARK} or the pipe handoff.
 * Blocked threads wait on {@link java.util.concurrent.locks.Condition}s, never on a monitor, so
 * a virtual thread blocked here does not pin its carrier.
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
     * blocking concurrent queue algorithms", PODC 1996), bounded with an atomic count as in
     * java.util.concurrent.LinkedBlockingQueue; the lock-split server design of the papers
     * (shared/seeds 001, section 3.5). Each list node is a chunk of chunkSize slots, filled
     * front to back, so a producer allocates once per chunk rather than once per element and a
     * consumer reads a run of elements from a few cache lines rather than from one node each.
     *
     *   head              (takeIndex)                       last    (putIndex)
     *    v                    v                               v         v
     *   [ null null e1 e2 ... ] -> [ e.. ... ] -> ... -> [ .. en null ... ] -> null
     *
     * Invariants:
     *   the elements, in order, are the slots from (head, takeIndex) up to (last, putIndex);
     *   every other slot of the chain is null; only consumers move head and takeIndex, under
     *   takeLock; only producers move last and putIndex, under putLock; last.next == null;
     *   takeIndex == chunkSize only while the first element (if any) is in head.next: a consumer
     *   moves to the next chunk when it takes from it, since head.next may not exist before;
     *   0 <= count <= capacity: only producers increment it, under putLock and only after seeing
     *   count < capacity; only consumers decrement it, under takeLock and only after seeing
     *   count > 0. So size() and remainingCapacity() never leave [0, capacity] even unlocked.
     *
     * Signalling. A producer holds only putLock and a consumer only takeLock, so each signals the
     * other side by briefly taking the other lock, and only at the edge where the other side may
     * be waiting: a put that took count from 0 to 1 signals a waiting consumer, a take that took
     * count from capacity to capacity - 1 signals a waiting producer. To keep those edge signals
     * enough, each side also cascades: a put that leaves room signals the next waiting producer,
     * a take that leaves elements signals the next waiting consumer.
     *
     * Signalling only when someone waits. Taking the other side's lock to signal nobody is most of
     * what a put into an empty queue costs when its consumer is not parked. So each side's parked
     * threads are counted (class Waiters: consumers, producers) and the other side takes the lock
     * to signal only when the count is positive. The state change is the getAndAdd on count
     * (volatile), which precedes the other side's read of the waiter count; a waiter counts itself
     * and then re-reads count (volatile) before it parks: the Dekker handshake whose proof is in
     * Waiters.
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
     * Layout. count is an int field of this object, not an AtomicInteger beside it: both sides
     * write count on every element, and each side also writes its end of the list here
     * (takeIndex, putIndex), so with count on the same cache line an insert or a removal pulls
     * one line from the other side, not two (the AtomicInteger cost about a third of the 1P/1C
     * throughput). Separating the two ends onto different lines would not save a transfer while
     * count, written by both sides, sits on one of them.
     *
     * Close. closed is written under putLock, and producers read it under putLock, so an insert
     * either completed before the close or sees it. Consumers read closed before count: a consumer
     * that reads closed == true then sees every count increment of the inserts that completed
     * before the close (they happen-before the write of closed through putLock), so it reports
     * "closed and empty" only when that is true. close() then signals all waiters on both sides,
     * each under its own lock, so a thread between its check and its await cannot miss it.
     *
     * Visibility between writers and readers is provided as follows: a producer stores the
     * element in its slot (and, when it opens a chunk, links it through last.next), all plain
     * writes, and then increments count; a consumer reads count before it reads a slot or
     * head.next. count is volatile and updated through COUNT.getAndAdd, so the increment (a
     * volatile write) happens-before the read that sees it, and the slot and link written before
     * the increment are visible to the consumer. Producer and consumer share a chunk without
     * sharing a slot: the producer writes only slots at and after putIndex, the consumer reads
     * and clears only slots before the count it read, which are before putIndex.
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

    /** Elements inside. Invariant: 0 <= count <= capacity (see the notes). */
    private volatile int count;

    /** Chunk holding the first element. Guarded by takeLock. */
    private Chunk head;

    /**
     * Slot of the first element in head. Guarded by takeLock. Non-invariant: equals chunkSize
     * when the first element is in head.next (head advances lazily, at the next removal).
     */
    private int takeIndex;

    /** Chunk holding the last element. Guarded by putLock. Invariant: last.next == null. */
    private Chunk last;

    /** Next free slot in last. Guarded by putLock. Equals chunkSize when last is full. */
    private int putIndex;

    /** Chunks the consumers left, for the producers (see "Recycling"). */
    private final Chunk.Spares spares = new Chunk.Spares();

    /** Set once by close(), under putLock; volatile so that consumers and isClosed() see it. */
    private volatile boolean closed;

    /** Held by take, poll and every removal. */
    private final ReentrantLock takeLock = new ReentrantLock();

    /** Refuses calls from the code that drainTo and remove(Object) run under takeLock. */
    private final ReentryGuard reentry = new ReentryGuard(takeLock);

    /** Consumers parked on takeLock while the queue is empty. */
    private final Waiters consumers = new Waiters(takeLock, Wait.TAKE, this);

    /** Held by put, offer and every insert. */
    private final ReentrantLock putLock = new ReentrantLock();

    /** Producers parked on putLock while the queue is full. */
    private final Waiters producers = new Waiters(putLock, Wait.PUT, this);

    /** The waiters' re-checks after counting themselves: volatile reads of count (and closed). */
    private final BooleanSupplier stillFull = this::isFull;
    private final BooleanSupplier stillEmptyAndOpen = () -> count == 0 && !closed;
    private final BooleanSupplier stillEmpty = () -> count == 0;

    private static final VarHandle COUNT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            COUNT = l.findVarHandle(LockSplitQueue.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
        this.head = this.last = new Chunk(chunkSize);
        CountedHandoffs.register(this); // last: JFR's dev.handoff.Stats reads it from another thread
    }

    // ---- list operations; each names the lock its caller holds ----

    /** Stores e in the next free slot, linking a new chunk if last is full. Call holding putLock. */
    private void enqueue(E e) {
        // assert putLock.isHeldByCurrentThread() && count < capacity;
        if (putIndex == chunkSize) {
            Chunk next = spares.take(chunkSize);
            last.next = next; // plain: published with e by the increment of count in insert()
            last = next;
            putIndex = 0;
        }
        last.items[putIndex++] = e; // plain: published by the increment of count in insert()
    }

    /** Removes and returns the first element. Call only when holding takeLock, with count > 0. */
    @SuppressWarnings("unchecked")
    private E dequeue() {
        // assert takeLock.isHeldByCurrentThread() && count > 0;
        if (takeIndex == chunkSize) {
            Chunk used = head;
            head = used.next; // not null: the first element is in it
            takeIndex = 0;
            spares.give(used); // every slot taken and cleared
        }
        Object[] items = head.items;
        E e = (E) items[takeIndex];
        items[takeIndex++] = null;
        return e;
    }

    /** The first element, left in place. Call only when holding takeLock, with count > 0. */
    @SuppressWarnings("unchecked")
    private E first() {
        return (E) (takeIndex == chunkSize ? head.next.items[0] : head.items[takeIndex]);
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

    /** Throws if closed. Call only when holding putLock, before an insert that cannot return false. */
    private void ensureOpen() {
        if (closed) {
            throw closedToInserts();
        }
    }

    /** Whether a consumer that found the queue empty should give up. Call holding takeLock. */
    private boolean closedAndDrained() {
        return closed && count == 0; // closed first: see "Close" in the notes
    }

    // ---- inserting ----

    @Override
    public boolean offer(E e) {
        checkElement(e);
        int before;
        reentry.check(); // before putLock: a drainTo target holds takeLock (see fullyLock)
        putLock.lock();
        try {
            if (closed || count == capacity) {
                return false; // closed: refused, and the element stays with the caller
            }
            before = insert(e);
        } finally {
            putLock.unlock();
        }
        afterInsert(before);
        return true;
    }

    @Override
    public void put(E e) throws InterruptedException {
        checkElement(e);
        int before;
        reentry.check(); // before putLock: a drainTo target holds takeLock (see fullyLock)
        putLock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            ensureOpen();
            while (count == capacity) {
                awaitNotFull();
                ensureOpen();
            }
            before = insert(e);
        } finally {
            putLock.unlock();
        }
        afterInsert(before);
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        checkElement(e);
        long nanos = unit.toNanos(timeout);
        int before;
        reentry.check(); // before putLock: a drainTo target holds takeLock (see fullyLock)
        putLock.lockInterruptibly();
        try {
            while (!closed && count == capacity) {
                if (nanos <= 0L) {
                    return false;
                }
                nanos = awaitNotFull(nanos);
            }
            if (closed) {
                return false; // also when woken by close(): the element stays with the caller
            }
            before = insert(e);
        } finally {
            putLock.unlock();
        }
        afterInsert(before);
        return true;
    }

    /**
     * Stores e and counts it; returns count before the insert. Call only when holding putLock,
     * with count < capacity.
     */
    private int insert(E e) {
        enqueue(e);
        // publishes e (and a chunk linked for it): pairs with the volatile read of count in take/poll
        int before = (int) COUNT.getAndAdd(this, 1);
        counters.countInsert();
        if (before + 1 < capacity) {
            producers.signalOneHeld(); // cascade: room is left for the next waiting producer
        }
        return before;
    }

    /** Called after releasing putLock: wakes a consumer if this insert ended emptiness. */
    private void afterInsert(int countBefore) {
        if (countBefore == 0) {
            consumers.signalOne(); // after the getAndAdd in insert(), as Waiters requires
        }
    }

    /** count == capacity: a volatile read. */
    private boolean isFull() {
        return count == capacity;
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
        if (count == 0) {
            return null; // no lock when plainly empty
        }
        E e;
        int before;
        takeLock.lock();
        try {
            reentry.check();
            if (count == 0) {
                return null;
            }
            e = dequeue();
            before = extract();
        } finally {
            takeLock.unlock();
        }
        afterExtract(before);
        return e;
    }

    @Override
    public E take() throws InterruptedException {
        E e;
        int before;
        takeLock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            reentry.check();
            while (count == 0) {
                if (!closedAndDrained()) {
                    awaitNotEmpty();
                } else if (calledByPoolWorker()) {
                    consumers.await(stillEmpty); // a pool worker waits on, as if open (Handoff): only an interrupt ends this
                } else {
                    throw closedAndEmpty();
                }
            }
            e = dequeue();
            before = extract();
        } finally {
            takeLock.unlock();
        }
        afterExtract(before);
        return e;
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        E e;
        int before;
        takeLock.lockInterruptibly();
        try {
            reentry.check();
            while (count == 0) {
                if (nanos <= 0L || closedAndDrained()) {
                    return null;
                }
                nanos = awaitNotEmpty(nanos);
            }
            e = dequeue();
            before = extract();
        } finally {
            takeLock.unlock();
        }
        afterExtract(before);
        return e;
    }

    /**
     * Counts one removal; returns count before it. Call only when holding takeLock, right after
     * dequeue().
     */
    private int extract() {
        // Volatile: pairs with the read of count in put/offer (room), and precedes the waiter-count
        // read in afterExtract (Waiters' handshake).
        int before = (int) COUNT.getAndAdd(this, -1);
        counters.countRemoval();
        if (before > 1) {
            consumers.signalOneHeld(); // cascade: elements are left for the next waiting consumer
        }
        return before;
    }

    /** Called after releasing takeLock: wakes a producer if this removal ended fullness. */
    private void afterExtract(int countBefore) {
        if (countBefore == capacity) {
            producers.signalOne(); // after the getAndAdd in extract(), as Waiters requires
        }
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
        boolean wasFull;
        int moved = 0;
        takeLock.lock();
        try {
            reentry.check();
            int n = Math.min(maxElements, count);
            try {
                while (moved < n) {
                    reentry.add(target, first()); // if this throws, the element is still inside
                    dequeue();
                    moved++;
                }
            } finally {
                wasFull = (int) COUNT.getAndAdd(this, -moved) == capacity; // as in extract()
                counters.countRemovals(moved);
            }
        } finally {
            takeLock.unlock();
        }
        if (wasFull && moved > 0) {
            producers.signalOne(); // after the getAndAdd above, as Waiters requires
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
        Chunk.Cursor from = new Chunk.Cursor(head, takeIndex);
        Chunk.Cursor to = new Chunk.Cursor(head, takeIndex);
        int unread = count, removed = 0;
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
        last = end;
        putIndex = index;
        counters.countRemovals(removed);
        if ((int) COUNT.getAndAdd(this, -removed) == capacity) { // as in extract(); both locks held
            producers.signalOneHeld(); // the cascade in insert() wakes the others room was made for
        }
    }

    @Override
    public void clear() {
        fullyLock();
        try {
            head = last = new Chunk(chunkSize); // the old chain, unreachable, goes to GC whole
            takeIndex = putIndex = 0;
            int removed = (int) COUNT.getAndSet(this, 0); // as in extract(); both locks held
            counters.countRemovals(removed);
            if (removed == capacity) {
                producers.signalAllHeld();
            }
        } finally {
            fullyUnlock();
        }
    }

    // ---- looking ----

    @Override
    public E peek() {
        if (count == 0) {
            return null;
        }
        takeLock.lock();
        try {
            return count > 0 ? first() : null;
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
        Object[] copy = new Object[count];
        Chunk.Cursor c = new Chunk.Cursor(head, takeIndex);
        for (int n = 0; n < copy.length; n++) {
            copy[n] = c.next();
        }
        return copy;
    }

    @Override
    public int size() {
        return count;
    }

    @Override
    public int remainingCapacity() {
        return capacity - count;
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
