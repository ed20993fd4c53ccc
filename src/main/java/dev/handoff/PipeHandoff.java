/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * A direct handoff to a fixed set of worker slots: a producer finds a worker that is waiting and
 * passes the element through that worker's own channel of depth one. Nothing is buffered, nothing
 * is shared among the workers.
 *
 * <h2>Workers</h2>
 * The capacity {@code W} is the number of worker slots, that is, how many consumers can wait here
 * at once. A consumer occupies a slot in one of two ways:
 * <ul>
 *   <li>implicitly: a thread that calls {@link #take()} or the timed {@link #poll(long, TimeUnit)}
 *       claims a slot on its first call and keeps it while it lives; the slot of a thread that has
 *       terminated is reclaimed by the next thread that needs one, and a live thread gives its slot
 *       back with {@link #leave()};</li>
 *   <li>explicitly: {@link #register()} returns a {@link Worker} handle that owns a slot until it
 *       is {@linkplain Worker#close() closed}, whichever thread uses it.</li>
 * </ul>
 * A thread that calls {@code take()} or the timed {@code poll} when all {@code W} slots are held by
 * live workers waits for a slot (within the poll's timeout) before it waits for an element:
 * producers cannot hand it anything meanwhile. A slot given back by {@code leave()} or
 * {@code Worker.close()} is taken at once; a slot of a thread that terminated is noticed within
 * 20 ms, since the JDK tells nobody when a thread terminates. {@link #register()} does not wait:
 * it throws {@link IllegalStateException}. Size the pipe to the number of consumers.
 *
 * <h2>A queue of capacity zero, with W places to stand</h2>
 * Like {@link java.util.concurrent.SynchronousQueue}, this handoff holds no elements:
 * <ul>
 *   <li>{@link #offer(Object)} succeeds only if a worker is waiting at that moment; {@link #put}
 *       waits until one is, and the timed {@code offer} waits at most its timeout;</li>
 *   <li>{@link #take()} and the timed {@code poll} wait for a producer;</li>
 *   <li>{@link #size()} is always 0, {@link #peek()} is always {@code null}, the iterator is
 *       empty, {@code contains}, {@code remove(Object)} and the bulk removals are always
 *       {@code false}.</li>
 * </ul>
 * {@link #ordering()} is {@link Handoff.Ordering#UNORDERED}: consecutive elements go to different
 * workers, which run at their own pace.
 *
 * <h2>Where it differs from SynchronousQueue, and why</h2>
 * <ul>
 *   <li>The untimed {@link #poll()} always returns {@code null}, and {@link #drainTo} moves
 *       nothing, even while a producer is blocked in {@code put}; a {@code SynchronousQueue}
 *       would take that producer's element. Here a producer waits for a worker without putting
 *       its element on display: it parks and rescans the status array when a worker starts
 *       waiting. Displaying it would need a second channel per producer and a second race, between
 *       a poller and the workers, for a call that a thread pool never makes. A consumer meets a
 *       blocked producer by waiting: {@code take()} or the timed {@code poll}.</li>
 *   <li>{@link #remainingCapacity()} is the number of workers waiting now, where
 *       {@code SynchronousQueue} always returns 0: it is how many elements could be inserted
 *       without blocking at this moment, the
 *       {@link java.util.concurrent.BlockingQueue#remainingCapacity()} definition, and the status
 *       array counts it. It always lies in {@code [0, W]}; {@code size() + remainingCapacity() ==
 *       capacity()} holds only when every worker waits.</li>
 *   <li>At most W threads wait at once, each in a slot it keeps between calls (see Workers), where
 *       {@code SynchronousQueue} takes any number of consumers, each call on its own. The fixed
 *       array of W status slots is the algorithm (the papers' worker-status array): a producer
 *       finds a waiting worker by scanning it, in about {@code 1/a} probes when a fraction
 *       {@code a} of the slots wait (Theorem 3 in {@code docs/pipe-handoff.md}), and a worker
 *       that keeps its slot claims one once, not on every call. So size W to the consumer
 *       threads; a thread pool needs at least {@code maximumPoolSize} slots.</li>
 * </ul>
 * Like {@code SynchronousQueue}, the pipe serves only consumers that wait in it. It fits a
 * {@link java.util.concurrent.ThreadPoolExecutor}, whose idle threads wait in {@code take()} or
 * the timed {@code poll} and which starts a thread itself when {@code offer} fails below its
 * maximum size. It serves nothing in a pool that starts a thread only after the queue has
 * accepted a task: nobody waits there, so every {@code offer} returns {@code false}.
 *
 * <h2>Closing</h2>
 * As for every handoff, after {@link #close()} {@code offer} and the timed {@code offer} return
 * {@code false} and {@code put} throws {@link HandoffClosedException}; a producer blocked in
 * {@code put} or the timed {@code offer} wakes and throws or returns {@code false}. Since nothing
 * is ever inside, the pipe is empty as soon as it is closed: {@code take()} throws
 * {@link HandoffClosedException} (a thread pool's worker waits instead, see {@link Handoff}) and
 * the timed {@code poll} returns {@code null}, including for workers waiting at the moment of the
 * close. An element that a producer handed to a worker before the close reached it is returned by
 * that worker's call.
 *
 * <h2>Interruption and timeouts</h2>
 * A worker interrupted, or whose timed {@code poll} expires, at the very moment a producer hands
 * it an element returns that element (with its interrupt status set again if it was interrupted):
 * an element is never lost and never delivered twice.
 *
 * <h2>Importance classes</h2>
 * Built with {@code classes=K} ({@link Handoffs#create(String)}), a pipe orders the producers
 * that had to wait, and only those: a producer that finds no waiting worker waits with the others
 * of its class, and a worker that starts waiting wakes a producer of the most important class
 * that has waiting producers; every {@code N}-th such wake-up ({@code fair=N}) goes instead to
 * the first class with waiting producers at or after a class that rotates through all {@code K}.
 * This is weaker than the buffered kinds' guarantee ({@link Importance}): a producer that arrives
 * while a worker waits hands its element to that worker at once, ahead of waiting producers of
 * any class, and a woken producer may still lose the worker to such a producer; so no class has
 * a bound on how long its waiting producers wait. The classifier is called once per inserting
 * call, as for the buffered kinds; the capacity stays the number of worker slots. With one class
 * the pipe behaves exactly as without the option.
 *
 * <h2>Statistics</h2>
 * With counting on, {@code insertProbes} counts the status slots producers looked at (a scan
 * that finds no waiting worker counts all {@code W}, plus one if it first tried a worker
 * spinning in {@code take} that another producer won), so {@code meanInsertProbes()} is the cost
 * of scanning per element handed over; {@code insertConflicts} counts waiting workers a producer
 * saw but lost, to another producer or to the worker giving up; {@code searchConflicts} counts
 * workers whose give-up (timeout, interrupt or close) lost to a producer, so that their call
 * returned the element after all. {@code searchProbes} stays 0: workers do not search.
 *
 * <p>Blocked threads park with {@link LockSupport} or wait on a
 * {@link java.util.concurrent.locks.Condition}, never on a monitor, so a virtual thread blocked
 * here does not pin its carrier.
 *
 * <p>See {@link Handoff} for the rest of the contract and the memory-consistency effects, and
 * {@code docs/pipe-handoff.md} for the algorithm, its theorem and measurements.
 *
 * @param <E> the type of elements handed over
 */
public class PipeHandoff<E> extends AbstractHandoff<E> {
    /*
     * Implementation notes.
     *
     * The pre-threaded server with "connected socket passing through pipes" of shared/seeds 001
     * (section 3.6, Fig. 6): a dispatcher keeps a WorkerStatus array, finds a free worker in it and
     * writes the job into that worker's own pipe. Here the pipe is a channel of depth one (a
     * single reference) and the status array holds one of four states per slot:
     *
     *   status:   [ BUSY | WAITING | HANDED | FREE | WAITING ]     scanned by producers
     *   channel:  [  -   |    -    |   e    |  -   |    -    ]     one reference per slot
     *   worker:      w0      w1        w2     (none)    w4          parked in take() on 1, 2, 4
     *
     *   FREE    no worker owns the slot                     (register: FREE -> BUSY, CAS)
     *   BUSY    owned, the worker is not waiting            (worker: BUSY -> WAITING, CAS)
     *   WAITING the worker is parked in take/poll            (producer: WAITING -> HANDED, CAS;
     *                                                        worker giving up: WAITING -> BUSY, CAS)
     *   HANDED  a producer won the worker; its element is   (worker, after reading the element:
     *           in, or on its way into, the channel          HANDED -> BUSY)
     *
     * Scan. A producer probes the slots start, start + d, start + 2d, ... (mod W), with start
     * uniform in [0, W) and the stride d uniform among the numbers in [1, W) coprime to W, both
     * drawn afresh for every scan (from ThreadLocalRandom, through ProbeRandom, a seam the
     * Lincheck model checker needs), so the W probes visit every slot exactly once: double hashing
     * over the status array. Seed 001's Theorem 3 states that a search of an array whose fraction
     * a of slots is free takes at most 1/a probes on average, assuming uniform hashing; the scan
     * from slot 0 of the papers' dispatcher does not meet that assumption, since the workers it
     * picks are always the first free ones and the busy ones pile up in front of the scan. The
     * property test PipeTheoremProperties checks Theorem 3 on this class, fresh and in the steady
     * state, two-sided against the exact value, on the scans' own probe count (Counters
     * .scanProbes, which leaves out the probe of a hand-off to the spinning worker), and shows
     * that the scan from slot 0 (Scan.FROM_SLOT_ZERO, kept for that test and the table in
     * docs/pipe-handoff.md) fails it. The mutation check (TheoremMutations) shows that a scan
     * from slot 0, a stride of 1, or a probe left uncounted turns it red.
     *
     * Invariants:
     *   only the slot's owner moves it out of BUSY or HANDED, only producers move it from WAITING
     *   to HANDED, and only the owner moves it from WAITING back to BUSY; so every WAITING episode
     *   ends with exactly one successful CAS, either a producer's (the element is delivered to
     *   this worker) or the worker's own (no element was handed to it).
     *   channel.item != null only while the slot is HANDED; it is written once per HANDED
     *   episode, by the producer that won the CAS, and cleared by the worker before HANDED -> BUSY.
     *   channel.waiter is written only by the owner, while the slot is BUSY.
     *
     * The race that matters, a worker whose timed poll expires (or who is interrupted, or sees
     * the close) just as a producer picks it: both sides CAS the same status from WAITING. If the
     * worker wins (WAITING -> BUSY) its poll returns null and the producer, whose CAS failed, goes
     * on to the next slot with its element. If the producer wins (WAITING -> HANDED) the worker
     * waits the few instructions until the element is in its channel and returns it.
     *
     * Blocking. Workers park with LockSupport on their own slot; a producer that wins a worker
     * unparks it after writing the element. Producers that find no waiting worker wait on the
     * condition workerWaiting of producerLock, counted in waitingProducers; a worker that starts
     * waiting while that count is positive signals one of them. This is a Dekker pair: a producer
     * increments waitingProducers and then rescans the status array, a worker sets its status to
     * WAITING and then reads waitingProducers, all with volatile accesses, so at least one of the
     * two sees the other: either the producer finds the worker, or the worker signals. The signal
     * is sent under producerLock, and the producer rescans and awaits under that lock, so the
     * signal cannot fall between its rescan and its await.
     *
     * Importance classes (classes=K, K > 1): a producer of class c waits on its class's condition
     * workerWaitingByClass[c], counted in waitingProducersByClass[c] as well as in
     * waitingProducers; a worker's signal goes to the class ImportanceClasses chooses among those
     * with a positive count, the wake-ups numbered by wakeUps as takes are in ClassedHandoff.
     * The Dekker pair is unchanged (waitingProducers counts every class), and so is the argument
     * that no wake-up is lost: every producer counted in the chosen class is either parked on its
     * condition, so that the signal wakes one, or already woken and waiting for producerLock, so
     * that it rescans after the worker became WAITING. With K == 1 there is only workerWaiting.
     *
     * Spinning before parking. Waking a parked thread on another CPU costs 25-35 us here, so a
     * pipe that parks on both sides for every element is capped near 30,000 handoffs per second
     * (docs/benchmarks.md). So both sides first wait briefly without parking (class Spin: about
     * 3 us of Thread.onSpinWait(), then a few Thread.yield(), which give the CPU to the thread
     * waited for when more threads than CPUs are runnable):
     *   - a worker that has just become WAITING spins on its channel before it parks, but only
     *     one worker at a time: it takes the role by a CAS of spinnerSlot from NO_SPINNER to its
     *     slot, and gives it back (opaque store of NO_SPINNER) when the spin ends. Fifty
     *     workers spinning at once would take the CPU from the one producer that feeds them.
     *   - every scan of the double-hashing kind probes spinnerSlot first: the spinning worker
     *     is the one that answers without a wake-up. The hint is only a probe order; whether a
     *     worker is won is decided by the CAS WAITING -> HANDED as for any slot, so a stale
     *     hint costs one probe and nothing else. (The papers' scan from slot 0, kept for the
     *     theorem test, has no hint.)
     *   - put (not offer) first waits the spin for a spinning worker, even while parked workers
     *     wait: handing to one of those costs its wake-up, and the spinner is usually back
     *     within a microsecond. Then it scans, then rescans between yields, and only then
     *     parks in awaitWorker; it skips all this when producers are parked already (they are
     *     ahead of it in line).
     * A producer that wins a spinning worker still unparks it; unpark of a thread that is not
     * parked only leaves a permit, which makes a later park return at once, and every park here
     * is in a loop that rechecks its condition.
     *
     * Close. close() writes closed, signals every producer under producerLock, then unparks the
     * waiter of every WAITING slot. Another Dekker pair: a worker sets WAITING and then reads
     * closed; close writes closed and then reads every status; so a worker either sees closed
     * before it parks, or is unparked.
     *
     * Slots of dead threads. A slot claimed implicitly records its owner Thread; a thread that
     * needs a slot when none is FREE takes over a BUSY slot whose owner has terminated, by a CAS
     * on the owner field. A thread leaves a wait only in BUSY (every path out of receive ends in
     * BUSY), so a dead owner's slot is BUSY and its channel empty. A thread that finds no slot at
     * all waits on slotFreed (slotLock), counted in slotWaiters: the same Dekker pair as for
     * producers, with release()'s CAS BUSY -> FREE followed by its read of slotWaiters; and since
     * thread termination signals nobody, it rescans every 20 ms for dead owners.
     *
     * Visibility between writers and readers is provided as follows: a producer writes the
     * element into the channel with a release store after its CAS; the worker reads it with an
     * acquire load, so everything the producer did before offering happens-before what the worker
     * does with the element. The worker's channel.waiter is a plain field written before its
     * volatile CAS BUSY -> WAITING and read by the producer after its CAS WAITING -> HANDED has
     * read that value, so the producer unparks the right thread. The worker clears the channel
     * before its release store HANDED -> BUSY, and producers reach the channel again only through
     * the worker's next CAS BUSY -> WAITING, so no element can be overwritten.
     */

    // ---- slot states; see the notes ----

    /** No worker owns the slot. */
    static final int FREE = 0;
    /** Owned by a worker that is not waiting. */
    static final int BUSY = 1;
    /** Owned by a worker parked in take or poll: a producer may claim it. */
    static final int WAITING = 2;
    /** Claimed by a producer: the element is in, or on its way into, the channel. */
    static final int HANDED = 3;

    /** Order in which a producer probes the status array; only the tests use anything else. */
    enum Scan {
        /** Pseudo-random start, pseudo-random stride coprime to W: double hashing. */
        DOUBLE_HASHING,
        /** Slot 0, 1, 2, ...: the papers' dispatcher, kept to show that Theorem 3 then fails. */
        FROM_SLOT_ZERO
    }

    private static final VarHandle STATUS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle ITEM;
    private static final VarHandle OWNER;
    private static final VarHandle SPINNER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ITEM = lookup.findVarHandle(Channel.class, "item", Object.class);
            OWNER = lookup.findVarHandle(Channel.class, "owner", Object.class);
            SPINNER = lookup.findVarHandle(PipeHandoff.class, "spinnerSlot", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A worker's pipe of depth one, with what a producer needs to wake the worker. */
    static final class Channel {
        /** The handed element. Accessed through ITEM. Non-null only while the slot is HANDED. */
        Object item;
        /** The thread parked on this slot. Written by the owner only while the slot is BUSY. */
        Thread waiter;
        /** A Thread (implicit worker), EXPLICIT, or null. Accessed through OWNER. */
        Object owner;
    }

    /** The owner recorded for a slot held by a {@link Worker} handle: never reclaimed. */
    private static final Object EXPLICIT = new Object();

    /** One state per slot, FREE, BUSY, WAITING or HANDED. Accessed through STATUS. */
    private final int[] status;

    /** One channel per slot. */
    private final Channel[] channels;

    /** The numbers in [1, W) coprime to W ({1} when W == 1): the strides a scan may use. */
    private final int[] strides;

    /** How producers scan; DOUBLE_HASHING except in the theorem test. */
    private final Scan scan;

    /** Draws each scan's start and stride: {@link ProbeRandom#THREAD_LOCAL} except under Lincheck. */
    private final ProbeRandom scanRandom;

    /** The slot of each thread that became a worker by calling take() or the timed poll(). */
    private final ThreadLocal<Integer> implicitSlot = new ThreadLocal<>();

    /** Set once by close(). */
    private volatile boolean closed;

    /** The slot of the one worker spinning in receive(), or NO_SPINNER. Accessed through SPINNER. */
    private int spinnerSlot = NO_SPINNER;

    /** The value of spinnerSlot while no worker spins. */
    private static final int NO_SPINNER = -1;

    /** Producers that found no waiting worker wait on workerWaiting under this lock. */
    private final ReentrantLock producerLock = new ReentrantLock();

    /** Signalled when a worker starts waiting, and by close(). */
    private final Condition workerWaiting = producerLock.newCondition();

    /** Producers between their slow-path rescan and the end of their wait; see "Blocking". */
    private final AtomicInteger waitingProducers = new AtomicInteger();

    /** The importance classes of producers, or null without them (or with one class). */
    private final ImportanceClasses<E> importance;

    /** With classes: producers of class c wait on workerWaitingByClass[c]; null without. */
    private final Condition[] workerWaitingByClass;

    /** With classes: producers of each class counted in waitingProducers. Guarded by producerLock. */
    private final int[] waitingProducersByClass;

    /** With classes: wake-ups sent to waiting producers, numbered for the fairness rule. Guarded by producerLock. */
    private long wakeUps;

    /** Threads that need a slot while all are held wait on slotFreed under this lock. */
    private final ReentrantLock slotLock = new ReentrantLock();

    /** Signalled when a slot is given back, and by close(). */
    private final Condition slotFreed = slotLock.newCondition();

    /** Threads in awaitFreeSlot(). */
    private final AtomicInteger slotWaiters = new AtomicInteger();

    /** Whether a thread in awaitFreeSlot() rescans for dead owners periodically. Guarded by slotLock. */
    private boolean slotRechecker;

    /** How often a thread waiting for a slot looks for slots of terminated threads: 20 ms. */
    private static final long DEAD_OWNER_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /**
     * The largest number of worker slots a pipe accepts: {@code 1 << 16} (65,536). The capacity
     * of a pipe is the number of consumers that wait on it, not a buffer: every slot's channel is
     * allocated at construction, and a producer that finds no waiting worker probes all
     * {@code W} slots before it waits (so do {@link #close()} and a thread looking for the slot
     * of a terminated one). The limit is far above any pool of platform threads, and keeps a pipe
     * at a few megabytes and its full scan short.
     */
    public static final int MAX_CAPACITY = 1 << 16;

    /** Rejects a number of worker slots outside [1, MAX_CAPACITY], naming the limit. */
    static int checkCapacity(int workerSlots) {
        return checkCapacity(workerSlots, MAX_CAPACITY, "PipeHandoff.MAX_CAPACITY", "PipeHandoff");
    }

    /**
     * Creates a pipe with the given number of worker slots that does not count statistics.
     *
     * @param workerSlots W, the number of workers that can wait at once
     * @throws IllegalArgumentException if {@code workerSlots <= 0} or
     *         {@code workerSlots > MAX_CAPACITY}
     */
    public PipeHandoff(int workerSlots) {
        this(workerSlots, false);
    }

    /**
     * Creates a pipe with the given number of worker slots.
     *
     * @param workerSlots W, the number of workers that can wait at once
     * @param countStats whether {@link #stats()} counts puts, takes, waits and insert probes
     * @throws IllegalArgumentException if {@code workerSlots <= 0} or
     *         {@code workerSlots > MAX_CAPACITY}
     */
    @SuppressWarnings("this-escape") // registers itself with CountedHandoffs, last (see there)
    public PipeHandoff(int workerSlots, boolean countStats) {
        this(workerSlots, countStats, Scan.DOUBLE_HASHING);
    }

    PipeHandoff(int workerSlots, boolean countStats, Scan scan) {
        this(workerSlots, countStats, scan, ProbeRandom.THREAD_LOCAL);
    }

    /**
     * Creates a pipe whose producers draw each scan's start and stride from {@code scanRandom}:
     * the seam through which the Lincheck model-checking tests replace {@code ThreadLocalRandom}
     * (see {@link ProbeRandom}).
     */
    PipeHandoff(int workerSlots, boolean countStats, Scan scan, ProbeRandom scanRandom) {
        this(workerSlots, countStats, scan, scanRandom, null);
    }

    /**
     * Creates a pipe whose waiting producers are ordered by importance class (see the class
     * comment); {@code importance} null or of one class gives the pipe without classes.
     */
    PipeHandoff(int workerSlots, boolean countStats, ImportanceClasses<E> importance) {
        this(workerSlots, countStats, Scan.DOUBLE_HASHING, ProbeRandom.THREAD_LOCAL, importance);
    }

    private PipeHandoff(int workerSlots, boolean countStats, Scan scan, ProbeRandom scanRandom,
            ImportanceClasses<E> importance) {
        super(countStats);
        int w = checkCapacity(workerSlots);
        this.status = new int[w];
        this.channels = new Channel[w];
        for (int i = 0; i < w; i++) {
            channels[i] = new Channel();
        }
        this.strides = coprimeStrides(w);
        this.scan = Objects.requireNonNull(scan);
        this.scanRandom = Objects.requireNonNull(scanRandom);
        if (importance == null || importance.count() == 1) {
            this.importance = null;
            this.workerWaitingByClass = null;
            this.waitingProducersByClass = null;
        } else {
            this.importance = importance;
            this.workerWaitingByClass = new Condition[importance.count()];
            for (int c = 0; c < workerWaitingByClass.length; c++) {
                workerWaitingByClass[c] = producerLock.newCondition();
            }
            this.waitingProducersByClass = new int[importance.count()];
        }
        CountedHandoffs.register(this); // last: JFR's dev.handoff.Stats reads it from another thread
    }

    private static int[] coprimeStrides(int w) {
        if (w == 1) {
            return new int[] {1};
        }
        int[] found = new int[w - 1];
        int n = 0;
        for (int d = 1; d < w; d++) {
            if (gcd(d, w) == 1) {
                found[n++] = d;
            }
        }
        return Arrays.copyOf(found, n);
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    // ---- producers ----

    @Override
    public boolean offer(E e) {
        classOf(e);
        return !closed && tryHandOff(e);
    }

    @Override
    public void put(E e) throws InterruptedException {
        int c = classOf(e);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        ensureOpen();
        if (!handOffWithoutParking(e)) {
            awaitWorker(e, c, false, 0L);
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        int c = classOf(e);
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (closed) {
            return false;
        }
        if (tryHandOff(e)) {
            return true;
        }
        return nanos > 0L && awaitWorker(e, c, true, nanos);
    }

    /**
     * Checks e and returns its importance class: 0 without classes, else the classifier's,
     * checked (its exceptions propagate, a class out of range is IllegalArgumentException).
     */
    private int classOf(E e) {
        if (importance == null) {
            checkElement(e);
            return 0;
        }
        return importance.classOf(e);
    }

    /** Throws if closed: for put and addAll, which cannot return false. */
    private void ensureOpen() {
        if (closed) {
            throw closedToInserts();
        }
    }

    /**
     * Scans the status array once; if it wins a waiting worker, hands e to it. Counts one insert
     * probe per status slot read, whether or not the scan succeeds.
     *
     * @return whether e was handed over
     */
    private boolean tryHandOff(E e) {
        if (scan == Scan.DOUBLE_HASHING && tryHandToSpinner(e)) {
            return true;
        }
        int w = status.length;
        int i;
        int stride;
        if (scan == Scan.DOUBLE_HASHING) {
            i = scanRandom.nextInt(w);
            stride = strides[scanRandom.nextInt(strides.length)];
        } else {
            i = 0;
            stride = 1;
        }
        for (int probes = 1; probes <= w; probes++) {
            // Volatile read: in the slow path of put this read must not be ordered before the
            // increment of waitingProducers (Dekker pair with the worker's CAS BUSY -> WAITING
            // and its read of waitingProducers in receive()).
            if ((int) STATUS.getVolatile(status, i) == WAITING) {
                // The decisive CAS; pairs with the worker's CAS WAITING -> BUSY in giveUp().
                if (STATUS.compareAndSet(status, i, WAITING, HANDED)) {
                    counters.scanProbes(probes);
                    handOver(channels[i], e);
                    return true;
                }
                counters.insertConflict(); // lost to another producer or to the worker giving up
            }
            i += stride;
            if (i >= w) {
                i -= w;
            }
        }
        counters.scanProbes(w);
        return false;
    }

    /**
     * Hands e to the worker spinning in receive(), if there is one and no other producer wins it
     * first. Counts one insert probe if there was a spinner to try.
     *
     * @return whether e was handed over
     */
    private boolean tryHandToSpinner(E e) {
        // Opaque read: a hint only (see "Spinning before parking"); the CAS decides.
        int hot = (int) SPINNER.getOpaque(this);
        if (hot == NO_SPINNER) {
            return false;
        }
        counters.insertProbes(1);
        // Volatile read first, as in the scan: a CAS on a slot that is not WAITING (the spinner
        // has its element already and has not given the role back yet) would only pull the
        // status line away from the worker.
        if ((int) STATUS.getVolatile(status, hot) != WAITING) {
            return false;
        }
        // The decisive CAS, as in the scan; pairs with the worker's CAS WAITING -> BUSY in giveUp().
        if (STATUS.compareAndSet(status, hot, WAITING, HANDED)) {
            handOver(channels[hot], e);
            return true;
        }
        counters.insertConflict(); // another producer won the spinner meanwhile
        return false;
    }

    /**
     * put's way to a worker before the slow path (see "Spinning before parking"): waits up to
     * Spin.SPINS rounds of Thread.onSpinWait() for a spinning worker, which takes e without a
     * wake-up, then scans for any waiting worker, and then rescans Spin.YIELDS times with a
     * Thread.yield() in between. It stops early when producers are already parked in
     * awaitWorker: they are ahead of this one in line.
     *
     * @return whether e was handed over
     * @throws HandoffClosedException if the pipe closes meanwhile
     */
    private boolean handOffWithoutParking(E e) {
        for (int i = 0; i < Spin.SPINS && waitingProducers.get() == 0; i++) {
            if (tryHandToSpinner(e)) {
                return true;
            }
            Spin.pause(i);
        }
        for (int i = 0; i <= Spin.YIELDS && waitingProducers.get() == 0; i++) {
            if (i > 0) {
                Thread.yield();
                ensureOpen();
            }
            if (tryHandOff(e)) {
                return true;
            }
        }
        return false;
    }

    /** Puts e into a channel whose slot this producer just moved from WAITING to HANDED. */
    private void handOver(Channel channel, E e) {
        // Plain read: the worker wrote waiter before its CAS BUSY -> WAITING, whose value our CAS
        // WAITING -> HANDED read, and the worker does not write it again before it has our element.
        Thread worker = channel.waiter;
        ITEM.setRelease(channel, e); // publishes e and our prior writes: pairs with getAcquire in receive()
        counters.put();
        LockSupport.unpark(worker);
    }

    /**
     * The slow path of put and the timed offer: waits on workerWaiting (with classes, on the
     * condition of class c) until a scan wins a worker, the timeout passes, or the pipe closes.
     *
     * @return whether e was handed over; false only when timed, and the time ran out or the pipe
     *         closed
     * @throws HandoffClosedException if untimed (put) and the pipe closes
     */
    private boolean awaitWorker(E e, int c, boolean timed, long nanos) throws InterruptedException {
        producerLock.lockInterruptibly();
        Condition waitHere = importance == null ? workerWaiting : workerWaitingByClass[c];
        if (importance != null) {
            waitingProducersByClass[c]++;
        }
        // Volatile increment, before the rescans below: the first half of the Dekker pair with
        // the worker's CAS BUSY -> WAITING followed by its read of waitingProducers.
        waitingProducers.incrementAndGet();
        boolean handed = false;
        try {
            for (;;) {
                if (closed && timed) {
                    return false;
                }
                ensureOpen();
                if (tryHandOff(e)) {
                    handed = true;
                    return true;
                }
                if (timed && nanos <= 0L) {
                    return false;
                }
                counters.producerWait();
                if (timed) {
                    nanos = Wait.PUT.awaitNanos(waitHere, nanos, this);
                } else {
                    Wait.PUT.await(waitHere, this);
                }
            }
        } finally {
            // Another producer may be waiting for a worker that is free now: a producer that
            // leaves without an element handed (timeout, interrupt, close) may have consumed the
            // signal meant for it, and one that succeeded may have been signalled twice.
            if (importance != null) {
                waitingProducersByClass[c]--;
            }
            if (waitingProducers.decrementAndGet() > 0 && (!handed || waitingWorkers() > 0)) {
                signalNextProducer();
            }
            producerLock.unlock();
        }
    }

    /** Wakes one producer waiting for a worker. Called by a worker that just started waiting. */
    private void signalWaitingProducer() {
        producerLock.lock();
        try {
            signalNextProducer();
        } finally {
            producerLock.unlock();
        }
    }

    /**
     * Signals one waiting producer: without classes on workerWaiting; with classes, one of the
     * class the fairness rule of ImportanceClasses picks among those with waiting producers (see
     * "Importance classes" in the notes). Call only holding producerLock.
     */
    private void signalNextProducer() {
        // assert producerLock.isHeldByCurrentThread();
        if (importance == null) {
            workerWaiting.signal();
            return;
        }
        int first = importance.firstToServe(wakeUps);
        int c = first;
        do {
            if (waitingProducersByClass[c] > 0) {
                wakeUps++;
                workerWaitingByClass[c].signal();
                return;
            }
            c = importance.next(c);
        } while (c != first);
    }

    /** For tests: the producers of class c waiting for a worker (all of them without classes). */
    int waitingProducersOfClass(int c) {
        producerLock.lock();
        try {
            return importance == null ? waitingProducers.get() : waitingProducersByClass[c];
        } finally {
            producerLock.unlock();
        }
    }

    // ---- workers ----

    /**
     * Waits for an element as a worker of this pipe, claiming a worker slot for the calling
     * thread on its first call, and waiting for one if all are held (see the class comment).
     *
     * @throws HandoffClosedException if the pipe is closed, or closes while this thread waits
     */
    @Override
    public E take() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (closed) {
            return takeWhenClosedAndEmpty();
        }
        int slot = currentThreadSlot(false, 0L);
        if (slot < 0) {
            return takeWhenClosedAndEmpty(); // closed while waiting for a slot
        }
        return receive(slot, false, 0L);
    }

    /**
     * Waits at most the timeout for an element as a worker of this pipe, claiming a worker slot
     * for the calling thread on its first call, and waiting for one if all are held (see the
     * class comment). The timeout covers both waits.
     *
     * @return the element, or {@code null} if the time ran out or the pipe is closed
     */
    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (closed || nanos <= 0L) {
            return null; // a timeout <= 0 never waits, and only a waiting worker can be handed anything
        }
        long deadline = System.nanoTime() + nanos;
        int slot = currentThreadSlot(true, nanos);
        if (slot < 0) {
            return null; // no slot in time, or closed
        }
        nanos = deadline - System.nanoTime();
        return nanos > 0L ? receive(slot, true, nanos) : null;
    }

    /**
     * Returns {@code null}: nothing waits inside a pipe, and producers wait for a waiting worker
     * rather than with their element on display, so there is nothing to take without waiting.
     */
    @Override
    public E poll() {
        return null;
    }

    /**
     * Gives back the worker slot that the calling thread claimed by calling {@link #take()} or the
     * timed {@link #poll(long, TimeUnit)}, if it holds one. A thread that stops consuming but
     * lives on should call this, or its slot stays taken until it terminates.
     *
     * @return whether the calling thread held a slot
     */
    public boolean leave() {
        Integer slot = implicitSlot.get();
        if (slot == null) {
            return false;
        }
        implicitSlot.remove();
        release(slot);
        return true;
    }

    /**
     * Claims a worker slot for a handle that the caller manages: take and poll through the
     * handle, from one thread at a time, and close it to give the slot back. Unlike
     * {@link #take()}, this does not wait for a slot.
     *
     * @return a handle owning one of the {@code W} slots
     * @throws IllegalStateException if all {@code W} slots are held by live workers
     */
    public Worker<E> register() {
        int slot = tryClaimSlot(EXPLICIT);
        if (slot < 0) {
            throw new IllegalStateException("all " + status.length
                    + " worker slots of this PipeHandoff are held by live workers");
        }
        return new Worker<>(this, slot);
    }

    /**
     * Returns the calling thread's slot, claiming one on its first call and waiting for one while
     * all are held by live workers.
     *
     * @return the slot, or -1 if the pipe closed or (when timed) the time ran out first
     */
    private int currentThreadSlot(boolean timed, long nanos) throws InterruptedException {
        Integer slot = implicitSlot.get();
        if (slot == null) {
            int claimed = tryClaimSlot(Thread.currentThread());
            if (claimed < 0) {
                claimed = awaitFreeSlot(timed, nanos);
                if (claimed < 0) {
                    return -1;
                }
            }
            slot = claimed;
            implicitSlot.set(slot);
        }
        return slot;
    }

    /**
     * Waits on slotFreed until tryClaimSlot succeeds, the pipe closes, or (when timed) the time
     * runs out. Slots given back by leave() or Worker.close() signal slotFreed; the JDK tells
     * nobody when a thread terminates, so one of the waiters, the rechecker, also rescans for
     * dead owners every DEAD_OWNER_RECHECK_NANOS, and hands that role on when it leaves. The
     * others wait for a signal (or their own timeout) only, so that thousands of threads waiting
     * for a slot cost nothing while they wait.
     *
     * @return the claimed slot, or -1
     */
    private int awaitFreeSlot(boolean timed, long nanos) throws InterruptedException {
        slotLock.lockInterruptibly();
        // Volatile increment before the rescans below; Dekker pair with the CAS BUSY -> FREE in
        // release() followed by its read of slotWaiters.
        slotWaiters.incrementAndGet();
        boolean rechecker = false;
        try {
            for (;;) {
                if (closed) {
                    return -1;
                }
                int slot = tryClaimSlot(Thread.currentThread());
                if (slot >= 0) {
                    return slot;
                }
                if (timed && nanos <= 0L) {
                    return -1;
                }
                if (!slotRechecker) {
                    slotRechecker = rechecker = true;
                }
                counters.consumerWait();
                if (rechecker || timed) {
                    long wait = !rechecker ? nanos : timed ? Math.min(nanos, DEAD_OWNER_RECHECK_NANOS) : DEAD_OWNER_RECHECK_NANOS;
                    long left = Wait.TAKE.awaitNanos(slotFreed, wait, this);
                    nanos -= wait - left;
                } else {
                    Wait.TAKE.await(slotFreed, this);
                }
            }
        } finally {
            slotWaiters.decrementAndGet();
            if (rechecker) {
                slotRechecker = false;
                slotFreed.signal(); // the next waiter takes the role on
            }
            slotLock.unlock();
        }
    }

    /**
     * Claims a FREE slot, or a BUSY one whose owner thread has terminated, for owner.
     *
     * @return the slot, or -1 if every slot is held by a live worker
     */
    private int tryClaimSlot(Object owner) {
        for (int i = 0; i < status.length; i++) {
            int s = (int) STATUS.getVolatile(status, i);
            Channel channel = channels[i];
            if (s == FREE && STATUS.compareAndSet(status, i, FREE, BUSY)) {
                OWNER.setVolatile(channel, owner); // read by later claimers looking for dead owners
                return i;
            }
            if (s == BUSY
                    && OWNER.getVolatile(channel) instanceof Thread dead && !dead.isAlive()
                    && OWNER.compareAndSet(channel, dead, owner)) {
                // The dead thread left its last wait in BUSY with an empty channel (see notes).
                channel.waiter = null;
                return i;
            }
        }
        return -1;
    }

    /** Gives a slot back. Call only from its owner, while no call waits on the slot. */
    private void release(int slot) {
        // assert (int) STATUS.getVolatile(status, slot) == BUSY;
        Channel channel = channels[slot];
        channel.waiter = null;
        OWNER.setOpaque(channel, (Object) null); // published by the CAS below
        // Volatile CAS: the cleared owner and waiter are visible to the next claimer, whose
        // CAS FREE -> BUSY reads this value.
        if (!STATUS.compareAndSet(status, slot, BUSY, FREE)) {
            throw new IllegalStateException("worker slot " + slot + " released while not BUSY");
        }
        if (slotWaiters.get() > 0) { // after the CAS: the other half of the Dekker pair in awaitFreeSlot()
            slotLock.lock();
            try {
                slotFreed.signal();
            } finally {
                slotLock.unlock();
            }
        }
    }

    /**
     * Waits on a slot for a producer. Call only as the slot's owner, with the slot BUSY.
     *
     * @return the element, or null if timed and the time ran out or the pipe closed
     */
    private E receive(int slot, boolean timed, long nanos) throws InterruptedException {
        Channel channel = channels[slot];
        channel.waiter = Thread.currentThread(); // plain: published by the CAS below
        // Volatile CAS: publishes waiter, and (Dekker pairs, see notes) is not reordered with the
        // reads of waitingProducers and closed below.
        if (!STATUS.compareAndSet(status, slot, BUSY, WAITING)) {
            // Cannot happen: the owner alone leaves BUSY, and one call at a time waits per slot.
            throw new IllegalStateException("worker slot " + slot + " was not BUSY");
        }
        if (waitingProducers.get() > 0) {
            signalWaitingProducer();
        }
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        spinForItem(slot, channel, timed, deadline);
        for (;;) {
            Object x = ITEM.getAcquire(channel); // pairs with setRelease in handOver()
            if (x != null) {
                return collect(slot, channel, x);
            }
            if (closed) {
                return giveUp(slot, channel, GiveUp.CLOSED, timed);
            }
            if (Thread.interrupted()) {
                return giveUp(slot, channel, GiveUp.INTERRUPTED, timed);
            }
            if (timed) {
                nanos = deadline - System.nanoTime();
                if (nanos <= 0L) {
                    return giveUp(slot, channel, GiveUp.TIMED_OUT, timed);
                }
                counters.consumerWait();
                Wait.TAKE.parkNanos(this, nanos);
            } else {
                counters.consumerWait();
                Wait.TAKE.park(this);
            }
        }
    }

    /**
     * A WAITING worker's brief wait before it parks, if no other worker is spinning: spins, then
     * yields, until an element is in the channel, the pipe closes, the thread is interrupted, the
     * deadline passes (when timed) or Spin.ROUNDS rounds are over. The caller reads the
     * channel again and handles each case; this only delays its park.
     */
    private void spinForItem(int slot, Channel channel, boolean timed, long deadline) {
        // CAS: one spinner at a time (see "Spinning before parking").
        if (!SPINNER.compareAndSet(this, NO_SPINNER, slot)) {
            return;
        }
        try {
            for (int i = 0; i < Spin.ROUNDS; i++) {
                if (ITEM.getAcquire(channel) != null // pairs with setRelease in handOver()
                        || closed
                        || Thread.currentThread().isInterrupted()
                        || (timed && deadline - System.nanoTime() <= 0L)) {
                    return;
                }
                Spin.pause(i);
            }
        } finally {
            SPINNER.setOpaque(this, NO_SPINNER); // only the spinner writes it back: no CAS needed
        }
    }

    /** Why a waiting worker stops waiting without an element in its channel. */
    private enum GiveUp { CLOSED, INTERRUPTED, TIMED_OUT }

    /**
     * Ends a wait that found no element: either the worker's CAS WAITING -> BUSY wins and no
     * producer can hand it anything any more, or a producer has already won the worker and the
     * element is returned anyway.
     */
    private E giveUp(int slot, Channel channel, GiveUp reason, boolean timed) throws InterruptedException {
        // The decisive CAS; pairs with the producer's CAS WAITING -> HANDED in tryHandOff().
        if (STATUS.compareAndSet(status, slot, WAITING, BUSY)) {
            channel.waiter = null;
            switch (reason) {
                case INTERRUPTED -> throw new InterruptedException();
                case CLOSED -> {
                    return timed ? null : takeWhenClosedAndEmpty();
                }
                default -> {
                    return null;
                }
            }
        }
        // A producer won: its element arrives within a few instructions.
        counters.searchConflict(); // this worker's give-up lost to a producer: see the class comment
        Object x = awaitHandedItem(channel);
        if (reason == GiveUp.INTERRUPTED) {
            Thread.currentThread().interrupt(); // the element is returned, the interrupt kept
        }
        return collect(slot, channel, x);
    }

    /** Waits, uninterruptibly, for the element of a producer that has won this HANDED slot. */
    private Object awaitHandedItem(Channel channel) {
        boolean interrupted = false;
        Object x;
        for (int spins = 0; (x = ITEM.getAcquire(channel)) == null; spins++) { // pairs with setRelease in handOver()
            if (spins < 64) {
                Thread.onSpinWait();
            } else {
                LockSupport.park(this); // the producer unparks us after writing the element
                interrupted |= Thread.interrupted(); // a set flag would make park return at once
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return x;
    }

    /** Takes the element out of a HANDED slot's channel and makes the slot BUSY again. */
    @SuppressWarnings("unchecked")
    private E collect(int slot, Channel channel, Object x) {
        channel.item = null;   // plain: ordered before the release store below
        channel.waiter = null;
        // Release store: our clearing of the channel is visible before any producer can claim
        // the slot again, which needs our next CAS BUSY -> WAITING first. Only we write a HANDED
        // slot, so no CAS is needed.
        STATUS.setRelease(status, slot, BUSY);
        counters.take();
        return (E) x;
    }

    /**
     * A worker slot owned by the code that registered it, rather than by a thread.
     *
     * <p>A handle is used by one thread at a time (a second thread calling {@code take} while the
     * first waits gets {@link IllegalStateException}); it may pass from thread to thread between
     * calls with the usual happens-before hand-over. {@link #close()} gives the slot back.
     *
     * @param <E> the type of elements handed over
     */
    public static final class Worker<E> implements AutoCloseable {
        private static final int IDLE = 0;
        private static final int IN_CALL = 1;
        private static final int CLOSED = 2;

        private final PipeHandoff<E> pipe;
        private final int slot;
        /** IDLE, IN_CALL while a take or poll runs, or CLOSED; keeps calls and close apart. */
        private final AtomicInteger state = new AtomicInteger(IDLE);

        Worker(PipeHandoff<E> pipe, int slot) {
            this.pipe = pipe;
            this.slot = slot;
        }

        /**
         * Waits for an element handed to this worker.
         *
         * @return the element
         * @throws InterruptedException if interrupted while waiting (unless an element was handed
         *         at that moment: then it is returned and the interrupt status set again)
         * @throws HandoffClosedException if the pipe is closed or closes while waiting
         * @throws IllegalStateException if this handle is closed or waiting in another thread
         */
        public E take() throws InterruptedException {
            enterCall();
            try {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (pipe.closed) {
                    throw pipe.closedAndEmpty();
                }
                return pipe.receive(slot, false, 0L);
            } finally {
                state.set(IDLE);
            }
        }

        /**
         * Waits at most the timeout for an element handed to this worker.
         *
         * @param timeout how long to wait, in units of {@code unit}; {@code <= 0} never waits
         * @param unit the unit of {@code timeout}
         * @return the element, or {@code null} if the time ran out or the pipe is closed
         * @throws InterruptedException if interrupted while waiting (unless an element was handed
         *         at that moment: then it is returned and the interrupt status set again)
         * @throws IllegalStateException if this handle is closed or waiting in another thread
         */
        public E poll(long timeout, TimeUnit unit) throws InterruptedException {
            long nanos = unit.toNanos(timeout);
            enterCall();
            try {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (pipe.closed || nanos <= 0L) {
                    return null;
                }
                return pipe.receive(slot, true, nanos);
            } finally {
                state.set(IDLE);
            }
        }

        /**
         * Returns the index of this worker's slot in {@code [0, W)}.
         *
         * @return the slot index
         */
        public int slot() {
            return slot;
        }

        /**
         * Gives the slot back to the pipe. Idempotent.
         *
         * @throws IllegalStateException if a thread is waiting in {@code take} or {@code poll} on
         *         this handle
         */
        @Override
        public void close() {
            int s = state.compareAndExchange(IDLE, CLOSED);
            if (s == IDLE) {
                pipe.release(slot);
            } else if (s == IN_CALL) {
                throw new IllegalStateException("this PipeHandoff.Worker is waiting in another thread");
            }
        }

        /** Marks a call as running; refuses a closed handle and a second concurrent call. */
        private void enterCall() {
            int s = state.compareAndExchange(IDLE, IN_CALL);
            if (s == CLOSED) {
                throw new IllegalStateException("this PipeHandoff.Worker is closed");
            } else if (s == IN_CALL) {
                throw new IllegalStateException("this PipeHandoff.Worker is waiting in another thread;"
                        + " a handle is used by one thread at a time");
            }
        }
    }

    /**
     * Hands over each element of c in turn, as {@link #add} does; fails with
     * {@link IllegalStateException} at the first element for which no worker waits. Checks every
     * element for null, and the pipe for closed, before handing any over.
     *
     * @throws NullPointerException if c or any of its elements is null
     * @throws IllegalArgumentException if c is this pipe
     * @throws HandoffClosedException if the pipe is closed
     * @throws IllegalStateException if no worker waits for one of the elements; the elements
     *         before it have been handed over
     */
    @Override
    public boolean addAll(Collection<? extends E> c) {
        Objects.requireNonNull(c, "collection");
        if (c == this) {
            throw new IllegalArgumentException("cannot add a handoff to itself");
        }
        for (E e : c) {
            checkElement(e);
        }
        ensureOpen();
        return super.addAll(c);
    }

    // ---- a queue of capacity zero ----

    /** Returns 0: a pipe holds no elements. */
    @Override
    public int size() {
        return 0;
    }

    /** Returns {@code true}: a pipe holds no elements. */
    @Override
    public boolean isEmpty() {
        return true;
    }

    /** Returns {@code null}: a pipe holds no elements. */
    @Override
    public E peek() {
        return null;
    }

    /**
     * Returns the number of workers waiting at this moment: how many elements could be inserted
     * without blocking now. A snapshot, always within {@code [0, capacity()]}.
     */
    @Override
    public int remainingCapacity() {
        return waitingWorkers();
    }

    private int waitingWorkers() {
        int n = 0;
        for (int i = 0; i < status.length; i++) {
            if ((int) STATUS.getOpaque(status, i) == WAITING) { // a snapshot: no ordering needed
                n++;
            }
        }
        return n;
    }

    /** Returns {@code false}: a pipe holds no elements. */
    @Override
    public boolean contains(Object o) {
        return false;
    }

    /** Returns {@code false}: a pipe holds no elements. */
    @Override
    boolean removeFirst(Predicate<Object> match) {
        return false;
    }

    /** Returns 0: a pipe holds no elements. */
    @Override
    int removeMatching(Predicate<Object> match) {
        return 0;
    }

    /** Does nothing: a pipe holds no elements. */
    @Override
    public void clear() {
    }

    /** Returns an empty array: a pipe holds no elements. */
    @Override
    public Object[] toArray() {
        return new Object[0];
    }

    /** Moves nothing and returns 0: a pipe holds no elements. */
    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        return 0;
    }

    /**
     * Returns the number of worker slots, W.
     *
     * @return W
     */
    @Override
    public int capacity() {
        return status.length;
    }

    @Override
    public Ordering ordering() {
        return Ordering.UNORDERED;
    }

    // ---- closing ----

    @Override
    public void close() {
        closed = true; // volatile write; Dekker pair with the worker's CAS BUSY -> WAITING, read of closed
        producerLock.lock();
        try {
            workerWaiting.signalAll(); // producers recheck closed under producerLock: put throws, the timed offer returns false
            if (workerWaitingByClass != null) {
                for (Condition classWaiting : workerWaitingByClass) {
                    classWaiting.signalAll();
                }
            }
        } finally {
            producerLock.unlock();
        }
        slotLock.lock();
        try {
            slotFreed.signalAll(); // threads waiting for a slot: they recheck closed under slotLock
        } finally {
            slotLock.unlock();
        }
        for (int i = 0; i < status.length; i++) {
            // Volatile read, after the write of closed (the other half of the Dekker pair).
            if ((int) STATUS.getVolatile(status, i) == WAITING) {
                LockSupport.unpark(channels[i].waiter); // null or a stale waiter: a harmless no-op or spurious wake-up
            }
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
