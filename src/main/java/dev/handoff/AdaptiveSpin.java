/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * How long a thread that must wait spins before it parks, learnt from how long recent parks lasted.
 *
 * <p>Spinning pays when the wait is shorter than parking and being woken (25-35 us on the
 * reference machine, docs/benchmarks.md), and wastes a CPU that the thread being waited for may
 * need when it is not: on a machine with more runnable threads than CPUs, or with many consumers
 * sharing one producer. So each side of a handoff keeps one budget: a park that ended soon (within
 * {@link #SHORT_PARK_NANOS}, a wait that spinning would have covered) doubles it, up to
 * {@link #MAX_SPINS}; a long park halves it, down to no spinning at all. A spin that succeeds
 * changes nothing, so in the steady state of a fast handoff the budget is only read.
 */
final class AdaptiveSpin {
    /*
     * Implementation notes.
     *
     * spins is read and written plainly and racily by every waiting thread of one side: it is a
     * hint, and a lost or stale update only changes how long one thread spins before it parks,
     * never whether it waits correctly (the caller always re-checks under its lock). An int is
     * never torn, so every read sees some value written by parked(), within [0, MAX_SPINS].
     */

    /** At most this many Thread.onSpinWait() rounds: a few microseconds. */
    static final int MAX_SPINS = 128;

    /** A park shorter than this would have been (nearly) covered by spinning: spin more. */
    static final long SHORT_PARK_NANOS = 10_000;

    /** The current budget; plain and racy by design, see the notes. */
    private int spins = MAX_SPINS;

    /** The number of spins a thread that is about to wait should try first. */
    int spins() {
        return spins;
    }

    /** Learns from a park that lasted the given time: spin more if it was short, less if long. */
    void parked(long nanos) {
        int s = spins;
        int next = nanos < SHORT_PARK_NANOS ? Math.min(MAX_SPINS, 2 * s + 1) : s >> 1;
        if (next != s) {
            spins = next; // write only on change, so a steady budget is never written
        }
    }
}
