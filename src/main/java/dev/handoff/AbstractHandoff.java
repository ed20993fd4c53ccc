/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.waiting.AfterClose;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.observe.HandoffReader;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.io.Serializable;
import java.util.AbstractQueue;
import java.util.Arrays;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The parts of the {@link Handoff} contract that every kind keeps the same way: argument checks,
 * the snapshot iterator built on {@link #toArray()}, and the counters.
 *
 * <p>A subclass provides the queue operations, {@link #toArray()}, {@code removeFirst},
 * {@code removeMatching} and {@link #drainTo(Collection, int)} under its own synchronization; the
 * methods here never touch shared state themselves. The bulk removals ({@code removeIf},
 * {@code removeAll}, {@code retainAll}) remove through {@code removeMatching}, never through the
 * iterator, so that they count only what they removed. The batch takes wait through the kind's
 * own {@code take}/{@code poll(timeout)} and move the rest through its {@code drainTo}; every kind
 * serializes through one {@link SerializationProxy}.
 *
 * @param <E> the type of elements held
 */
abstract class AbstractHandoff<E> extends AbstractQueue<E> implements Handoff<E>, Serializable {
    /*
     * Serialization. No kind's fields are ever written: writeReplace substitutes a
     * SerializationProxy (Bloch's serialization proxy pattern, Effective Java, 3rd ed., item 90),
     * whose readResolve builds the kind anew from its spec string, so that every invariant of a
     * kind is established by its constructor and its own inserts, never by field values read from
     * a stream. readObject refuses a stream that names a kind's class directly. The kinds
     * therefore declare no serialVersionUID: only the proxy's class appears in a stream.
     */

    static {
        // Before any handoff exists (every kind, and every handoff that parks, is or wraps one of
        // these): the JFR events read the handoffs they are given as Objects through it.
        HandoffReader.install(new ContractReader());
    }

    /** This handoff's counters; {@link Counters#DISABLED} unless counting was asked for. */
    final Counters counters;

    AbstractHandoff(boolean countStats) {
        this.counters = Counters.of(countStats);
    }

    // ---- argument checks shared by every kind ----

    /**
     * The spec a handoff keeps, back from the canonical string it keeps it as. A handoff keeps its
     * spec as that string, not as the record: a record reachable from a handoff stops tools that
     * walk its objects by field offset (Lincheck's model checker: the JDK gives no offset of a
     * record's field), and the string parses back to an equal record.
     */
    static <S extends HandoffSpec> S specOf(String canonical, Class<S> type) {
        return type.cast(HandoffSpec.parse(canonical));
    }

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

    /** The exception put, add and addAll throw after close; offer returns false instead. */
    final HandoffClosedException closedToInserts() {
        return new HandoffClosedException(getClass().getSimpleName() + " is closed: element refused");
    }

    /** The exception take() throws once the handoff is closed and empty. */
    final HandoffClosedException closedAndEmpty() {
        return new HandoffClosedException(getClass().getSimpleName() + " is closed and empty");
    }

    // ---- closed ----

    /** Throws {@link #closedToInserts()} once the handoff is closed: the check every insert makes first. */
    final void ensureOpen() {
        if (isClosed()) {
            throw closedToInserts();
        }
    }

    /**
     * The exception put throws once the handoff is closed: {@link #closedToInserts()}, except to
     * a pool's own code, which gets a {@link java.util.concurrent.RejectedExecutionException}
     * caused by it ({@link AfterClose#refusePut}). Walks the stack: call it only once closed.
     */
    final RuntimeException closedToPut() {
        return AfterClose.refusePut(closedToInserts());
    }

    /** Throws {@link #closedToPut()} once the handoff is closed: the check put makes. */
    final void ensureOpenToPut() {
        if (isClosed()) {
            throw closedToPut();
        }
    }

    /**
     * What take() does once the handoff is closed and empty, called holding no lock: throws
     * {@link HandoffClosedException}, except to a pool's own code, which waits until it is
     * interrupted ({@link AfterClose#takeWhenClosedAndEmpty}).
     *
     * @return never
     */
    final E takeWhenClosedAndEmpty() throws InterruptedException {
        return AfterClose.takeWhenClosedAndEmpty(this, closedAndEmpty());
    }

    // ---- the timed take and the timed poll: one wait, two answers to a close ----

    /**
     * The kind's timed wait for an element: returns it, or {@code null} when {@code nanos} ran
     * out or once the handoff is closed and empty, at once, waking a waiter at the close. Throws
     * {@link InterruptedException} if the thread is interrupted on entry or while it waits; a
     * {@code nanos <= 0} never waits. {@link #take(long, TimeUnit)} and
     * {@link #poll(long, TimeUnit)} are built on it.
     */
    abstract E timedTake(long nanos) throws InterruptedException;

    /**
     * {@inheritDoc}
     *
     * <p>Implemented once for every kind over its {@code timedTake}: a {@code null} from it on a
     * closed handoff is checked with {@link #poll()}, which hands out an element still inside
     * (one that a concurrent consumer did not take first); if none is, the handoff is closed and
     * empty, for good.
     */
    @Override
    public E take(long timeout, TimeUnit unit) throws InterruptedException {
        E e = timedTake(unit.toNanos(timeout));
        if (e != null || !isClosed()) {
            return e; // an element, or the time ran out on an open handoff
        }
        e = poll();
        if (e == null) {
            throw closedAndEmpty();
        }
        return e;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Implemented once for every kind over its {@code timedTake}: once that finds the handoff
     * closed and empty before the deadline, the rest of the timeout is waited out
     * ({@link AfterClose#waitOut}), holding no lock.
     */
    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        long deadline = System.nanoTime() + nanos; // may wrap for a huge timeout: only differences are read
        E e = timedTake(nanos);
        if (e != null || nanos <= 0L || !isClosed()) {
            return e;
        }
        return AfterClose.waitOut(this, deadline); // closed and empty: nothing can come
    }

    /**
     * Inserts e if that is possible now, as {@link #offer(Object)} does, and throws otherwise.
     *
     * @throws HandoffClosedException if the handoff is closed
     * @throws IllegalStateException if it has no room now (for the pipe: no worker waits)
     * @throws NullPointerException if e is null
     */
    @Override
    public boolean add(E e) {
        if (offer(e)) {
            return true;
        }
        if (isClosed()) {
            throw closedToInserts(); // not AbstractQueue's "Queue full": closed is final, full is not
        }
        throw new IllegalStateException("Queue full");
    }

    // ---- BlockingQueue methods every kind shares ----

    @Override
    public final int drainTo(Collection<? super E> target) {
        return drainTo(target, Integer.MAX_VALUE);
    }

    @Override
    public HandoffStats stats() {
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
        // Not Collection's default: it reports SIZED from a size() read apart from the snapshot,
        // and stream().toArray() throws IllegalStateException when the two differ.
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

    /** What {@link #oldestStamp} returns when it finds no stamped element. */
    static final long NO_STAMP = Long.MAX_VALUE;

    /**
     * The earliest stamp among the elements at the front of this handoff, for the age of the
     * oldest element inside ({@link HandoffStats.SojournTimes#oldestAgeNanos()}). Read without
     * the kind's locks and without waiting: weakly consistent, like a weakly consistent iterator,
     * so an element inserted or removed meanwhile may or may not be looked at. A FIFO kind looks
     * from its head and stops at the first element with a stamp; the hash table, unordered,
     * looks at every slot; importance classes look at each class. A racy read may see an element
     * just taken: every stamp is an immutable object's final field, so what it reads is whole.
     *
     * @param stampOf an element's stamp, or {@link #NO_STAMP} for an element without one
     * @return the least stamp seen, or {@link #NO_STAMP} if none
     */
    abstract long oldestStamp(ToLongFunction<Object> stampOf);

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

    /**
     * Removes, in one pass under the subclass's own synchronization, every element inside for
     * which {@code match} holds, asking {@code match} once per element. An element that a
     * consumer takes during the pass is not removed and not counted. If {@code match} throws,
     * each element is still either inside or removed, and the exception is relayed.
     *
     * @return how many elements this call removed
     */
    abstract int removeMatching(Predicate<Object> match);

    /**
     * Removes the elements for which {@code filter} holds, and returns {@code true} only if this
     * call removed at least one. The filter is asked about a snapshot of the elements (see
     * {@link #iterator()}) while no lock is held; then each accepted element that is still inside
     * is removed, in one pass, by the same removal as {@link #remove(Object)}. An accepted
     * element that another thread takes before that pass goes to that thread and is not counted
     * here: every element has one owner. If the filter throws, nothing is removed and the
     * exception is relayed.
     *
     * @throws NullPointerException if {@code filter} is null
     */
    @Override
    public boolean removeIf(Predicate<? super E> filter) {
        Objects.requireNonNull(filter, "filter");
        return removeAccepted(filter);
    }

    /**
     * Removes the elements that {@code c} contains, as {@link #removeIf} does with
     * {@code c::contains}; returns {@code true} only if this call removed at least one.
     *
     * @throws NullPointerException if {@code c} is null
     */
    @Override
    public boolean removeAll(Collection<?> c) {
        Objects.requireNonNull(c, "collection");
        return removeAccepted(c::contains);
    }

    /**
     * Removes the elements that {@code c} does not contain, as {@link #removeIf} does; returns
     * {@code true} only if this call removed at least one.
     *
     * @throws NullPointerException if {@code c} is null
     */
    @Override
    public boolean retainAll(Collection<?> c) {
        Objects.requireNonNull(c, "collection");
        return removeAccepted(e -> !c.contains(e));
    }

    /** The bulk removals: ask about a snapshot with no lock held, then remove what is left of it. */
    @SuppressWarnings("unchecked")
    private boolean removeAccepted(Predicate<? super E> filter) {
        Accepted accepted = new Accepted();
        for (Object e : toArray()) {
            if (filter.test((E) e)) {
                accepted.add(e);
            }
        }
        return !accepted.isEmpty() && removeMatching(accepted) > 0;
    }

    /**
     * The element instances a bulk removal's filter accepted, each as many times as the snapshot
     * held it. As the removal pass's match it says yes to an instance at most that many times, so
     * that a copy put in after the snapshot, which the filter never saw, is left inside. Used by
     * one thread only.
     */
    private static final class Accepted implements CountingMatch {
        /** Instance to how many of its copies may still be removed; identity, not equals. */
        private final IdentityHashMap<Object, int[]> copies = new IdentityHashMap<>();

        void add(Object e) {
            copies.computeIfAbsent(e, k -> new int[1])[0]++;
        }

        boolean isEmpty() {
            return copies.isEmpty();
        }

        @Override
        public boolean test(Object e) {
            if (!wouldAccept(e)) {
                return false;
            }
            copies.get(e)[0]--;
            return true;
        }

        @Override
        public boolean wouldAccept(Object e) {
            int[] left = copies.get(e);
            return left != null && left[0] > 0;
        }
    }

    /**
     * A removal's match whose test counts each yes as a removal (a bulk removal's, Accepted), and
     * which can also be asked without counting. A wrapper of such a match must be one too.
     */
    interface CountingMatch extends Predicate<Object> {
        /** Whether test(e) would say yes now, without counting e as removed. */
        boolean wouldAccept(Object e);
    }

    /**
     * Whether a removal's match accepts e, asked without counting e as removed: a
     * {@link CountingMatch} counts each yes; every other match is a pure test.
     */
    static boolean wouldAccept(Predicate<Object> match, Object e) {
        return match instanceof CountingMatch counting ? counting.wouldAccept(e) : match.test(e);
    }

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

    // ---- batch takes: wait as take()/poll(timeout) do, move the rest as drainTo does ----

    /**
     * {@inheritDoc}
     *
     * <p>Implemented once for every kind: {@link #drainTo(Collection, int)} first, which moves the
     * elements inside under the kind's own synchronization; if it finds none, the kind's
     * {@link #take()} for one, and its {@code drainTo} for up to {@code max - 1} more.
     */
    @Override
    public final int take(Collection<? super E> into, int max) throws InterruptedException {
        checkDrainTarget(into);
        return takeBatch(into, max, false, 0L, null);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Implemented once for every kind, as {@link #take(Collection, int)} is, with the kind's
     * timed {@link #poll(long, TimeUnit)} for the first element.
     */
    @Override
    public final int poll(Collection<? super E> into, int max, long timeout, TimeUnit unit)
            throws InterruptedException {
        checkDrainTarget(into);
        Objects.requireNonNull(unit, "unit");
        return takeBatch(into, max, true, timeout, unit);
    }

    /**
     * The batch takes: moves what is inside, or waits for one element as take() (untimed) or the
     * timed poll does and then moves up to {@code max - 1} more. Throws if the caller is
     * interrupted on entry, even when elements are inside, as take() does.
     *
     * @return how many elements were moved; 0 when {@code max <= 0} (nothing to wait for), or
     *         when timed and the time ran out, or the handoff is closed and empty
     */
    private int takeBatch(Collection<? super E> into, int max, boolean timed, long timeout, TimeUnit unit)
            throws InterruptedException {
        if (max <= 0) {
            return 0; // as drainTo: nothing to move, so nothing to wait for
        }
        if (Thread.interrupted()) {
            throw new InterruptedException(); // as take(): even when an element is inside
        }
        int moved = drainTo(into, max);
        if (moved > 0) {
            return moved;
        }
        E first = timed ? poll(timeout, unit) : take();
        if (first == null) {
            return 0; // timed out, or closed and empty
        }
        deliverWaitedFor(first, into);
        return 1 + drainTo(into, max - 1);
    }

    /**
     * Adds the element a batch take waited for to {@code into}. If the add throws, the element is
     * offered back, and if this handoff refuses it, attached to the exception: it is never lost.
     */
    private void deliverWaitedFor(E first, Collection<? super E> into) {
        try {
            into.add(first);
        } catch (RuntimeException | Error refused) {
            if (!offerBack(first)) {
                refused.addSuppressed(new UndeliveredElementException(first));
            }
            throw refused;
        }
    }

    /** Offers e back after a target refused it; false if this handoff did not take it, for any reason. */
    private boolean offerBack(E e) {
        try {
            return offer(e);
        } catch (RuntimeException classifierThrew) { // with importance classes, offer asks the classifier again
            return false;
        }
    }

    // ---- serialization ----

    /**
     * The classifier of a handoff with importance classes, or null for a handoff without them;
     * what the serialized form keeps besides the spec.
     */
    Classifier<?> classifier() {
        return null;
    }

    /**
     * Replaces this handoff by its serialized form; see "Serialization" in {@link Handoff}.
     *
     * @return the proxy that stands for this handoff in the stream
     * @throws java.io.NotSerializableException if it has a classifier that is not serializable
     */
    final Object writeReplace() throws ObjectStreamException {
        return SerializationProxy.of(this);
    }

    /**
     * Refuses a stream that holds a kind's fields: only the proxy's form is valid.
     *
     * @throws InvalidObjectException always
     */
    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("proxy required");
    }
}
