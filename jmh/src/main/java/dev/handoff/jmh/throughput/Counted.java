/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Elements a consumer thread took inside the measurement window ({@code handoffs}), summed by JMH
 * over the consumers and divided by the window: the honest throughput.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class Counted {

    /** Elements this thread took inside the window, POISON excepted. */
    public long handoffs;

    @Setup(Level.Iteration)
    public void reset() {
        handoffs = 0;
    }
}
