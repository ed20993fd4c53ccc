/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import dev.handoff.Handoff;
import dev.handoff.jmh.Queues;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.infra.Control;
import org.openjdk.jmh.infra.IterationParams;

/**
 * One iteration's queue and its {@link EndOfWindow measured window}: the blocking {@code put} and
 * {@code take} of the throughput benchmarks, each joining its thread's {@link Tally} to the window,
 * and each element taken counted.
 */
public final class MeasuredQueue {

    /**
     * Pre-boxed elements with spread-out hash codes, so that nothing allocates per element and the
     * hash table sees different keys (a constant element would hash to one probe sequence).
     */
    private static final Integer[] ELEMENTS =
            new SplittableRandom(2026).ints(4096).boxed().toArray(Integer[]::new);

    private final BlockingQueue<Object> queue;
    private final EndOfWindow window;

    private MeasuredQueue(BlockingQueue<Object> queue, EndOfWindow window) {
        this.queue = queue;
        this.window = window;
    }

    /** A new, empty queue of the {@link Queues} name, and a window as long as the iteration. */
    public static MeasuredQueue open(String kind, int capacity, IterationParams iteration) {
        BlockingQueue<Object> queue = Queues.create(kind, capacity);
        return new MeasuredQueue(queue, new EndOfWindow(queue, iteration.getTime().convertTo(TimeUnit.NANOSECONDS)));
    }

    /** The i-th element of the cycle producers walk (any int; wraps). */
    public static Integer element(int i) {
        return ELEMENTS[i & (ELEMENTS.length - 1)];
    }

    /** {@code put}, its thread joined to the window. */
    public void put(Object e, Tally tally, Control control) throws InterruptedException {
        window.watch(control);
        tally.join(window);
        queue.put(e);
    }

    /** {@code offer}, its thread joined to the window. */
    public boolean offer(Object e, Tally tally, Control control) {
        window.watch(control);
        tally.join(window);
        return queue.offer(e);
    }

    /** {@code isEmpty}. */
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    /** {@code take}, its thread joined to the window; an element counted unless it is the POISON. */
    public Object take(Tally tally, Control control) throws InterruptedException {
        window.watch(control);
        tally.join(window);
        Object e = queue.take();
        if (e != EndOfWindow.POISON) {
            tally.took();
        }
        return e;
    }

    /** At iteration teardown: frees no one any more, and closes a handoff. */
    public void close() {
        window.stop();
        if (queue instanceof Handoff<?> handoff) {
            handoff.close();
        }
    }
}
