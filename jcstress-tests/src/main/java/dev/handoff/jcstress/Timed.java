/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Timed offer and poll for continuous-mode actors, which may not throw checked exceptions.
 * jcstress never interrupts its actors, so an InterruptedException here is a harness failure and
 * surfaces as an error, never as an outcome.
 */
final class Timed {

    private Timed() {
    }

    static <E> E poll(BlockingQueue<E> q, long micros) {
        try {
            return q.poll(micros, TimeUnit.MICROSECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException("jcstress actors are never interrupted", e);
        }
    }

    static <E> boolean offer(BlockingQueue<E> q, E e, long micros) {
        try {
            return q.offer(e, micros, TimeUnit.MICROSECONDS);
        } catch (InterruptedException ie) {
            throw new IllegalStateException("jcstress actors are never interrupted", ie);
        }
    }
}
