/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.probe.ProbeSequence;

/**
 * The papers' search: slot by slot along a double-hashing probe sequence from a pseudo-random
 * slot, for one lap; about m/(n+1) probes when n of m slots are full. No bound on an element's
 * wait, only a geometric tail. Kept, with no summary, so that Theorems 2 and 3 of Roussev and Wu
 * (Journal of Systems Architecture, 2006) stay measurable: ParallelHashTableTheoremProperties
 * checks them on the counters, and the mutation check (src/test/mutations) shows that a fault
 * here turns them red.
 */
public final class ProbeSearch implements TableSearch {
    private final SlotTable table;
    private final TableSlots slots;
    private final ProbeSequence probing;
    private final Counters counters;

    /** Draws the search keys: ThreadLocalRandom except under Lincheck. */
    private final ProbeRandom random;

    public ProbeSearch(SlotTable table, ProbeRandom random) {
        this.table = table;
        this.slots = table.slots;
        this.probing = table.probing;
        this.counters = table.counters;
        this.random = random;
    }

    /**
     * Takes an element out of some slot, probing from a pseudo-random start.
     *
     * @return the element, or null if the lap met none it could win
     */
    @Override
    public Object take() {
        long key = random.nextLong();
        int pos = probing.start(key);
        int stride = probing.stride(key);
        int probes = 1;
        for (;;) {
            Object e = slots.hint(pos);
            if (e != null) {
                if (table.tryEmpty(pos, e)) {
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
