/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.ClassHandoffs;
import dev.handoff.internal.classes.CountingSink;
import dev.handoff.internal.classes.ImportanceClasses;
import dev.handoff.internal.guard.HolderGuard;
import dev.handoff.internal.waiting.Spinner;

import java.util.Collection;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A buffered handoff with importance classes: {@code K > 1} handoffs of one kind, one per class,
 * behind one {@link Handoff}. {@link Handoffs#create(String)} builds it for the options
 * {@code classes=K} and {@code fair=N} on a circular buffer, a lock-split queue or a parallel hash
 * table ({@link HandoffSpec.Classed}); with {@code K = 1} the spec builds the kind itself.
 *
 * <p>The contract is stated once, for users, in {@link Importance}: which class a take serves
 * (the rule of {@link ImportanceClasses}) and its bound of one take in {@code K * N} for a class
 * that stays non-empty; capacity per class, so that a producer waits only while its own class is
 * full and {@link #capacity()} is {@code K} times the capacity of a class; ordering
 * {@code UNORDERED}; {@code peek}, {@code toArray} and the iterator listing the classes most
 * important first; {@code drainTo} moving whole classes in the order of a take (and counting as
 * one take); close as for every kind. Within a class the kind's own order and guarantees hold.
 * {@link #stats()} counts puts, takes and waits; {@code producerWaits} counts inserts that found
 * their class full.
 *
 * <p>See {@link Handoff} for interruption, iteration and memory-consistency effects.
 *
 * @param <E> the type of elements held
 */
final class ClassedHandoff<E> extends ReservingHandoff<E> {
    /*
     * Implementation notes.
     *
     * Composition: K handoffs of the chosen kind, one per class, each with a count of the
     * elements published into it (ClassHandoffs), and one count of the elements consumers may
     * take, the closable reservation count takeable (Reservations: available, pending, closed in
     * one word; spin, then park, with a waiter count).
     *
     *   classes[0]  [ a0 a1 ]           most important      producers of class c wait inside
     *   classes[1]  [ b0 ]                                   classes[c] (its own put), so only
     *   classes[2]  [ c0 c1 c2 c3 ]      least important     while class c is full
     *   takeable       (closed | pending | available = 7)      consumers wait here, for any class
     *
     *   put:  classify -> announce (pending++ unless closed) -> insert into classes[c]
     *         (waiting there while it is full) -> count it in class c -> publish (pending--,
     *         available++)
     *   take: acquire (available--, waiting while none) -> poll the classes in the order the
     *         take rule gives (ImportanceClasses) until one yields
     *
     * Why the take then finds an element (the elements inside never fall below what the
     * reservations promise, and each failed lap implies another thread's completed take) is
     * argued in ClassHandoffs, beside the lap.
     *
     * Waiting. Consumers wait only in takeable (its Dekker pair on state and waiters excludes lost
     * wake-ups: see Reservations); producers wait only in their class's own put, whose kind
     * excludes lost wake-ups on its side. A consumer's poll frees room in its class, and the kind
     * wakes that class's producers.
     *
     * Close. close() closes takeable first (the linearization point: no announce succeeds after it),
     * then every class, which wakes producers waiting there; they undo their announce (settle)
     * and refuse. An insert that announced before the close either completes into its class and
     * publishes, or finds the class closed and undoes. A consumer reports closed and empty only
     * when takeable is closed with nothing available and nothing pending, read in one word: no
     * element is inside unreserved and none can still arrive. remove and drainTo hold their
     * reservations as pending while they may hand them back, so that nobody reports the handoff
     * empty meanwhile.
     *
     * Calls back: a remove or drainTo from the code a drainTo or remove runs while holding
     * reservations is refused (HolderGuard says why); takes wait as on an empty handoff.
     *
     * Visibility between writers and readers is provided as follows: an element travels through
     * its class's handoff, whose own memory-consistency guarantee (a BlockingQueue's) orders the
     * producer's writes before the consumer's use of it. The reservation word adds what the
     * guarantee above needs: the publish (a volatile getAndAdd) follows the insert in program
     * order, and the consumer's acquiring CAS reads it, so the consumer's polls happen-after the
     * insert and see the element unless another consumer took it.
     */

    /** Builds the handoff of one class: a new, empty, open handoff of the chosen kind, counting nothing. */
    @FunctionalInterface
    interface Kind<E> {
        /** @return a new handoff of the per-class capacity */
        Handoff<E> newClass();
    }

    /** One handoff per class, index 0 the most important. Each counts nothing (this one counts). */
    private final AbstractHandoff<E>[] classes;

    /** The same handoffs with their counts per class and the take rule: where consumers take. */
    private final ClassHandoffs<E> byClass;

    /** The spec this handoff was built from, the classes over a kind, canonical (AbstractHandoff.specOf). */
    private final String spec;

    /** K, N, the classifier and the take rule. */
    private final ImportanceClasses<E> importance;

    /** K times the capacity of one class. */
    private final int capacity;

    /** Refuses a remove or drainTo from the code that a remove or drainTo calls (see the notes). */
    private final HolderGuard holders = new HolderGuard();

    /** What {@link #insert} did with its element. */
    private static final int INSERTED = 0, CLOSED = 1, TIMED_OUT = 2;

    /**
     * Creates a handoff of {@code importance.count()} classes, {@code K > 1}; with one class the
     * spec builds the kind itself.
     *
     * @param spec the classes over a kind (not over a {@link SojournSpec}): what {@link #spec()} returns
     * @param importance the classes and their classifier
     * @param kind builds the handoff of one class, of the spec's capacity
     * @throws IllegalArgumentException if K times the capacity exceeds {@code Integer.MAX_VALUE},
     *         or the kind builds a handoff of another capacity
     */
    @SuppressWarnings("unchecked")
    ClassedHandoff(HandoffSpec.Classed spec, ImportanceClasses<E> importance, Kind<E> kind) {
        super(spec.stats());
        int perClassCapacity = checkCapacity(spec.capacity(), "ClassedHandoff");
        long total = (long) importance.count() * perClassCapacity;
        if (total > Integer.MAX_VALUE) { // checked before any class is built: they could be huge
            throw new IllegalArgumentException(importance.count() + " classes of capacity " + perClassCapacity
                    + " hold " + total + " elements, more than Integer.MAX_VALUE");
        }
        this.spec = spec.toString();
        this.importance = importance;
        this.capacity = (int) total;
        this.classes = (AbstractHandoff<E>[]) new AbstractHandoff<?>[importance.count()];
        for (int c = 0; c < classes.length; c++) {
            Handoff<E> h = kind.newClass();
            if (!(h instanceof AbstractHandoff<E> own) || h.capacity() != perClassCapacity) {
                throw new IllegalArgumentException("a class must be one of this library's buffered handoffs"
                        + " of capacity " + perClassCapacity + ", was " + h.getClass().getName());
            }
            classes[c] = own;
        }
        this.byClass = new ClassHandoffs<>(classes, importance);
    }

    // ---- inserting: classify, announce, insert into the class, publish ----

    /**
     * Announces an insert: counts it pending unless the handoff is closed. The element's class
     * was computed before, so a classifier that throws leaves no trace.
     *
     * @return false if closed: the insert is refused
     */
    private boolean announce() {
        return takeable.announce();
    }

    /**
     * Ends an announced insert: publishes the element if it went in (after it is in its class,
     * so a consumer reserving it finds it), undoes the announce if it did not.
     */
    private void finishInsert(int c, boolean inserted) {
        if (inserted) {
            counters.countInsert();
            byClass.published(c); // before the publish: pairs with getAcquire in ClassHandoffs.mayHold
            takeable.publish();
        } else {
            takeable.settle(1);
        }
    }

    @Override
    public boolean offer(E e) {
        int c = importance.classOf(e);
        if (!announce()) {
            return false; // closed: refused, as by every kind's offer
        }
        boolean inserted = false;
        try {
            inserted = classes[c].offer(e);
        } catch (HandoffClosedException closedMeanwhile) {
            // the class closed after the announce: close() is under way, and refuses this insert
        } finally {
            finishInsert(c, inserted);
        }
        return inserted;
    }

    /**
     * Inserts as {@link #offer(Object)} does, but throws where the element was refused because
     * the handoff is closed or its class full, as {@code Queue.add} requires.
     *
     * @throws HandoffClosedException if the handoff is closed
     * @throws IllegalStateException if the element's class is full
     */
    @Override
    public boolean add(E e) {
        if (offer(e)) {
            return true;
        }
        if (isClosed()) {
            throw closedToInserts();
        }
        throw new IllegalStateException("the class of this element is full");
    }

    @Override
    public void put(E e) throws InterruptedException {
        if (insert(e, importance.classOf(e), false, 0L) == CLOSED) {
            throw closedToPut(); // the only way an untimed insert fails
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        int c = importance.classOf(e);
        return insert(e, c, true, unit.toNanos(timeout)) == INSERTED; // closed: refused, not thrown
    }

    /**
     * Inserts e into its class c, waiting in that class's own put (untimed) or timed offer while
     * the class is full; the timed form never waits when {@code nanos <= 0}. Throws if the
     * caller is interrupted on entry, even when there is room.
     *
     * @return INSERTED; CLOSED when this handoff is closed, or closes while it waits; TIMED_OUT
     * @throws InterruptedException if interrupted on entry or while waiting
     */
    private int insert(E e, int c, boolean timed, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!announce()) {
            return CLOSED;
        }
        boolean inserted = false;
        try {
            AbstractHandoff<E> own = classes[c];
            inserted = own.offer(e);
            if (!inserted && (!timed || nanos > 0L)) {
                counters.producerWait(); // class c is full: wait in its own put or timed offer
                if (timed) {
                    inserted = own.offer(e, nanos, TimeUnit.NANOSECONDS);
                } else {
                    own.put(e); // returns only once e is in
                    inserted = true;
                }
            }
        } catch (HandoffClosedException | RejectedExecutionException closedMeanwhile) {
            return CLOSED; // the class's put refuses as closedToPut() does; the caller names this handoff
        } finally {
            finishInsert(c, inserted);
        }
        return inserted ? INSERTED : TIMED_OUT;
    }

    // ---- removing ----

    /**
     * Takes the element a reservation guarantees, in the order of this take's number
     * (ClassHandoffs.takeReserved). Call only holding an item reservation.
     */
    @Override
    E removeReserved() {
        E e = byClass.takeReserved(takeable);
        counters.countRemoval();
        return e;
    }

    /**
     * Moves at most {@code maxElements}, and at most as many as a consumer could take when it
     * starts: whole classes in turn, in the order a take with this drain's number would look at
     * them, each by its kind's own {@code drainTo} (which moves only what that class holds when its
     * turn comes). Counts as one take of the fairness rule. If the target throws, the element it
     * refused is still inside, and so is every element not yet moved.
     */
    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        holders.check();
        int held = maxElements <= 0 ? 0 : takeable.tryAcquireHeld(maxElements);
        if (held == 0) {
            return 0;
        }
        CountingSink<E> sink = new CountingSink<>(target);
        holders.hold();
        try {
            byClass.drainTo(sink, held);
            return sink.added();
        } finally {
            holders.release();
            if (sink.added() > 0) {
                counters.countRemovals(sink.added());
                takeable.settle(sink.added()); // these left for good
            }
            takeable.handBack(held - sink.added()); // the rest were taken by others, or are still inside
        }
    }

    /**
     * Removes the first element that matches, looking at the classes most important first. Holds
     * one reservation meanwhile (see the notes). While every reservation is held by others it
     * returns {@code false} only once no class holds a match: a holder may take other elements
     * than the one sought (a drainTo can move an element whose insert has not yet published), so
     * "all reserved" does not mean "the match will leave", and a pool that rechecks with
     * remove(task) after shutdown must never be told a task left that is still inside.
     */
    @Override
    boolean removeFirst(Predicate<Object> match) {
        holders.check();
        for (int round = 0; takeable.tryAcquireHeld(1) == 0; round++) {
            if (!anyClassHolds(match)) {
                return false;
            }
            // each holder settles or hands back without waiting for others: a reservation comes free
            Spinner.pauseForPartner(round);
        }
        boolean removed = false;
        holders.hold();
        try {
            for (int c = 0; c < classes.length; c++) {
                if (classes[c].removeFirst(match)) {
                    byClass.removed(c, 1);
                    removed = true;
                    counters.countRemoval();
                    return true;
                }
            }
            return false;
        } finally {
            holders.release();
            if (removed) {
                takeable.settle(1);
            } else {
                takeable.handBack(1); // no match, or match threw: the element stays takeable
            }
        }
    }

    /** Whether a match is inside some class now; asks {@code match} without counting a removal. */
    private boolean anyClassHolds(Predicate<Object> match) {
        for (AbstractHandoff<E> own : classes) {
            for (Object e : own.toArray()) {
                if (wouldAccept(match, e)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Removes the matching elements one at a time, each as {@link #removeFirst} does, under a
     * reservation of its own, so that no consumer counts on an element this call takes away.
     */
    @Override
    int removeMatching(Predicate<Object> match) {
        int removed = 0;
        while (removeFirst(match)) {
            removed++;
        }
        return removed;
    }

    @Override
    public void clear() {
        while (poll() != null) {
            // each poll frees room in its class and wakes a producer of that class if one waits
        }
    }

    // ---- looking ----

    /** Returns the head of the most important non-empty class, or null. */
    @Override
    public E peek() {
        return byClass.peek();
    }

    @Override
    public boolean contains(Object o) {
        return o != null && byClass.contains(o);
    }

    /** The least of the classes' oldest stamps: each class is a handoff of its own. */
    @Override
    long oldestStamp(ToLongFunction<Object> stampOf) {
        long oldest = NO_STAMP;
        for (AbstractHandoff<E> own : classes) {
            oldest = Math.min(oldest, own.oldestStamp(stampOf));
        }
        return oldest;
    }

    /** Returns the classes' elements one class after another, most important first. */
    @Override
    public Object[] toArray() {
        return byClass.toArray();
    }

    /** Returns the number of elements a consumer can take now (published and not reserved). */
    @Override
    public int size() {
        return takeable.available();
    }

    /**
     * Returns whether no element is inside any class. Not {@code size() == 0}: a removal holds a
     * reservation for an element it may hand back, and a ThreadPoolExecutor worker that saw the
     * handoff empty meanwhile would end at shutdown and leave that element in a terminated pool.
     */
    @Override
    public boolean isEmpty() {
        for (AbstractHandoff<E> own : classes) {
            if (!own.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Returns the room of every class together; an element fits only if its own class has room. */
    @Override
    public int remainingCapacity() {
        return byClass.remainingCapacity();
    }

    /** Returns K times the capacity of one class. */
    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public HandoffSpec.Classed spec() {
        return specOf(spec, HandoffSpec.Classed.class);
    }

    @Override
    Classifier<?> classifier() {
        return importance.classifier();
    }

    /** Returns {@code UNORDERED}: elements of different classes do not leave in arrival order. */
    @Override
    public Ordering ordering() {
        return classes.length == 1 ? classes[0].ordering() : Ordering.UNORDERED;
    }

    // ---- closing ----

    @Override
    public void close() {
        takeable.close(); // the linearization point: no announce succeeds after this
        byClass.close(); // wakes the producers waiting in each class: they undo and refuse
    }

    @Override
    public boolean isClosed() {
        return takeable.isClosed();
    }
}
