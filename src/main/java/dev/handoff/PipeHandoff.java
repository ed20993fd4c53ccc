/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.ImportanceClasses;
import dev.handoff.internal.observe.CountedHandoffs;
import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.probe.ProbeSequence;
import dev.handoff.internal.waiting.Spin;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Waiters;

import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A direct handoff to a fixed set of worker slots: a producer finds a worker that is waiting and
 * passes the element through that worker's own channel of depth one; a producer that finds none
 * waits with its element until a worker arrives and takes it. Nothing is buffered.
 *
 * <h2>Workers</h2>
 * The capacity {@code W} is the number of worker slots: how many consumers can wait here at once.
 * A thread that calls {@link #take()} or the timed {@link #poll(long, TimeUnit)} claims a slot on
 * its first call and keeps it while it lives; a live thread gives it back with {@link #leave()},
 * and the slot of a terminated thread is reclaimed by the next thread that needs one (within
 * 20 ms: the JDK tells nobody when a thread terminates). {@link #register()} returns a
 * {@link PipeWorker} handle that owns a slot until it is {@linkplain PipeWorker#close() closed},
 * whichever thread uses it; it throws {@link IllegalStateException} when no slot is free. A thread
 * that calls {@code take()} or the timed {@code poll} while all {@code W} slots are held by live
 * workers waits for a slot first (within the poll's timeout). Size the pipe to the consumers; a
 * thread pool needs at least {@code maximumPoolSize} slots.
 *
 * <h2>A queue of capacity zero, with W places to stand</h2>
 * Like {@link java.util.concurrent.SynchronousQueue}, this handoff holds no elements:
 * {@link #offer(Object)} succeeds only if a worker is waiting at that moment, {@link #put} waits
 * until a worker takes the element, the timed {@code offer} at most its timeout; {@link #take()}
 * and the timed {@code poll} wait for a producer; {@link #size()} is 0, {@link #peek()} is
 * {@code null}, the iterator is empty, {@code contains}, {@code remove(Object)} and the bulk
 * removals are {@code false}. {@link #ordering()} is {@link Handoff.Ordering#UNORDERED}. It
 * differs from {@code SynchronousQueue} in three ways:
 * <ul>
 *   <li>The untimed {@link #poll()} returns {@code null} and {@link #drainTo} moves nothing, even
 *       while a producer waits in {@code put}: only a worker, a thread holding a slot, receives
 *       elements, and these calls claim none.</li>
 *   <li>{@link #remainingCapacity()} is the number of workers waiting now, in {@code [0, W]}: how
 *       many elements could be inserted without blocking, the {@code BlockingQueue} definition.</li>
 *   <li>At most W threads wait at once, each in a slot it keeps between calls. The fixed array of
 *       W status slots is the algorithm (the papers' worker-status array): a producer finds a
 *       waiting worker by scanning it, in about {@code 1/a} probes when a fraction {@code a} of
 *       the slots wait (Theorem 3 in {@code docs/pipe-handoff.md}).</li>
 * </ul>
 * Like {@code SynchronousQueue}, it fits a {@link java.util.concurrent.ThreadPoolExecutor}, whose
 * idle threads wait in {@code take()} or the timed {@code poll}; it serves nothing in a pool that
 * starts a thread only after the queue has accepted a task (every {@code offer} fails there).
 *
 * <h2>Closing, interruption and timeouts</h2>
 * After {@link #close()} {@code offer} and the timed {@code offer} return {@code false} and
 * {@code put} throws {@link HandoffClosedException}; a producer still waiting wakes and throws or
 * returns {@code false}. Nothing is ever inside, so {@code take()} throws
 * {@link HandoffClosedException} (a thread pool's worker waits instead, see {@link Handoff}) and
 * the timed {@code poll} returns {@code null}, also for workers waiting at the close. A worker or
 * producer whose wait ends (close, interrupt, timeout) at the very moment the other side completes
 * the handoff completes it too: the worker returns the element, the producer returns normally,
 * with the interrupt status set again if interrupted. An element is never lost nor delivered twice.
 *
 * <h2>Importance classes</h2>
 * Built with {@code classes=K} ({@link Handoffs#create(String)}), a pipe orders the producers
 * that wait, and only those: a worker that arrives while producers wait takes the element of the
 * first producer of the most important class with waiting producers; every {@code N}-th time
 * ({@code fair=N}) it serves instead the first class with waiting producers at or after a class
 * that rotates through all {@code K}. This is weaker than the buffered kinds' guarantee
 * ({@link Importance}): an {@code offer} that finds a worker waiting hands its element over at
 * once, ahead of waiting producers of any class. The classifier is called once per inserting
 * call; with one class the pipe behaves exactly as without the option.
 *
 * <h2>Statistics</h2>
 * With counting on, {@code insertProbes} counts the status slots producers looked at (an offer
 * that finds no waiting worker counts {@code 2W}: a pass for a worker that still spins, then the
 * scan for any waiting one; plus one for the first spinner, tried before both), so
 * {@code meanInsertProbes()} is the cost of scanning per element; {@code insertConflicts} counts
 * waiting workers a producer saw but lost, to another producer or to the worker leaving;
 * {@code searchConflicts} counts workers whose give-up (timeout, interrupt or close) lost to a
 * producer, so that their call returned the element after all. {@code searchProbes} stays 0.
 *
 * <p>Blocked threads park with {@link LockSupport} or wait on a
 * {@link java.util.concurrent.locks.Condition}, never on a monitor, so a virtual thread blocked
 * here does not pin its carrier. See {@link Handoff} for the rest of the contract and the
 * memory-consistency effects, and {@code docs/pipe-handoff.md} for the algorithm and its theorem.
 *
 * @param <E> the type of elements handed over
 */
public class PipeHandoff<E> extends ZeroCapacityHandoff<E> {
    /*
     * Implementation notes.
     *
     * The pre-threaded server with "connected socket passing through pipes" of shared/seeds 001
     * (section 3.6, Fig. 6): a dispatcher keeps a WorkerStatus array, finds a free worker in it and
     * writes the job into that worker's own pipe. Here the pipe is a channel of depth one and the
     * status array (WorkerSlots) holds one of four states per slot:
     *
     *   status:   [ BUSY | WAITING | HANDED | FREE | WAITING ]     scanned by producers
     *   channel:  [  -   |    -    |   e    |  -   |    -    ]     one reference per slot
     *   worker:      w0      w1        w2     (none)    w4          waiting in take() on 1, 2, 4
     *   line:     [ p5:e5, p6:e6 ]   producers that found no WAITING slot (WaitingProducers)
     *
     * The states and who moves a slot between them are listed in WorkerSlots.
     *
     * Scan (Theorem 3). A producer probes the slots start, start + d, start + 2d, ... (mod W),
     * with start uniform in [0, W) and d uniform among the strides coprime to W (ProbeSequence),
     * both drawn afresh for every scan through ProbeRandom (the seam Lincheck needs), so the W
     * probes visit every slot once: double hashing over the status array. Seed 001's Theorem 3
     * (at most 1/a probes when a fraction a of the slots wait, under uniform hashing) holds for
     * this scan; the papers' scan from slot 0 (Scan.FROM_SLOT_ZERO, kept for the test) breaks it.
     * PipeTheoremProperties checks both on the scans' own probe count (Counters.scanProbes), and
     * the pipe-* mutants (TheoremMutations) show that a bad start, stride or count turns it red.
     *
     * The dual structure. A producer whose scan finds no WAITING worker does not wait for one:
     * it waits in WaitingProducers' line with its element, and a worker arriving at take() first
     * takes the element of the first producer in line, without becoming WAITING. Whichever side
     * arrives second completes the handoff, so each element costs at most one wake-up, of the side
     * that waited, and none when that side is still spinning. A worker becomes WAITING only while
     * the line is empty; put joins the line without scanning while it is not empty.
     *
     * Invariants: every WAITING episode ends with exactly one successful CAS, a producer's
     * WAITING -> HANDED (its element is delivered to this worker) or the worker's own
     * WAITING -> BUSY (leaving: timeout, interrupt, close, or a producer in line; the producer
     * that lost goes on with its element). channel.item != null only while HANDED: written once
     * by the winning producer, cleared by the worker before HANDED -> BUSY. A node in the line is
     * removed once, under its lock, by a worker (taken) or by its producer (cancelled).
     *
     * No lost wake-up, a Dekker pair: a producer adds its node to the line (volatile write of
     * its size) and then reads every status and waiter, unparking each parked WAITING worker; a
     * worker about to park writes its channel's waiter (volatile) and then reads the line's size,
     * and rereads it at every wake-up and spin round. So either the worker sees the node, leaves
     * WAITING and takes from the line, or the producer sees the worker's waiter and wakes it.
     * The same pair covers a handed element: the producer stores it (volatile) and then reads the
     * waiter, the worker writes the waiter and then reads the element; a producer that finds no
     * waiter (the worker still spins) unparks nobody. A producer in line waits for
     * its node's taken flag, with the second pair in WaitingProducers (parked against taken).
     * These waits are not on Waiters: it counts anonymous waiters on a lock's Condition, while
     * here the waker knows the one thread it serves (the CAS or the lock decided it) and unparks
     * it, so a lock per slot would only add a lock hand-over to every handoff.
     *
     * Spinning before parking (class Spin). A wake-up costs far more than a short spin, so a
     * waiting side first spins. Every waiting worker (on a platform thread) spins its full
     * rounds: it reads only its own channel and words that change rarely while it waits (the
     * line's size, closed), so spinners do not pull one another's lines, and a producer that wins
     * a spinning worker's slot unparks nobody. The first of them to spin is shown in Spin.Gate
     * workerSpin (holding its slot), which producers probe first (a stale hint costs one probe:
     * the CAS decides). Producers in line spin one at a time; the others yield a few rounds
     * before they park, handing the CPU to the thread they wait for when threads outnumber CPUs.
     * put, before it joins an empty line, waits the spin for a spinning worker. The spin loops
     * are written out: Spin.until with a capturing lambda would allocate on every handoff.
     *
     * Spinning workers first. A producer that misses the first spinner makes one pass for a
     * waiting worker that has not shown its thread (it still spins), before the scan of Theorem 3
     * takes any waiting worker: a parked worker costs its producer an unpark and its element a
     * wake-up, while a spinning one answers at once, so workers that have parked stay parked
     * while others spin, as the waiters deep in SynchronousQueue's stack do. Both passes follow
     * the same probe sequence; only the second is the papers' scan, and only its probes are
     * counted as scan probes (the theorem properties measure with every worker parked, where the
     * first pass finds nobody).
     *
     * Close. close() writes closed, then wakes the producers in line (under the line's lock),
     * the threads waiting for a slot, and the waiter of every WAITING slot. Dekker pairs: a
     * worker sets WAITING and then reads closed; a producer joins the line and then reads closed.
     *
     * Visibility between writers and readers is provided as follows: a producer that wins a slot
     * writes the element into the channel with a volatile store; the worker reads it with an
     * acquire or a volatile load. A producer in line publishes its node under the line's lock
     * and the worker takes it under the same lock. Either way everything the producer did before inserting
     * happens-before what the worker does with the element. channel.waiter is written
     * (volatile) by the worker only once it stops spinning and read (volatile) by producers: the
     * Dekker pairs above. The worker clears the channel before its release store
     * HANDED -> BUSY, and producers reach it again only through the worker's next
     * BUSY -> WAITING, so no element can be overwritten; a waiter read just before the worker
     * cleared it costs that thread one spurious return from park, which every park here
     * rechecks.
     */

    private static final int BUSY = WorkerSlots.BUSY;
    private static final int WAITING = WorkerSlots.WAITING;
    private static final int HANDED = WorkerSlots.HANDED;
    private static final VarHandle STATUS = WorkerSlots.STATUS;
    private static final VarHandle ITEM = WorkerSlots.ITEM;

    /** Order in which a producer probes the status array; only the tests use anything else. */
    enum Scan {
        /** Pseudo-random start, pseudo-random stride coprime to W: double hashing. */
        DOUBLE_HASHING,
        /** Slot 0, 1, 2, ...: the papers' dispatcher, kept to show that Theorem 3 then fails. */
        FROM_SLOT_ZERO
    }

    /** What a wait returns when the worker left WAITING to serve a producer in line. */
    private static final Object SERVE_LINE = new Object();

    /** The status array, the channels, and who owns each slot. */
    final WorkerSlots slots;

    private final int[] status; // slots.status, accessed through STATUS
    private final WorkerSlots.Channel[] channels; // slots.channels

    /** Producers that found no waiting worker, with their elements. */
    private final WaitingProducers producers;

    /** The scan's probe order over the W slots, and its strides, one drawn uniformly per scan. */
    private final ProbeSequence probes;
    private final int[] strides;

    /** How producers scan; DOUBLE_HASHING except in the theorem test. */
    private final Scan scan;

    /** Draws each scan's start and stride: {@link ProbeRandom#THREAD_LOCAL} except under Lincheck. */
    private final ProbeRandom scanRandom;

    /** The importance classes of producers, or null without them (or with one class). */
    private final ImportanceClasses<E> importance;

    /** Set once by close(). */
    private volatile boolean closed;

    /** Lets one WAITING worker spin at a time; its holder is that worker's slot. */
    private final Spin.Gate workerSpin = new Spin.Gate();


    /**
     * The largest number of worker slots a pipe accepts: {@code 1 << 16} (65,536). Every slot's
     * channel is allocated at construction, and a producer that finds no waiting worker probes
     * all {@code W} slots: the limit is far above any pool of platform threads, and keeps a pipe
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
        this(workerSlots, countStats, Scan.DOUBLE_HASHING, ProbeRandom.THREAD_LOCAL);
    }

    /** Creates a pipe whose scans draw from {@code scanRandom}: Lincheck's seam (see {@link ProbeRandom}). */
    PipeHandoff(int workerSlots, boolean countStats, Scan scan, ProbeRandom scanRandom) {
        this(workerSlots, countStats, scan, scanRandom, null);
    }

    /** Creates a pipe whose waiting producers are served by importance class (null: none). */
    PipeHandoff(int workerSlots, boolean countStats, ImportanceClasses<E> importance) {
        this(workerSlots, countStats, Scan.DOUBLE_HASHING, ProbeRandom.THREAD_LOCAL, importance);
    }

    @SuppressWarnings("this-escape") // WorkerSlots keeps the pipe to read closed and count waits
    private PipeHandoff(int workerSlots, boolean countStats, Scan scan, ProbeRandom scanRandom,
            ImportanceClasses<E> importance) {
        super(countStats);
        int w = checkCapacity(workerSlots);
        this.slots = new WorkerSlots(w, this);
        this.status = slots.status;
        this.channels = slots.channels;
        this.probes = new ProbeSequence(w);
        this.strides = probes.coprimeStrides();
        this.scan = Objects.requireNonNull(scan);
        this.scanRandom = Objects.requireNonNull(scanRandom);
        this.importance = importance == null || importance.count() == 1 ? null : importance;
        this.producers = new WaitingProducers(this.importance, this);
        CountedHandoffs.register(this); // last: JFR's dev.handoff.Stats reads it from another thread
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
        if (producers.isEmpty() && handOffWithoutParking(e)) {
            return;
        }
        producers.await(e, c, false, 0L);
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
        return nanos > 0L && producers.await(e, c, true, nanos);
    }

    /** Checks e; returns its importance class (0 without classes), checked by ImportanceClasses. */
    private int classOf(E e) {
        if (importance == null) {
            checkElement(e);
            return 0;
        }
        return importance.classOf(e);
    }

    /**
     * Hands e to a waiting worker if it finds one: the first spinner's slot, then a pass for a
     * worker that still spins, then the scan of Theorem 3 for any waiting worker (see "Spinning
     * workers first"). Counts one insert probe per status slot read, whether or not it succeeds;
     * only the last scan's are scan probes.
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
        if (scan == Scan.DOUBLE_HASHING && tryHandToSpinningWorker(e, i, stride)) {
            return true;
        }
        for (int probe = 1; probe <= w; probe++) {
            // Volatile read of the worker's CAS BUSY -> WAITING; the CAS in tryWin() decides.
            if ((int) STATUS.getVolatile(status, i) == WAITING && tryWin(i, e)) {
                counters.scanProbes(probe);
                return true;
            }
            i = probes.next(i, stride);
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
        int hot = workerSpin.holder(); // a hint only (see "Spinning before parking"); the CAS decides
        if (hot == Spin.Gate.NONE) {
            return false;
        }
        counters.insertProbes(1);
        // Volatile read first, as in the scan: a CAS on a slot that is not WAITING would only
        // pull the status line away from the worker.
        return (int) STATUS.getVolatile(status, hot) == WAITING && tryWin(hot, e);
    }

    /**
     * One pass over the probe sequence from slot i with the given stride, handing e to the first
     * waiting worker it wins that has not yet shown its thread (it still spins: no wake-up).
     * Counts its probes as insert probes, not as scan probes.
     *
     * @return whether e was handed over
     */
    private boolean tryHandToSpinningWorker(E e, int i, int stride) {
        int w = status.length;
        for (int probe = 1; probe <= w; probe++) {
            // Volatile reads of the status, then of the waiter the worker writes before it
            // parks; a stale answer costs a wake-up or a slot passed over, and the CAS decides.
            if ((int) STATUS.getVolatile(status, i) == WAITING && channels[i].waiter() == null
                    && tryWin(i, e)) {
                counters.insertProbes(probe);
                return true;
            }
            i = probes.next(i, stride);
        }
        counters.insertProbes(w);
        return false;
    }

    /** Hands e to the worker of slot i if this producer's CAS WAITING -> HANDED wins it. */
    private boolean tryWin(int i, E e) {
        // The decisive CAS; pairs with the worker's CAS WAITING -> BUSY in leaveWaiting().
        if (STATUS.compareAndSet(status, i, WAITING, HANDED)) {
            handOver(channels[i], e);
            return true;
        }
        counters.insertConflict(); // lost to another producer or to the worker leaving WAITING
        return false;
    }

    /**
     * put's way to a worker before it joins the line: waits up to Spin.ROUNDS for a spinning
     * worker, which takes e without a wake-up, then scans, spinner first. Gives up when producers
     * are in line: they are ahead of this one.
     *
     * @return whether e was handed over
     */
    private boolean handOffWithoutParking(E e) {
        for (int round = 0; round < Spin.ROUNDS
                && workerSpin.holder() == Spin.Gate.NONE && producers.isEmpty(); round++) {
            Spin.pause(round);
        }
        return producers.isEmpty() && tryHandOff(e);
    }

    /** Puts e into a channel whose slot this producer just moved from WAITING to HANDED. */
    private void handOver(WorkerSlots.Channel channel, E e) {
        // Volatile store: publishes e and our prior writes (pairs with the worker's acquire and
        // volatile reads of item), and is not reordered with the read of waiter below.
        ITEM.setVolatile(channel, e);
        counters.countInsert();
        // Volatile read: the Dekker pair with announceWaiter in awaitHandOver (see "No lost wake-up").
        Thread worker = channel.waiter();
        if (worker != null) {
            LockSupport.unpark(worker);
        }
    }

    /** For tests: the producers of class c waiting in line (all of them without classes). */
    int waitingProducersOfClass(int c) {
        return producers.waitingInClass(importance == null ? 0 : c);
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
        int slot = slots.currentThreadSlot(false, 0L);
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
        int slot = slots.currentThreadSlot(true, nanos);
        if (slot < 0) {
            return null; // no slot in time, or closed
        }
        nanos = deadline - System.nanoTime();
        return nanos > 0L ? receive(slot, true, nanos) : null;
    }

    /** Returns {@code null}: only a worker, a thread holding a slot, receives elements (see above). */
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
        return slots.leave();
    }

    /**
     * Claims a worker slot for a handle that the caller manages: take and poll through the
     * handle, from one thread at a time, and close it to give the slot back. Unlike
     * {@link #take()}, this does not wait for a slot.
     *
     * @return a handle owning one of the {@code W} slots
     * @throws IllegalStateException if all {@code W} slots are held by live workers
     */
    public PipeWorker<E> register() {
        int slot = slots.claimExplicit();
        if (slot < 0) {
            throw new IllegalStateException("all " + status.length
                    + " worker slots of this PipeHandoff are held by live workers");
        }
        return new PipeWorker<>(this, slot);
    }

    /**
     * Waits on a slot for an element: takes one from a producer in line, or waits WAITING for a
     * producer to hand one over. Call only as the slot's owner, with the slot BUSY. Returns null
     * if timed and the time ran out or the pipe closed.
     */
    @SuppressWarnings("unchecked")
    E receive(int slot, boolean timed, long nanos) throws InterruptedException {
        WorkerSlots.Channel channel = channels[slot];
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        for (;;) {
            Object x = producers.take();
            if (x != null) {
                counters.countRemoval();
                return (E) x;
            }
            // Volatile CAS: not reordered with the reads of the line's size and of closed that
            // follow (the spin's, and the rereads after the waiter is written: see notes).
            if (!STATUS.compareAndSet(status, slot, BUSY, WAITING)) {
                // Cannot happen: the owner alone leaves BUSY, and one call at a time waits per slot.
                throw new IllegalStateException("worker slot " + slot + " was not BUSY");
            }
            x = awaitHandOver(slot, channel, timed, deadline);
            if (x != SERVE_LINE) {
                return (E) x;
            }
        }
    }

    /**
     * Waits WAITING until a producer hands an element over, the line of producers is not empty,
     * the pipe closes, the thread is interrupted or (when timed) the deadline passes.
     *
     * @return the element; SERVE_LINE if the worker left WAITING for the line; null if it gave up
     */
    private Object awaitHandOver(int slot, WorkerSlots.Channel channel, boolean timed, long deadline)
            throws InterruptedException {
        spinForItem(slot, channel, timed, deadline);
        // Volatile write before the rereads below: the Dekker pairs with handOver() and with a
        // producer joining the line (see "No lost wake-up"); until now producers unpark nobody.
        channel.announceWaiter(Thread.currentThread());
        for (;;) {
            Object x = ITEM.getVolatile(channel); // after announceWaiter: pairs with handOver()
            if (x != null) {
                return collect(slot, channel, x);
            }
            if (!producers.isEmpty()) { // volatile read after our CAS to WAITING: see "No lost wake-up"
                return leaveWaiting(slot, channel, GiveUp.SERVE_LINE, timed);
            }
            if (closed) {
                return leaveWaiting(slot, channel, GiveUp.CLOSED, timed);
            }
            if (Thread.interrupted()) {
                return leaveWaiting(slot, channel, GiveUp.INTERRUPTED, timed);
            }
            if (timed) {
                long nanos = deadline - System.nanoTime();
                if (nanos <= 0L) {
                    return leaveWaiting(slot, channel, GiveUp.TIMED_OUT, timed);
                }
                counters.consumerWait();
                Parking.TAKE.parkNanos(this, nanos);
            } else {
                counters.consumerWait();
                Parking.TAKE.park(this);
            }
        }
    }

    /**
     * A WAITING worker's wait before it parks, until {@link #mayStopWaiting} (the caller reads
     * everything again): all Spin.ROUNDS. A virtual thread spins only while it is the first
     * spinner, and otherwise parks at once: its spin would hold a carrier that other virtual
     * threads need.
     */
    private void spinForItem(int slot, WorkerSlots.Channel channel, boolean timed, long deadline) {
        boolean first = workerSpin.tryEnter(slot); // shown to producers (see "Spinning before parking")
        int round = first || !Thread.currentThread().isVirtual() ? 0 : Spin.ROUNDS;
        try {
            for (; round < Spin.ROUNDS && !mayStopWaiting(channel, timed, deadline); round++) {
                Spin.pause(round);
            }
        } finally {
            if (first) {
                workerSpin.exit();
            }
        }
    }

    /** Whether a WAITING worker has anything to look at: an element, the line, close, interrupt, time. */
    private boolean mayStopWaiting(WorkerSlots.Channel channel, boolean timed, long deadline) {
        return ITEM.getAcquire(channel) != null // pairs with the volatile store in handOver()
                || !producers.isEmpty()
                || closed
                || Thread.currentThread().isInterrupted()
                || (timed && deadline - System.nanoTime() <= 0L);
    }

    /** Why a thread stops waiting without an element handed over. */
    enum GiveUp { CLOSED, INTERRUPTED, TIMED_OUT, SERVE_LINE }

    /**
     * Ends a WAITING episode that found no element: either the worker's CAS WAITING -> BUSY wins
     * and no producer can hand it anything any more, or a producer has already won the worker and
     * its element is returned anyway.
     *
     * @return the element, SERVE_LINE, or null
     */
    private Object leaveWaiting(int slot, WorkerSlots.Channel channel, GiveUp reason, boolean timed)
            throws InterruptedException {
        // The decisive CAS; pairs with the producer's CAS WAITING -> HANDED in tryHandOff().
        if (STATUS.compareAndSet(status, slot, WAITING, BUSY)) {
            channel.clearWaiter();
            return switch (reason) {
                case INTERRUPTED -> throw new InterruptedException();
                case CLOSED -> timed ? null : takeWhenClosedAndEmpty();
                case SERVE_LINE -> SERVE_LINE;
                case TIMED_OUT -> null;
            };
        }
        // A producer won: its element arrives within a few instructions.
        if (reason != GiveUp.SERVE_LINE) {
            counters.searchConflict(); // this worker's give-up lost to a producer: see the class comment
        }
        Object x = channel.awaitHandedItem(this);
        if (reason == GiveUp.INTERRUPTED) {
            Thread.currentThread().interrupt(); // the element is returned, the interrupt kept
        }
        return collect(slot, channel, x);
    }

    /** Takes the element out of a HANDED slot's channel and makes the slot BUSY again. */
    private Object collect(int slot, WorkerSlots.Channel channel, Object x) {
        channel.item = null;   // plain: ordered before the release store below
        channel.clearWaiter();
        // Release store: our clearing of the channel is visible before any producer can claim
        // the slot again, which needs our next CAS BUSY -> WAITING first. Only we write a HANDED
        // slot, so no CAS is needed.
        STATUS.setRelease(status, slot, BUSY);
        counters.countRemoval();
        return x;
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

    // ---- capacity ----

    /**
     * Returns the number of workers waiting at this moment: how many elements could be inserted
     * without blocking now. A snapshot, always within {@code [0, capacity()]}.
     */
    @Override
    public int remainingCapacity() {
        return slots.waiting();
    }

    @Override
    public HandoffSpec spec() {
        HandoffSpec.Pipe pipe = new HandoffSpec.Pipe(capacity(), counters.enabled());
        return importance == null ? pipe : new HandoffSpec.Classed(pipe, importance.count(), importance.fair());
    }

    @Override
    Classifier<?> classifier() {
        return importance == null ? null : importance.classifier();
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
        closed = true; // volatile write; Dekker pairs with a worker becoming WAITING, a producer joining the line
        producers.wakeAll(); // they recheck closed: put throws, the timed offer returns false
        slots.wakeSlotWaiters();
        slots.unparkWaiting(); // volatile reads of every status, after the write of closed
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
