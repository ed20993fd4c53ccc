/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.probe.ProbeSequence;
import dev.handoff.internal.waiting.Spin;

import dev.handoff.ParallelHashTable.KeySource;
import dev.handoff.ParallelHashTable.Search;

/**
 * The hash table's two scans, over its slots: a producer's fill, and a consumer's search for
 * any element, through the occupancy summary ({@link Search#SUMMARY}), slot by slot along a
 * probe sequence ({@link Search#PROBE}, the papers'), or in turn slot by slot from the thread's
 * own place and along a probe sequence ({@link Search#CURSOR}). Every slot changes only by
 * compare-and-set, so a scan never waits for another thread. A scan is one pass: it looks at
 * each slot (or each summary bit) at most once and reports failure when it won nothing, so
 * that the caller decides whether to wait
 * ({@link #looksFull()}, {@link #looksEmpty()}: the waiters' re-checks, see ParallelHashTable's
 * notes).
 */
public final class TableScans {
    /**
     * What a drain leaves in a slot while it holds that slot's element: neither an element (no
     * consumer takes it, no reader lists it) nor room (no producer fills it). Its summary bit
     * stays set.
     */
    public static final Object HELD = new Object() {
        @Override
        public String toString() {
            return "HELD";
        }
    };

    /** The slots. Invariant: a slot holds null, one element or HELD; only a CAS changes it. */
    public final TableSlots slots;

    /** Probe sequences over the m slots. */
    public final ProbeSequence probing;

    /** The occupied slots and the sweep; null under Search.PROBE and CURSOR, which keep none. */
    private final OccupancySummary summary;

    /**
     * Under Search.CURSOR, each consumer thread's turn and cursor in this table (a ThreadLocal
     * per table, as Exchanger keeps one per exchanger, so that a thread that also takes from
     * other tables keeps its place in each); null otherwise.
     */
    private final ThreadLocal<Walk> walks;

    /** A consumer thread's turn and cursor under Search.CURSOR; plain fields, read by their thread only. */
    private static final class Walk {
        /** Whether the thread's next search walks (after a probe or a miss) or probes. */
        public boolean walkNext = true;
        /** The slot where the thread's next walk starts; -1 before its first walk. */
        public int cursor = -1;
    }

    /** This table's number in the threads' SweepTurn. */
    private final long id = SweepTurn.newTable();

    /**
     * Where each producer's next fill starts, just after its own last fill: under Search.SUMMARY
     * and CURSOR with pseudo-random keys (see insert); null otherwise, when a fill starts at its
     * key's start.
     */
    private final FillHints fillHints;

    private final ProbeRandom random;
    private final Counters counters;

    /**
     * Wakes one consumer: run when a removal found that a filler had left the slot's bit to it
     * (OccupancySummary.emptied), since a consumer may have looked at the word while it was clear.
     */
    private final Runnable markedAgain;

    public TableScans(TableSlots slots, Search search, KeySource keys, ProbeRandom random, Counters counters,
               Runnable markedAgain) {
        this.slots = slots;
        this.probing = new ProbeSequence(slots.length());
        this.summary = search == Search.SUMMARY ? new OccupancySummary(slots.length()) : null;
        this.walks = search == Search.CURSOR ? ThreadLocal.withInitial(Walk::new) : null;
        this.fillHints = search != Search.PROBE && keys == KeySource.RANDOM ? new FillHints() : null;
        this.random = random;
        this.counters = counters;
        this.markedAgain = markedAgain;
    }

