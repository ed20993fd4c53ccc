/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.probe.ProbeSequence;

/**
 * The default search: one pass over the occupancy summary, 64 slots a word, trying only marked
 * slots; from a pseudo-random word, or from the sweep on every second search of a thread.
 */
public final class SummarySearch implements TableSearch {
    /*
     * The papers' consumer probes slot by slot, about m/(n+1) probes when n of m slots are full:
     * costly in the mostly empty table that fast consumers keep. OccupancySummary keeps one bit
     * per slot, a hint kept true by a Dekker pair (see there), so a consumer reads 64 slots per
     * word and tries only marked slots.
     *
     * The bound on waiting. Every second summary search of a thread (SweepTurn) starts at the
     * sweep instead of a random word and moves the sweep past the element it takes. A sweep
     * search cannot move the sweep past a marked element without trying to take it, and each one
     * moves it at least one slot, so a marked element at or after the sweep is taken before the
     * sweep can pass it: with one consumer an element leaves within 2m + 2 removals after its
     * insert returns. With c consumers a sweep search that read the sweep before another one
     * moved it can take an element the sweep has passed, so up to c such searches may come
     * between two steps of the sweep. Producers fill in order (FillHints), so that the sweep
     * meets one producer's oldest element first.
     */

    private final SlotTable table;
    private final TableSlots slots;
    private final ProbeSequence probing;
    private final Counters counters;
    private final OccupancySummary summary;

    /** Draws the search keys: ThreadLocalRandom except under Lincheck. */
    private final ProbeRandom random;

    /** This table's number in the threads' SweepTurn. */
    private final long id = SweepTurn.newTable();

    public SummarySearch(SlotTable table, OccupancySummary summary, ProbeRandom random) {
        this.table = table;
        this.slots = table.slots;
        this.probing = table.probing;
        this.counters = table.counters;
        this.summary = summary;
        this.random = random;
    }

    /**
     * One pass over the summary: from the sweep on a sweep turn, else from a pseudo-random
     * word. Returns null if every marked slot it met was empty or won by another consumer.
     */
    @Override
    public Object take() {
        SweepTurn turn = SweepTurn.of(id);
        boolean fromSweep = turn.sweepNext;
        turn.sweepNext = !fromSweep;
        long from = fromSweep ? summary.sweep() : 0L;
        int first = fromSweep ? summary.slotOf(from) : probing.start(random.nextLong()) & ~63;
        int words = summary.wordCount();
        int w0 = first >>> 6;
        int probes = 0;
        for (int k = 0; k <= words; k++) {
            int w = w0 + k < words ? w0 + k : w0 + k - words;
            for (long bits = OccupancySummary.inPass(summary.word(w), k, words, first); bits != 0; bits &= bits - 1) {
                int i = (w << 6) + Long.numberOfTrailingZeros(bits);
                probes++;
                Object e = slots.hint(i);
                if (e == null) {
                    table.unmark(i); // a stale mark: clear it, keeping the invariant
                } else if (table.tryEmpty(i, e)) {
                    counters.searchProbes(probes);
                    if (fromSweep) {
                        summary.advanceSweep(from, i);
                    }
                    return e;
                } else {
                    counters.searchConflict(); // another consumer took this element first (or a drain holds it)
                }
            }
        }
        counters.searchProbes(probes);
        return null;
    }
}
