/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the FIFO handoffs' non-blocking operations against {@link FifoSpec}:
 * {@code offer}, {@code poll}, {@code peek}, {@code size}, {@code remainingCapacity} and
 * {@code close}, on a handoff of capacity 2 (small, so that full and empty are both reached).
 * An {@code offer} after {@code close} must return {@code false}, as the spec does.
 */
abstract class FifoLincheckTest {

    private final Handoff<Integer> handoff;

    FifoLincheckTest(String kind) {
        this.handoff = Handoffs.create(kind + ":" + FifoSpec.CAPACITY);
    }

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

    /** The circular buffer: one lock, so every operation is atomic and linearizes inside it. */
    public static class CircularBufferLincheckTest extends FifoLincheckTest {
        public CircularBufferLincheckTest() {
            super("circular");
        }

        @Test
        void linearizableAgainstFifo() {
            LinCheckerKt.check(LincheckSupport.modelChecking().sequentialSpecification(FifoSpec.class),
                    getClass());
        }
    }

    /**
     * The lock-split queue: offer and poll hold different locks and meet only through the
     * atomic count, so their linearization points are the count's increment and decrement.
     */
    public static class LockSplitQueueLincheckTest extends FifoLincheckTest {
        public LockSplitQueueLincheckTest() {
            super("lock-split");
        }

        @Test
        void linearizableAgainstFifo() {
            LinCheckerKt.check(LincheckSupport.modelChecking().sequentialSpecification(FifoSpec.class),
                    getClass());
        }
    }
}
