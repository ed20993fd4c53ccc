/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.ModelCheckedHandoffs;
import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the pipe handoff's non-blocking operations against {@link PipeSpec}: with
 * no worker waiting, nothing may ever be accepted, found or counted, and every offer, before or
 * after close, returns {@code false}. Two worker slots, so that the scan over the
 * status array has more than one slot to look at. Model checking, with each scan's start and
 * stride drawn from a deterministic sequence instead of {@code ThreadLocalRandom}
 * ({@link ModelCheckedHandoffs}).
 */
public class PipeHandoffLincheckTest {

    private final Handoff<Integer> handoff = ModelCheckedHandoffs.pipe(2);

    @Operation
    public boolean offer(@Param(gen = IntGen.class, conf = "1:4") int e) {
        return handoff.offer(e);
    }

    @Operation
    public Integer poll() {
        return handoff.poll();
    }

    @Operation
    public Integer peek() {
        return handoff.peek();
    }

    @Operation
    public int size() {
        return handoff.size();
    }

    @Operation
    public int remainingCapacity() {
        return handoff.remainingCapacity();
    }

    @Operation
    public void close() {
        handoff.close();
    }

    @Test
    void linearizableAgainstAlwaysEmptyAlwaysFull() {
        LinCheckerKt.check(LincheckSupport.modelChecking().sequentialSpecification(PipeSpec.class), getClass());
    }
}
