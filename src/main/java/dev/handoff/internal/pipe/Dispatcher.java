/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pipe;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.probe.ProbeSequence;
import dev.handoff.internal.waiting.Spinner;

import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * The producers' way to a waiting worker, the papers' dispatcher: it scans the status array for a
 * {@code WAITING} slot, wins it by a CAS to {@code HANDED}, writes the element into the slot's
 * channel and wakes the worker if it has parked. It never waits; a producer that must wait joins
 * the {@link ProducerLine}.
 */
public final class Dispatcher {
    /*
     * Scan (Theorem 3 of Roussev and Wu, "Client-server design alternatives: back to pipes but
     * with threads", IEEE International Conference on Networking, 2001). A producer probes the
     * slots start, start + d, start + 2d, ... (mod W), with start uniform in [0, W) and d uniform
     * among the strides coprime to W (ProbeSequence), both drawn afresh for every scan through
     * ProbeRandom (the seam Lincheck needs), so the W probes visit every slot once: double hashing
     * over the status array. The theorem (at most 1/a probes when a fraction a of the slots wait,
     * under uniform hashing) holds for this scan; the papers' scan from slot 0 (doubleHashing
     * false, kept for the test) breaks it. PipeTheoremProperties checks both on the scans' own
     * probe count (Counters.scanProbes), and the pipe-* mutants (TheoremMutations) show that a bad
     * start, stride or count turns it red.
     *
     * Spinning workers first. Before that scan a producer tries the slot of the worker shown by
     * takeSpinner (the first to spin; a stale hint costs one probe, the CAS decides), then makes
     * one pass along the same probe sequence for a waiting worker that has not shown its thread
     * (it still spins). A parked worker costs its producer an unpark and its element a wake-up,
     * while a spinning one answers at once, so workers that have parked stay parked while others
     * spin, as the waiters deep in SynchronousQueue's stack do. Only the last scan is the papers',
     * and only its probes are counted as scan probes (the theorem properties measure with every
     * worker parked, where the first pass finds nobody).
     */

    private static final int WAITING = WorkerSlots.WAITING;
    private static final int HANDED = WorkerSlots.HANDED;
    private static final VarHandle STATUS = WorkerSlots.STATUS;
    private static final VarHandle ITEM = WorkerSlots.ITEM;

    private final int[] status; // the slots' status array, accessed through STATUS
    private final WorkerSlots.Channel[] channels;

    /** The producers in line, ahead of a put that finds them there. */
    private final ProducerLine line;

    /** The workers' side spin policy: its holder is the slot of the first spinning worker. */
    private final Spinner takeSpinner;

    /** The spin policy of put's wait for a spinning worker: every producer may spin (manyAtOnce). */
    private final Spinner putSpinner;

    /** The scan's probe order over the W slots, and its strides, one drawn uniformly per scan. */
    private final ProbeSequence probes;
    private final int[] strides;

    /** Whether producers scan by double hashing; the papers' scan from slot 0 otherwise (tests). */
    private final boolean doubleHashing;

    /** Draws each scan's start and stride: {@link ProbeRandom#THREAD_LOCAL} except under Lincheck. */
    private final ProbeRandom scanRandom;

    private final Counters counters;

    /**
     * @param slots the worker slots to scan
     * @param line the producers in line
     * @param takeSpinner the workers' side spin policy, whose holder is the first spinning worker
     * @param putSpinner the producers' side spin policy
     * @param doubleHashing whether to scan by double hashing, else from slot 0 in order
     * @param scanRandom draws each scan's start and stride
     * @param counters the pipe's counters
     */
    public Dispatcher(WorkerSlots slots, ProducerLine line, Spinner takeSpinner, Spinner putSpinner,
            boolean doubleHashing, ProbeRandom scanRandom, Counters counters) {
        this.status = slots.status;
        this.channels = slots.channels;
        this.line = line;
        this.takeSpinner = takeSpinner;
        this.putSpinner = putSpinner;
        this.probes = new ProbeSequence(status.length);
        this.strides = probes.coprimeStrides();
        this.doubleHashing = doubleHashing;
        this.scanRandom = Objects.requireNonNull(scanRandom);
        this.counters = counters;
    }

    /**
     * Hands e to a waiting worker if it finds one: the first spinner's slot, then a pass for a
     * worker that still spins, then the scan of Theorem 3 for any waiting worker (see "Spinning
     * workers first"). Counts one insert probe per status slot read, whether or not it succeeds;
     * only the last scan's are scan probes.
     *
     * @return whether e was handed over
     */
    public boolean tryHandOff(Object e) {
        if (doubleHashing && tryHandToSpinner(e)) {
            return true;
        }
        int w = status.length;
        int i;
        int stride;
        if (doubleHashing) {
            i = scanRandom.nextInt(w);
            stride = strides[scanRandom.nextInt(strides.length)];
        } else {
            i = 0;
            stride = 1;
        }
        if (doubleHashing && tryHandToSpinningWorker(e, i, stride)) {
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
     * put's way to a worker before it joins the line: waits the producers' spin for a spinning
     * worker, which takes e without a wake-up, then scans, spinner first. Gives up when producers
     * are in line: they are ahead of this one.
     *
     * @return whether e was handed over
     */
    public boolean handOffWithoutParking(Object e) {
        if (!spinnerShown(this, 0L) && line.isEmpty()) {
            putSpinner.spinUntil(this, 0L, Dispatcher::spinnerShown, Dispatcher::producersInLine);
        }
        return line.isEmpty() && tryHandOff(e);
    }

    /** Whether a worker spins as takeSpinner's holder: a hint, tryHandOff's CAS decides. */
    private static boolean spinnerShown(Dispatcher d, long unused) {
        return d.takeSpinner.holder() != Spinner.NONE;
    }

    /** Whether producers are in line: they are ahead of this one, which stops spinning. */
    private static boolean producersInLine(Dispatcher d, long unused) {
        return !d.line.isEmpty();
    }

    /**
     * Hands e to the worker spinning as takeSpinner's holder, if there is one and no other
     * producer wins it first. Counts one insert probe if there was a spinner to try.
     *
     * @return whether e was handed over
     */
    private boolean tryHandToSpinner(Object e) {
        int hot = takeSpinner.holder(); // a hint only; the CAS decides
        if (hot == Spinner.NONE) {
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
    private boolean tryHandToSpinningWorker(Object e, int i, int stride) {
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
    private boolean tryWin(int i, Object e) {
        // The decisive CAS; pairs with the worker's CAS WAITING -> BUSY in Receiver.leaveWaiting().
        if (STATUS.compareAndSet(status, i, WAITING, HANDED)) {
            handOver(channels[i], e);
            return true;
        }
        counters.insertConflict(); // lost to another producer or to the worker leaving WAITING
        return false;
    }

    /** Puts e into a channel whose slot this producer just moved from WAITING to HANDED. */
    private void handOver(WorkerSlots.Channel channel, Object e) {
        // Volatile store: publishes e and our prior writes (pairs with the worker's acquire and
        // volatile reads of item), and is not reordered with the read of waiter below.
        ITEM.setVolatile(channel, e);
        counters.countInsert();
        // Volatile read: the Dekker pair with announceWaiter in Receiver (see "No lost wake-up").
        Thread worker = channel.waiter();
        if (worker != null) {
            LockSupport.unpark(worker);
        }
    }
}
