/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

/**
 * The sequential specification of a bounded unordered handoff (a multiset), for Lincheck, over a
 * single value. A real poll may return any element inside; Lincheck needs a deterministic
 * specification, so the parallel hash table's tests offer only {@link #ELEMENT}, for which every
 * choice gives the same result, and the multiset reduces to a count. What is checked is the
 * multiset's counting: no offer accepted beyond the capacity, no poll that finds nothing while an
 * element is inside, none that finds one that is not, and close.
 *
 * <p>Lincheck builds a specification with its public no-argument constructor, so each capacity is
 * a subclass: {@link Roomy} and {@link OfTwo}.
 */
public abstract class MultisetSpec {

    /** The one value offered. */
    static final Integer ELEMENT = 7;

    /**
     * The most operations a scenario of {@link LincheckSupport#modelChecking()} holds (two before,
     * two threads of three, two after): a table this large never refuses an offer there.
     */
    static final int MAX_OPERATIONS = 2 + 2 * 3 + 2;

    private final int capacity;
    private int size;
    private boolean closed;

    MultisetSpec(int capacity) {
        this.capacity = capacity;
    }

    public boolean offer() {
        if (closed || size == capacity) {
            return false; // closed: refused, as BlockingQueue.offer reports it
        }
        size++;
        return true;
    }

    public Integer poll() {
        if (size == 0) {
            return null;
        }
        size--;
        return ELEMENT;
    }

    public int size() {
        return size;
    }

    public int remainingCapacity() {
        return capacity - size;
    }

    public void close() {
        closed = true;
    }

    /** Room for every offer of a generated scenario: {@link #MAX_OPERATIONS}. */
    public static class Roomy extends MultisetSpec {
        public Roomy() {
            super(MAX_OPERATIONS);
        }
    }

    /** Capacity 2: full and empty both reached in a few operations. */
    public static class OfTwo extends MultisetSpec {
        public OfTwo() {
            super(2);
        }
    }
}
