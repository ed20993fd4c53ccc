/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * How long a thread that must wait spins before it parks, learnt from whether recent spins caught
 * what they waited for.
 *
 * <p>Spinning pays when the wait is shorter than parking and being woken (25-35 us on the
 * reference machine, docs/benchmarks.md), and wastes a CPU that the thread being waited for may
 * need when it is not: on a machine with more runnable threads than CPUs, or with many consumers
 * sharing one producer. So each side of a handoff keeps one budget: a spin that caught its
 * element (or room) doubles it, up to {@link #MAX_SPINS}; a spin that ran out and parked anyway
 * halves it, down to no spinning at all. With no budget left, every {@link #PROBE_PERIOD}-th wait
 * still tries a full spin, and one that catches restores the full budget at once, so that
 * spinning comes back as soon as it pays again. In
 * the steady state of a fast handoff (every spin catches) the budget is only read.
 */
final class AdaptiveSpin {
    /*
     * Implementation notes.
     *
     * spins and waits are read and written plainly and racily by every waiting thread of one
     * side: they are hints, and a lost or stale update only changes how long one thread spins
     * before it parks, never whether it waits correctly (the caller always decides again under
     * its lock). An int is never torn, so every read sees some value written here, and spins
     * always lies within [0, MAX_SPINS].
     */

    /** At most this many Thread.onSpinWait() rounds: a few microseconds. */
    static final int MAX_SPINS = 128;

    /** With no budget, one wait in this many still spins MAX_SPINS rounds. */
    static final int PROBE_PERIOD = 16;

    /** The current budget; plain and racy by design, see the notes. */
    private int spins = MAX_SPINS;

    /** Waits seen while the budget was 0; plain and racy by design. */
    private int waits;

    /** The number of spins a thread that is about to wait should try first. */
    int budget() {
        int s = spins;
        if (s == 0 && (++waits % PROBE_PERIOD) == 0) {
            return MAX_SPINS;
        }
        return s;
    }

    /**
     * Learns from one spin of the given budget: more next time if it caught what it waited for,
     * less if it ran out.
     */
    void spun(int budget, boolean caught) {
        if (budget == 0) {
            return; // nothing was tried, nothing learnt
        }
        int s = spins;
        // caught: at least the budget that caught (a probe restores MAX_SPINS at once)
        int next = caught ? Math.min(MAX_SPINS, Math.max(budget, 2 * s + 1)) : s >> 1;
        if (next != s) {
            spins = next; // written only on change: a steady budget stays in every reader's cache
        }
    }
}
