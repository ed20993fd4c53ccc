/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.guard.ThreadCells;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Where each producer's next fill in one hash table starts ({@link SummaryFill} with
 * pseudo-random keys, {@link WalkFill}): the slot after its last fill, or {@link #NONE} (draw the
 * key's start slot) before its first fill and after it met another producer in its last one, so
 * that producers that met part again.
 *
 * <p>Why follow: consumers take from the sweep (every second summary search) or their cursors,
 * and from pseudo-random starts, taking the first element they meet. A producer that fills slots
 * in order lays its elements out in the order it put them, ahead of the sweep (or the cursors),
 * so the sweep and the searches that land in the empty stretch behind the elements take the
 * oldest first; with a random start per fill an element that lands just behind the sweep waits
 * for a whole lap. It also keeps a producer in one summary word and one run of slot lines for a
 * while.
 *
 * <p>One hint per cell of a ThreadCells: threads that share a cell share a hint, which costs
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
