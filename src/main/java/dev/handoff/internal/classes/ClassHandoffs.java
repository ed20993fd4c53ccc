/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.classes;

import dev.handoff.Handoff;
import dev.handoff.internal.waiting.Spinner;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The K handoffs of a buffered handoff with importance classes, one per class (index 0 the most
 * important), with a count per class of the elements published and not yet removed, and the take
 * numbers that feed the take rule of {@link ImportanceClasses}. A consumer that holds a
 * reservation in the owner's {@link Reservations} takes its element here; the owner inserts into
 * a class's handoff itself and reports each publish with {@link #published(int)}.
 *
 * @param <E> the type of elements held
 */
public final class ClassHandoffs<E> {
    /*
     * Why a take finds an element. Let I be the number of elements inside the K handoffs, A the
     * available count of the owner's reservations, R the consumers holding a reservation they
     * have not yet turned into an element, H the reservations held by remove(Object) and drainTo
     * (counted as pending). An insert adds to I before its publish adds to A; a take removes from
     * I the moment its poll succeeds, and that ends its reservation; remove and drainTo likewise
     * remove one element per held reservation they settle. So I >= A + R + H at every moment,
     * and a consumer holding a reservation polls only while some class holds an element for it.
     * Counts, not identities, are matched: a remove may take an element whose producer has not
     * published yet, and that publish then counts an element already inside. A lap over the K
     * classes can still find them all empty, if each element it would have reached was taken by
     * another consumer first and the element owed to it arrived in a class the lap had passed;
     * each failed lap thus implies a completed take by another thread (lock-free, as the hash
     * table's search), and the consumer laps again, after Spinner.pauseForPartner: a failed lap is
     * rare, and a virtual thread that laps again at once would hold its carrier from the threads
     * that took the elements (one of them may have an element of this class still to publish).
     *
     * Counts per class. A take that polled every class would pay a lock or a CAS for each empty
     * one. So each class also has a count, raised after the insert and before the publish, and
     * lowered after a removal from that class; a take polls only classes whose count is
     * positive. Per class, count = elements published - elements removed, so count <= what the
     * class holds (the difference being inserts not yet published), except in the moment between
     * a removal and its decrement; and the counts add up to A + R + H. A consumer holding a
     * reservation therefore always finds some class with a positive count, which holds an
     * element, and the lap argument above is unchanged. A count may go below 0 when remove takes
     * an element whose insert has not published yet; that publish brings it back.
     *
     * The take number. Each take draws one number from takes by getAndAdd; the rule in
     * ImportanceClasses turns it into the first class to look at. It is drawn after the
     * reservation, so only takes that will return an element are numbered.
     */

    private static final VarHandle TAKES;
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(int[].class);

