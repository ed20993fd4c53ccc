/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import dev.handoff.internal.circular.CellRing.Waiter;

/**
 * How a put or a take of {@link CellsCore} gives its position up (time, interrupt, close), so
 * that nothing is lost and its partner at that position moves on.
 */
final class CellGiveUps {
    /*
     * Implementation notes.
     *
     * A put that gives up a position first tries to give it back, a CAS of its counter from
     * p + 1 to p, which succeeds only if nobody claimed after it; then the next claimer takes p,
     * and nothing is skipped. A take never does: its claim may already have opened put
     * p + capacity's gate (CellsCore). Otherwise, and for every take, the position's lap is
     * skipped (CellRing: a put's lap goes to the next one, a take's to TAKE_GONE, which put p
     * passes), and the partner at that position claims again.
     *
     * A take that gives up before its lap came cannot mark its cell, which still serves an
     * earlier lap, and put p would fill the cell before anyone applied a mark left beside it.
     * So the take records its position (CellCounts.givenUp), and put p, after its fill, takes
     * its element back if its take was one of them, and claims again. A put that gives up far
     * leaves a CANCELLED Waiter on the list instead, applied at its lap's start (CellRing): no
     * one acts on that lap before, since take p only waits there.
     */

    private final CellRing ring;
    private final CellCounts counts;
    private final CellLobby lobby;

    CellGiveUps(CellRing ring, CellCounts counts, CellLobby lobby) {
        this.ring = ring;
        this.counts = counts;
        this.lobby = lobby;
    }

    /**
     * Gives up put position p, whose element was never written: back to the counter if nobody
     * claimed after it, else the lap is skipped (a record if it has not come yet). x is the
     * put's Waiter if it waited, else null.
     */
    void abandonPut(int i, long p, Waiter x) {
        if (counts.givePutBack(p)) {
            if (x != null) {
                x.setStatus(Waiter.DONE);
            }
        } else {
            if (x == null) {
                x = new Waiter(Thread.currentThread(), p, true, Waiter.CANCELLED);
                ring.push(i, x);
            } else {
                x.setStatus(Waiter.CANCELLED); // volatile: before settle's read of the word (CellRing's notes)
            }
            ring.settle(i, p, true);
            counts.emptyPut();
        }
        lobby.roomCame(); // after the counter's change: a put waiting for room may claim
    }

    /**
     * Gives up take position p: settled at once if its lap has come, else left in givenUp for
     * put p (see the notes). Returns the word it stopped at: FULL(p) or TAKING(p) if the element
     * came after all, which the caller must then take.
     */
    long abandonTake(int i, long p, Waiter x) {
        if (x != null) {
            x.setStatus(Waiter.DONE); // the record, if any, lives in CellCounts, not on the list
        }
        counts.recordGiveUp(p); // before settle's read of the word (CellCounts' notes)
        long w = ring.settle(i, p, false);
        if (came(w, p)) {
            counts.forgetGiveUp(p, ring);
            return w;
        }
        if (w >= CellRing.word(p, CellRing.TAKE_GONE)) {
            counts.forgetGiveUp(p, ring); // settled now (TAKE_GONE), or the lap is over: put p has nothing to do
        }
        counts.emptyTake();
        lobby.elementCame(); // after the skew's change: a take waiting for an element may claim
        return w;
    }

    /**
     * Called by put p after it filled its cell while some take had given up before its lap:
     * takes p's element back if take p was one of them. Then put p claims a new position.
     */
    boolean reclaimed(int i, long p) {
        if (!counts.forgetGiveUp(p, ring) || ring.claim(i, p) == null) {
            return false; // not p's take, or it came after all and took the element
        }
        ring.release(i, p);
        return true;
    }

    /** Whether word w says that take p's element is there (or claimed by a remover, who may put it back). */
    static boolean came(long w, long p) {
        return w == CellRing.word(p, CellRing.FULL) || w == CellRing.word(p, CellRing.TAKING);
    }
}
