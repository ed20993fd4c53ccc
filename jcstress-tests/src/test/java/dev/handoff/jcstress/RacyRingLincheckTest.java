/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jetbrains.kotlinx.lincheck.strategy.LincheckFailure;
import org.junit.jupiter.api.Test;

/**
 * Lincheck catches the racy twin of lesson 3 too: the ring whose indices are advanced after
 * the unlock is not linearizable against a FIFO queue, and model checking finds the interleaving
 * (a producer entering the lock before the previous one moved putIndex). Its fixed twin, the
 * same ring with the index updates under the lock, passes the same check. A test that expects a
 * failure must be able to fail: if Lincheck stopped finding this bug, the first test fails.
 */
class RacyRingLincheckTest {

    /** offer and poll of one of lesson 3's rings; the twins differ only in the ring. */
    abstract static class RingOperationsBase {
        private final Handoff_03_IndicesOutsideTheLock.TwoCellRing ring;

        RingOperationsBase(Handoff_03_IndicesOutsideTheLock.TwoCellRing ring) {
            this.ring = ring;
        }

        @Operation
        public boolean offer(@Param(gen = IntGen.class, conf = "1:4") int e) {
            return ring.offer(e);
        }

        @Operation
        public Integer poll() {
            return ring.poll();
        }
    }

    /** {@code Handoff_03_IndicesOutsideTheLock.FlawedRing}: indices moved outside the lock. */
    public static class RacyRingOperations extends RingOperationsBase {
        public RacyRingOperations() {
            super(new Handoff_03_IndicesOutsideTheLock.FlawedRing());
        }
    }

    /** {@code Handoff_03_IndicesOutsideTheLock.Ring}, the fix. */
    public static class RingOperations extends RingOperationsBase {
        public RingOperations() {
            super(new Handoff_03_IndicesOutsideTheLock.Ring());
        }
    }

    /** FifoSpec restricted to what the rings offer: capacity 2, no close. */
    public static class RingSpec {
        private final FifoSpec fifo = new FifoSpec();

        public boolean offer(int e) {
            return fifo.offer(e);
        }

        public Integer poll() {
            return fifo.poll();
        }
    }

    @Test
    void lincheckFindsTheRacyRingNotLinearizable() {
        LincheckFailure failure = LinCheckerKt.checkImpl(
                LincheckSupport.modelChecking().sequentialSpecification(RingSpec.class).minimizeFailedScenario(false),
                RacyRingOperations.class);
        assertNotNull(failure, "model checking should find the index race of the racy ring");
        System.out.println("Lincheck on the racy ring of lesson 3, as expected:\n" + failure);
    }

    @Test
    void theFixedRingIsLinearizable() {
        assertNull(LinCheckerKt.checkImpl(
                LincheckSupport.modelChecking().sequentialSpecification(RingSpec.class), RingOperations.class));
    }
}
