/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.probe.ProbeSequence;

/**
 * The cursor search: in turn a walk slot by slot from the thread's own cursor, and the papers'
 * probe lap ({@link ProbeSearch}), with no summary. A consumer thread's search after a probe, or
 * after a search that won nothing, walks; a search after a walk that won probes.
 */
public final class CursorSearch implements TableSearch {
    /*
     * The bound on waiting without a shared position. A walk reads each slot with a volatile read
     * (the pair of the filler's volatile CAS) and tries the CAS of every element it meets; a
     * failed CAS means another consumer took that element. So a walk never passes an element
     * that is inside without trying to take it, the cursor only moves forward, and each walk that
     * stops before an element moves the cursor at least one slot closer to it. Since at least
     * every second search walks, an element leaves within 2m + 2 searches of any one consumer
     * thread, however many consumers there are, and no position is written by every consumer.
     * Producers with pseudo-random keys fill on from their last fill slot by slot (WalkFill), so
     * that the walks meet one producer's oldest element first.
     */

    /** How many slots from its cursor a spinning consumer looks at: a cache line of references. */
    private static final int NEAR_CURSOR = 16;

    private final SlotTable table;
    private final TableSlots slots;
    private final ProbeSequence probing;
    private final Counters counters;

    /** Draws the first walk's start: ThreadLocalRandom except under Lincheck. */
    private final ProbeRandom random;

    /** The searches that are not walks. */
    private final ProbeSearch probe;

    /**
     * Each consumer thread's turn and cursor in this table: a ThreadLocal per table, as
     * Exchanger keeps one per exchanger, so that a thread that also takes from other tables keeps
     * its place in each.
     */
    private final ThreadLocal<Walk> walks = ThreadLocal.withInitial(Walk::new);

    /** A consumer thread's turn and cursor; plain fields, read by their thread only. */
    private static final class Walk {
        /** Whether the thread's next search walks (after a probe or a miss) or probes. */
        boolean walkNext = true;
        /** The slot where the thread's next walk starts; -1 before its first walk. */
        int cursor = -1;
    }

    public CursorSearch(SlotTable table, ProbeRandom random) {
        this.table = table;
        this.slots = table.slots;
        this.probing = table.probing;
        this.counters = table.counters;
        this.random = random;
        this.probe = new ProbeSearch(table, random);
    }

    /** A walk from the calling thread's cursor on its turn, else a probe lap. */
    @Override
    public Object take() {
        Walk walk = walks.get();
        boolean fromCursor = walk.walkNext;
        Object e = fromCursor ? cursorSearch(walk) : probe.take();
        // a probe, or a search that won nothing, is followed by a walk: at least every second
        // search walks (the bound), and a consumer that waited looks at its cursor first
        walk.walkNext = !fromCursor || e == null;
        return e;
    }

    @Override
    public boolean hasNearLook() {
        return true;
    }

    /**
     * Whether one of the NEAR_CURSOR slots from where the calling thread's next walk starts holds
     * an element (volatile reads; false before its first walk). A spinning consumer's look: the
     * producer that fed it last puts its next element just after its last one, at the cursor or
     * a few slots on when a probe took the one in between.
     */
    @Override
    public boolean elementNear() {
        int c = walks.get().cursor;
        if (c < 0) {
            return false;
        }
        int m = slots.length();
        for (int k = 0, i = c; k < NEAR_CURSOR && k < m; k++, i = i + 1 == m ? 0 : i + 1) {
            Object e = slots.readVolatile(i);
            if (e != null && e != TableSlots.HELD) {
                return true;
            }
        }
        return false;
    }

    /**
     * One lap slot by slot from the calling thread's cursor (from a pseudo-random slot on its
     * first walk in this table), taking the first element it wins and leaving the cursor just
     * past it; a lap that wins nothing leaves the cursor where it was.
     *
     * @return the element, or null if the lap met none it could win
     */
    private Object cursorSearch(Walk walk) {
        int m = slots.length();
        int pos = walk.cursor >= 0 ? walk.cursor : probing.start(random.nextLong());
        for (int probes = 1; ; probes++) {
            Object e = slots.readVolatile(pos);
            if (e != null && e != TableSlots.HELD) {
                if (table.tryEmpty(pos, e)) {
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
}
