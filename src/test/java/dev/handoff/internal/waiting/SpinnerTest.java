/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The spin policy's rules, each as a decision of {@link Spinner#begin()}: no timing involved. */
class SpinnerTest {

    @Test
    void aVirtualThreadNeverSpins() throws InterruptedException {
        Spinner spinner = new Spinner();
        AtomicInteger rounds = new AtomicInteger(-1);
        Thread.ofVirtual().start(() -> rounds.set(spinner.begin())).join();
        assertEquals(0, rounds.get());
    }

    @Test
    void oneThreadOfASideSpinsAtATime() throws InterruptedException {
        assumeTrue(Spinner.MAX_SPINNERS >= 1, "one CPU: nobody spins");
        Spinner spinner = new Spinner();
        assertEquals(Spinner.ROUNDS, spinner.begin(7));
        assertEquals(7, spinner.holder());
        AtomicInteger second = new AtomicInteger(-1);
        Thread.ofPlatform().start(() -> second.set(spinner.begin())).join();
        assertEquals(0, second.get(), "the side's spinner holds the gate");
        spinner.end(true);
        assertEquals(Spinner.NONE, spinner.holder());
    }

    @Test
    void fourEmptySpinsStopTheSpinningAndAProbeThatPaysRestoresIt() {
        assumeTrue(Spinner.MAX_SPINNERS >= 1, "one CPU: nobody spins");
        Spinner spinner = new Spinner();
        assertEquals(4, emptySpinsToZero(spinner), "four empty spins in a row stop the spinning");
        int parkedAtOnce = 0;
        int probe;
        while ((probe = spinner.begin()) == 0) {
            parkedAtOnce++;
        }
        assertEquals(Spinner.PROBE_EVERY - 1, parkedAtOnce, "waits that park at once between probes");
        assertEquals(Spinner.PROBE_ROUNDS, probe);
        spinner.end(true); // the probe paid: spinning resumes from half a full spin and a step
        assertEquals(Spinner.ROUNDS / 2 + Spinner.STEP, spinner.budget());
        spinner.end(spinner.begin() > 0); // one more that pays: a full spin
        assertEquals(Spinner.ROUNDS, spinner.budget());
        assertEquals(Spinner.ROUNDS, spinner.begin());
        spinner.end(false);
        assertEquals(Spinner.ROUNDS - Spinner.STEP, spinner.budget(), "one empty spin costs a quarter");
        spinner.end(spinner.begin() > 0); // and one that pays gives it back
        assertEquals(Spinner.ROUNDS, spinner.budget());
    }

    @Test
    void aLatencyFirstSpinnerAtZeroGlancesOnEveryWaitAndProbesLongerThanAFullSpin() {
        assumeTrue(Spinner.MAX_SPINNERS >= 1, "one CPU: nobody spins");
        Spinner spinner = Spinner.latencyFirst();
        assertEquals(4, emptySpinsToZero(spinner), "four empty spins in a row bring the budget to 0");
        for (int wait = 1; wait < Spinner.PROBE_EVERY; wait++) {
            assertEquals(Spinner.GLANCE_ROUNDS, spinner.begin(), "wait " + wait + " at 0 glances");
            spinner.end(false);
            assertEquals(0, spinner.budget(), "a glance that ends empty leaves the budget at 0");
        }
        assertEquals(Spinner.LONG_PROBE_ROUNDS, spinner.begin(), "every PROBE_EVERY-th wait at 0 probes");
        assertTrue(Spinner.LONG_PROBE_ROUNDS > Spinner.ROUNDS, "the probe outlasts a full spin");
        spinner.end(false);
        assertEquals(Spinner.GLANCE_ROUNDS, spinner.begin());
        spinner.end(true); // a glance that pays sets the spinning going again
        assertEquals(Spinner.ROUNDS / 2 + Spinner.STEP, spinner.budget());
        assertEquals(Spinner.ROUNDS / 2 + Spinner.STEP, spinner.begin(), "the next wait spins again");
        spinner.end(true);
    }

