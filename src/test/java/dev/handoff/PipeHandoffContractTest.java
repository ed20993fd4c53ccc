/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * {@link PipeHandoff} runs the whole {@link HandoffContractTest} as an unbuffered kind.
 *
 * <p>Capabilities, and why: {@code buffered()} is {@code false} because a pipe holds no element
 * with nobody waiting for it, as {@link java.util.concurrent.SynchronousQueue}: {@code offer}
 * succeeds only when a worker waits, {@code size()} is always 0 and {@code remainingCapacity()} is
 * the number of waiting workers (see the class comment of PipeHandoff). The tests that need
 * elements to sit inside are therefore reported as skipped; every concurrent test, the close,
 * interrupt and timeout tests and the stateful property (with a model of capacity 0) run. The
 * pipe's own behaviour (workers and slots, the give-up race, closing waiting workers) is checked by
 * {@link PipeHandoffTest}, Theorem 3 by {@link PipeTheoremProperties}.
 */
class PipeHandoffContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return new PipeHandoff<>(capacity);
    }

    @Override
    protected String kind() {
        return "pipe";
    }

    @Override
    protected boolean buffered() {
        return false;
    }
}