    /**
     * Writes e into an empty slot: the first on key's probe sequence under Search.PROBE and with
     * hashed keys under CURSOR, else one found through the summary (SUMMARY) or slot by slot
     * (CURSOR). A summary fill with a hashed key starts at the key's start slot; with a
     * pseudo-random key a summary fill or a walk starts just after the calling thread's last
     * fill in this table, and at the key's start only for the thread's first fill, or after it
     * met another producer in its last one (a lost claim), so that producers that met part again.
     *
     * <p>Why follow: consumers take from the sweep (every second search) or their cursors, and
     * from pseudo-random starts, taking the first element they meet. A producer that fills
     * slots in order lays its elements out in the order it put them, ahead of the sweep (or the
     * cursors), so the sweep and the searches that land in the empty stretch behind the
     * elements take the oldest first; with a random start per fill an element that lands just
     * behind the sweep waits for a whole lap.
     * It also keeps a producer in one summary word and one run of slot lines for a while.
     *
     * @return the slot it filled, or -1 if the pass won none: the table was full, or every empty
     *         slot it met was claimed by another producer first (the slots it looked at are
     *         counted as insert probes either way)
     */
    public int insert(long key, Object e) {
        if (fillHints == null) {
            return summary != null ? summaryFill(probing.start(key), e, -1) : fill(key, e);
        }
        int cell = fillHints.cell();
        int from = fillHints.next(cell);
        int first = from != FillHints.NONE ? from : probing.start(key);
        return summary != null ? summaryFill(first, e, cell) : walkFill(first, e, cell);
    }

    /**
     * One lap slot by slot from slot first, filling the first empty slot it wins (Search.CURSOR
     * with pseudo-random keys): so that one producer's elements lie in the order it put them,
     * where the consumers' walks meet the oldest first, as the summary fill does for the sweep.
     *
     * @param hint the filling thread's cell in fillHints, to note where its next fill starts
     * @return the slot it filled, or -1 if the lap won none
     */
    private int walkFill(int first, Object e, int hint) {
        int m = slots.length();
        int pos = first;
        boolean metProducer = false;
        for (int probes = 1; ; probes++) {
            if (slots.hint(pos) == null) {
                if (tryFill(pos, e)) {
                    noteNextFill(hint, metProducer ? FillHints.NONE : pos + 1);
                    counters.insertProbes(probes);
                    return pos;
                }
                counters.insertConflict(); // another producer claimed this empty slot first
                metProducer = true;
            }
            if (probes == m) {
                counters.insertProbes(probes);
                return -1; // a whole lap: full, or every empty slot won by others
            }
            pos = pos + 1 == m ? 0 : pos + 1;
        }
    }

