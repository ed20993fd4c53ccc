/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import com.softwaremill.jox.Channel;
import com.softwaremill.jox.ChannelClosed;
import com.softwaremill.jox.Select;
import com.softwaremill.jox.SelectClause;
import java.time.Duration;
import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A jox {@link Channel} (a buffered channel of the caller's capacity, or a rendezvous channel) seen
 * as a {@link BlockingQueue}, so that the benchmarks can rank it: {@code put} is {@code send},
 * {@code take} is {@code receive}, and the other operations are jox's own {@link Select} on the
 * channel's clause: {@code offer(e)} and {@code poll()} with a default clause, the timed
 * {@code offer} and {@code poll} first so, then, if they must wait, with
 * {@link Select#selectOrClosedWithin}.
 *
 * <p>A benchmark peer, not a library class, and weaker than the interface:
 * <ul>
 *   <li>{@code size}, {@code isEmpty}, {@code peek}, {@code remainingCapacity} and
 *       {@code iterator} (and with it {@code contains}, {@code remove(Object)} and
 *       {@code toArray}) throw {@link UnsupportedOperationException}: a channel does not say how
 *       many elements it holds. The benchmarks that run the jox peers ({@code HandoffThroughput},
 *       {@code PairedThroughput}, {@code RoundTrip}) call none of them.
 *   <li>A timed {@code offer} or {@code poll} that must wait does so in whole milliseconds,
 *       rounded down, and starts a virtual thread that sleeps out the timeout: that is how jox
 *       1.0.1's {@code selectOrClosedWithin} times out, and it is what a waiting timed call costs
 *       here. A timeout under a millisecond ends about as soon as that thread has run; one that
 *       is not positive does not wait, as jox's select refuses it.
 *   <li>The channel is never closed, so {@link com.softwaremill.jox.ChannelClosedException} is
 *       not expected; a closed result is an {@link IllegalStateException}.
 * </ul>
 *
 * @param <E> the element type
 */
public final class JoxBlockingQueue<E> extends AbstractQueue<E> implements BlockingQueue<E> {
    /*
     * Implementation notes.
     *
     * jox 1.0.1 has no trySend or tryReceive: a non-blocking operation is a select of the
     * channel's clause and a default clause, which jox requires to be the last one and picks only
     * when the channel's clause cannot complete at once. Markers tell a clause's result from the
     * default's and from the timeout's, since the element itself may be any object. A timed call
     * tries at once first, so that it starts jox's timer thread only when it must wait.
     *
     * Visibility between producers and consumers is jox's: a value is handed over through the
     * channel's cells, which jox writes and reads with volatile or CAS accesses.
     */

    /** The result of a send clause that completed. */
    private static final Object SENT = new Object();

    /** The result of the default clause, or of a timeout: nothing was sent or received. */
    private static final Object NOTHING = new Object();

    private final Channel<E> channel;
    private final String description;

    private JoxBlockingQueue(Channel<E> channel, String description) {
        this.channel = channel;
        this.description = description;
    }

    /**
     * A buffered channel: {@code put} waits while {@code capacity} elements are buffered.
     *
     * @param capacity the buffer's size, positive
     * @return a new empty queue
     */
    public static <E> JoxBlockingQueue<E> buffered(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a buffered jox channel needs a positive capacity, was " + capacity);
        }
        return new JoxBlockingQueue<>(Channel.newBufferedChannel(capacity), "jox buffered channel of " + capacity);
    }

    /**
     * A rendezvous channel: each {@code put} waits for a {@code take}, as in a
     * {@link java.util.concurrent.SynchronousQueue}.
     *
     * @return a new empty queue
     */
    public static <E> JoxBlockingQueue<E> rendezvous() {
        return new JoxBlockingQueue<>(Channel.newRendezvousChannel(), "jox rendezvous channel");
    }

    @Override
    public void put(E e) throws InterruptedException {
        channel.send(Objects.requireNonNull(e));
    }

    @Override
    public E take() throws InterruptedException {
        return channel.receive();
    }

    @Override
    public boolean offer(E e) {
        Objects.requireNonNull(e);
        try {
            return selectNow(channel.sendClause(e, () -> SENT)) == SENT;
        } catch (InterruptedException interrupted) {
            // a select that ends in its default clause never waits; keep the status for the caller
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public E poll() {
        try {
            return elementOrNull(selectNow(channel.receiveClause()));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt(); // as in offer(e)
            return null;
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(e);
        if (offer(e)) {
            return true; // at once, without the timed select's timer thread
        }
        long nanos = unit.toNanos(timeout);
        return nanos > 0L && selectWithin(nanos, channel.sendClause(e, () -> SENT)) == SENT;
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        E e = poll();
        if (e != null) {
            return e; // as in offer(e, timeout, unit)
        }
        long nanos = unit.toNanos(timeout);
        return nanos > 0L ? elementOrNull(selectWithin(nanos, channel.receiveClause())) : null;
    }

    /** The clause's result if it can complete at once, else {@link #NOTHING}. */
    private static Object selectNow(SelectClause<?> clause) throws InterruptedException {
        return openOrFail(Select.selectOrClosed(clause, Select.defaultClause(NOTHING)));
    }

    /** The clause's result if it completes within the timeout, else {@link #NOTHING}. */
    private static Object selectWithin(long nanos, SelectClause<?> clause) throws InterruptedException {
        return openOrFail(Select.selectOrClosedWithin(Duration.ofNanos(nanos), NOTHING, clause));
    }

    private static Object openOrFail(Object result) {
        if (result instanceof ChannelClosed closed) {
            throw new IllegalStateException("the jox channel was closed", closed.toException());
        }
        return result;
    }

    @SuppressWarnings("unchecked") // a receive clause's result is an element of this channel
    private E elementOrNull(Object result) {
        return result == NOTHING ? null : (E) result;
    }

    @Override
    public int drainTo(Collection<? super E> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super E> c, int maxElements) {
        int n = 0;
        E e;
        while (n < maxElements && (e = poll()) != null) {
            c.add(e);
            n++;
        }
        return n;
    }

    @Override
    public E peek() {
        throw unsupported("peek");
    }

    @Override
    public int size() {
        throw unsupported("size");
    }

    @Override
    public boolean isEmpty() {
        throw unsupported("isEmpty");
    }

    @Override
    public int remainingCapacity() {
        throw unsupported("remainingCapacity");
    }

    @Override
    public Iterator<E> iterator() {
        throw unsupported("iterator");
    }

    private UnsupportedOperationException unsupported(String operation) {
        return new UnsupportedOperationException(description + " has no " + operation);
    }

    @Override
    public String toString() {
        return description; // AbstractCollection's would iterate
    }
}
