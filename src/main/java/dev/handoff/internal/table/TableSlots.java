/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

/**
 * The hash table's m slots, each null, one element or {@link #HELD}, changed only by
 * compare-and-set. Not sealed: besides the two forms, the Theorem 3 property wraps one (see the
 * table's constructor with a slots seam).
 */
public abstract class TableSlots {
    /**
     * What a drain leaves in a slot while it holds that slot's element: neither an element (no
     * consumer takes it, no reader lists it) nor room (no producer fills it). Its summary bit
     * stays set.
     */
    static final Object HELD = new Object() {
        @Override
        public String toString() {
            return "HELD";
        }
    };

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
     * (an element to {@link #HELD} and back, or HELD to null).
     */
    public abstract boolean compareAndSet(int i, Object expect, Object update);

    /** Whether no slot holds an element (HELD is none), reading every slot with a volatile read. */
    final boolean noElement() {
        for (int i = 0; i < length(); i++) {
            Object e = readVolatile(i);
            if (e != null && e != HELD) {
                return false;
            }
        }
        return true;
    }

    /** Whether no slot is empty, reading every slot with a volatile read. */
    final boolean noRoom() {
        int m = length();
        for (int i = 0; i < m; i++) {
            if (readVolatile(i) == null) {
                return false;
            }
        }
        return true;
    }

    /** The slots that are not empty (HELD included), reading every slot with a volatile read. */
    final int notEmpty() {
        int n = 0;
        for (int i = 0; i < length(); i++) {
            if (readVolatile(i) != null) {
                n++;
            }
        }
        return n;
    }
}
