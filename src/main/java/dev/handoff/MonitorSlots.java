/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/** The hash table's slots in the papers' form: a SynchronizedRef per slot. */
final class MonitorSlots extends TableSlots {
    private final SynchronizedRef[] refs;

    MonitorSlots(int m) {
        refs = new SynchronizedRef[m];
        for (int i = 0; i < m; i++) {
            refs[i] = new SynchronizedRef();
        }
    }

    @Override
    int length() {
        return refs.length;
    }

    @Override
    Object hint(int i) {
        return refs[i].get(); // the monitor orders it: unlock of a fill -> lock here
    }

    @Override
    Object read(int i) {
        return refs[i].get();
    }

    @Override
    Object readVolatile(int i) {
        // The monitor orders it: the emptier's clear of the bit happens-before this lock, and
        // a fill that comes after it in the monitor's order happens-after it too.
        return refs[i].get();
    }

    @Override
    boolean tryFill(int i, Object e) {
        return refs[i].compareAndSet(null, e); // the monitor pairs it with read/tryEmpty on the same ref
    }

    @Override
    boolean tryEmpty(int i, Object e) {
        return refs[i].compareAndSet(e, null); // the monitor pairs it with tryFill on the same ref
    }

    @Override
    boolean compareAndSet(int i, Object expect, Object update) {
        return refs[i].compareAndSet(expect, update); // the monitor orders it with every access to the ref
    }

    /**
     * The papers' SynchronizedRef: one reference whose every access holds this object's monitor
     * for that one step. Never waited on.
     */
    private static final class SynchronizedRef {
        private Object value; // guarded by this

        synchronized Object get() {
            return value;
        }

        synchronized boolean compareAndSet(Object expect, Object update) {
            if (value != expect) {
                return false;
            }
            value = update;
            return true;
        }
    }
}
