/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.infra.Control;

/**
 * Frees the benchmark threads still blocked in {@code put} or {@code take} when a measurement
 * window ends, so that no thread is left blocked and no iteration hangs.
 *
 * <p>A daemon thread sleeps through the window (it costs the measurement nothing), then waits for
 * JMH's {@link Control#stopMeasurement}; from then on, until {@link #stop()}, it offers
 * {@link #POISON} (a blocked consumer takes it and returns) and polls with a short timeout (a
 * blocked producer's {@code put} or {@code transfer} completes). Consumers do not count {@code POISON}, and the
 * window has already closed when the first one is offered, so the count is not distorted; what
 * JMH adds to a thread's window is the time until it is freed, at most a few hundred
 * microseconds of a window of a second or more.
 */
public final class EndOfWindow {

    /** The element that frees a blocked consumer; never counted as a handoff. */
    public static final Object POISON = new Object();

    private final BlockingQueue<Object> queue;
    private final long windowEndsNanos;
    private final Thread freer;
    private volatile Control control;
    private volatile boolean stopped;

    /**
     * @param queue the queue the benchmark threads block on
     * @param windowNanos how long the iteration lasts
     */
    public EndOfWindow(BlockingQueue<Object> queue, long windowNanos) {
        this.queue = queue;
        this.windowEndsNanos = System.nanoTime() + windowNanos;
        this.freer = Thread.ofPlatform().daemon().name("end-of-window").unstarted(this::freeBlockedThreads);
        freer.start();
    }

    /** Called from the benchmark methods: hands over JMH's control of this iteration, once. */
    public void watch(Control c) {
        if (control == null) {
            control = c; // the same instance for every thread of the iteration
        }
    }

    private void freeBlockedThreads() {
        long sleep;
        while (!stopped && (sleep = windowEndsNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(sleep);
        }
        while (!stopped && !windowClosed()) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
        while (!stopped) {
            queue.offer(POISON); // a consumer blocked in take() returns with it
            try {
                // a producer blocked in put() or transfer() completes; timed, because the pipe's
                // untimed poll() never meets a producer
                queue.poll(20, TimeUnit.MICROSECONDS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private boolean windowClosed() {
        Control c = control;
        return c != null && c.stopMeasurement;
    }

    /** Called at iteration teardown, once every benchmark thread has left its loop. */
    public void stop() {
        stopped = true;
        LockSupport.unpark(freer);
        try {
            freer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