    /** Ends spins empty until the budget is 0, checking that each costs a step; returns how many. */
    private static int emptySpinsToZero(Spinner spinner) {
        int failures = 0;
        while (spinner.budget() > 0) {
            assertEquals(Spinner.ROUNDS - failures * Spinner.STEP, spinner.begin());
            spinner.end(false);
            failures++;
        }
        return failures;
    }

    @Test
    void aSpinLooksUntilItsConditionHoldsAndCountsAsPaid() {
        assumeTrue(Spinner.MAX_SPINNERS >= 1, "one CPU: nobody spins");
        Spinner spinner = new Spinner();
        int[] looks = {0};
        int answer = spinner.spin(looks, 3L, (counted, at) -> ++counted[0] == at, null, 0, 1);
        assertEquals(Spinner.CAME, answer);
        assertEquals(3, looks[0], "the first look, then one per round until the third holds");
        assertEquals(Spinner.ROUNDS, spinner.budget(), "a spin that paid keeps the full budget");
        assertEquals(Spinner.NONE, spinner.holder(), "the gate is left open");
    }

    @Test
    void aSpinThatRunsItsRoundsEmptyLooksEveryNthRoundAndCostsAStep() {
        assumeTrue(Spinner.MAX_SPINNERS >= 1, "one CPU: nobody spins");
        Spinner spinner = new Spinner();
        int[] looks = {0};
        int answer = spinner.spin(looks, 0L, (counted, at) -> ++counted[0] < 0, null, 7, 8);
        assertEquals(Spinner.MISSED, answer);
        assertEquals(1 + Spinner.ROUNDS / 8, looks[0], "a look first, then one every 8 rounds");
        assertEquals(Spinner.ROUNDS - Spinner.STEP, spinner.budget());
        assertEquals(Spinner.NONE, spinner.holder());
    }

    @Test
    void aSpinThatGivesUpEndsAtOnceAndCountsAsNotPaid() {
        assumeTrue(Spinner.MAX_SPINNERS >= 1, "one CPU: nobody spins");
        Spinner spinner = new Spinner();
        int[] looks = {0};
        int answer = spinner.spin(looks, 4L, (counted, at) -> ++counted[0] < 0, (counted, at) -> counted[0] == at, 0, 1);
        assertEquals(Spinner.MISSED, answer);
        assertEquals(4, looks[0], "it gives up after the fourth look");
        assertEquals(Spinner.ROUNDS - Spinner.STEP, spinner.budget(), "a spin given up did not pay");
        assertTrue(spinner.spinUntil(looks, 0L, (counted, at) -> true, (counted, at) -> true),
                "what the thread waits for wins over giving up when both hold");
    }

    @Test
    void aVirtualThreadsSpinIsRefusedWithoutALookAndItsWaitForAPartnerLooksOnce() throws InterruptedException {
        Spinner spinner = new Spinner();
        int[] looks = {0};
        AtomicInteger answer = new AtomicInteger(-1);
        AtomicInteger partnerCame = new AtomicInteger(-1);
        Thread.ofVirtual().start(() -> {
            answer.set(spinner.spin(looks, 0L, (counted, at) -> ++counted[0] < 0, null, 0, 1));
            partnerCame.set(Spinner.spinForPartner(looks, 0L, (counted, at) -> ++counted[0] < 0) ? 1 : 0);
        }).join();
        assertEquals(Spinner.REFUSED, answer.get());
        assertEquals(0, partnerCame.get());
        assertEquals(1, looks[0], "only the partner wait's one look");
        assertEquals(Spinner.ROUNDS, spinner.budget(), "a refused spin teaches the budget nothing");
    }

