/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.guard;

/**
 * A few int cells, each on a cache line of its own, one picked for each thread by its id: the
 * layout that UnderWay's counts and FillHints' hints share, so that threads on different cells
 * never write one line. Threads whose ids collide share a cell; each user says what that costs
 * it. The cells are plain array elements: the user chooses the access mode of each read and
 * write.
 */
public final class ThreadCells {
    /** Ints apart: one cell per 64-byte cache line. */
    private static final int SPREAD = 16;

    /** Cells at SPREAD, 2 * SPREAD, ...; a line of padding before the first and after the last. */
    public final int[] array;

    /** The number of cells minus one; the number is a power of two, about twice the CPUs. */
    private final int mask;

    public ThreadCells() {
        int n = Integer.highestOneBit(Math.min(64, 2 * Runtime.getRuntime().availableProcessors() - 1) | 1) << 1;
        this.mask = n - 1;
        this.array = new int[(n + 2) * SPREAD];
    }

    /** The index in {@link #array} of the calling thread's cell. */
    public int ofCurrentThread() {
        long id = Thread.currentThread().threadId();
        return at((int) ((id * 0x9E3779B97F4A7C15L) >>> 40) & mask);
    }

    /** The number of cells. */
    public int count() {
        return mask + 1;
    }

    /** The index in {@link #array} of cell k, for k in [0, count()). */
    public int at(int k) {
        return (k + 1) * SPREAD;
    }
}