    static {
        try {
            TAKES = MethodHandles.lookup().findVarHandle(ClassHandoffs.class, "takes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One handoff per class, index 0 the most important; never written after construction. */
    private final Handoff<E>[] classes;

    /** K, N and the take rule. */
    private final ImportanceClasses<E> importance;

    /**
     * Per class: elements published and not yet removed, so that a take passes an empty class
     * with one read instead of a poll. Accessed through COUNT. Invariant (see the notes): counts[c]
     * never exceeds what class c holds, except between a removal and its decrement, and the
     * counts add up to the elements owed to consumers.
     */
    private final int[] counts;

    /** Takes so far: the next take's number. Accessed through TAKES. */
    private volatile long takes;

    /**
     * @param classes the handoff of each class, one per class of {@code importance}; kept, not
     *        copied, and never written
     * @param importance the classes and the take rule
     */
    public ClassHandoffs(Handoff<E>[] classes, ImportanceClasses<E> importance) {
        this.classes = classes;
        this.importance = importance;
        this.counts = new int[classes.length];
    }

    /** Counts one element into class c: after its insert, before its publish in the reservations. */
    public void published(int c) {
        COUNT.getAndAdd(counts, c, 1); // before the publish: pairs with getAcquire in mayHold
    }

    /** Counts n elements out of class c, after they left it. */
    public void removed(int c, int n) {
        // Atomic against the increments of published; a hint for the getAcquire in mayHold,
        // which a reservation, not this count, makes decisive.
        COUNT.getAndAdd(counts, c, -n);
    }

    /** Whether class c has an element published and not yet removed (a hint; see the notes). */
    private boolean mayHold(int c) {
        // Acquire: pairs with the getAndAdd in published, which the reservation read; a class
        // whose count is 0 has nothing published to take.
        return (int) COUNT.getAcquire(counts, c) > 0;
    }

    /** Draws the next take number and returns the class it looks at first (ImportanceClasses). */
    private int firstToServe() {
        return importance.firstToServe((long) TAKES.getAndAdd(this, 1L)); // atomic: a number per take
    }

    /**
     * Takes the element a reservation guarantees (see the notes: one exists), looking at the
     * classes in the order of this take's number. Call only holding a reservation in
     * {@code takeable}. If a class's poll throws (a ring called back from inside its own frozen
     * operation refuses), the reservation goes back to available: the element it stood for is
     * still inside, and another take must be able to reserve it.
     *
     * @param takeable the owner's reservations
     * @return the element
     */
    public E takeReserved(Reservations takeable) {
        int first = firstToServe();
        for (int lostLaps = 0; ; ) {
            int c = first;
            do {
                if (mayHold(c)) {
                    E e = pollHoldingReservation(c, takeable);
                    if (e != null) {
                        removed(c, 1);
                        return e;
                    }
                }
                c = importance.next(c);
            } while (c != first);
            Spinner.pauseForPartner(lostLaps++); // every element went to other consumers: another lap
        }
    }

    private E pollHoldingReservation(int c, Reservations takeable) {
        try {
            return classes[c].poll();
        } catch (RuntimeException | Error e) {
            takeable.release();
            throw e;
        }
    }

    /**
     * Moves elements into sink until it holds {@code held}: whole classes in turn, in the order a
     * take with this drain's number would look at them, each by its kind's own {@code drainTo}
     * (which moves only what that class holds when its turn comes). Counts as one take of the
     * fairness rule. As in {@link #takeReserved}, a lap may lose every element it was owed: it
     * laps again until it moved at least one. If the sink throws, the element it refused is
     * still inside, and so is every element not yet moved.
     *
     * @param sink the drain's target, counting what it accepted
     * @param held the reservations the drain holds, {@code > 0}
     */
    public void drainTo(CountingSink<E> sink, int held) {
        int first = firstToServe();
        for (int lostLaps = 0; ; ) {
            int c = first;
            do {
                int before = sink.added();
                if (mayHold(c)) {
                    try {
                        classes[c].drainTo(sink, held - before);
                    } finally {
                        removed(c, sink.added() - before); // also when the target threw midway
                    }
                }
                c = importance.next(c);
            } while (c != first && sink.added() < held);
            if (sink.added() > 0) {
                return;
            }
            Spinner.pauseForPartner(lostLaps++); // every element went to other consumers: another lap
        }
    }

    /** The head of the most important non-empty class, or null. */
    public E peek() {
        for (Handoff<E> own : classes) {
            E e = own.peek();
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /** Whether some class contains o (not null). */
    public boolean contains(Object o) {
        for (Handoff<E> own : classes) {
            if (own.contains(o)) {
                return true;
            }
        }
        return false;
    }

    /** The classes' elements one class after another, most important first. */
    public Object[] toArray() {
        Object[][] parts = new Object[classes.length][];
        int n = 0;
        for (int c = 0; c < classes.length; c++) {
            parts[c] = classes[c].toArray();
            n += parts[c].length;
        }
        Object[] all = new Object[n];
        int at = 0;
        for (Object[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    /** The room of every class together. */
    public int remainingCapacity() {
        int room = 0;
        for (Handoff<E> own : classes) {
            room += own.remainingCapacity();
        }
        return room;
    }

    /** Closes every class, which wakes the producers waiting in each. */
    public void close() {
        for (Handoff<E> own : classes) {
            own.close();
        }
    }
}
