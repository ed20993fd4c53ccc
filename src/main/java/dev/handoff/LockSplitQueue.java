/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A bounded FIFO handoff on a linked list with one lock for producers and another for consumers,
 * so that a put and a take run in parallel except when the queue is empty or full.
 *
 * <p>Elements leave in the order they arrived. Each insert allocates one list node. Operations
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
     * (shared/seeds 001, section 3.5).
     *
     *   head (dummy)                         last
     *      v                                   v
     *   [ null ] -> [ e1 ] -> [ e2 ] -> ... -> [ en ] -> null
     *
     * Invariants:
     *   head.item == null (head is a dummy node); only consumers move head, under takeLock;
     *   last.next == null; only producers move last, under putLock;
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
     * the producer's heels: the node, the count and this object's fields cross between the CPUs
     * on every element. A consumer that parks instead lets the producer run ahead alone, and
     * then drains a run of elements the producer linked while it was waking up; the wake-up is
     * paid once per run, not per element, and spinning lost throughput in every shape
     * (docs/benchmarks.md, "Why each kind waits as it does"). The price is latency: an element put into an empty queue
     * waits for a wake-up, as in LinkedBlockingQueue; the circular buffer and the pipe spin for
     * callers who need the round trip.
     *
     * Layout. count is an int field of this object, not an AtomicInteger beside it: both sides
     * write count on every element, and each side also writes its end of the list here (head,
     * last), so with count on the same cache line an insert or a removal pulls one line from
     * the other side, not two (the AtomicInteger cost about a third of the 1P/1C throughput).
     * Separating head and last onto different lines would not save a transfer while count,
     * written by both sides, sits on one of them.
     *
     * Close. closed is written under putLock, and producers read it under putLock, so an insert
     * either completed before the close or sees it. Consumers read closed before count: a consumer
     * that reads closed == true then sees every count increment of the inserts that completed
     * before the close (they happen-before the write of closed through putLock), so it reports
     * "closed and empty" only when that is true. close() then signals all waiters on both sides,
     * each under its own lock, so a thread between its check and its await cannot miss it.
     *
     * Visibility between writers and readers is provided as follows: a producer links a node
     * (plain writes of item and next) and then increments count; a consumer reads count before it
     * reads head.next. count is volatile and updated through COUNT.getAndAdd, so the increment (a
     * volatile write) happens-before the read that sees it, and the node's fields written before
     * the increment are visible to the consumer. When the queue holds one element, producer and
     * consumer touch the same node: the producer writes last.next, the consumer reads head.next
     * of the same node only after reading a count that the producer's increment made positive.
     */

    /** A list node. item is null only in the dummy head. */
    static final class Node<E> {
        E item;
        Node<E> next;

        Node(E item) {
            this.item = item;
        }
    }

    /** The bound. */
    private final int capacity;

    /** Elements inside. Invariant: 0 <= count <= capacity (see the notes). */
    private volatile int count;

    /** Dummy node before the first element. Guarded by takeLock. Invariant: head.item == null. */
    private Node<E> head;

    /** Last node. Guarded by putLock. Invariant: last.next == null. */
    private Node<E> last;

    /** Set once by close(), under putLock; volatile so that consumers and isClosed() see it. */
    private volatile boolean closed;

    /** Held by take, poll and every removal. */
    private final ReentrantLock takeLock = new ReentrantLock();

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
     * {@link java.util.concurrent.LinkedBlockingQueue}. Nodes are allocated one per element
     * inside, never up front, so a queue of this capacity costs no more to build than a small one.
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
        this.head = this.last = new Node<>(null);
        CountedHandoffs.register(this); // last: JFR's dev.handoff.Stats reads it from another thread
    }

    // ---- list operations; each names the lock its caller holds ----

    /** Links node at the end. Call only when holding putLock. */
    private void enqueue(Node<E> node) {
        // assert putLock.isHeldByCurrentThread() && last.next == null;
        last = last.next = node;
    }

    /** Unlinks the first element. Call only when holding takeLock, with count > 0. */
    private E dequeue() {
        // assert takeLock.isHeldByCurrentThread() && head.item == null;
        Node<E> first = head.next;
        head.next = head; // help GC: the old head no longer links into the list
        head = first;
        E e = first.item;
        first.item = null; // first becomes the new dummy
        return e;
    }

    private void fullyLock() {
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
        Node<E> node = new Node<>(e);
        int before;
        putLock.lock();
        try {
            if (closed || count == capacity) {
                return false; // closed: refused, and the element stays with the caller
            }
            before = insert(node);
        } finally {
            putLock.unlock();
        }
        afterInsert(before);
        return true;
    }

    @Override
    public void put(E e) throws InterruptedException {
        checkElement(e);
        Node<E> node = new Node<>(e);
        int before;
        putLock.lockInterruptibly(); // throws at once if the caller is already interrupted
        try {
            ensureOpen();
            while (count == capacity) {
                awaitNotFull();
                ensureOpen();
            }
            before = insert(node);
        } finally {
            putLock.unlock();
        }
        afterInsert(before);
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        checkElement(e);
        long nanos = unit.toNanos(timeout);
        Node<E> node = new Node<>(e);
        int before;
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
            before = insert(node);
        } finally {
            putLock.unlock();
        }
        afterInsert(before);
        return true;
    }

    /**
     * Links node and counts it; returns count before the insert. Call only when holding putLock,
     * with count < capacity.
     */
    private int insert(Node<E> node) {
        enqueue(node);
        // publishes node: pairs with the volatile read of count in take/poll
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
            int n = Math.min(maxElements, count);
            try {
                while (moved < n) {
                    target.add(head.next.item); // if this throws, the element is still inside
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
            for (Node<E> trail = head, p = trail.next; p != null; trail = p, p = p.next) {
                if (match.test(p.item)) {
                    unlink(p, trail);
                    return true;
                }
            }
            return false;
        } finally {
            fullyUnlock();
        }
    }

    @Override
    int removeMatching(Predicate<Object> match) {
        int removed = 0;
        fullyLock();
        try {
            // Each unlink leaves a well-formed list: if match throws, what it unlinked is removed.
            for (Node<E> trail = head, p = trail.next; p != null; p = trail.next) {
                if (match.test(p.item)) {
                    unlink(p, trail);
                    removed++;
                } else {
                    trail = p;
                }
            }
            return removed;
        } finally {
            fullyUnlock();
        }
    }

    /** Unlinks interior node p whose predecessor is trail. Call only when holding both locks. */
    private void unlink(Node<E> p, Node<E> trail) {
        p.item = null;
        trail.next = p.next;
        if (last == p) {
            last = trail;
        }
        counters.countRemoval();
        if ((int) COUNT.getAndAdd(this, -1) == capacity) { // as in extract(); both locks held
            producers.signalOneHeld();
        }
    }

    @Override
    public void clear() {
        fullyLock();
        try {
            for (Node<E> p, h = head; (p = h.next) != null; h = p) {
                h.next = h;
                p.item = null;
            }
            head.next = null;
            last = head;
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
            return count > 0 ? head.next.item : null;
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
            for (Node<E> p = head.next; p != null; p = p.next) {
                if (o.equals(p.item)) {
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
            Object[] copy = new Object[count];
            int i = 0;
            for (Node<E> p = head.next; p != null; p = p.next) {
                copy[i++] = p.item;
            }
            return copy;
        } finally {
            fullyUnlock();
        }
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
