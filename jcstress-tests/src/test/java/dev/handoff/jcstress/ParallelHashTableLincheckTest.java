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
 * Linearizability of the parallel hash table's non-blocking operations against
 * {@link MultisetSpec}, in both slot forms: {@code offer}, {@code poll} and {@code close} on a
 * table of capacity 2, observed through {@code size} in one test and {@code remainingCapacity}
 * in the other.
 *
 * <p>Why two tests: the table keeps two counts, the elements consumers may reserve and the empty
 * slots producers may reserve, and a poll moves from one to the other in two steps (reserve an
 * element, take it out, then release its slot). Each count alone is a linearizable view; the two
 * together are not, and the class says so ("they add up to capacity() whenever no operation is
 * in progress"). Lincheck shows it at once when both are in one test: with a poll in progress, a
 * thread reads {@code size() == 0} and then {@code remainingCapacity() == 1}, which no sequential
 * order of a capacity-2 multiset gives.
 *
 * <p>{@code peek()} is left out too: the table documents it as weakly consistent (it reads the
 * slots one by one, so an element moved behind its scan by a poll and an offer can be missed
 * while the table is never empty).
 *
 * <p>Stress mode, not model checking: see {@link LincheckSupport#stress()} for why.
 */
abstract class ParallelHashTableLincheckTest {

    final Handoff<Integer> handoff;

    ParallelHashTableLincheckTest(String slots) {
        this.handoff = Handoffs.create("pht:" + MultisetSpec.CAPACITY + ",slots=" + slots);
    }

    /** A single value: a poll may return any element, and this way every choice is the same. */
    @Operation
    public boolean offer(@Param(gen = IntGen.class, conf = "7:7") int e) {
        return handoff.offer(e);
    }

    @Operation
    public Integer poll() {
        return handoff.poll();
    }

    @Operation
    public void close() {
        handoff.close();
    }

    void check() {
        LinCheckerKt.check(LincheckSupport.stress().sequentialSpecification(MultisetSpec.class), getClass());
    }

    /** The papers' form, a monitor per slot, seen through size(). */
    public static class MonitorSlotsSize extends ParallelHashTableLincheckTest {
        public MonitorSlotsSize() {
            super("monitor");
        }

        @Operation
        public int size() {
            return handoff.size();
        }

        @Test
        void linearizableAgainstMultiset() {
            check();
        }
    }

    /** The papers' form, a monitor per slot, seen through remainingCapacity(). */
    public static class MonitorSlotsRemainingCapacity extends ParallelHashTableLincheckTest {
        public MonitorSlotsRemainingCapacity() {
            super("monitor");
        }

        @Operation
        public int remainingCapacity() {
            return handoff.remainingCapacity();
        }

        @Test
        void linearizableAgainstMultiset() {
            check();
        }
    }

    /** The lock-free form, VarHandle compare-and-set on one array, seen through size(). */
    public static class CasSlotsSize extends ParallelHashTableLincheckTest {
        public CasSlotsSize() {
            super("cas");
        }

        @Operation
        public int size() {
            return handoff.size();
        }

        @Test
        void linearizableAgainstMultiset() {
            check();
        }
    }

    /** The lock-free form seen through remainingCapacity(). */
    public static class CasSlotsRemainingCapacity extends ParallelHashTableLincheckTest {
        public CasSlotsRemainingCapacity() {
            super("cas");
        }

        @Operation
        public int remainingCapacity() {
            return handoff.remainingCapacity();
        }

        @Test
        void linearizableAgainstMultiset() {
            check();
        }
    }
}
