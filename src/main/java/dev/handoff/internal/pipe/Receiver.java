/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pipe;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;

import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * A worker's wait for an element on its slot: it takes one from a producer in line, or waits
 * {@code WAITING} on its channel until a producer ({@link Dispatcher}) hands one over.
 */
public final class Receiver {
    /*
     * A waiting worker first spins (a wake-up costs far more than a short spin). It reads only
     * its own channel and words that change rarely while it waits (the line's size, closed), so
     * spinners do not pull one another's lines, and a producer that wins a spinning worker's slot
     * unparks nobody: the worker shows its thread (channel.waiter) only once it stops spinning.
     * The first worker to spin does so as takeSpinner's holder, with its slot shown to producers
     * (Dispatcher, "Spinning workers first"); every other spins on its channel's own spinner.
     *
     * Giving up. A worker that stops waiting without an element (close, interrupt, timeout, or a
     * producer in line) CASes WAITING -> BUSY. If a producer's CAS WAITING -> HANDED won first,
     * the element is on its way: the worker waits for it and returns it (keeping an interrupt).
     */

    private static final int BUSY = WorkerSlots.BUSY;
    private static final int WAITING = WorkerSlots.WAITING;
    private static final VarHandle STATUS = WorkerSlots.STATUS;
    private static final VarHandle ITEM = WorkerSlots.ITEM;

    /** What a wait returns when the worker left WAITING to serve a producer in line. */
    private static final Object SERVE_LINE = new Object();

    private final int[] status; // the slots' status array, accessed through STATUS
    private final WorkerSlots.Channel[] channels;

    /** The producers in line, served before a worker waits. */
    private final ProducerLine line;

    /** The workers' side spin policy: its holder, the first spinner, is shown to producers. */
    private final Spinner takeSpinner;

    private final Counters counters;

    /** Whether the pipe is closed: a volatile read. */
    private final BooleanSupplier closed;

    /** The pipe: the blocker of a parked worker, named in its JFR event. */
    private final Object owner;

    /**
     * @param slots the worker slots
     * @param line the producers in line
     * @param takeSpinner the workers' side spin policy
     * @param counters the pipe's counters
     * @param closed whether the pipe is closed, read with a volatile (or stronger) access
     * @param owner the pipe, the blocker of parked workers
     */
    public Receiver(WorkerSlots slots, ProducerLine line, Spinner takeSpinner, Counters counters,
            BooleanSupplier closed, Object owner) {
        this.status = slots.status;
        this.channels = slots.channels;
        this.line = line;
        this.takeSpinner = takeSpinner;
        this.counters = counters;
        this.closed = closed;
        this.owner = owner;
    }

    /**
     * Waits on a slot for an element: takes one from a producer in line, or waits WAITING for a
     * producer to hand one over. Call only as the slot's owner, with the slot BUSY.
     *
     * @return the element, or null if the pipe closed or (when timed) the time ran out
     * @throws InterruptedException if interrupted while no element was handed over
     */
    public Object receive(int slot, boolean timed, long nanos) throws InterruptedException {
        WorkerSlots.Channel channel = channels[slot];
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        for (;;) {
            Object x = line.take();
            if (x != null) {
                counters.countRemoval();
                return x;
            }
            // Volatile CAS: not reordered with the reads of the line's size and of closed that
            // follow (the spin's, and the rereads after the waiter is written: see notes).
            if (!STATUS.compareAndSet(status, slot, BUSY, WAITING)) {
                // Cannot happen: the owner alone leaves BUSY, and one call at a time waits per slot.
                throw new IllegalStateException("worker slot " + slot + " was not BUSY");
            }
            x = awaitHandOver(slot, channel, timed, deadline);
            if (x != SERVE_LINE) {
                return x;
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
        spinForItem(slot, channel); // a deadline that passes during the spin is seen after it, within its rounds
        // Volatile write before the rereads below: the Dekker pairs with Dispatcher.handOver() and
        // with a producer joining the line (see "No lost wake-up"); until now producers unpark nobody.
        channel.announceWaiter(Thread.currentThread());
        for (;;) {
            Object x = ITEM.getVolatile(channel); // after announceWaiter: pairs with Dispatcher.handOver()
            if (x != null) {
                return collect(slot, channel, x);
            }
            if (!line.isEmpty()) { // volatile read after our CAS to WAITING: see "No lost wake-up"
                return leaveWaiting(slot, channel, GiveUp.SERVE_LINE, timed);
            }
            if (closed.getAsBoolean()) {
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
                Parking.TAKE.parkNanos(owner, nanos);
            } else {
                counters.consumerWait();
                Parking.TAKE.park(owner);
            }
        }
    }

    /**
     * A WAITING worker's spin before it parks, as takeSpinner's holder if it is the first, else
     * on its channel's spinner (see the notes), until an element or a producer in line comes or
     * the wait must end; the caller reads everything again.
     */
    private void spinForItem(int slot, WorkerSlots.Channel channel) {
        // shown to producers while it spins; refused while another worker is the first
        if (takeSpinner.spin(this, slot, Receiver::handedOrInLine, Receiver::mustStop, slot, 1) == Spinner.REFUSED) {
            channel.spinner.spinUntil(this, slot, Receiver::handedOrInLine, Receiver::mustStop);
        }
    }

    /** The spin's condition for the worker at slot: an element to collect. */
    private static boolean handedOrInLine(Receiver r, long slot) {
        return r.handedOrInLine(r.channels[(int) slot]);
    }

    /** Whether a WAITING worker must stop its spin without an element: close, interrupt. */
    private static boolean mustStop(Receiver r, long slot) {
        return r.closed.getAsBoolean() || Thread.currentThread().isInterrupted();
    }

    /** Whether a WAITING worker has an element to collect: handed over, or a producer in line. */
    private boolean handedOrInLine(WorkerSlots.Channel channel) {
        return ITEM.getAcquire(channel) != null // pairs with the volatile store in Dispatcher.handOver()
                || !line.isEmpty();
    }

    /**
     * Ends a WAITING episode that found no element: either the worker's CAS WAITING -> BUSY wins
     * and no producer can hand it anything any more, or a producer has already won the worker and
     * its element is returned anyway.
     *
     * @return the element, SERVE_LINE, or null
     */
    private Object leaveWaiting(int slot, WorkerSlots.Channel channel, GiveUp reason, boolean timed)
            throws InterruptedException {
        // The decisive CAS; pairs with the producer's CAS WAITING -> HANDED in Dispatcher.tryWin().
        if (STATUS.compareAndSet(status, slot, WAITING, BUSY)) {
            channel.clearWaiter();
            return switch (reason) {
                case INTERRUPTED -> throw new InterruptedException();
                case SERVE_LINE -> SERVE_LINE;
                case CLOSED, TIMED_OUT -> null;
            };
        }
        // A producer won: its element arrives within a few instructions.
        if (reason != GiveUp.SERVE_LINE) {
            counters.searchConflict(); // this worker's give-up lost to a producer
        }
        Object x = channel.awaitHandedItem(owner);
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
}
