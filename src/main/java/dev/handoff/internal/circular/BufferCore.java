/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import java.util.Collection;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The algorithm of a circular buffer: the cells, how threads claim them, and how a thread waits
 * for an element or for room. {@code dev.handoff.CircularBuffer} is a thin
 * {@link java.util.concurrent.BlockingQueue} over one core; it checks the arguments, turns the
 * core's answers into the {@code Handoff} contract's exceptions, and delegates everything else.
 *
 * <p>What the buffer has done before it calls, so that no core does it again:
 * <ul>
 *   <li>every element passed in is non-null;</li>
 *   <li>{@link #drainTo}'s target is non-null and not the buffer, and {@code maxElements > 0};</li>
 *   <li>{@link #contains}'s argument is non-null;</li>
 *   <li>the capacity is within the core's limit (the buffer names the limit in its message);</li>
 *   <li>a timeout is converted to nanoseconds.</li>
 * </ul>
 *
 * <p>How a core reports that it is closed. A core never throws the {@code Handoff} contract's
 * {@code HandoffClosedException}: it answers, and the buffer decides.
 * <ul>
 *   <li>{@link #offer(Object)}, {@link #put} and {@link #offer(Object, long)} return
 *       {@code false} when the core is closed (before or while they wait), and the element stays
 *       with the caller. The buffer throws its {@code closedToInserts()} for a {@code put} that
 *       returned {@code false}; a {@code put} returns {@code false} for no other reason.</li>
 *   <li>{@link #take} returns {@code null} exactly when the core is closed and empty, which is
 *       final: nothing can be inserted any more. It does not wait on, not even for a
 *       {@code ThreadPoolExecutor} worker: the buffer applies its
 *       {@code takeWhenClosedAndEmpty()} (which throws, or parks a pool worker until it is
 *       interrupted), holding no lock of the core.</li>
 *   <li>{@link #poll(long)} returns {@code null} when the time ran out or the core is closed and
 *       empty; {@link #poll()} when it is empty at some instant, closed or not.</li>
 * </ul>
 *
 * <p>What a core is given, and must not reach past: its implementation's constructor takes the
 * capacity, whether to spin before parking ({@code wait=spin}), the buffer's
 * {@code dev.handoff.internal.observe.Counters} (it counts its own inserts, removals and waits,
 * including the removals of {@code drainTo}, {@code clear} and the removals by predicate), and
 * the owning handoff, which it names when it parks (through
 * {@code dev.handoff.internal.waiting.Parking}, so that JFR sees the wait). A core spins through
 * {@code dev.handoff.internal.waiting.Spinner}, one per side, and never imports a
 * {@code dev.handoff} class beyond the contract types.
 *
 * <p>Every method is safe to call from any thread. The blocking methods throw
 * {@link InterruptedException} if the caller is interrupted on entry or while it waits. The code a
 * core calls while it stops the other operations (a {@code drainTo} target's {@code add}, the
 * {@code test} of a predicate, an {@code equals}) must not use the buffer: a call it makes back
 * into the core throws {@link IllegalStateException}, and the operation it was called from
 * changes nothing more.
 *
 * @param <E> the type of elements held
 */
public interface BufferCore<E> {

    // ---- inserting: false when closed (see the class comment) ----

    /**
     * Inserts e if there is room now and the core is open.
     *
     * @return whether e was inserted: {@code false} when full or closed
     */
    boolean offer(E e);

    /**
     * Inserts e, waiting for room while the core is full.
     *
     * @return {@code true}, or {@code false} when the core is closed (e was not inserted)
     */
    boolean put(E e) throws InterruptedException;

    /**
     * Inserts e, waiting at most {@code nanos} for room; never waits when {@code nanos <= 0}.
     *
     * @return whether e was inserted: {@code false} when the time ran out or the core is closed
     */
    boolean offer(E e, long nanos) throws InterruptedException;

    // ---- removing: null when there is nothing (see the class comment) ----

    /** Removes the oldest element, or returns {@code null} if the core was empty at some instant. */
    E poll();

    /**
     * Removes the oldest element, waiting while the core is empty and open.
     *
     * @return the element, or {@code null} exactly when the core is closed and empty
     */
    E take() throws InterruptedException;

    /**
     * Removes the oldest element, waiting at most {@code nanos}; never waits when {@code nanos <= 0}.
     *
     * @return the element, or {@code null} when the time ran out or the core is closed and empty
     */
    E poll(long nanos) throws InterruptedException;

    /**
     * Moves at most {@code maxElements} (positive) of the oldest elements to target, in order. If
     * target's {@code add} throws, the element it was given is still inside, and the exception is
     * relayed.
     *
     * @return how many elements were moved
     */
    int drainTo(Collection<? super E> target, int maxElements);

    /**
     * Removes the oldest element for which match holds.
     *
     * @return whether an element was removed
     */
    boolean removeFirst(Predicate<Object> match);

    /**
     * Removes every element for which match holds, asking match once per element before changing
     * anything: if match throws, nothing is removed and the exception is relayed.
     *
     * @return how many elements were removed
     */
    int removeMatching(Predicate<Object> match);

    /** Removes every element, counting each as a removal. */
    void clear();

    // ---- looking ----

    /** The oldest element, or {@code null} if empty. */
    E peek();

    /**
     * Whether an element equal to o (non-null) is inside. By default a scan of {@link #toArray()},
     * so that o's {@code equals} runs outside the core; a core whose snapshot costs more than a
     * locked scan overrides it.
     */
    default boolean contains(Object o) {
        for (Object e : toArray()) {
            if (o.equals(e)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The stamp of the first element from the oldest on that has one, read without the core's
     * lock and without waiting (weakly consistent: it may look at an element just taken, or miss
     * one just inserted); {@code Long.MAX_VALUE} if it finds none.
     *
     * @param stampOf an element's stamp, or {@code Long.MAX_VALUE} for an element without one
     */
    long oldestStamp(ToLongFunction<Object> stampOf);

    /** A consistent copy of the elements, oldest first. */
    Object[] toArray();

    /** The number of elements inside, between 0 and {@link #capacity()}. */
    int size();

    /** {@link #capacity()} less {@link #size()}. */
    int remainingCapacity();

    /** The number of elements the core holds when full; fixed. */
    int capacity();

    // ---- closing ----

    /**
     * Closes the core to inserts and wakes every waiting thread: a waiting insert returns
     * {@code false}, a waiting take takes what is left and then returns {@code null}. Every insert
     * that succeeded precedes the close. Idempotent.
     */
    void close();

    /** Whether {@link #close()} has been called: a volatile read, lock-free. */
    boolean isClosed();
}
