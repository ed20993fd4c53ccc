/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.fill;

/**
 * The kind that a contract interface runs against: how to build it and what it can do. Each
 * capability interface ({@link SequentialContract}, {@link BlockingContract}, ...) extends this
 * one; {@link HandoffContractTest} implements them all from its {@code newHandoff}, {@code kind}
 * and {@code buffered}, so a kind's test class extends that and says only how to build the kind.
 */
interface ContractSubject {

    /**
     * Creates a new, empty, open handoff of the kind under test.
     *
     * @param capacity the capacity asked for; a buffered kind must hold exactly this many
     * @param <E> the element type
     * @return the handoff
     * @throws IllegalArgumentException if {@code capacity <= 0}
     */
    <E> Handoff<E> handoffOf(int capacity);

    /**
     * Returns whether elements can sit inside the handoff with nobody waiting for them. Each
     * test that needs elements to stay inside assumes it, and is reported as skipped otherwise.
     */
    boolean holdsElements();

    /** Returns the name of this kind in {@link Handoffs#create(String)}, or {@code null} if it has none. */
    String factoryName();

    /**
     * A handoff for a test in which {@code consumers} threads may wait at once. An unbuffered
     * kind's capacity is the number of consumers that can wait in it (a pipe's worker slots), so
     * it gets at least one place per consumer; a buffered kind gets {@code capacity}.
     */
    default Handoff<Integer> handoffFor(int consumers, int capacity) {
        return handoffOf(holdsElements() ? capacity : Math.max(capacity, consumers));
    }

    /** A handoff where an insert would block or fail if it got past its checks: full, or unbuffered. */
    default Handoff<Integer> fullHandoff() {
        Handoff<Integer> h = handoffOf(2);
        if (holdsElements()) {
            fill(h);
        }
        return h;
    }
}
