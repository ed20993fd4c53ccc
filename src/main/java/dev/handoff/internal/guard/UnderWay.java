/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.guard;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The operations under way that may still put an element into a handoff: inserts that read it
 * open (ReservingHandoff's), and drains holding an element they may put back (the hash table's,
 * whose inserts take their element back instead if they find the table closed). Counted in a
 * few cells, each on a cache line of its own, chosen by the calling thread (ThreadCells), so that
 * threads on different cells do not write one shared line for every element: the count is read
 * only when a consumer asks whether a closed handoff is final ({@link #none()}).
 *
 * <p>An operation calls {@link #begin()}, then reads the handoff's closed flag, and calls
 * {@link #end(int)} with the cell begin returned once its element is in place (or it gave up).
 * Both are volatile read-modify-writes on the same cell, so every cell stays at or above zero.
 * The Dekker pair with close: close writes closed (volatile), and a consumer reads closed, then
 * every cell (volatile), then the slots. An operation that read the handoff open began before the
 * close, hence before the consumer read its cell, so the consumer sees it counted unless it has
 * ended, and an operation ends only after its element is in place, where the consumer's later
 * read of the slots finds it.
 */
public final class UnderWay {
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(int[].class);

    /** The counts, a cell per thread (threads that share a cell share its count). */
    private final ThreadCells cells = new ThreadCells();

    /** Counts the calling thread's operation; returns its cell, for {@link #end(int)}. */
    public int begin() {
        int at = cells.ofCurrentThread();
        CELL.getAndAdd(cells.array, at, 1); // volatile, then the read of closed: the Dekker pair with close
        return at;
    }

    /** Ends an operation that {@link #begin()} counted in cell {@code at}. */
    public void end(int at) {
        CELL.getAndAdd(cells.array, at, -1); // volatile, after the element is in place: read by none()
    }

    /** Whether no operation is under way: every cell read volatile, after the caller read closed. */
    public boolean none() {
        for (int k = 0; k < cells.count(); k++) {
            if ((int) CELL.getVolatile(cells.array, cells.at(k)) != 0) {
                return false;
            }
        }
        return true;
    }
}