    @Test
    void aPlatformThreadsWaitForAPartnerLooksForItsRoundsAndStopsWhenItCame() {
        int[] looks = {0};
        assertEquals(false, Spinner.spinForPartner(looks, 0L, (counted, at) -> ++counted[0] < 0));
        assertEquals(1 + Spinner.PARTNER_ROUNDS, looks[0]);
        looks[0] = 0;
        assertTrue(Spinner.spinForPartner(looks, 5L, (counted, at) -> ++counted[0] == at));
        assertEquals(5, looks[0]);
    }

    @Test
    void oneCpuNeverSpinsAndMoreCpusSpinOnePerCpu() {
        assertEquals(0, Spinner.maxSpinners(1));
        assertEquals(2, Spinner.maxSpinners(2));
        assertEquals(64, Spinner.maxSpinners(64));
    }

    @Test
    void noMoreThreadsSpinThanCpus() {
        Spinner[] sides = new Spinner[Spinner.MAX_SPINNERS + 1];
        int spinning = 0;
        for (int i = 0; i < sides.length; i++) {
            sides[i] = new Spinner();
            if (sides[i].begin() > 0) {
                spinning++;
            } else {
                sides[i] = null;
            }
        }
        try {
            // Threads left spinning by other tests can only lower the count, never raise it.
            assertTrue(spinning <= Spinner.MAX_SPINNERS, spinning + " spinners");
            assertEquals(null, sides[sides.length - 1], "one more than the limit parks at once");
        } finally {
            for (Spinner s : sides) {
                if (s != null) {
                    s.end(true);
                }
            }
        }
    }

    @Test
    void aWaitForAPartnerParksOnAVirtualThreadAndEndsWhenThePartnerIsDone() throws InterruptedException {
        assertAWaitForAPartnerParks(Thread.ofVirtual(), false);
    }

    @Test
    void aWaitForAPartnerParksOnAPlatformThreadAfterItsSpinAndYields() throws InterruptedException {
        assertAWaitForAPartnerParks(Thread.ofPlatform(), false);
    }

    @Test
    void aWaitForAPartnerKeepsASetInterruptAndStillParks() throws InterruptedException {
        assertAWaitForAPartnerParks(Thread.ofVirtual(), true);
    }

    @Test
    void theParksOfAWaitForAPartnerDoubleUpToTheirLongest() {
        assertEquals(Spinner.PARTNER_PARK_MIN_NANOS, Spinner.partnerParkNanos(0));
        assertEquals(2 * Spinner.PARTNER_PARK_MIN_NANOS, Spinner.partnerParkNanos(1));
        assertEquals(Spinner.PARTNER_PARK_MAX_NANOS, Spinner.partnerParkNanos(30));
        assertEquals(Spinner.PARTNER_PARK_MAX_NANOS, Spinner.partnerParkNanos(Integer.MAX_VALUE));
    }

    /**
     * A thread waits with {@link Spinner#pauseForPartner(int)} until a flag is set; it must be
     * seen parked (TIMED_WAITING) while the flag is not set (a loop of yields shows RUNNABLE for
     * ever), end once it is set, and keep an interrupt status it had.
     */
    private static void assertAWaitForAPartnerParks(Thread.Builder builder, boolean interrupted)
            throws InterruptedException {
        AtomicInteger partnerDone = new AtomicInteger();
        AtomicInteger interruptKept = new AtomicInteger(-1);
        Thread waiter = builder.start(() -> {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            for (int round = 0; partnerDone.get() == 0; round++) {
                Spinner.pauseForPartner(round);
            }
            interruptKept.set(Thread.currentThread().isInterrupted() ? 1 : 0);
        });
        long deadline = System.nanoTime() + 10_000_000_000L;
        boolean parked = false;
        while (!parked && System.nanoTime() < deadline) {
            parked = waiter.getState() == Thread.State.TIMED_WAITING;
            Thread.sleep(1);
        }
        partnerDone.set(1);
        waiter.join();
        assertTrue(parked, "the waiter was never seen parked while its partner was not done");
        assertEquals(interrupted ? 1 : 0, interruptKept.get(), "the interrupt status is what it was");
    }
}
