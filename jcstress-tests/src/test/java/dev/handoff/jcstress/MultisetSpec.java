/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.HandoffClosedException;
import java.util.TreeMap;

/**
 * The sequential specification of a bounded unordered handoff (a multiset) of capacity 2, for
 * Lincheck. A real poll may return any element inside; Lincheck needs a deterministic
 * specification, so this one returns the smallest, and {@link ParallelHashTableLincheckTest}
 * offers a single value, for which every choice gives the same result. What is checked is then
 * the multiset's counting: no offer accepted beyond the capacity, no poll that finds nothing while
 * an element is inside, none that finds one that is not, and close.
 */
public class MultisetSpec {
    static final int CAPACITY = 2;

    private final TreeMap<Integer, Integer> counts = new TreeMap<>();
    private int size;
    private boolean closed;

    public boolean offer(int e) {
        if (closed) {
            throw new HandoffClosedException("closed");
        }
        if (size == CAPACITY) {
            return false;
        }
        counts.merge(e, 1, Integer::sum);
        size++;
        return true;
    }

    public Integer poll() {
        if (size == 0) {
            return null;
        }
        Integer e = counts.firstKey();
        counts.merge(e, -1, (a, b) -> a + b == 0 ? null : a + b);
        size--;
        return e;
    }

    public int size() {
        return size;
    }

    public int remainingCapacity() {
        return CAPACITY - size;
    }

    public void close() {
        closed = true;
    }
}
