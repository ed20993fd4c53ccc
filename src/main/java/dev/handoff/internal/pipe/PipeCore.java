/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pipe;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.waiting.Spinner;

import java.util.function.BooleanSupplier;
import java.util.function.LongToIntFunction;

/**
 * The engine of a pipe: its four parts wired together (the worker slots, the producers' line, a
 * producer's way to a waiting worker, a worker's wait on its slot) and the closed flag they share.
 * It answers, and never throws the contract's exceptions: an insert on a closed pipe returns
 * {@code false}, a wait that a close ends returns {@code null}, and the facade raises what the
 * contract says. Arguments are checked by the facade.
 */
public final class PipeCore {
    /*
     * Implementation notes.
     *
     * The algorithm, its invariants and its ordering arguments span the four parts and are in the
     * package notes. This class only routes: a producer first looks for a waiting worker
     * (Dispatcher) unless producers are already in line, and waits in the line of its importance
     * class (ProducerLine) otherwise; a worker waits on its slot (Receiver), served from the line
     * first. closed is the one flag every part reads (volatile), written once by close() before
     * the wake-ups, which are its Dekker pairs with a worker becoming WAITING and a producer
     * joining the line (the package notes, "Close").
     */

    private final WorkerSlots slots;
    private final ProducerLine line;
    private final Dispatcher dispatcher;
    private final Receiver receiver;

    /** Set once by close(). */
    private volatile boolean closed;

    /** The slot argument of {@link #take} for the calling thread's own slot. */
    public static final int OWN_SLOT = -1;

    /**
     * @param workerSlots W, checked by the caller
     * @param classes the importance classes of producers, 1 without them
     * @param firstToServe the class a worker serves first given how many nodes were taken before
     *        (ImportanceClasses.firstToServe), or null with one class
     * @param doubleHashing whether a producer scans the slots by double hashing (else from slot 0,
     *        the papers' dispatcher)
     * @param scanRandom where a producer's scan draws its start and stride
     * @param counters where to count inserts, removals, waits and probes
     * @param owner the pipe, named when a thread parks
     */
    public PipeCore(int workerSlots, int classes, LongToIntFunction firstToServe, boolean doubleHashing,
            ProbeRandom scanRandom, Counters counters, Object owner) {
        BooleanSupplier isClosed = () -> closed; // a volatile read
        Spinner takeSpinner = new Spinner();
        this.slots = new WorkerSlots(workerSlots, isClosed, counters, owner);
        this.line = new ProducerLine(classes, firstToServe, slots, new Spinner(), counters, isClosed, owner);
        // Every producer may wait for a spinning worker at once: each reads only the workers'
        // spinner's holder, which changes when a worker starts or stops spinning.
        this.dispatcher = new Dispatcher(slots, line, takeSpinner, Spinner.manyAtOnce(), doubleHashing,
                scanRandom, counters);
        this.receiver = new Receiver(slots, line, takeSpinner, counters, isClosed, owner);
    }

    // ---- producers ----

    /** Hands e to a waiting worker, if the pipe is open and one waits; never waits. */
    public boolean offer(Object e) {
        return !closed && dispatcher.tryHandOff(e);
    }

    /**
     * Hands e to a worker, waiting in the line of class c: put (untimed) until a worker takes e,
     * the timed offer at most nanos (never waiting when {@code nanos <= 0}). Throws if the caller
     * is interrupted on entry, before it looks for a worker.
     *
     * @return true once a worker took e; false when the pipe is closed, or closes while it waits,
     *         or (timed) when no worker took e in time; e then stays with the caller
     * @throws InterruptedException if interrupted on entry or while in line
     */
    public boolean put(Object e, int c, boolean timed, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (closed) {
            return false;
        }
        if (timed) {
            return dispatcher.tryHandOff(e) || nanos > 0L && line.await(e, c, true, nanos);
        }
        // untimed: a producer that finds others in line joins it behind them (the package notes)
        return line.isEmpty() && dispatcher.handOffWithoutParking(e) || line.await(e, c, false, 0L);
    }

    /** The producers of class c waiting in line. */
    public int waitingInClass(int c) {
        return line.waitingInClass(c);
    }

    // ---- workers ----

    /**
     * Waits as a worker for an element handed to it: take (untimed) and the timed poll, which
     * waits at most nanos in all and never when {@code nanos <= 0}. The worker is slot, a handle's
     * (claimExplicit), or with {@link #OWN_SLOT} the calling thread's own slot, claimed on its
     * first call, waiting for one if all are held. Throws if the caller is interrupted on entry,
     * even on a closed pipe.
     *
     * @return the element; null when the pipe is closed (on entry or while this waits), or (timed)
     *         when the time ran out
     * @throws InterruptedException if interrupted on entry or while waiting (unless an element
     *         was handed at that moment: then it is returned and the interrupt status set again)
     */
    public Object take(int slot, boolean timed, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (closed || timed && nanos <= 0L) {
            return null; // only a waiting worker can be handed anything
        }
        if (slot == OWN_SLOT) {
            long deadline = timed ? System.nanoTime() + nanos : 0L; // may wrap: only differences are read
            slot = slots.currentThreadSlot(timed, nanos);
            if (slot < 0) {
                return null; // closed, or (timed) no slot came free in time
            }
            if (timed && (nanos = deadline - System.nanoTime()) <= 0L) {
                return null;
            }
        }
        return receiver.receive(slot, timed, nanos);
    }

    /** Gives back the calling thread's slot; whether it held one. */
    public boolean leave() {
        return slots.leave();
    }

    /** Claims a slot for a handle the caller manages; a negative number if all are held by live workers. */
    public int claimExplicit() {
        return slots.claimExplicit();
    }

    /** Gives back a slot that claimExplicit() returned. */
    public void release(int slot) {
        slots.release(slot);
    }

    /** W, the number of worker slots. */
    public int slots() {
        return slots.count();
    }

    /** The workers waiting at this moment: a snapshot within [0, W]. */
    public int waitingWorkers() {
        return slots.waiting();
    }

    // ---- closing ----

    /** Refuses inserts from now on and wakes every waiting producer and worker to re-check. */
    public void close() {
        // Volatile write, then the wake-ups' volatile reads: the Dekker pairs with a worker
        // becoming WAITING and a producer joining the line (the package notes, "Close").
        closed = true;
        line.wakeAll(); // they recheck closed: put returns false, as does the timed offer
        slots.wakeSlotWaiters();
        slots.unparkWaiting(); // volatile reads of every status, after the write of closed
    }

    /** Whether close() has run. */
    public boolean isClosed() {
        return closed;
    }
}
