/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.ImportanceClasses;

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
        return new PipeHandoff<>(capacity, false, new ImportanceClasses<>(ClassedContractTest.CLASSES,
                ClassedContractTest.FAIR, ClassedContractTest.SPREAD));
    }

    @Override
    protected boolean buffered() {
        return false;
    }
}
