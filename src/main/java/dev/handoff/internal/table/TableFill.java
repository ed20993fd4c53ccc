/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

/**
 * How a producer finds an empty slot: chosen once, when the table is built, from its search and
 * its key source. {@link ProbeFill} is the papers' insert along the key's probe sequence;
 * {@link SummaryFill} reads the summary for a clear bit; {@link WalkFill} goes slot by slot from
 * just after the producer's last fill.
 *
 * <p>A fill is one pass: it looks at each slot (or each summary bit) at most once, claims the
 * first empty slot it wins by compare-and-set, and reports failure when it won none, so that
 * the caller decides whether to wait. It never waits for another thread: a pass fails only if
 * the table was full or every empty slot it met was claimed by another producer first (the
 * scans are lock-free, not wait-free).
 */
public interface TableFill {
    /**
     * Writes e into an empty slot, counting the slots it looked at as insert probes.
     *
     * @param key the insert's probe key (a draw, or the element's hash spread)
     * @param e the element
     * @return the slot it filled, or -1 if the pass won none
     */
    int insert(long key, Object e);
}