    /**
     * One pass over the summary's clear bits from slot first, trying each clear bit's slot:
     * in a nearly full table a word shows 64 slots at once, where the probe sequence would
     * look at about m / (empty + 1) slots one by one.
     *
     * @param hint the filling thread's cell in fillHints, to note where its next fill starts;
     *        -1 if its fills do not follow each other
     * @return the slot it filled, or -1 if it won none: a bit is only a hint
     */
    private int summaryFill(int first, Object e, int hint) {
        int words = summary.wordCount();
        int w0 = first >>> 6;
        int probes = 0;
        boolean metProducer = false;
        for (int k = 0; k <= words; k++) {
            int w = w0 + k < words ? w0 + k : w0 + k - words;
            for (long bits = inPass(summary.clearBits(w), k, words, first); bits != 0; bits &= bits - 1) {
                int i = (w << 6) + Long.numberOfTrailingZeros(bits);
                probes++;
                if (slots.hint(i) == null) {
                    if (tryFill(i, e)) {
                        if (hint >= 0) {
                            noteNextFill(hint, metProducer ? FillHints.NONE : i + 1);
                        }
                        counters.insertProbes(probes);
                        return i;
                    }
                    counters.insertConflict(); // another producer claimed this empty slot first
                    metProducer = true;
                }
            }
        }
        counters.insertProbes(probes);
        return -1;
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

    /** Notes where the next fill of hint's thread starts: slot (m wraps to 0), or NONE. */
    private void noteNextFill(int hint, int slot) {
        fillHints.setNext(hint, slot == slots.length() ? 0 : slot);
    }

    /**
     * Writes e into an empty slot on e's probe sequence: the papers' insert, for one lap of the
     * sequence (every slot once).
     *
     * @return the slot it filled, or -1 if the lap won none
     */
    public int fill(long key, Object e) {
        int pos = probing.start(key);
        int stride = probing.stride(key);
        int probes = 1;
        for (;;) {
            if (slots.hint(pos) == null) {
                if (tryFill(pos, e)) {
                    counters.insertProbes(probes);
                    return pos;
                }
                counters.insertConflict(); // another producer claimed this empty slot first
            }
            if (probes == slots.length()) {
                counters.insertProbes(probes);
                return -1; // a whole lap: full, or every empty slot won by others
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

    /** Takes e out of slot i, and unmarks it in the summary; false if e is not there (or HELD). */
    public boolean tryEmpty(int i, Object e) {
        if (e == HELD || !slots.tryEmpty(i, e)) {
            return false;
        }
        unmark(i);
        return true;
    }

    /** Clears slot i's bit after the slot was emptied (or found empty under a set bit). */
    private void unmark(int i) {
        if (summary != null && summary.emptied(i, slots)) {
            markedAgain.run();
        }
    }

    /**
     * Takes an element out of some slot: one pass of the summary under Search.SUMMARY, one lap
     * of a probe sequence from a pseudo-random slot under Search.PROBE, and under Search.CURSOR
     * one or the other of a lap from the thread's cursor and a probe lap, in turn.
     *
     * @return the element, or null if the pass met none it could win
     */
    public Object take() {
        if (summary != null) {
            return summarySearch();
        }
        return walks != null ? cursorOrProbeSearch() : probeSearch();
    }

    /** The element in slot i, read with acquire (its contents visible), or null if empty or HELD. */
    public Object element(int i) {
        Object e = slots.read(i);
        return e == HELD ? null : e;
    }

    /**
     * Holds the element e of slot i for a drain: e to HELD, so that nobody else takes it while
     * the drain hands it on.
     */
    public boolean hold(int i, Object e) {
        return slots.compareAndSet(i, e, HELD);
    }

    /**
     * Takes e back out of slot i, where its producer just put it, unless a consumer or a drain
     * took it first: the undo of an insert that found the table closed once its element was in
     * (ParallelHashTable's "Close"). While a drain holds e it waits, since the drain may yet put
     * it back.
     *
     * @return true if e was taken back (nobody received it), false if it was delivered
     */
    public boolean retract(int i, Object e) {
        for (int round = 0; ; round++) {
            Object now = slots.read(i);
            if (now == HELD) {
                Spin.pause(Math.min(round, Spin.ROUNDS - 1)); // the drain's add is under way
            } else if (now != e) {
                return false; // taken; the slot may hold another element by now
            } else if (tryEmpty(i, e)) {
                return true;
            }
        }
    }

    /** Ends a hold whose element left: HELD to null, and the bit cleared. */
    public void releaseHeld(int i) {
        slots.compareAndSet(i, HELD, null); // only the holder changes a HELD slot: it succeeds
        unmark(i);
    }

    /** Ends a hold whose element stays: HELD back to e (its bit is still set). */
    public void restoreHeld(int i, Object e) {
        slots.compareAndSet(i, HELD, e); // only the holder changes a HELD slot: it succeeds
    }

    /**
     * Whether no slot shows an element, read with volatile accesses: the consumers' re-check
     * before they park. Reads the summary's words and, for each set bit, its slot (a bit may
     * outlive its element, or stand over a HELD slot); without a summary, every slot.
     */
    public boolean looksEmpty() {
        if (summary == null) {
            return noElementInSlots();
        }
        for (int w = 0; w < summary.wordCount(); w++) {
            for (long bits = summary.word(w); bits != 0; bits &= bits - 1) {
                Object e = slots.readVolatile((w << 6) + Long.numberOfTrailingZeros(bits));
                if (e != null && e != HELD) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether no slot holds an element, reading every slot (volatile), not the summary: the
     * consumers' final check after close, which must not miss an element whose bit an emptier
     * has cleared and not yet set again (OccupancySummary.emptied).
     */
    public boolean noElementInSlots() {
        for (int i = 0; i < slots.length(); i++) {
            Object e = slots.readVolatile(i);
            if (e != null && e != HELD) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether no slot shows room, read with volatile accesses: the producers' re-check before
     * they park. Reads the summary's words (a bit may be clear over a slot just filled; the
     * producer's next pass finds out); without a summary, every slot.
     */
    public boolean looksFull() {
        int m = slots.length();
        if (summary == null) {
            for (int i = 0; i < m; i++) {
                if (slots.readVolatile(i) == null) {
                    return false;
                }
            }
            return true;
        }
        for (int w = 0; w < summary.wordCount(); w++) {
            if (summary.clearBits(w) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The number of occupied (or HELD) slots: exact when no operation is under way, otherwise
     * within [0, m]. Reads the summary's words, or every slot without one.
     */
    public int occupied() {
        if (summary != null) {
            return summary.marked();
        }
        int n = 0;
        for (int i = 0; i < slots.length(); i++) {
            if (slots.readVolatile(i) != null) {
                n++;
            }
        }
        return n;
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
                    unmark(i); // a stale mark: clear it, keeping the invariant
                } else if (tryEmpty(i, e)) {
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

    /** A walk from the calling thread's cursor on its turn, else a probe lap. */
    private Object cursorOrProbeSearch() {
        Walk walk = walks.get();
        boolean fromCursor = walk.walkNext;
        Object e = fromCursor ? cursorSearch(walk) : probeSearch();
        // a probe, or a search that won nothing, is followed by a walk: at least every second
        // search walks (the bound), and a consumer that waited looks at its cursor first
        walk.walkNext = !fromCursor || e == null;
        return e;
    }

    /** How many slots from its cursor a spinning consumer looks at: a cache line of references. */
    private static final int NEAR_CURSOR = 16;

    /**
     * Under Search.CURSOR: whether one of the NEAR_CURSOR slots from where the calling thread's
     * next walk starts holds an element (volatile reads; false before its first walk). A
     * spinning consumer's look: the producer that fed it last puts its next element just after
     * its last one, at the cursor or a few slots on when a probe took the one in between. Only
     * a hint: the consumer re-checks every slot before it parks.
     */
    public boolean elementNearCursor() {
        int c = walks.get().cursor;
        if (c < 0) {
            return false;
        }
        int m = slots.length();
        for (int k = 0, i = c; k < NEAR_CURSOR && k < m; k++, i = i + 1 == m ? 0 : i + 1) {
            Object e = slots.readVolatile(i);
            if (e != null && e != HELD) {
                return true;
            }
        }
        return false;
    }

    /**
     * One lap slot by slot from the calling thread's cursor (from a pseudo-random slot on its
     * first walk in this table), taking the first element it wins and leaving the cursor just
     * past it; a lap that wins nothing leaves the cursor where it was. A walk never passes an
     * element that is inside without trying to take it: each slot is read with a volatile read
     * (the pair of the filler's volatile CAS), and a failed CAS means another consumer took
     * that element. So the cursor, which only moves forward, reaches any element within one lap
     * of walks, each of which takes one element before it: the bound of the class description.
     *
     * @return the element, or null if the lap met none it could win
     */
    private Object cursorSearch(Walk walk) {
        int m = slots.length();
        int pos = walk.cursor >= 0 ? walk.cursor : probing.start(random.nextLong());
        for (int probes = 1; ; probes++) {
            Object e = slots.readVolatile(pos);
            if (e != null && e != HELD) {
                if (tryEmpty(pos, e)) {
                    counters.searchProbes(probes);
                    walk.cursor = pos + 1 == m ? 0 : pos + 1;
                    return e;
                }
                counters.searchConflict(); // another consumer took this element first (or a drain holds it)
            }
            if (probes == m) {
                counters.searchProbes(probes);
                return null; // a whole lap: empty, or every element won by others
            }
            pos = pos + 1 == m ? 0 : pos + 1;
        }
    }

    /**
     * Takes an element out of some slot, probing from a pseudo-random start: the papers' search,
     * for one lap of the sequence.
     *
     * @return the element, or null if the lap met none it could win
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
                counters.searchConflict(); // another consumer took this element first (or a drain holds it)
            }
            if (probes == slots.length()) {
                counters.searchProbes(probes);
                return null; // a whole lap: empty, or every element won by others
            }
            pos = probing.next(pos, stride);
            probes++;
        }
    }
}
