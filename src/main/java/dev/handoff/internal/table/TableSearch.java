/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

/**
 * How a consumer finds an element to take: chosen once, when the table is built.
 * {@link ProbeSearch} is the papers' search from a pseudo-random slot; {@link SummarySearch}
 * reads the occupancy summary, from a pseudo-random word or the sweep in turn; {@link CursorSearch}
 * walks from the thread's own cursor and probes, in turn.
 *
 * <p>A search is one pass: it looks at each slot (or each summary bit) at most once, takes the
 * first element it wins by compare-and-set, and reports failure when it won none, so that the
 * caller decides whether to wait. It never waits for another thread: a pass fails only if the
 * table was empty or every element it met was taken by another consumer first.
 */
public interface TableSearch {
    /**
     * Takes an element out of some slot, counting the slots it tried as search probes and each
     * element lost to another consumer as a search conflict.
     *
     * @return the element, or null if the pass met none it could win
     */
    Object take();

    /**
     * Whether a consumer spinning before it parks should look at {@link #elementNear()}, every
     * round, rather than re-check the whole table: a search that knows where its thread's next
     * pass starts.
     */
    default boolean hasNearLook() {
        return false;
    }

    /**
     * Whether an element lies where the calling thread's next pass starts (volatile reads): a
     * hint only, since the consumer re-checks the whole table before it parks.
     */
    default boolean elementNear() {
        return false;
    }
}
