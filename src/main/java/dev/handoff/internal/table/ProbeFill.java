/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeSequence;

/**
 * The papers' insert: slot by slot along the key's double-hashing probe sequence, for one lap
 * (every slot once). Under the papers' search for any key, and under the cursor search with
 * hashed keys. Its probe counts are what Theorem 1 of Roussev and Wu (Journal of Systems
 * Architecture, 2006) predicts: ParallelHashTableTheoremProperties checks them, and the mutation
 * check (src/test/mutations) shows that a fault here turns it red.
 */
public final class ProbeFill implements TableFill {
    private final SlotTable table;
    private final TableSlots slots;
    private final ProbeSequence probing;
    private final Counters counters;

    public ProbeFill(SlotTable table) {
        this.table = table;
        this.slots = table.slots;
        this.probing = table.probing;
        this.counters = table.counters;
    }

    /**
     * Writes e into the first empty slot it wins on key's probe sequence.
     *
     * @return the slot it filled, or -1 if the lap won none
     */
    @Override
    public int insert(long key, Object e) {
        int pos = probing.start(key);
        int stride = probing.stride(key);
        int probes = 1;
        for (;;) {
            if (slots.hint(pos) == null) {
                if (table.tryFill(pos, e)) {
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
}
