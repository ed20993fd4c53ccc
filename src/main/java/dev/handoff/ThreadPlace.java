/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread's place in the hash table it last used: whether its next summary search starts
 * from the sweep, and where its next fill starts. A thread keeps one of these for all tables (a
 * static ThreadLocal), tagged with the table's number, so that a table that is dropped leaves
 * nothing behind in the threads that used it (a ThreadLocal per table would leave a stale entry
 * in each). A thread that alternates between two tables starts afresh in each: its searches all
 * start from the sweep, its fills from a pseudo-random slot.
 *
 * <p>Plain fields: only the owning thread reads or writes them.
 */
final class ThreadPlace {
    /** Numbers the tables, so that a place is used only in the table it was left in. */
    private static final AtomicLong TABLES = new AtomicLong();

    private static final ThreadLocal<ThreadPlace> OF_THREAD = ThreadLocal.withInitial(ThreadPlace::new);

    /** No fill to follow: the next fill draws its start. */
    static final int NONE = -1;

    /** The table this place belongs to; 0 before the first use (tables count from 1). */
    private long table;
    /** Whether this thread's next summary search starts from the sweep. */
    boolean sweepNext;
    /** The slot after this thread's last fill in the table, where its next fill starts; or NONE. */
    int nextFill;

    /** A fresh number for a new table. */
    static long newTable() {
        return TABLES.incrementAndGet();
    }

    /**
     * The calling thread's place in table, reset if the thread last used another table: its
     * next search then starts from the sweep, so that switching tables never skips a sweep turn
     * (the wait bound counts every second search of a thread), and its next fill draws its start.
     */
    static ThreadPlace of(long table) {
        ThreadPlace t = OF_THREAD.get();
        if (t.table != table) {
            t.table = table;
            t.sweepNext = true;
            t.nextFill = NONE;
        }
        return t;
    }
}
