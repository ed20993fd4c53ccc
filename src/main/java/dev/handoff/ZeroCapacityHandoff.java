/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.Collection;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The part of the {@code BlockingQueue} contract that a handoff of capacity zero answers without
 * looking: nothing is ever inside, so it is always empty, nothing can be found, removed or
 * drained. {@link PipeHandoff} extends it, as {@link java.util.concurrent.SynchronousQueue}
 * answers these calls.
 *
 * @param <E> the type of elements handed over
 */
abstract class ZeroCapacityHandoff<E> extends AbstractHandoff<E> {

    ZeroCapacityHandoff(boolean countStats) {
        super(countStats);
    }

    /** Returns 0: nothing is ever inside. */
    @Override
    public int size() {
        return 0;
    }

    /** Returns {@code true}: nothing is ever inside. */
    @Override
    public boolean isEmpty() {
        return true;
    }

    /** Returns {@code null}: nothing is ever inside. */
    @Override
    public E peek() {
        return null;
    }

    /** Returns {@code false}: nothing is ever inside. */
    @Override
    public boolean contains(Object o) {
        return false;
    }

    /** Returns {@code false}: nothing is ever inside. */
    @Override
    boolean removeFirst(Predicate<Object> match) {
        return false;
    }

    /** Returns 0: nothing is ever inside. */
    @Override
    int removeMatching(Predicate<Object> match) {
        return 0;
    }

    /** Does nothing: nothing is ever inside. */
    @Override
    public void clear() {
    }

    /** Returns an empty array: nothing is ever inside. */
    @Override
    public Object[] toArray() {
        return new Object[0];
    }

    /** Returns {@link #NO_STAMP}: nothing is ever inside. */
    @Override
    final long oldestStamp(ToLongFunction<Object> stampOf) {
        return NO_STAMP;
    }

    /** Moves nothing and returns 0: nothing is ever inside. */
    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        return 0;
    }
}
