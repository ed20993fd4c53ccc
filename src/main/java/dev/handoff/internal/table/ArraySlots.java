/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** The hash table's slots in the lock-free form: one array, accessed through a VarHandle. */
public final class ArraySlots extends TableSlots {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private final Object[] array;

    public ArraySlots(int m) {
        array = new Object[m];
    }

    @Override
    public int length() {
        return array.length;
    }

    @Override
    public Object hint(int i) {
        // Opaque: only a hint (the CAS after it decides), but never plain, so that a scan
        // cannot be compiled to re-read one stale value forever. A consumer sees the element's
        // contents through the acquire of its CAS in tryEmpty, not through this read.
        return SLOT.getOpaque(array, i);
    }

    @Override
    public Object read(int i) {
        return SLOT.getAcquire(array, i); // pairs with compareAndSet in tryFill
    }

    @Override
    public Object readVolatile(int i) {
        return SLOT.getVolatile(array, i); // after the bit's clear: pairs with compareAndSet in tryFill
    }

    @Override
    public boolean tryFill(int i, Object e) {
        // Volatile, which includes release: the producer's writes before put (the element's
        // fields) become visible to the thread whose acquire reads e (compareAndExchangeAcquire
        // in tryEmpty, getAcquire in read), and the write is ordered before the filler's read of
        // the occupancy word (OccupancySummary.filled). Strong, not weak: a spurious failure
        // would count as a conflict.
        return SLOT.compareAndSet(array, i, (Object) null, e);
    }

    @Override
    public boolean tryEmpty(int i, Object e) {
        // Acquire: pairs with compareAndSet in tryFill, so the consumer sees what
        // the producer wrote before put. The null needs no release: a producer that later
        // fills this slot reads nothing the consumer wrote; atomicity alone keeps an element from being overwritten or taken twice.
        return SLOT.compareAndExchangeAcquire(array, i, e, (Object) null) == e;
    }

    @Override
    public boolean compareAndSet(int i, Object expect, Object update) {
        // Volatile: a held element read back by a consumer after the drain puts it back is
        // published by this CAS as tryFill publishes a new one (acquire in tryEmpty, read).
        return SLOT.compareAndSet(array, i, expect, update);
    }
}
