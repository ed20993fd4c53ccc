/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

/**
 * The hash table's slots in the papers' form: a SynchronizedRef per slot. Every change of a slot
 * holds its monitor; the looks that only steer a scan or re-check before parking read the slot's
 * volatile value without it (see SynchronizedRef).
 */
public final class MonitorSlots extends TableSlots {
    private final SynchronizedRef[] refs;

    public MonitorSlots(int m) {
        refs = new SynchronizedRef[m];
        for (int i = 0; i < m; i++) {
            refs[i] = new SynchronizedRef();
        }
    }

    @Override
    public int length() {
        return refs.length;
    }

    @Override
    public Object hint(int i) {
        return refs[i].peek(); // only a hint: compareAndSet, under the monitor, decides
    }

    @Override
    public Object read(int i) {
        return refs[i].get(); // the monitor orders it: unlock of a fill -> lock here
    }

    @Override
    public Object readVolatile(int i) {
        // A volatile read, after the emptier's volatile clear of the bit: pairs with the
        // volatile write of the fill in compareAndSet (OccupancySummary's Dekker pair).
        return refs[i].peek();
    }

    @Override
    public boolean tryFill(int i, Object e) {
        return refs[i].compareAndSet(null, e); // the monitor pairs it with read/tryEmpty on the same ref
    }

    @Override
    public boolean tryEmpty(int i, Object e) {
        return refs[i].compareAndSet(e, null); // the monitor pairs it with tryFill on the same ref
    }

    @Override
    public boolean compareAndSet(int i, Object expect, Object update) {
        return refs[i].compareAndSet(expect, update); // the monitor orders it with every access to the ref
    }

    /**
     * The papers' SynchronizedRef: one reference whose every change, and every read that hands
     * an element on, holds this object's monitor for that one step. Never waited on.
     *
     * <p>The value is also volatile, for the reads that decide nothing by themselves:
     * {@link #peek} serves a scan's look at a slot (the compareAndSet that follows decides) and
     * the sequentially consistent re-reads of OccupancySummary's Dekker pair and of the waiters'
     * re-checks. Taking the monitor there would make every look lock and unlock the slot object,
     * on the cache line that the producer filling the slot also locks; the writes, all under the
     * monitor, are volatile so that these reads pair with them.
     */
    private static final class SynchronizedRef {
        private volatile Object value; // changed only under this

        /**
         * The value, read without the monitor: a volatile read, so that it is ordered with every
         * write (volatile, under the monitor) as OccupancySummary's pair and the waiters'
         * re-checks need. Not for handing an element on: {@link #get} reads it under the monitor.
         */
        public Object peek() {
            return value;
        }

        public synchronized Object get() {
            return value;
        }

        public synchronized boolean compareAndSet(Object expect, Object update) {
            if (value != expect) {
                return false;
            }
            value = update; // volatile: peek's partner (see above); the unlock orders it for get
            return true;
        }
    }
}
