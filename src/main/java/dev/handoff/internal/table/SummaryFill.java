/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeSequence;

/**
 * The fill of the summary search: one pass over the summary's clear bits, trying each clear
 * bit's slot. In a nearly full table a word shows 64 slots at once, where the probe sequence
 * would look at about m / (empty + 1) slots one by one. With pseudo-random keys a fill starts
 * just after the calling thread's last fill in this table ({@link FillHints}: why); with hashed
 * keys, at the key's start slot.
 */
public final class SummaryFill implements TableFill {
    private final SlotTable table;
    private final TableSlots slots;
    private final ProbeSequence probing;
    private final Counters counters;
    private final OccupancySummary summary;

    /** Where each producer's next fill starts; null when every fill starts at its key's start slot. */
    private final FillHints fillHints;

    private SummaryFill(SlotTable table, OccupancySummary summary, FillHints fillHints) {
        this.table = table;
        this.slots = table.slots;
        this.probing = table.probing;
        this.counters = table.counters;
        this.summary = summary;
        this.fillHints = fillHints;
    }

    /** A fill that starts at the key's start slot: for hashed keys. */
    public static SummaryFill fromTheKey(SlotTable table, OccupancySummary summary) {
        return new SummaryFill(table, summary, null);
    }

    /** A fill that starts just after the producer's last fill: for pseudo-random keys. */
    public static SummaryFill followingOn(SlotTable table, OccupancySummary summary) {
        return new SummaryFill(table, summary, new FillHints());
    }

    /**
     * Writes e into an empty slot shown by the summary, from the key's start slot, or from just
     * after the calling thread's last fill (from the key's start for its first fill, and after
     * it met another producer in its last one).
     *
     * @return the slot it filled, or -1 if the pass won none: the table was full, or every empty
     *         slot it met was claimed by another producer first
     */
    @Override
    public int insert(long key, Object e) {
        if (fillHints == null) {
            return fill(probing.start(key), e, -1);
        }
        int cell = fillHints.cell();
        int from = fillHints.next(cell);
        int first = from != FillHints.NONE ? from : probing.start(key);
        return fill(first, e, cell);
    }

    /**
     * One pass over the summary's clear bits from slot first.
     *
     * @param hint the filling thread's cell in fillHints, to note where its next fill starts;
     *        -1 if its fills do not follow each other
     * @return the slot it filled, or -1 if it won none: a bit is only a hint
     */
    private int fill(int first, Object e, int hint) {
        int words = summary.wordCount();
        int w0 = first >>> 6;
        int probes = 0;
        boolean metProducer = false;
        for (int k = 0; k <= words; k++) {
            int w = w0 + k < words ? w0 + k : w0 + k - words;
            for (long bits = OccupancySummary.inPass(summary.clearBits(w), k, words, first); bits != 0; bits &= bits - 1) {
                int i = (w << 6) + Long.numberOfTrailingZeros(bits);
                probes++;
                if (slots.hint(i) == null) {
                    if (table.tryFill(i, e)) {
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

    /** Notes where the next fill of hint's thread starts: slot (m wraps to 0), or NONE. */
    private void noteNextFill(int hint, int slot) {
        fillHints.setNext(hint, slot == slots.length() ? 0 : slot);
    }
}
