/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.AbstractQueue;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Predicate;

/**
 * The parts of the {@link Handoff} contract that every kind keeps the same way: argument checks,
 * the snapshot iterator built on {@link #toArray()}, and the counters.
 *
 * <p>A subclass provides the queue operations, {@link #toArray()}, {@link #remove(Object)} and
 * {@link #drainTo(Collection, int)} under its own synchronization; the methods here never touch
 * shared state themselves.
 *
 * @param <E> the type of elements held
 */
abstract class AbstractHandoff<E> extends AbstractQueue<E> implements Handoff<E> {

    /** This handoff's counters; {@link Counters#DISABLED} unless counting was asked for. */
    final Counters counters;

    AbstractHandoff(boolean countStats) {
        this.counters = Counters.of(countStats);
    }

    // ---- argument checks shared by every kind ----

    /** Rejects a capacity of zero or less, naming the kind. */
    static int checkCapacity(int capacity, String kind) {
        if (capacity <= 0) {
            throw new IllegalArgumentException(kind + " capacity must be > 0, was " + capacity);
        }
        return capacity;
    }

    /**
     * Rejects a capacity of zero or less, or above {@code max}, before anything is allocated;
     * names the kind and the constant that states its limit ({@code limitName}).
     */
    static int checkCapacity(int capacity, int max, String limitName, String kind) {
        if (capacity > max) {
            throw new IllegalArgumentException(kind + " capacity must be at most " + limitName + " = " + max
                    + ", was " + capacity);
        }
        return checkCapacity(capacity, kind);
    }

    /** Rejects a null element: no handoff holds null, since null means "nothing" to poll. */
    static <T> T checkElement(T e) {
        return Objects.requireNonNull(e, "a handoff does not accept null elements");
    }

    /**
     * Checks drainTo's target: not null and not this handoff.
     */
    final void checkDrainTarget(Collection<? super E> target) {
        Objects.requireNonNull(target, "drainTo target");
        if (target == this) {
            throw new IllegalArgumentException("cannot drain a handoff into itself");
        }
    }

    /** The exception every inserting method throws after close. */
    final HandoffClosedException closedToInserts() {
        return new HandoffClosedException(getClass().getSimpleName() + " is closed: element refused");
    }

    /** The exception take() throws once the handoff is closed and empty. */
    final HandoffClosedException closedAndEmpty() {
        return new HandoffClosedException(getClass().getSimpleName() + " is closed and empty");
    }

    // ---- BlockingQueue methods every kind shares ----

    @Override
    public final int drainTo(Collection<? super E> target) {
        return drainTo(target, Integer.MAX_VALUE);
    }

    @Override
    public final HandoffStats stats() {
        return counters.snapshot();
    }

    /**
     * Returns a weakly consistent iterator: it walks a snapshot of the elements taken when it was
     * created, never throws {@link java.util.ConcurrentModificationException}, and its
     * {@code remove()} removes the element it last returned if that element is still inside.
     */
    @Override
    public Iterator<E> iterator() {
        return new SnapshotIterator();
    }

    /**
     * Returns a spliterator over a snapshot, like {@link #iterator()}. It reports
     * {@link Spliterator#CONCURRENT} and {@link Spliterator#NONNULL}, and
     * {@link Spliterator#ORDERED} for a FIFO kind; never {@link Spliterator#SIZED}, since the
     * handoff's size may change under it.
     */
    @Override
    public Spliterator<E> spliterator() {
        // Not Collection's default: that one reads size() apart from the iterator's snapshot and
        // reports SIZED, so stream().toArray() of a handoff that others change threw
        // IllegalStateException ("End size 0 is less than fixed size 8").
        int characteristics = Spliterator.CONCURRENT | Spliterator.NONNULL
                | (ordering() == Ordering.FIFO ? Spliterator.ORDERED : 0);
        return Spliterators.spliteratorUnknownSize(iterator(), characteristics);
    }

    /** Subclasses return a consistent copy of their elements, in the order they would leave. */
    @Override
    public abstract Object[] toArray();

    @Override
    @SuppressWarnings("unchecked")
    public final <T> T[] toArray(T[] a) {
        Objects.requireNonNull(a, "array");
        Object[] snapshot = toArray();
        int n = snapshot.length;
        if (a.length < n) {
            return (T[]) Arrays.copyOf(snapshot, n, a.getClass());
        }
        System.arraycopy(snapshot, 0, a, 0, n);
        if (a.length > n) {
            a[n] = null;
        }
        return a;
    }

    /**
     * Removes one element equal to {@code o}: for a FIFO kind the first in the order they would
     * leave.
     */
    @Override
    public boolean remove(Object o) {
        return o != null && removeFirst(o::equals);
    }

    /**
     * Removes one element for which {@code match} holds, under the subclass's own
     * synchronization: for a FIFO kind the first in the order they would leave.
     *
     * @return whether an element was removed
     */
    abstract boolean removeFirst(Predicate<Object> match);

    /** An iterator over a snapshot; see {@link #iterator()}. */
    private final class SnapshotIterator implements Iterator<E> {
        private final Object[] snapshot = toArray();
        private int next;
        private Object lastReturned;

        @Override
        public boolean hasNext() {
            return next < snapshot.length;
        }

        @Override
        @SuppressWarnings("unchecked")
        public E next() {
            if (next >= snapshot.length) {
                throw new NoSuchElementException();
            }
            lastReturned = snapshot[next++];
            return (E) lastReturned;
        }

        @Override
        public void remove() {
            if (lastReturned == null) {
                throw new IllegalStateException("next() has not been called, or remove() already was");
            }
            Object returned = lastReturned;
            removeFirst(e -> e == returned); // this very element, not one equal to it
            lastReturned = null;
        }
    }
}
