/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.Reservations;
import dev.handoff.internal.waiting.Parking;


/**
 * A handoff whose consumers first reserve an element in a count of {@link Reservations} and only
 * then take it out: the handoff with importance classes. The waiting part of poll, take and the
 * timed poll lives here; how a reserved element is found is the subclass's
 * {@link #removeReserved()}.
 *
 * @param <E> the type of elements held
 */
abstract class ReservingHandoff<E> extends AbstractHandoff<E> {

    /**
     * Elements consumers may reserve. available: published and not yet reserved; pending:
     * announced inserts not yet published, and elements held by remove/drainTo that may return.
     */
    final Reservations takeable;

    ReservingHandoff(boolean countStats) {
        super(countStats);
        this.takeable = new Reservations(counters::consumerWait, this, Parking.TAKE);
    }

    /**
     * Takes out one element for a reservation the caller holds in {@link #takeable}: one exists
     * for it, by the subclass's invariant.
     */
    abstract E removeReserved();

    @Override
    public E poll() {
        return takeable.tryAcquire() == Reservations.ACQUIRED ? removeReserved() : null;
    }

    @Override
    public E take() throws InterruptedException {
        if (takeable.acquire(false, 0L) == Reservations.EXHAUSTED) {
            return takeWhenClosedAndEmpty(); // throws, but to a pool's own code (Handoff, "Under a thread pool")
        }
        return removeReserved();
    }

    @Override
    E timedTake(long nanos) throws InterruptedException {
        return takeable.acquire(true, nanos) == Reservations.ACQUIRED ? removeReserved() : null;
    }
}
