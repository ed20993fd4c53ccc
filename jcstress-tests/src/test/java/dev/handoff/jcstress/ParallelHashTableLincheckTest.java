/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.internal.table.MonitorSlots;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.Handoff;
import dev.handoff.ModelCheckedHandoffs;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.strategy.IncorrectResultsFailure;
import org.jetbrains.kotlinx.lincheck.strategy.LincheckFailure;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the parallel hash table's non-blocking operations against
 * {@link MultisetSpec}, under model checking, in both slot forms: where it holds, and the
 * history where it does not.
 *
 * <p>The table keeps no count: an offer claims an empty slot by compare-and-set and then marks it
 * in the occupancy summary; a poll takes an element out by compare-and-set and then clears its
 * mark; {@code size()} counts the marks, and both scans look at the marks first. Seen through
 * {@code offer}, {@code poll} and {@code size} on a table with room for every offer of a scenario,
 * without {@code close}, the table is linearizable, and that is what {@link MonitorSlots} and
 * {@link CasSlots} check.
 *
 * <p>Where a full table comes in, it is not, and {@link NotLinearizable} pins the history the
 * model checker finds (capacity 2): an offer in progress has filled its slot but not yet marked
 * it; with one element inside, another thread's offer returns {@code false} (no free slot shown
 * is free), yet that thread's {@code size()} then says 1. It is the price of the design in the
 * class's notes ("No polling, and no shared count"): a slot and its mark are two words, changed
 * one after the other, and no count shared by every thread says ahead of them what the table
 * holds. An offer in progress at {@code close} is linearizable: it reads closed again once its
 * element is in and takes it back if the table closed meanwhile, so a poll after the close that
 * finds nothing means the offer returns {@code false}; {@link CasSlotsClosing} checks offer, poll
 * and close, and {@code NotLinearizable} the history that used to fail. {@code peek()} is left out: the table
 * documents it as weakly consistent.
 *
 * <p>The producers' keys and the consumers' search keys come from a deterministic sequence
 * instead of {@code ThreadLocalRandom} ({@link ModelCheckedHandoffs}, which says why the checks
 * stay meaningful).
 */
abstract class ParallelHashTableLincheckTest {

    final Handoff<Integer> handoff;

    ParallelHashTableLincheckTest(int capacity, String slots) {
        this.handoff = ModelCheckedHandoffs.parallelHashTable(capacity, slots);
    }

    /**
     * Always {@link MultisetSpec#ELEMENT}: a poll may return any element, and this way every choice
     * is the same. No parameter: Lincheck 2.34's {@code IntGen} with {@code conf = "7:7"} also
     * generates 8, 9, ... (its range grows past a one-value bound).
     */
    @Operation
    public boolean offer() {
        return handoff.offer(MultisetSpec.ELEMENT);
    }

    @Operation
    public Integer poll() {
        return handoff.poll();
    }

    /** The consumers' view: offer, poll, size, with room for every offer, no close. */
    abstract static class ConsumersView extends ParallelHashTableLincheckTest {
        ConsumersView(String slots) {
            super(MultisetSpec.MAX_OPERATIONS, slots);
        }

        @Operation
        public int size() {
            return handoff.size();
        }

        @Test
        void linearizableAgainstMultiset() {
            LinCheckerKt.check(LincheckSupport.modelChecking().sequentialSpecification(MultisetSpec.Roomy.class),
                    getClass());
        }
    }

    /**
     * offer, poll and close, with room for every offer: an offer that finds the table closed once
     * its element is in takes it back, so the close is linearizable too (size is left out: it may
     * count an element that is then taken back).
     */
    public static class CasSlotsClosing extends ParallelHashTableLincheckTest {
        public CasSlotsClosing() {
            super(MultisetSpec.MAX_OPERATIONS, "cas");
        }

        @Operation
        public void close() {
            handoff.close();
        }

        @Test
        void linearizableAgainstMultiset() {
            LinCheckerKt.check(LincheckSupport.modelChecking().sequentialSpecification(MultisetSpec.Roomy.class),
                    getClass());
        }
    }

    /** The papers' form, a monitor per slot. */
    public static class MonitorSlots extends ConsumersView {
        public MonitorSlots() {
            super("monitor");
        }
    }

    /** The lock-free form, VarHandle compare-and-set on one array. */
    public static class CasSlots extends ConsumersView {
        public CasSlots() {
            super("cas");
        }
    }

    /** The lock-free form with search=cursor: walks from each thread's own cursor, no summary. */
    public static class CasSlotsCursorSearch extends ConsumersView {
        public CasSlotsCursorSearch() {
            super("cas,search=cursor");
        }
    }

    /**
     * The history in which the table is not linearizable, a fixed scenario on a table of
     * capacity 2 that the model checker must find failing (a test that expects a failure must be
     * able to fail: if the table became linearizable here, it says so), and the close history
     * that it must pass.
     */
    abstract static class NotLinearizable extends ParallelHashTableLincheckTest {
        NotLinearizable(String slots) {
            super(2, slots);
        }

        @Operation
        public void close() {
            handoff.close();
        }

        @Operation
        public int size() {
            return handoff.size();
        }

        /** Model-checks one scenario against a multiset of capacity 2, expecting a failure. */
        private String failureOf(ExecutionScenario scenario) {
            LincheckFailure failure = LinCheckerKt.checkImpl(LincheckSupport.modelChecking().iterations(0)
                    .addCustomScenario(scenario).sequentialSpecification(MultisetSpec.OfTwo.class), getClass());
            assertInstanceOf(IncorrectResultsFailure.class, failure, "model checking should find the history");
            System.out.println(getClass().getSimpleName() + ", not linearizable, as documented:\n" + failure);
            return failure.toString();
        }

        @Test
        void anOfferInProgressHasNotYetMarkedItsSlot() {
            String failure = failureOf(LincheckSupport.scenario(getClass(), List.of("offer"),
                    List.of("offer", "size"), List.of("offer")));
            assertTrue(failure.contains("offer(): false") && failure.contains("size(): 1"), failure);
        }

        @Test
        void anOfferInProgressAtCloseIsTakenBackOrSeen() {
            LincheckFailure failure = LinCheckerKt.checkImpl(LincheckSupport.modelChecking().iterations(0)
                    .addCustomScenario(LincheckSupport.scenario(getClass(), List.of(),
                            List.of("close", "poll"), List.of("offer")))
                    .sequentialSpecification(MultisetSpec.OfTwo.class), getClass());
            assertNull(failure, () -> "an offer at close should be linearizable:\n" + failure);
        }
    }

    /** The papers' form's histories. */
    public static class MonitorSlotsNotLinearizable extends NotLinearizable {
        public MonitorSlotsNotLinearizable() {
            super("monitor");
        }
    }

    /** The lock-free form's histories. */
    public static class CasSlotsNotLinearizable extends NotLinearizable {
        public CasSlotsNotLinearizable() {
            super("cas");
        }
    }
}
