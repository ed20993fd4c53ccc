/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import dev.handoff.internal.guard.ReentryGuard;
import dev.handoff.internal.observe.Counters;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The operations of {@link CellsCore} that look inside: they go cell by cell and never stop the
 * puts and takes. One runs at a time (lock), and the caller's code they run (a drainTo target's
 * add, a predicate) may not call back into the buffer (ReentryGuard).
 */
final class CellsInside {
    /*
     * Implementation notes.
     *
     * Looking (toArray, peek, contains) reads each position from the take count to the put count
     * with CellRing.peekAt: a cell seen FULL at that position, read again unchanged after its
     * element. Removing claims a cell (FULL to TAKING) as a take would, so an element goes to
     * exactly one of its take and a remover; the take whose turn it is waits while the cell is
     * TAKING (CellsCore.takeOrPass).
     *
     * drainTo claims from the front and releases each cell to its next lap once the target has
     * the element (the take at that position passes it); if the target throws, the element goes
     * back to its cell. A removal by predicate claims every cell from the first chosen element to
     * the put count, writes the kept elements back in order from that first place, and gives the
     * places freed at the end back to the put counter, so that the room is usable at once; if a
     * cell there cannot be claimed (a put or take under way) or a put claimed meanwhile, the
     * chosen elements are removed in place instead and their places wait for the takes to pass.
     */

    private final CellRing ring;
    private final CellCounts counts;
    private final Counters counters;
    private final ReentrantLock lock = new ReentrantLock();
    final ReentryGuard reentry = new ReentryGuard(lock);

    CellsInside(CellRing ring, CellCounts counts, Counters counters) {
        this.ring = ring;
        this.counts = counts;
        this.counters = counters;
    }

    /** Runs r holding the lock of the inside operations: one at a time. */
    void exclusively(Runnable r) {
        lock.lock();
        try {
            r.run();
        } finally {
            lock.unlock();
        }
    }

    @SuppressWarnings("unchecked")
    <E> int drainTo(Collection<? super E> target, int maxElements, int size) {
        lock.lock();
        try {
            int moved = 0;
            int most = Math.min(maxElements, size); // what is inside now, not what comes meanwhile
            for (long q = counts.takes(), end = counts.puts(); q < end && moved < most; q++) {
                int i = ring.index(q);
                Object e = ring.peekAt(i, q) == null ? null : ring.claim(i, q);
                if (e == null) {
                    continue; // not filled yet, or its take came first
                }
                try {
                    reentry.add(target, (E) e);
                } catch (Throwable t) {
                    ring.unclaim(i, q, e); // still inside, at its place
                    throw t;
                }
                removed(i, q);
                moved++;
            }
            return moved;
        } finally {
            lock.unlock();
        }
    }

    /** Ends the removal of position q's element in place: take q will pass the cell. */
    private void removed(int i, long q) {
        ring.release(i, q);
        counts.emptyPut();
        counters.countRemoval();
    }

    /**
     * Removes the first (or every) element match accepts, asking about each before changing
     * anything (see the notes).
     */
    int removeWhere(Predicate<Object> match, boolean firstOnly) {
        lock.lock();
        try {
            long from = counts.takes(), end = counts.puts();
            if (end <= from) {
                return 0;
            }
            boolean[] chosen = new boolean[(int) (end - from)];
            long first = -1;
            for (long q = from; q < end; q++) {
                Object e = ring.peekAt(ring.index(q), q);
                if (e != null && (first < 0 || !firstOnly) && reentry.test(match, e)) {
                    chosen[(int) (q - from)] = true;
                    first = first < 0 ? q : first;
                }
            }
            return first < 0 ? 0 : closeUp(from, first, end, chosen);
        } finally {
            lock.unlock();
        }
    }

    private int closeUp(long from, long first, long end, boolean[] chosen) {
        int n = (int) (end - first);
        Object[] held = new Object[n];
        for (int j = 0; j < n; j++) {
            long q = first + j;
            held[j] = ring.claim(ring.index(q), q);
            if (held[j] == null) {
                for (int k = 0; k < j; k++) {
                    ring.unclaim(ring.index(first + k), first + k, held[k]);
                }
                return removeInPlace(from, first, end, chosen);
            }
        }
        int kept = 0;
        for (int j = 0; j < n; j++) {
            if (!chosen[(int) (first - from) + j]) {
                long q = first + kept++;
                ring.unclaim(ring.index(q), q, held[j]);
            }
        }
        boolean givenBack = counts.givePutsBack(end, first + kept);
        for (long q = first + kept; q < end; q++) {
            if (givenBack) {
                ring.reset(ring.index(q), q); // free for the next put at q; a take at q waits again
            } else {
                ring.release(ring.index(q), q);
                counts.emptyPut(); // take q will pass it
            }
        }
        counters.countRemovals(n - kept);
        return n - kept;
    }

    private int removeInPlace(long from, long first, long end, boolean[] chosen) {
        int count = 0;
        for (long q = first; q < end; q++) {
            int i = ring.index(q);
            if (chosen[(int) (q - from)] && ring.claim(i, q) != null) {
                removed(i, q);
                count++;
            }
        }
        return count;
    }

    // ---- looking ----

    Object[] toArray() {
        List<Object> seen = new ArrayList<>();
        for (long q = counts.takes(), end = counts.puts(); q < end; q++) {
            Object e = ring.peekAt(ring.index(q), q);
            if (e != null) {
                seen.add(e);
            }
        }
        return seen.toArray();
    }

    /** The stamp of the first element from takes on that has one, or Long.MAX_VALUE: as peek() walks. */
    long oldestStamp(ToLongFunction<Object> stampOf) {
        for (long q = counts.takes(), end = counts.puts(); q < end; q++) {
            Object e = ring.peekAt(ring.index(q), q);
            long stamp = e == null ? Long.MAX_VALUE : stampOf.applyAsLong(e);
            if (stamp != Long.MAX_VALUE) {
                return stamp;
            }
        }
        return Long.MAX_VALUE;
    }

    Object peek() {
        for (long q = counts.takes(), end = counts.puts(); q < end; q++) {
            Object e = ring.peekAt(ring.index(q), q);
            if (e != null) {
                return e;
            }
        }
        return null;
    }
}
