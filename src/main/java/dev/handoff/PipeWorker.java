/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.waiting.AfterClose;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A worker slot of a {@link PipeHandoff} owned by the code that registered it
 * ({@link PipeHandoff#register()}), rather than by a thread.
 *
 * <p>A handle is used by one thread at a time (a second thread calling {@code take} while the
 * first waits gets {@link IllegalStateException}); it may pass from thread to thread between
 * calls with the usual happens-before hand-over. {@link #close()} gives the slot back.
 *
 * @param <E> the type of elements handed over
 */
public final class PipeWorker<E> implements AutoCloseable {
    private static final int IDLE = 0;
    private static final int IN_CALL = 1;
    private static final int CLOSED = 2;

    private final PipeHandoff<E> pipe;
    private final int slot;
    /** IDLE, IN_CALL while a take or poll runs, or CLOSED; keeps calls and close apart. */
    private final AtomicInteger state = new AtomicInteger(IDLE);

    PipeWorker(PipeHandoff<E> pipe, int slot) {
        this.pipe = pipe;
        this.slot = slot;
    }

    /**
     * Waits for an element handed to this worker.
     *
     * @return the element
     * @throws InterruptedException if interrupted while waiting (unless an element was handed
     *         at that moment: then it is returned and the interrupt status set again)
     * @throws HandoffClosedException if the pipe is closed or closes while waiting
     * @throws IllegalStateException if this handle is closed or waiting in another thread
     */
    public E take() throws InterruptedException {
        enterCall();
        try {
            E e = pipe.workerTake(slot, false, 0L);
            if (e == null) {
                throw pipe.closedAndEmpty(); // closed, on entry or while waiting
            }
            return e;
        } finally {
            state.set(IDLE);
        }
    }

    /**
     * Waits at most the timeout for an element handed to this worker. On a closed pipe, or one
     * that closes while it waits, it waits out the timeout and returns {@code null}, as the
     * {@link Handoff}'s timed poll does; {@link #take(long, TimeUnit)} throws instead.
     *
     * @param timeout how long to wait, in units of {@code unit}; {@code <= 0} never waits
     * @param unit the unit of {@code timeout}
     * @return the element, or {@code null} if none came within the timeout
     * @throws InterruptedException if interrupted while waiting (unless an element was handed
     *         at that moment: then it is returned and the interrupt status set again)
     * @throws IllegalStateException if this handle is closed or waiting in another thread
     */
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        return timed(unit.toNanos(timeout), false);
    }

    /**
     * Waits at most the timeout for an element handed to this worker, as {@link #take()} does
     * with a time limit: throws once the pipe is closed.
     *
     * @param timeout how long to wait, in units of {@code unit}; {@code <= 0} never waits
     * @param unit the unit of {@code timeout}
     * @return the element, or {@code null} if none came within the timeout
     * @throws InterruptedException if interrupted while waiting (unless an element was handed
     *         at that moment: then it is returned and the interrupt status set again)
     * @throws HandoffClosedException if the pipe is closed or closes while waiting
     * @throws IllegalStateException if this handle is closed or waiting in another thread
     */
    public E take(long timeout, TimeUnit unit) throws InterruptedException {
        return timed(unit.toNanos(timeout), true);
    }

    /**
     * The timed poll and the timed take: waits up to nanos on this worker's slot; on a closed
     * pipe throws if throwIfClosed, and otherwise waits out the rest of nanos and returns null.
     */
    private E timed(long nanos, boolean throwIfClosed) throws InterruptedException {
        long deadline = System.nanoTime() + nanos; // may wrap for a huge timeout: only differences are read
        enterCall();
        try {
            E e = pipe.workerTake(slot, true, nanos);
            if (e != null || !pipe.isClosed()) {
                return e; // an element, or the time ran out on an open pipe
            }
            if (throwIfClosed) {
                throw pipe.closedAndEmpty();
            }
            return AfterClose.waitOut(pipe, deadline); // nothing can come: wait as on an open pipe
        } finally {
            state.set(IDLE);
        }
    }

    /**
     * Returns the index of this worker's slot in {@code [0, W)}.
     *
     * @return the slot index
     */
    public int slot() {
        return slot;
    }

    /**
     * Gives the slot back to the pipe. Idempotent.
     *
     * @throws IllegalStateException if a thread is waiting in {@code take} or {@code poll} on
     *         this handle
     */
    @Override
    public void close() {
        // Pairs with the CAS IDLE -> IN_CALL in enterCall(): a handle closes or enters a call, never both.
        int s = state.compareAndExchange(IDLE, CLOSED);
        if (s == IDLE) {
            pipe.release(slot);
        } else if (s == IN_CALL) {
            throw new IllegalStateException("this PipeWorker is waiting in another thread");
        }
    }

    /** Marks a call as running; refuses a closed handle and a second concurrent call. */
    private void enterCall() {
        int s = state.compareAndExchange(IDLE, IN_CALL); // pairs with the CAS in close()
        if (s == CLOSED) {
            throw new IllegalStateException("this PipeWorker is closed");
        } else if (s == IN_CALL) {
            throw new IllegalStateException("this PipeWorker is waiting in another thread;"
                    + " a handle is used by one thread at a time");
        }
    }
}
