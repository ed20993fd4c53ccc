/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

/**
 * The occupancy of a table that keeps no summary (the papers' search, and the cursor search):
 * nothing but the slot is written per element, and every look reads all the slots.
 */
public final class NoSummary implements Occupancy {

    @Override
    public boolean filled(int i, TableSlots slots) {
        return false; // no record to keep: the slot's CAS is all a looker reads
    }

    @Override
    public boolean emptied(int i, TableSlots slots) {
        return false; // no record to restore: a filler's volatile CAS is all a looker reads
    }

    @Override
    public boolean looksEmpty(TableSlots slots) {
        return slots.noElement();
    }

    @Override
    public boolean looksFull(TableSlots slots) {
        return slots.noRoom();
    }

    @Override
    public int occupied(TableSlots slots) {
        return slots.notEmpty();
    }

    @Override
    public boolean looksReadEverySlot() {
        return true;
    }
}
