/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.ImportanceClasses;
import dev.handoff.internal.pipe.PipeCore;
import dev.handoff.internal.probe.ProbeRandom;

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
 * {@code put} throws {@link HandoffClosedException} (a pool's own code gets a
 * {@link java.util.concurrent.RejectedExecutionException}, see {@link Handoff}); a producer still
 * waiting wakes and throws or returns {@code false}. Nothing is ever inside, so {@code take()} and
 * {@code take(timeout, unit)} throw {@link HandoffClosedException} (a pool's own code waits in
 * {@code take()} instead, see {@link Handoff}), also for workers waiting at the close, and the
 * timed {@code poll} waits out its timeout and returns {@code null}. A worker or
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
public final class PipeHandoff<E> extends ZeroCapacityHandoff<E> {
    /*
     * Implementation notes.
     *
     * The pre-threaded server with "connected socket passing through pipes" of Roussev and Wu,
     * "Client-server design alternatives: back to pipes but with threads" (IEEE International
     * Conference on Networking, 2001; section 3.6, Fig. 6): a dispatcher keeps a WorkerStatus
     * array, finds a free worker in it and writes the job into that worker's own pipe. Here the
     * pipe is a channel of depth one and the status array holds one of four states per slot:
     *
     *   status:   [ BUSY | WAITING | HANDED | FREE | WAITING ]     scanned by producers
     *   channel:  [  -   |    -    |   e    |  -   |    -    ]     one reference per slot
     *   worker:      w0      w1        w2     (none)    w4          waiting in take() on 1, 2, 4
     *   line:     [ p5:e5, p6:e6 ]   producers that found no WAITING slot
     *
     * The dual structure. A producer whose scan finds no WAITING worker does not wait for one:
     * it waits in the line with its element, and a worker arriving at take() first takes the
     * element of the first producer in line, without becoming WAITING. Whichever side arrives
     * second completes the handoff, so each element costs at most one wake-up, of the side that
     * waited, and none when that side is still spinning. A worker becomes WAITING only while the
     * line is empty; put joins the line without scanning while it is not empty.
     *
     * The mechanism is in dev.handoff.internal.pipe, one job per class: WorkerSlots (the status
     * array, the channels, who owns each slot), Dispatcher (a producer's scan for a WAITING
     * worker, Theorem 3, and the handover), Receiver (a worker's wait on its slot) and
     * ProducerLine (the line, one per importance class), wired by PipeCore, the engine, which
     * holds the closed flag and answers false or null where the contract throws. Its package
     * notes hold the invariants and the ordering arguments that span them (no lost wake-up,
     * close, visibility). This class keeps the contract: argument checks and each element's
     * importance class, the contract's exceptions, the closed-and-empty rule for pool threads.
     */

    /** Order in which a producer probes the status array; only the tests use anything else. */
    enum Scan {
        /** Pseudo-random start, pseudo-random stride coprime to W: double hashing. */
        DOUBLE_HASHING,
        /** Slot 0, 1, 2, ...: the papers' dispatcher, kept to show that Theorem 3 then fails. */
        FROM_SLOT_ZERO
    }

    /**
     * The largest number of worker slots a pipe accepts: {@code 1 << 16} (65,536). Every slot's
     * channel is allocated at construction, and a producer that finds no waiting worker probes
     * all {@code W} slots: the limit is far above any pool of platform threads, and keeps a pipe
     * at a few megabytes and its full scan short.
     */
    public static final int MAX_CAPACITY = 1 << 16;

    /** The engine: the slots, the line, the dispatcher and the receiver, wired, and the closed flag. */
    private final PipeCore core;

    /** The importance classes of producers, K > 1, or null without them. */
    private final ImportanceClasses<E> importance;

    /** The spec this pipe was built from, a Pipe or K > 1 classes over one, canonical (AbstractHandoff.specOf). */
    private final String spec;

    /** Rejects a number of worker slots outside [1, MAX_CAPACITY], naming the limit. */
    static int checkCapacity(int workerSlots) {
        return checkCapacity(workerSlots, MAX_CAPACITY, "PipeHandoff.MAX_CAPACITY", "PipeHandoff");
    }

    /**
     * Creates a pipe with the given number of worker slots that does not count statistics. A pipe
     * that counts, or serves its producers by importance class, is built through a spec:
     * {@code Handoffs.pipe(workerSlots).withStats().build()}.
     *
     * @param workerSlots W, the number of workers that can wait at once
     * @throws IllegalArgumentException if {@code workerSlots <= 0} or
     *         {@code workerSlots > MAX_CAPACITY}
     */
    public PipeHandoff(int workerSlots) {
        this(new HandoffSpec.Pipe(workerSlots, false));
    }

    /** Creates the pipe of a spec, which checked the number of worker slots. */
    PipeHandoff(HandoffSpec.Pipe spec) {
        this(spec, Scan.DOUBLE_HASHING, ProbeRandom.THREAD_LOCAL);
    }

