/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread's sweep turn in the hash table it last searched: whether its next summary search
 * starts from the sweep. A thread keeps one of these for all tables (a static ThreadLocal),
 * tagged with the table's number, so that a table that is dropped leaves nothing behind in the
 * threads that used it (a ThreadLocal per table would leave a stale entry in each).
 *
 * <p>Plain fields: only the owning thread reads or writes them.
 */
public final class SweepTurn {
    /** Numbers the tables, so that a turn is used only in the table it was left in. */
    private static final AtomicLong TABLES = new AtomicLong();

    private static final ThreadLocal<SweepTurn> OF_THREAD = ThreadLocal.withInitial(SweepTurn::new);

    /** The table this turn belongs to; 0 before the first search (tables count from 1). */
    private long table;
    /** Whether this thread's next summary search starts from the sweep. */
    public boolean sweepNext;

    /** A fresh number for a new table. */
    public static long newTable() {
        return TABLES.incrementAndGet();
    }

    /**
     * The calling thread's turn for table, reset if the thread's last search was in another
     * table: its next search then starts from the sweep, so that switching tables never skips a
     * sweep turn (the wait bound counts every second search of a thread).
     */
    public static SweepTurn of(long table) {
        SweepTurn t = OF_THREAD.get();
        if (t.table != table) {
            t.table = table;
            t.sweepNext = true;
        }
        return t;
    }
}
