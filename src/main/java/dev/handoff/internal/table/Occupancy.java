/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

/**
 * What a table keeps, besides its slots, to tell occupied slots from empty ones: an
 * {@link OccupancySummary} (a bit per slot, for the summary search and fill), or {@link NoSummary}
 * (nothing: the slots are the only record). Chosen with the search, at construction. The slots
 * stay the truth either way: whatever this says is a hint, and only a slot's compare-and-set
 * decides.
 */
public sealed interface Occupancy permits OccupancySummary, NoSummary {

    /**
     * Call after filling slot i (a volatile CAS).
     *
     * @return as {@link #emptied}: whether the caller must wake one consumer
     */
    boolean filled(int i, TableSlots slots);

    /**
     * Call after emptying slot i, or on finding it empty while it still counts as occupied.
     *
     * @return whether slot i was filled again meanwhile and its filler left the record to this
     *         call, so that a consumer that looked in between may be parked and the caller must
     *         wake one (OccupancySummary.emptied)
     */
    boolean emptied(int i, TableSlots slots);

    /**
     * Whether no slot shows an element, with volatile reads after the caller's count among the
     * waiters: the consumers' re-check before they park.
     */
    boolean looksEmpty(TableSlots slots);

    /** Whether no slot shows room, with volatile reads: the producers' re-check before they park. */
    boolean looksFull(TableSlots slots);

    /** The occupied (or HELD) slots: exact when no operation is under way, otherwise within [0, m]. */
    int occupied(TableSlots slots);

    /** Whether the looks above read every slot, so that a spinning thread should look seldom. */
    boolean looksReadEverySlot();
}
