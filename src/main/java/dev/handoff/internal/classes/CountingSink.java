/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.classes;

import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Iterator;

/**
 * A drain's target as the classes see it: passes each element on to the caller's target and
 * counts those it accepted, so that a drain over several classes knows how many left each one,
 * also when the target throws midway. Used by one thread only.
 *
 * @param <E> the type of elements passed on
 */
public final class CountingSink<E> extends AbstractCollection<E> {
    private final Collection<? super E> target;
    private int added;

    /** @param target the caller's target */
    public CountingSink(Collection<? super E> target) {
        this.target = target;
    }

    @Override
    public boolean add(E e) {
        target.add(e); // if this throws, the class's drainTo keeps e inside
        added++;
        return true;
    }

    /** How many elements the target accepted so far. */
    public int added() {
        return added;
    }

    @Override
    public Iterator<E> iterator() {
        throw new UnsupportedOperationException("a drain's sink is written only");
    }

    @Override
    public int size() {
        return added;
    }
}
