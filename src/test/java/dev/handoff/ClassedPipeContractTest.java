/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;


/**
 * {@link PipeHandoff} with importance classes (its producers wait per class) runs the whole
 * {@link HandoffContractTest} as an unbuffered kind, as {@link PipeHandoffContractTest} does;
 * the classifier spreads the tests' elements over {@value ClassedContractTest#CLASSES} classes, so
 * that waiting producers of every class meet workers. Nothing is skipped beyond what the pipe
 * skips: its capacity stays the number of worker slots, and its close behaviour is the pipe's.
 */
class ClassedPipeContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.pipe(capacity).withClasses(ClassedContractTest.CLASSES).fair(ClassedContractTest.FAIR)
                .build(ClassedContractTest.SPREAD);
    }

    @Override
    protected boolean buffered() {
        return false;
    }
}
