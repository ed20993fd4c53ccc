/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The operations under way that may still put an element into a handoff: inserts that read it
 * open (ReservingHandoff's), and drains holding an element they may put back (the hash table's,
 * whose inserts take their element back instead if they find the table closed). Counted in a few cells, each on a cache
 * line of its own, chosen by the calling thread, so that threads on different cells do not write
 * one shared line for every element: the count is read only when a consumer asks whether a closed
 * handoff is final ({@link #none()}).
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
final class UnderWay {
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(int[].class);

    /** Ints apart: one cell per 64-byte cache line. */
    private static final int SPREAD = 16;

    /** Cells at SPREAD, 2 * SPREAD, ...; a line of padding before the first and after the last. */
    private final int[] cells;

    /** The number of cells minus one; the number is a power of two. */
    private final int mask;

    UnderWay() {
        int n = Integer.highestOneBit(Math.min(64, 2 * Runtime.getRuntime().availableProcessors() - 1) | 1) << 1;
        this.mask = n - 1;
        this.cells = new int[(n + 2) * SPREAD];
    }

    /** Counts the calling thread's operation; returns its cell, for {@link #end(int)}. */
    int begin() {
        long id = Thread.currentThread().threadId();
        int at = ((int) ((id * 0x9E3779B97F4A7C15L) >>> 40) & mask) * SPREAD + SPREAD;
        CELL.getAndAdd(cells, at, 1); // volatile, then the read of closed: the Dekker pair with close
        return at;
    }

    /** Ends an operation that {@link #begin()} counted in cell {@code at}. */
    void end(int at) {
        CELL.getAndAdd(cells, at, -1); // volatile, after the element is in place: read by none()
    }

    /** Whether no operation is under way: every cell read volatile, after the caller read closed. */
    boolean none() {
        for (int at = SPREAD; at < cells.length - SPREAD; at += SPREAD) {
            if ((int) CELL.getVolatile(cells, at) != 0) {
                return false;
            }
        }
        return true;
    }
}