    /** Creates a pipe whose scans draw from {@code scanRandom}: Lincheck's seam (see {@link ProbeRandom}). */
    PipeHandoff(HandoffSpec.Pipe spec, Scan scan, ProbeRandom scanRandom) {
        this(spec, spec, null, scan, scanRandom);
    }

    /**
     * Creates the pipe of {@code classed}, K > 1 classes over {@code kind}: its waiting producers
     * are served by class.
     */
    PipeHandoff(HandoffSpec.Classed classed, HandoffSpec.Pipe kind, ImportanceClasses<E> importance) {
        this(classed, kind, Objects.requireNonNull(importance), Scan.DOUBLE_HASHING, ProbeRandom.THREAD_LOCAL);
    }

    private PipeHandoff(HandoffSpec spec, HandoffSpec.Pipe kind, ImportanceClasses<E> importance, Scan scan,
            ProbeRandom scanRandom) {
        super(kind.stats());
        this.spec = spec.toString();
        int w = kind.capacity();
        boolean doubleHashing = Objects.requireNonNull(scan) == Scan.DOUBLE_HASHING;
        this.importance = importance;
        this.core = importance == null
                ? new PipeCore(w, 1, null, doubleHashing, scanRandom, counters, this)
                : new PipeCore(w, importance.count(), importance::firstToServe, doubleHashing, scanRandom, counters, this);
    }

    // ---- producers ----

    @Override
    public boolean offer(E e) {
        classOf(e);
        return core.offer(e);
    }

    @Override
    public void put(E e) throws InterruptedException {
        if (!core.put(e, classOf(e), false, 0L)) {
            throw closedToPut(); // the core refuses a put only when the pipe is closed, or closes
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        int c = classOf(e);
        return core.put(e, c, true, unit.toNanos(timeout));
    }

    /** Checks e; returns its importance class (0 without classes), checked by ImportanceClasses. */
    private int classOf(E e) {
        if (importance == null) {
            checkElement(e);
            return 0;
        }
        return importance.classOf(e);
    }

    /** For tests: the producers of class c waiting in line (all of them without classes). */
    int waitingProducersOfClass(int c) {
        return core.waitingInClass(importance == null ? 0 : c);
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
        E e = workerTake(PipeCore.OWN_SLOT, false, 0L);
        return e != null ? e : takeWhenClosedAndEmpty(); // null: closed, on entry or while waiting
    }

    /**
     * Waits at most the timeout for an element as a worker of this pipe, claiming a worker slot
     * for the calling thread on its first call, and waiting for one if all are held (see the
     * class comment). The timeout covers both waits. On a closed pipe, or one that closes while
     * this thread waits, it waits out the timeout, as {@link Handoff} says, and returns
     * {@code null}.
     *
     * @return the element, or {@code null} if none came within the timeout
     */
    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        return super.poll(timeout, unit);
    }

    /**
     * Waits at most the timeout for an element as a worker of this pipe, as the timed
     * {@link #poll(long, TimeUnit)} does, but throws once the pipe is closed.
     *
     * @return the element, or {@code null} if none came within the timeout
     * @throws HandoffClosedException if the pipe is closed, or closes while this thread waits
     */
    @Override
    public E take(long timeout, TimeUnit unit) throws InterruptedException {
        return super.take(timeout, unit);
    }

    @Override
    E timedTake(long nanos) throws InterruptedException {
        return workerTake(PipeCore.OWN_SLOT, true, nanos); // null: the time ran out, or closed
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
        return core.leave();
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
        int slot = core.claimExplicit();
        if (slot < 0) {
            throw new IllegalStateException("all " + core.slots()
                    + " worker slots of this PipeHandoff are held by live workers");
        }
        return new PipeWorker<>(this, slot);
    }

    /** Gives back a slot that {@link #register()} claimed: {@link PipeWorker#close()}. */
    void release(int slot) {
        core.release(slot);
    }

    /**
     * Waits as a worker for an element: on slot, a handle's, or on the calling thread's own
     * ({@code PipeCore.OWN_SLOT}); see {@code PipeCore.take}.
     *
     * @return the element; null when the pipe is closed, or (timed) the time ran out
     */
    @SuppressWarnings("unchecked")
    E workerTake(int slot, boolean timed, long nanos) throws InterruptedException {
        return (E) core.take(slot, timed, nanos);
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
        return core.waitingWorkers();
    }

    @Override
    public HandoffSpec spec() {
        return specOf(spec, HandoffSpec.class);
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
        return core.slots();
    }

    @Override
    public Ordering ordering() {
        return Ordering.UNORDERED;
    }

    // ---- closing ----

    @Override
    public void close() {
        core.close();
    }

    @Override
    public boolean isClosed() {
        return core.isClosed();
    }
}
