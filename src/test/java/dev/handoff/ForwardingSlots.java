/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.table.TableSlots;

/**
 * A table's slots that forward every call to the real ones: the base of the test seams that
 * step into one call (a claim held open, a hook after a fill) and leave the rest alone.
 */
class ForwardingSlots extends TableSlots {
    final TableSlots slots;

    ForwardingSlots(TableSlots slots) {
        this.slots = slots;
    }

    @Override
    public int length() {
        return slots.length();
    }

    @Override
    public Object hint(int i) {
        return slots.hint(i);
    }

    @Override
    public Object read(int i) {
        return slots.read(i);
    }

    @Override
    public Object readVolatile(int i) {
        return slots.readVolatile(i);
    }

    @Override
    public boolean tryFill(int i, Object e) {
        return slots.tryFill(i, e);
    }

    @Override
    public boolean tryEmpty(int i, Object e) {
        return slots.tryEmpty(i, e);
    }

    @Override
    public boolean compareAndSet(int i, Object expect, Object update) {
        return slots.compareAndSet(i, expect, update);
    }
}
