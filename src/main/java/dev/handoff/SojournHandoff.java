/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.observe.SojournHistogram;

import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A buffered handoff that records how long each element stays inside: the {@code sojourn} option
 * ({@link SojournSpec}). It is the kind its spec names, with or without importance
 * classes, and keeps that kind's whole contract (ordering, capacity, blocking, close,
 * serialization); what it adds is {@link HandoffStats#sojourn()}, whose Javadoc says what is timed.
 *
 * <p>The pipe holds nothing, so no element stays to be timed: the spec refuses it.
 *
 * @param <E> the type of elements held
 */
final class SojournHandoff<E> extends AbstractHandoff<E> {
    /*
     * Implementation notes.
     *
     * A decorator. The inner handoff, built from the spec without the option, holds Stamped
     * elements: the caller's element and System.nanoTime() read just before the insert.
     *
     *   offer, put, timed offer ---- stamp ---->  [ inner kind: Stamped(e, t) ... ]
     *   take, poll, timed poll, drainTo <-- unwrap, record now - t --
     *   peek, toArray, iterator, contains, remove(o), removeIf, clear: unwrap, record nothing
     *
     * add and addAll reach offer through AbstractHandoff; the batch takes are AbstractHandoff's,
     * built on take, the timed poll and drainTo, so they are timed by those. Every match on an
     * element (remove(Object), contains, the bulk removals, the iterator's remove) tests the
     * element, never the stamp, through the inner kind's removeFirst and removeMatching, so each
     * element is still in exactly one place and removed under the kind's own synchronization. A
     * stamp's hashCode is its element's, so that pht's key=hash starts the probe where the
     * element would.
     *
     * What a time includes: the stamp is read before the inner insert begins, so a put that
     * waits for room counts its wait (a decorator cannot read the clock inside the kind, at the
     * moment the element goes in); the end is read after the inner removal returned.
     *
     * Visibility between writers and readers is provided as follows: insertedAt is a final field
     * written before the stamp is inserted, and the inner handoff's BlockingQueue guarantee (the
     * insert happens-before the removal of that element) makes it visible to the consumer that
     * unwraps it. The histogram is safe for any number of recording threads (SojournHistogram).
     *
     * The oldest element's age: stats() asks the inner kind for the least stamp among the
     * elements at its front (AbstractHandoff.oldestStamp, read without the kind's locks) and
     * subtracts it from the clock. A stamp read in a race is whole: insertedAt is final.
     *
     * Counting: the inner handoff counts puts, takes, waits and probes, built with the spec's
     * stats; this handoff's own counters stay off, and stats() adds the histogram to the inner
     * snapshot. The periodic JFR event names the handoff the caller holds, this one (the spec
     * registers only what it returns); dev.handoff.Wait events name the inner one, which parks.
     */

    /** The kind of the spec, holding stamped elements; counts if the spec counts. */
    private final AbstractHandoff<Stamped<E>> inner;

    /** The spec this handoff was built from, sojourn included, canonical (AbstractHandoff.specOf). */
    private final String spec;

    /** The caller's classifier with importance classes, null without: what serialization keeps. */
    private final Classifier<? super E> classifier;

    /** The times of the elements handed to consumers. */
    private final SojournHistogram times = new SojournHistogram();

    /** An element and the time it was inserted. Immutable. */
    private static final class Stamped<E> {
        final E element;
        final long insertedAt;

        Stamped(E element, long insertedAt) {
            this.element = element;
            this.insertedAt = insertedAt;
        }

        /** The element's: a kind that keys by hash code ({@code key=hash}) sees the element's key. */
        @Override
        public int hashCode() {
            return element.hashCode();
        }
    }

    private SojournHandoff(HandoffSpec spec, AbstractHandoff<Stamped<E>> inner, Classifier<? super E> classifier) {
        super(false);
        this.spec = spec.toString();
        this.inner = inner;
        this.classifier = classifier;
    }

    /** Builds the handoff under the recorder: the spec's kind and classes, holding stamps. */
    @FunctionalInterface
    interface Inner {
        /**
         * @param classifier the classes' classifier, null without classes
         * @return the kind, with the spec's classes, unregistered
         */
        <T> AbstractHandoff<T> build(Classifier<? super T> classifier);
    }

    /**
     * Builds the handoff of a spec with sojourn times recorded, around the kind and classes that
     * {@code inner} builds; each stamp is classified by its element.
     *
     * @param spec the whole spec, sojourn included: what {@link #spec()} returns
     * @param classifier the classes' classifier, null without classes
     */
    static <E> SojournHandoff<E> around(HandoffSpec spec, Classifier<? super E> classifier, Inner inner) {
        Classifier<Stamped<E>> ofElement = classifier == null ? null : s -> classifier.classOf(s.element);
        return new SojournHandoff<>(spec, inner.build(ofElement), classifier);
    }

    // ---- in: stamp ----

    private static <E> Stamped<E> stamp(E e) {
        return new Stamped<>(checkElement(e), System.nanoTime());
    }

    @Override
    public boolean offer(E e) {
        return inner.offer(stamp(e));
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        return inner.offer(stamp(e), timeout, unit);
    }

    @Override
    public void put(E e) throws InterruptedException {
        inner.put(stamp(e));
    }

    // ---- out to a consumer: unwrap and record ----

    /** Records how long s stayed and returns its element; null (nothing taken) stays null. */
    private E handOut(Stamped<E> s) {
        if (s == null) {
            return null;
        }
        long now = System.nanoTime();
        times.record(now - s.insertedAt, now);
        return s.element;
    }

    @Override
    public E poll() {
        return handOut(inner.poll());
    }

    @Override
    public E take() throws InterruptedException {
        return handOut(inner.take());
    }

    @Override
    E timedTake(long nanos) throws InterruptedException {
        return handOut(inner.timedTake(nanos));
    }

    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        return inner.drainTo(new HandingOut(target), maxElements);
    }

    /**
     * The inner drain's target: passes each element on to the caller's target and records it
     * once the target took it. Used by the draining thread only.
     */
    private final class HandingOut extends AbstractCollection<Stamped<E>> {
        private final Collection<? super E> target;

        HandingOut(Collection<? super E> target) {
            this.target = target;
        }

        @Override
        public boolean add(Stamped<E> s) {
            target.add(s.element); // if this throws, the inner drainTo keeps s inside
            handOut(s);
            return true;
        }

        @Override
        public Iterator<Stamped<E>> iterator() {
            throw new UnsupportedOperationException("a drain's target is written only");
        }

        @Override
        public int size() {
            throw new UnsupportedOperationException("a drain's target is written only");
        }
    }

    // ---- looking and removing: the element, never the stamp; nothing recorded ----

    /** The element of a stamp the inner handoff holds. */
    private static Object elementOf(Object stamped) {
        return ((Stamped<?>) stamped).element;
    }

    private static Predicate<Object> byElement(Predicate<Object> match) {
        return new CountingMatch() { // asked without counting as the match it wraps is (ClassedHandoff)
            @Override
            public boolean test(Object s) {
                return match.test(elementOf(s));
            }

            @Override
            public boolean wouldAccept(Object s) {
                return AbstractHandoff.wouldAccept(match, elementOf(s));
            }
        };
    }

    @Override
    public E peek() {
        Stamped<E> s = inner.peek();
        return s == null ? null : s.element;
    }

    @Override
    public Object[] toArray() {
        Object[] stamps = inner.toArray();
        for (int i = 0; i < stamps.length; i++) {
            stamps[i] = elementOf(stamps[i]);
        }
        return stamps;
    }

    @Override
    public boolean contains(Object o) {
        if (o == null) {
            return false;
        }
        for (Object s : inner.toArray()) {
            if (o.equals(elementOf(s))) {
                return true;
            }
        }
        return false;
    }

    @Override
    boolean removeFirst(Predicate<Object> match) {
        return inner.removeFirst(byElement(match));
    }

    @Override
    int removeMatching(Predicate<Object> match) {
        return inner.removeMatching(byElement(match));
    }

    @Override
    public void clear() {
        inner.clear();
    }

    // ---- the rest is the inner kind's ----

    @Override
    public int size() {
        return inner.size();
    }

    @Override
    public boolean isEmpty() {
        return inner.isEmpty();
    }

    @Override
    public int remainingCapacity() {
        return inner.remainingCapacity();
    }

    @Override
    public int capacity() {
        return inner.capacity();
    }

    @Override
    public Ordering ordering() {
        return inner.ordering();
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public boolean isClosed() {
        return inner.isClosed();
    }

    @Override
    public HandoffSpec spec() {
        return specOf(spec, HandoffSpec.class);
    }

    /** The inner handoff's counters, with the sojourn times of this one and its oldest element's age. */
    @Override
    public HandoffStats stats() {
        HandoffStats counted = inner.stats();
        long oldest = inner.oldestStamp(SojournHandoff::stampOf);
        long age = oldest == NO_STAMP ? 0L : System.nanoTime() - oldest;
        return counted.withSojourn(times.snapshot(age));
    }

    /** The insert time of a stamp the inner handoff holds. */
    private static long stampOf(Object stamped) {
        return ((Stamped<?>) stamped).insertedAt;
    }

    /**
     * The least stamp of the elements themselves, as the kind inside would give it. No handoff
     * holds this one (the option is outermost); stats() reads the insert times directly.
     */
    @Override
    long oldestStamp(ToLongFunction<Object> stampOf) {
        return inner.oldestStamp(s -> stampOf.applyAsLong(elementOf(s)));
    }

    @Override
    Classifier<?> classifier() {
        return classifier;
    }
}
