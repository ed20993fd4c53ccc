/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeSequence;

/**
 * The fill of the cursor search with pseudo-random keys: one lap slot by slot from just after
 * the calling thread's last fill in this table ({@link FillHints}: why), filling the first empty
 * slot it wins. So one producer's elements lie in the order it put them, where the consumers'
 * walks meet the oldest first, as the summary fill does for the sweep; nothing but the slot is
 * written.
 */
public final class WalkFill implements TableFill {
    private final SlotTable table;
    private final TableSlots slots;
    private final ProbeSequence probing;
    private final Counters counters;

    /** Where each producer's next fill starts. */
    private final FillHints fillHints = new FillHints();

    public WalkFill(SlotTable table) {
        this.table = table;
        this.slots = table.slots;
        this.probing = table.probing;
        this.counters = table.counters;
    }

    /**
     * Writes e into an empty slot, from just after the calling thread's last fill (from the
     * key's start for its first fill, and after it met another producer in its last one).
     *
     * @return the slot it filled, or -1 if the lap won none
     */
    @Override
    public int insert(long key, Object e) {
        int cell = fillHints.cell();
        int from = fillHints.next(cell);
        int first = from != FillHints.NONE ? from : probing.start(key);
        return walkFill(first, e, cell);
    }

    /**
     * One lap slot by slot from slot first, filling the first empty slot it wins.
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
                if (table.tryFill(pos, e)) {
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

    /** Notes where the next fill of hint's thread starts: slot (m wraps to 0), or NONE. */
    private void noteNextFill(int hint, int slot) {
        fillHints.setNext(hint, slot == slots.length() ? 0 : slot);
    }
}
