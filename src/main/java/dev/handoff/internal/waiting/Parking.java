/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.waiting;

import dev.handoff.internal.observe.WaitEvent;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;

/**
 * The two waits of a handoff, a put's (for room, or in a pipe for a worker) and a take's (for an
 * element, or in a pipe for a worker slot), and the one way every kind parks for them: each kind
 * calls these methods where it would call {@link Condition#await()} or
 * {@link LockSupport#park(Object)}, so that JFR sees every park as a {@link WaitEvent}. Only the
 * slow path calls here; a put or take that does not park constructs no event.
 *
 * <p>Each method behaves exactly as the call it wraps (same return value, same exceptions, same
 * interrupt handling) and commits the event whichever way the park ends.
 */
public enum Parking {
    /** put and the timed offer. */
    PUT("put"),
    /** take and the timed poll. */
    TAKE("take");

    static {
        // WaitEvent is loaded and initialized here, when the first handoff is built, and not on the
        // first park: the first use of a JFR event class sets up JFR's metadata (over 100 ms on the
        // 2-CPU build machine), and await and awaitNanos begin their event with the handoff's lock
        // held, so every other thread of the handoff would queue on that lock behind it.
        new WaitEvent();
    }

    /** The value of the event's operation field. */
    private final String operation;

    Parking(String operation) {
        this.operation = operation;
    }

    /** {@link Condition#await()}, recorded. */
    public void await(Condition condition, Object handoff) throws InterruptedException {
        WaitEvent event = begin();
        try {
            condition.await();
        } finally {
            end(event, handoff);
        }
    }

    /** {@link Condition#awaitNanos(long)}, recorded; returns what it returns. */
    public long awaitNanos(Condition condition, long nanos, Object handoff) throws InterruptedException {
        WaitEvent event = begin();
        try {
            return condition.awaitNanos(nanos);
        } finally {
            end(event, handoff);
        }
    }

    /** {@link LockSupport#park(Object)} with the handoff as the blocker, recorded. */
    public void park(Object handoff) {
        WaitEvent event = begin();
        LockSupport.park(handoff);
        end(event, handoff);
    }

    /** {@link LockSupport#parkNanos(Object, long)} with the handoff as the blocker, recorded. */
    public void parkNanos(Object handoff, long nanos) {
        WaitEvent event = begin();
        LockSupport.parkNanos(handoff, nanos);
        end(event, handoff);
    }

    // Until JFR starts in this JVM and instruments WaitEvent, begin, end and
    // shouldCommit are Event's empty methods; after that, while no recording enables the event,
    // shouldCommit is false and nothing is filled in or written.
    private static WaitEvent begin() {
        WaitEvent event = new WaitEvent();
        event.begin();
        return event;
    }

    private void end(WaitEvent event, Object handoff) {
        event.end();
        if (event.shouldCommit()) { // enabled, and at least the threshold long
            event.describe(handoff);
            event.operation = operation;
            event.commit();
        }
    }
}
