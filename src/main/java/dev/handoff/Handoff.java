/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.Collection;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A bounded place where producers leave elements for consumers: a {@link BlockingQueue} that can be
 * closed, knows its capacity and counts what it does.
 *
 * <p>Every handoff is a drop-in {@code BlockingQueue}, so it can back a
 * {@link java.util.concurrent.ThreadPoolExecutor} or replace any queue in producer/consumer code.
 * Build one by name with {@link Handoffs#create(String)} so that the kind is chosen by
 * configuration, not by code.
 *
 * <h2>Ordering</h2>
 * Each kind says what order it gives in {@link #ordering()}: the {@link CircularBuffer} and the
 * {@link LockSplitQueue} are FIFO; the parallel hash table is unordered (a consumer takes whichever
 * element its search finds first).
 *
 * <h2>Elements and capacity</h2>
 * {@code null} elements are rejected with {@link NullPointerException} by every inserting method.
 * For the buffered kinds, {@code size() + remainingCapacity() == capacity()} whenever the handoff
 * is quiescent, and the capacity is exactly the one requested. Under concurrent use
 * {@code size()} and {@code remainingCapacity()} are snapshots that always lie within
 * {@code [0, capacity()]}.
 *
 * <p>The caller's code that a handoff runs (a {@code drainTo} target's {@code add}, the
 * {@code equals} that {@code remove(Object)} and {@code contains} ask, a {@code removeIf}
 * predicate) should not call back into the same handoff. A kind that runs that code under its
 * lock, or while it holds what only the calling thread can give back, refuses such a call with
 * {@link IllegalStateException} instead of waiting for itself; the others serve it. Either way
 * every element stays in exactly one place.
 *
 * <h2>Closing</h2>
 * {@link #close()} stops the handoff from accepting elements; it is idempotent.
 * <ul>
 *   <li>After close, {@code offer} and the timed {@code offer} return {@code false}: the element
 *       is not inserted and stays with the caller, as when the handoff is full ({@code false} is
 *       how {@code BlockingQueue.offer} reports an element not accepted; {@link #isClosed()}
 *       tells the two apart). A producer blocked in the timed {@code offer} when the handoff
 *       closes wakes and returns {@code false}.</li>
 *   <li>{@code put}, {@code add} and {@code addAll}, which cannot return {@code false}, throw
 *       {@link HandoffClosedException} after close (an {@link IllegalStateException}, as
 *       {@code add} throws for a full queue), and insert nothing. A producer blocked in
 *       {@code put} when the handoff closes wakes and throws it.</li>
 *   <li>Consumers still take every element that was inside: nothing inserted before the close is
 *       lost.</li>
 *   <li>Once the handoff is closed <em>and</em> empty, {@link #take()} throws
 *       {@link HandoffClosedException} instead of waiting forever (a pool's own code waits
 *       instead: see below), and so does {@link #take(long, TimeUnit)}, at once. Consumers
 *       blocked in either at the moment of the close are woken and throw.</li>
 *   <li>The timed {@link #poll(long, TimeUnit)} on a closed, empty handoff waits out its timeout,
 *       as on an open, empty handoff (what {@code BlockingQueue.poll} promises: it waits up to
 *       the timeout for an element), and then returns {@code null}; an interrupt still throws
 *       {@link InterruptedException}, and a timeout {@code <= 0} never waits. A consumer blocked
 *       in it at the moment of the close keeps waiting until its deadline. So does the batch
 *       {@link #poll(Collection, int, long, TimeUnit)}, which then returns 0. A loop of timed
 *       polls over a closed handoff therefore idles instead of spinning; the timed poll never
 *       tells of the close.</li>
 *   <li>A consumer that is not a pool and wants to stop at the close uses {@link #take()} or
 *       {@link #take(long, TimeUnit)}, which throw {@link HandoffClosedException} once the
 *       handoff is closed and empty (or asks {@link #isClosed()} after a {@code null}).</li>
 * </ul>
 *
 * <h3>Under a thread pool</h3>
 * A handoff is {@link AutoCloseable}, so try-with-resources closes the work queue of a thread
 * pool built on it while the pool runs: the JDK's {@link java.util.concurrent.ThreadPoolExecutor},
 * a fork of it (Tomcat's), Jetty's {@code QueuedThreadPool}, or any other. Closing must not make
 * the pool's threads spin, die or be replaced, so two methods treat <em>a pool's own code</em>
 * apart from every other caller:
 * <ul>
 *   <li>{@code take()} on a closed, empty handoff does not throw to a pool's own code: it waits
 *       as in an open, empty handoff, until the pool interrupts the thread (at
 *       {@code shutdown()} or {@code shutdownNow()}), and then throws
 *       {@link InterruptedException}. Otherwise a core thread of a
 *       {@code ThreadPoolExecutor} would end and be replaced, again and again.</li>
 *   <li>{@code put} on a closed handoff throws to a pool's own code a
 *       {@link java.util.concurrent.RejectedExecutionException} whose cause is the
 *       {@link HandoffClosedException}, so that a pool whose {@code execute} puts its task
 *       (Jetty's does in some paths) refuses it as pools refuse. Every other caller gets the
 *       {@link HandoffClosedException}.</li>
 * </ul>
 * A pool's own code is recognised from the stack of the call, with {@link StackWalker}, looked
 * at only once the handoff is closed, so that the open path pays nothing: the nearest caller
 * outside this library (reflection frames skipped) is a class that implements
 * {@link java.util.concurrent.Executor} or is nested in one (by its nest host or an enclosing
 * class). That is the case for {@code ThreadPoolExecutor.getTask}, Tomcat's fork of it, Jetty's
 * {@code QueuedThreadPool$Runner} and a hand-written executor's worker loop; a task that runs in
 * a pool and takes from a handoff is not a pool's own code, since its nearest outside caller is
 * the task's class. For {@code take()} a JDK {@code ThreadPoolExecutor} is also recognised by
 * {@code ThreadPoolExecutor.getTask} among the nearest callers, so that a pool whose work queue
 * is a wrapper around a handoff idles as well.
 *
 * <p>The timed poll needs no such rule: it waits out its timeout for every caller, so a pool
 * thread that asks with it (a {@code ThreadPoolExecutor} thread above {@code corePoolSize}, or
 * any with core thread time-out; every Jetty thread) idles for its keep-alive time and then ends
 * as it would in an open, empty handoff. {@code take(long, TimeUnit)} has no rule either: it
 * throws to every caller. {@code offer} returns {@code false} to every caller, so
 * {@code execute} on a {@code ThreadPoolExecutor} whose handoff is closed runs the task on a new
 * thread while the pool has fewer than {@code maximumPoolSize}, and otherwise hands it to its
 * {@link java.util.concurrent.RejectedExecutionHandler}; tasks already queued still run.
 *
 * <h2>Interruption and timeouts</h2>
 * A thread whose interrupt status is set when it calls {@code put}, {@code take}, or a timed
 * {@code offer}, {@code poll} or {@code take} gets {@link InterruptedException} (with the
 * status cleared) even if the call would not have blocked. A timeout {@code <= 0} never waits.
 *
 * <h2>Iteration and bulk removal</h2>
 * Iterators are weakly consistent: they never throw
 * {@link java.util.ConcurrentModificationException}, and they see the elements that were present
 * when they were created, and may or may not see later changes.
 *
 * <p>Every element has exactly one owner: the consumer that took it, or the call that removed
 * it. {@code removeIf}, {@code removeAll} and {@code retainAll} ask their filter (or collection)
 * about a snapshot of the elements, holding no lock, and then remove those it accepted that are
 * still inside. They return {@code true} only if this call removed at least one element: an
 * accepted element that a consumer takes first is that consumer's, and is not counted. If the
 * filter throws, nothing is removed. A null filter or collection is rejected with
 * {@link NullPointerException}.
 *
 * <h2>Taking in batches</h2>
 * {@link #take(Collection, int)} and {@link #poll(Collection, int, long, TimeUnit)} wait for one
 * element as {@code take()} and the timed {@code poll} do, and then move up to {@code max - 1}
 * more without waiting, as {@code drainTo} does: a consumer that handles elements in batches
 * pays for one wait and one pass instead of one of each per element.
 *
 * <h2>Serialization</h2>
 * Every kind is {@link java.io.Serializable}, as {@link java.util.concurrent.ArrayBlockingQueue}
 * is. The serialized form is the {@link #spec()} string, the elements in the order they would
 * leave ({@link #toArray()}), whether the handoff is closed, and the classifier of a handoff with
 * importance classes if it is not the default one. Deserializing builds a new handoff from the
 * spec and puts the elements back:
 * <ul>
 *   <li>The copy is independent of the original, of the same class and spec, and holds the same
 *       elements; a FIFO kind gives them out in the same order.</li>
 *   <li>A closed handoff is restored closed, its elements still inside for consumers; an open one
 *       is restored open.</li>
 *   <li>The pipe holds nothing: an open pipe is restored as an empty, open pipe with no worker
 *       waiting (workers are threads, not state).</li>
 *   <li>Counters are not part of the form: the copy counts from its construction, and putting
 *       the elements back counts as that many puts.</li>
 *   <li>A handoff with importance classes built with a custom {@link Classifier} is serializable
 *       only if the classifier is; otherwise {@code writeObject} throws
 *       {@link java.io.NotSerializableException} naming the classifier's class. An element that
 *       is not serializable fails the same way.</li>
 *   <li>Serializing a handoff that others are using writes a snapshot: the elements inside at
 *       one moment, as {@link #toArray()} returns them.</li>
 * </ul>
 *
 * <h2>Memory consistency effects</h2>
 * As with every {@code BlockingQueue}: actions in a thread prior to placing an element into a
 * handoff <i>happen-before</i> actions subsequent to the access or removal of that element from the
 * handoff in another thread. Actions before {@link #close()} happen-before a consumer observing the
 * handoff closed (a {@code take()} or {@code take(long, TimeUnit)} that throws
 * {@link HandoffClosedException}).
 *
 * @param <E> the type of elements held
 */
public interface Handoff<E> extends BlockingQueue<E>, AutoCloseable {

    /** The order in which a handoff gives out its elements. */
    enum Ordering {
        /** First in, first out, as {@link java.util.concurrent.ArrayBlockingQueue}. */
        FIFO,
        /** No order is promised: any element inside may be the next one taken. */
        UNORDERED
    }

    /**
     * Returns the maximum number of elements this handoff holds, exactly as requested at
     * construction.
     *
     * @return the capacity, always {@code > 0}
     */
    int capacity();

    /**
     * Returns the order in which this handoff gives out its elements.
     *
     * @return this kind's ordering
     */
    Ordering ordering();

    /**
     * Closes this handoff to new elements and wakes every thread blocked in it (see the class
     * comment for the exact semantics). Elements already inside stay there for consumers. Calling
     * it again has no effect.
     */
    @Override
    void close();

    /**
     * Returns whether {@link #close()} has been called.
     *
     * @return {@code true} once closed
     */
    boolean isClosed();

    /**
     * Returns a snapshot of this handoff's counters and sojourn times. Counting ({@code stats})
     * and sojourn times ({@code sojourn}) are chosen at construction; a handoff built with neither
     * returns {@link HandoffStats#disabled()}. The snapshot is not atomic: each counter is read
     * once, while other threads may be counting.
     *
     * @return the counters as they are now
     */
    HandoffStats stats();

    /**
     * Takes an element, waiting up to {@code timeout} for one: {@link #take()} with a time limit.
     *
     * <p>Returns {@code null} if no element came within the timeout; a timeout {@code <= 0}
     * never waits. Unlike the timed {@link #poll(long, TimeUnit)}, it learns of the close: once
     * the handoff is closed and empty it throws {@link HandoffClosedException} at once, and a
     * caller waiting in it at the close is woken and throws. Unlike {@code take()}, it throws to
     * a pool's own code too (see "Under a thread pool"): it is for consumers that want to stop
     * at the close.
     *
     * @param timeout how long to wait, in {@code unit}
     * @param unit the unit of {@code timeout}
     * @return the element, or {@code null} if none came within the timeout
     * @throws InterruptedException if interrupted on entry or while waiting
     * @throws HandoffClosedException if the handoff is closed and empty
     * @throws NullPointerException if {@code unit} is null
     */
    E take(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Takes at least one element, waiting for the first if necessary, and then as many more as
     * are inside, up to {@code max} in all, adding them to {@code into} in the order they leave.
     *
     * <p>If elements are inside when it is called, it moves up to {@code max} of them at once, as
     * {@link #drainTo(Collection, int)} does. Otherwise it waits for one as {@link #take()} does,
     * then moves up to {@code max - 1} more that are inside by then, without waiting for them.
     * Interrupts, and a closed and empty handoff, are handled as by {@code take()}, which it
     * calls: it throws {@link InterruptedException} if the thread is interrupted on entry or while
     * it waits, and {@link HandoffClosedException} once the handoff is closed and empty (the
     * class comment's exception for a pool's own code does not arise: a pool asks for its tasks
     * one at a time, never through this method).
     *
     * <p>Each element is in exactly one place at every moment: inside, in {@code into}, or with the
     * caller. If {@code into.add} throws for an element that was inside, that element and those
     * after it stay inside, and those added before stay in {@code into}, as with {@code drainTo}.
     * If it throws for the element this call waited for, that element is offered back to this
     * handoff (a FIFO kind then gives it out after the elements inside), and the exception is
     * thrown; if the handoff does not accept it back (full again, closed, or a pipe with no
     * worker waiting), it travels with the exception, as a suppressed
     * {@link UndeliveredElementException} whose {@link UndeliveredElementException#element()} it is.
     *
     * @param into the collection to add the elements to
     * @param max the most elements to move; {@code <= 0} moves nothing and returns 0 at once,
     *        without waiting, as {@code drainTo} does
     * @return the number of elements added to {@code into}: at least 1 unless {@code max <= 0}
     * @throws InterruptedException if interrupted on entry or while waiting
     * @throws HandoffClosedException if the handoff is closed and empty
     * @throws NullPointerException if {@code into} is null
     * @throws IllegalArgumentException if {@code into} is this handoff
     */
    int take(Collection<? super E> into, int max) throws InterruptedException;

    /**
     * Takes at least one element, waiting up to {@code timeout} for the first, and then as many
     * more as are inside, up to {@code max} in all, adding them to {@code into} in the order they
     * leave; returns 0 if no element came in time.
     *
     * <p>As {@link #take(Collection, int)}, except that the wait for the first element is that of
     * the timed {@link #poll(long, TimeUnit)}: a timeout {@code <= 0} never waits, and once the
     * handoff is closed and empty it waits out the timeout, as on an open, empty handoff, and
     * returns 0. If {@code into.add} throws, each element
     * stays in exactly one place, as {@link #take(Collection, int)} says.
     *
     * @param into the collection to add the elements to
     * @param max the most elements to move; {@code <= 0} moves nothing and returns 0 at once,
     *        without waiting, as {@code drainTo} does
     * @param timeout how long to wait for the first element, in {@code unit}
     * @param unit the unit of {@code timeout}
     * @return the number of elements added to {@code into}; 0 if none came in time
     * @throws InterruptedException if interrupted on entry or while waiting
     * @throws NullPointerException if {@code into} or {@code unit} is null
     * @throws IllegalArgumentException if {@code into} is this handoff
     */
    int poll(Collection<? super E> into, int max, long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Returns the spec of this handoff: its kind, capacity and options, as
     * {@link Handoffs#create(String)} reads them. {@link HandoffSpec#build()} on it makes a new,
     * empty handoff of the same kind and options.
     *
     * @return the spec, never null
     */
    HandoffSpec spec();
}
