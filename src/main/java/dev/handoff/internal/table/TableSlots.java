/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

/**
 * The hash table's m slots, each null or one element, changed only by compare-and-set. Not
 * sealed: besides the two forms, the Theorem 3 property wraps one (see the table's constructor
 * with a slots seam).
 */
public abstract class TableSlots {
    public abstract int length();

    /** A hint for a probe: the slot's value, possibly stale; the CAS that follows decides. */
    public abstract Object hint(int i);

    /** The slot's value with its contents visible, for elements handed to callers. */
    public abstract Object read(int i);

    /**
     * The slot's value, read with sequentially consistent (volatile) semantics: the emptier's
     * side of OccupancySummary's Dekker pair.
     */
    public abstract Object readVolatile(int i);

    /** Claims an empty slot: null to e, with volatile semantics (OccupancySummary's pair). */
    public abstract boolean tryFill(int i, Object e);

    /** Takes e out of its slot: e to null. */
    public abstract boolean tryEmpty(int i, Object e);

    /**
     * Changes slot i from expect to update, with volatile semantics: the drain's hold on a slot
     * (an element to TableScans.HELD and back, or HELD to null).
     */
    public abstract boolean compareAndSet(int i, Object expect, Object update);
}
