/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.guard.ThreadCells;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Where each producer's next summary fill in one hash table starts: the slot after its last
 * fill. One hint per cell of a ThreadCells: threads that share a cell share a hint, which costs
 * them order and maybe a lost claim, never correctness, since any slot is a valid place to start
 * a fill.
 *
 * <p>Opaque accesses: a hint orders nothing (the slot's CAS decides), and a thread sharing the
 * cell may write it at any time; opaque keeps each read and write whole and actually performed.
 */
public final class FillHints {
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(int[].class);

    /** What a cell holds when it has no hint: the next fill draws its start. */
    public static final int NONE = -1;

    /** The hints, a cell per thread: slot + 1, or 0 for no hint. */
    private final ThreadCells cells = new ThreadCells();

    /** The calling thread's cell. */
    public int cell() {
        return cells.ofCurrentThread();
    }

    /** The slot where the next fill of cell's thread starts, or NONE. */
    public int next(int cell) {
        return (int) CELL.getOpaque(cells.array, cell) - 1;
    }

    /** Notes where the next fill of cell's thread starts: a slot, or NONE. */
    public void setNext(int cell, int slot) {
        CELL.setOpaque(cells.array, cell, slot + 1);
    }
}
