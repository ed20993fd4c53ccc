/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.ParallelHashTable.Search;

/**
 * The hash table's two scans, over its slots: a producer's fill along its key's probe sequence,
 * and a consumer's search for any element, through the occupancy summary
 * ({@link Search#SUMMARY}) or slot by slot along a probe sequence ({@link Search#PROBE}, the
 * papers'). Every slot changes only by compare-and-set, so a scan never waits for another
 * thread; it ends because the caller holds a reservation (see ParallelHashTable's notes).
 */
final class TableScans {
    /** The slots. Invariant: a slot holds null or one element; only a CAS changes it. */
    final TableSlots slots;

    /** Probe sequences over the m slots. */
    final ProbeSequence probing;

    /** The occupied slots and the sweep; null under Search.PROBE, which does not keep them. */
    private final OccupancySummary summary;

    /** This table's number in the threads' SweepTurn. */
    private final long id = SweepTurn.newTable();

    private final ProbeRandom random;
    private final Counters counters;

    TableScans(TableSlots slots, Search search, ProbeRandom random, Counters counters) {
        this.slots = slots;
        this.probing = new ProbeSequence(slots.length());
        this.summary = search == Search.PROBE ? null : new OccupancySummary(slots.length());
        this.random = random;
        this.counters = counters;
    }

    /**
     * Writes e into an empty slot: one found through the summary from key's start slot under
     * Search.SUMMARY, else (and if that pass won none) the first on key's probe sequence. Call
     * only holding a reservation of an empty slot, so that one exists for this producer.
     *
     * @return the number of slots looked at
     */
    int insert(long key, Object e) {
        if (summary == null) {
            return fill(key, e);
        }
        int looked = summaryFill(probing.start(key), e);
        return looked > 0 ? looked : -looked + fill(key, e);
    }

    /**
     * One pass over the summary's clear bits from slot first, trying each clear bit's slot:
     * in a nearly full table a word shows 64 slots at once, where the probe sequence would
     * look at about m / (empty + 1) slots one by one.
     *
     * @return the number of slots looked at, negated (or 0) if it won none: a bit is only a hint
     */
    private int summaryFill(int first, Object e) {
        int words = summary.wordCount();
        int w0 = first >>> 6;
        int m = slots.length();
        int probes = 0;
        for (int k = 0; k <= words; k++) {
            int w = w0 + k < words ? w0 + k : w0 + k - words;
            long bits = ~summary.word(w);
            if (w == words - 1 && (m & 63) != 0) {
                bits &= (1L << m) - 1; // bits past slot m - 1 belong to no slot
            }
            for (bits = inPass(bits, k, words, first); bits != 0; bits &= bits - 1) {
                int i = (w << 6) + Long.numberOfTrailingZeros(bits);
                probes++;
                if (slots.hint(i) == null) {
                    if (tryFill(i, e)) {
                        return probes;
                    }
                    counters.insertConflict(); // another producer claimed this empty slot first
                }
            }
        }
        return -probes;
    }

    /**
     * The bits of a pass's k-th word (of words + 1, from the word of slot first) that the pass
     * covers: the first word from slot first on, the last (the first word again) the slots before.
     */
    private static long inPass(long bits, int k, int words, int first) {
        if (k == 0) {
            return bits & (-1L << first);
        }
        return k == words ? bits & ~(-1L << first) : bits;
    }

    /**
     * Writes e into an empty slot on e's probe sequence: the papers' insert. Call only holding
     * a reservation of an empty slot, so that one exists for this producer.
     *
     * @return the number of slots looked at
     */
    int fill(long key, Object e) {
        int pos = probing.start(key);
        int stride = probing.stride(key);
        int probes = 1;
        for (;;) {
            if (slots.hint(pos) == null) {
                if (tryFill(pos, e)) {
                    return probes;
                }
                counters.insertConflict(); // another producer claimed this empty slot first
            }
            pos = probing.next(pos, stride);
            probes++;
        }
    }

    /** Claims empty slot i for e, and marks it in the summary. */
    private boolean tryFill(int i, Object e) {
        if (!slots.tryFill(i, e)) {
            return false;
        }
        if (summary != null) {
            summary.filled(i);
        }
        return true;
    }

    /** Takes e out of slot i, and unmarks it in the summary. */
    boolean tryEmpty(int i, Object e) {
        if (!slots.tryEmpty(i, e)) {
            return false;
        }
        if (summary != null) {
            summary.emptied(i, slots);
        }
        return true;
    }

    /**
     * Takes an element out of some slot. Call only holding a reservation of an element, so
     * that one exists for this consumer.
     */
    Object take() {
        if (summary != null) {
            Object e = summarySearch();
            if (e != null) {
                return e;
            }
        }
        return probeSearch(); // also when every element the summary showed was won by others
    }

    /**
     * One pass over the summary: from the sweep on a sweep turn, else from a pseudo-random
     * word. Returns null if every marked slot it met was empty or won by another consumer.
     */
    private Object summarySearch() {
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
            for (long bits = inPass(summary.word(w), k, words, first); bits != 0; bits &= bits - 1) {
                int i = (w << 6) + Long.numberOfTrailingZeros(bits);
                probes++;
                Object e = slots.hint(i);
                if (e == null) {
                    summary.emptied(i, slots); // a stale mark: clear it, keeping the invariant
                } else if (tryEmpty(i, e)) {
                    counters.searchProbes(probes);
                    if (fromSweep) {
                        summary.advanceSweep(from, i);
                    }
                    return e;
                } else {
                    counters.searchConflict(); // another consumer took this element first
                }
            }
        }
        return null;
    }

    /**
     * Takes an element out of some slot, probing from a pseudo-random start: the papers' search.
     * Call only holding a reservation of an element, so that one exists.
     */
    private Object probeSearch() {
        long key = random.nextLong();
        int pos = probing.start(key);
        int stride = probing.stride(key);
        int probes = 1;
        for (;;) {
            Object e = slots.hint(pos);
            if (e != null) {
                if (tryEmpty(pos, e)) {
                    counters.searchProbes(probes);
                    return e;
                }
                counters.searchConflict(); // another consumer took this element first
            }
            pos = probing.next(pos, stride);
            probes++;
        }
    }
}
