/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

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
    int length() {
        return slots.length();
    }

    @Override
    Object hint(int i) {
        return slots.hint(i);
    }

    @Override
    Object read(int i) {
        return slots.read(i);
    }

    @Override
    Object readVolatile(int i) {
        return slots.readVolatile(i);
    }

    @Override
    boolean tryFill(int i, Object e) {
        return slots.tryFill(i, e);
    }

    @Override
    boolean tryEmpty(int i, Object e) {
        return slots.tryEmpty(i, e);
    }

    @Override
    boolean compareAndSet(int i, Object expect, Object update) {
        return slots.compareAndSet(i, expect, update);
    }
}
