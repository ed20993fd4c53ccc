/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * A producer thread's walk over the pre-boxed elements ({@link MeasuredQueue#element}), each
 * thread from its own starting point, so that nothing allocates per element and the hash table
 * sees different keys: the producers' state of every shape in this package.
 */
@State(Scope.Thread)
public class Producer {
    private int next = (int) (Thread.currentThread().threadId() * 64);

    /** The next element of this thread's walk. */
    Integer nextElement() {
        return MeasuredQueue.element(next++);
    }
}
