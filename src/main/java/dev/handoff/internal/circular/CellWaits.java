/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import dev.handoff.internal.circular.CellRing.Waiter;
import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;

/**
 * How a put or a take of {@link CellsCore} that claimed a position waits at its cell for its
 * partner: a short spin, then a park until the partner's change of the cell wakes it (CellRing),
 * or until it must stop (time, interrupt, close) and gives the position up (CellGiveUps).
 */
final class CellWaits {
    /*
     * Implementation notes.
     *
     * With wait=spin a thread spins as its side's Spinner allows; with wait=park it spins only
     * while its partner is in the middle of its operation (it has claimed: then it, and every
     * earlier operation at the cell, are under way): Spinner.spinForPartner. A virtual
     * thread never spins. A take closed out (its position at or past the close) stops without
     * settling anything: no put will ever come to its position.
     */

    private final CellRing ring;
    private final CellCounts counts;
    private final CellGiveUps giveUps;
    private final boolean spin;
    private final Spinner takeSpinner;
    private final Spinner putSpinner;
    private final Counters counters;
    private final Object owner;

    CellWaits(CellRing ring, CellCounts counts, CellGiveUps giveUps, boolean spin, Spinner takeSpinner,
              Spinner putSpinner, Counters counters, Object owner) {
        this.ring = ring;
        this.counts = counts;
        this.giveUps = giveUps;
        this.spin = spin;
        this.takeSpinner = takeSpinner;
        this.putSpinner = putSpinner;
        this.counters = counters;
        this.owner = owner;
    }

    /** Why a waiter stops; a take's give-up that finds its element come adds CAME. */
    static final int STOP_CLOSED = 1, STOP_TIMED_OUT = 2, STOP_INTERRUPTED = 3, CAME = 8;

    /**
     * Waits until cell i reaches position p's target (put: EMPTY(p); take: FULL(p)) and returns
     * the word; or gives p up and returns minus the reason (STOP_*), plus CAME for a take whose
     * element came as it gave up, which must then take it.
     */
    long await(int i, long p, boolean put, boolean timed, long deadline) {
        long target = put ? CellRing.word(p, CellRing.EMPTY) : CellRing.word(p, CellRing.FULL);
        long w = spinFor(i, p, put, target);
        if (w >= target) {
            return w;
        }
        Waiter x = new Waiter(Thread.currentThread(), p, put, Waiter.WAITING);
        ring.push(i, x);
        if (put) {
            counters.producerWait();
        } else {
            counters.consumerWait();
        }
        Parking parking = put ? Parking.PUT : Parking.TAKE;
        while (true) {
            w = ring.word(i); // after the push: the Dekker pair of a changer's serve (CellRing)
            if (w >= target) {
                x.setStatus(Waiter.DONE);
                return w;
            }
            int stop = stopReason(put, p, timed, deadline);
            if (stop != 0) {
                return -giveUp(i, p, x, stop);
            }
            if (timed) {
                parking.parkNanos(owner, deadline - System.nanoTime());
            } else {
                parking.park(owner);
            }
        }
    }

    /** Why a waiter at position p must stop now, or 0. Clears the interrupt it reports. */
    private int stopReason(boolean put, long p, boolean timed, long deadline) {
        if (Thread.interrupted()) {
            return STOP_INTERRUPTED;
        }
        if (counts.isClosed() && (put || counts.closedFor(p))) {
            return STOP_CLOSED; // a take below closedAt waits on: its put finishes
        }
        return timed && deadline - System.nanoTime() <= 0L ? STOP_TIMED_OUT : 0;
    }

    /** Gives up waiter x at position p; returns the reason, plus CAME if a take's element came. */
    private int giveUp(int i, long p, Waiter x, int stop) {
        if (x.put) {
            giveUps.abandonPut(i, p, x);
            return stop;
        }
        if (stop == STOP_CLOSED) {
            x.setStatus(Waiter.DONE); // p is beyond the close: no put comes, nothing to settle
            return stop;
        }
        return CellGiveUps.came(giveUps.abandonTake(i, p, x), p) ? stop + CAME : stop;
    }

    /** Spins before parking (see the notes); returns the last word read. */
    private long spinFor(int i, long p, boolean put, long target) {
        long w = ring.word(i);
        if (w >= target) {
            return w;
        }
        Spinner.Ready<CellWaits> reached = put ? CellWaits::roomAt : CellWaits::elementAt;
        if (spin) {
            (put ? putSpinner : takeSpinner).spinUntil(this, p, reached);
        } else if (partnerUnderWay(p, put)) {
            Spinner.spinForPartner(this, p, reached);
        }
        return ring.word(i);
    }

    /** Whether put p's cell reached EMPTY(p), or beyond. */
    private static boolean roomAt(CellWaits waits, long p) {
        return waits.ring.word(waits.ring.index(p)) >= CellRing.word(p, CellRing.EMPTY);
    }

    /** Whether take p's cell reached FULL(p), or beyond. */
    private static boolean elementAt(CellWaits waits, long p) {
        return waits.ring.word(waits.ring.index(p)) >= CellRing.word(p, CellRing.FULL);
    }

    /** Whether position p's partner has claimed (so that it, and all before it at the cell, are under way). */
    private boolean partnerUnderWay(long p, boolean put) {
        return put ? counts.takeClaimed(p - ring.cells) : counts.putClaimed(p);
    }
}
