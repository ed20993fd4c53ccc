/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Where each producer's next summary fill in one hash table starts: the slot after its last
 * fill. One hint per cell, each cell on a cache line of its own, a thread's cell chosen by its
 * id, as UnderWay's: threads that share a cell share a hint, which costs them order and maybe a
 * lost claim, never correctness, since any slot is a valid place to start a fill.
 *
 * <p>Opaque accesses: a hint orders nothing (the slot's CAS decides), and a thread sharing the
 * cell may write it at any time; opaque keeps each read and write whole and actually performed.
 */
final class FillHints {
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(int[].class);

    /** Ints apart: one cell per 64-byte cache line. */
    private static final int SPREAD = 16;

    /** What a cell holds when it has no hint: the next fill draws its start. */
    static final int NONE = -1;

    /** Cells at SPREAD, 2 * SPREAD, ...: slot + 1, or 0 for no hint; padding before and after. */
    private final int[] cells;

    /** The number of cells minus one; the number is a power of two. */
    private final int mask;

    FillHints() {
        int n = Integer.highestOneBit(Math.min(64, 2 * Runtime.getRuntime().availableProcessors() - 1) | 1) << 1;
        this.mask = n - 1;
        this.cells = new int[(n + 2) * SPREAD];
    }

    /** The calling thread's cell. */
    int cell() {
        long id = Thread.currentThread().threadId();
        return ((int) ((id * 0x9E3779B97F4A7C15L) >>> 40) & mask) * SPREAD + SPREAD;
    }

    /** The slot where the next fill of cell's thread starts, or NONE. */
    int next(int cell) {
        return (int) CELL.getOpaque(cells, cell) - 1;
    }

    /** Notes where the next fill of cell's thread starts: a slot, or NONE. */
    void setNext(int cell, int slot) {
        CELL.setOpaque(cells, cell, slot + 1);
    }
}
