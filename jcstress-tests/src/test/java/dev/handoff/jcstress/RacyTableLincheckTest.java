/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.strategy.IncorrectResultsFailure;
import org.jetbrains.kotlinx.lincheck.strategy.LincheckFailure;
import org.junit.jupiter.api.Test;

/**
 * Lincheck catches the racy twin of lesson 1 too: the two-slot table whose insert is the papers'
 * check-then-set is not linearizable against a counting table of two slots, and model checking
 * finds the interleaving (two inserts both see slot 0 empty, both set it, both report success,
 * and the table then counts one element). Its fixed twin, the same table with compare-and-set,
 * passes the same check. A test that expects a failure must be able to fail: if Lincheck stopped
 * finding this bug, the first test fails.
 */
class RacyTableLincheckTest {

    /** insert and count of one of lesson 1's two-slot tables; the twins differ only in the table. */
    abstract static class TwoSlotsOperations {
        private final Handoff_01_LostElement.TwoSlots table;

        TwoSlotsOperations(Handoff_01_LostElement.TwoSlots table) {
            this.table = table;
        }

        @Operation
        public boolean insert() {
            return table.insert(1);
        }

        @Operation
        public int count() {
            return table.count();
        }
    }

    /** {@code Handoff_01_LostElement.FlawedTwoSlots}: the papers' check-then-set. */
    public static class RacyTableOperations extends TwoSlotsOperations {
        public RacyTableOperations() {
            super(new Handoff_01_LostElement.FlawedTwoSlots());
        }
    }

    /** {@code Handoff_01_LostElement.CasTwoSlots}, the fix. */
    public static class TableOperations extends TwoSlotsOperations {
        public TableOperations() {
            super(new Handoff_01_LostElement.CasTwoSlots());
        }
    }

    /** Two slots, counted: an insert succeeds while one is free, and count says how many are taken. */
    public static class TwoSlotsSpec {
        private int taken;

        public boolean insert() {
            if (taken == 2) {
                return false;
            }
            taken++;
            return true;
        }

        public int count() {
            return taken;
        }
    }

    @Test
    void lincheckFindsTheRacyTableNotLinearizable() {
        LincheckFailure failure = LinCheckerKt.checkImpl(
                LincheckSupport.modelChecking().sequentialSpecification(TwoSlotsSpec.class).minimizeFailedScenario(false),
                RacyTableOperations.class);
        assertInstanceOf(IncorrectResultsFailure.class, failure,
                "model checking should find the check-then-set race of the racy table");
        System.out.println("Lincheck on the racy table of lesson 1, as expected:\n" + failure);
    }

    @Test
    void theFixedTableIsLinearizable() {
        assertNull(LinCheckerKt.checkImpl(
                LincheckSupport.modelChecking().sequentialSpecification(TwoSlotsSpec.class), TableOperations.class));
    }
}
