/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_02

    Lesson 2: the stranded element, or a cell published through a plain field. A handoff that
    wants to skip locks on its fast path lets a producer and a consumer meet through two fields:

        producer:  cell = e;          then  if (!waiting) skip the wake-up
        consumer:  waiting = true;    then  if (cell == null) go to sleep

    Each side writes its own field and then checks the other's: a check-then-act on each side.
    If the producer sees no waiter AND the consumer sees no element, the consumer sleeps with an
    element inside that nobody will tell it about: the element is stranded.

    With plain fields this happens on x86 too. x86 (TSO) keeps stores in order and loads in
    order, but a store may wait in the core's store buffer while a later load runs: each thread's
    store is still invisible to the other when each thread loads. This store->load reordering is
    the only one x86 hardware shows; the JIT compiler may add others for plain fields. AArch64
    (and POWER) additionally reorder store->store and load->load, so there a consumer could also
    see the cell but not the fields of the element in it (message passing, Handoff_05), which x86
    hardware hides.

    Release/acquire is not enough here: it orders a store after earlier accesses and a load before
    later ones, never a store before a later load. The fix is volatile (sequentially consistent)
    on both fields: the JMM then forbids both threads missing each other's write.

    r1: the producer saw the waiter; r2: the consumer saw the element.

    Observed on 2026-11-22 (AMD EPYC, 2 CPUs, Temurin 25.0.3, jcstress 0.16, short mode):
        test                   false, false (stranded)   false, true   true, false   true, true
        FlawedPlainFields      13,987 Interesting        1,414,810     232,181       26
        FixedVolatileFields    0 Forbidden               1,733,866     5,137,837     42,421
    (x86-TSO, store buffer, Dekker handshake: docs/teaching.md, "Glossary".)

    Ties back to the BlockingQueue contract: a take() that blocks must return once an element is
    put; here the element was put and the consumer went to sleep anyway.
 */
public class Handoff_02_StrandedElement {

    private Handoff_02_StrandedElement() {
    }

    /**
     * Deliberately wrong: {@code cell} and {@code waiting} are plain fields (the two lines marked
     * {@code <- plain}), so each thread's store may still sit in its store buffer when the other
     * thread loads, and both can miss each other.
     */
    @JCStressTest
    @Outcome(id = "false, false", expect = ACCEPTABLE_INTERESTING, desc = "both missed: the consumer sleeps next to an element nobody announces")
    @Outcome(id = {"true, false", "false, true", "true, true"}, expect = ACCEPTABLE, desc = "at least one side saw the other")
    @State
    public static class FlawedPlainFields {
        private Integer cell;          // <- plain
        private boolean waiting;       // <- plain

        @Actor
        public void producer(ZZ_Result r) {
            cell = 1;
            r.r1 = waiting;            // false: the producer would not wake anyone
        }

        @Actor
        public void consumer(ZZ_Result r) {
            waiting = true;
            r.r2 = cell != null;       // false: the consumer would go to sleep
        }
    }

    /** The fix: both fields volatile, so the four accesses take one total order. */
    @JCStressTest
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "both missed: the consumer sleeps next to an element nobody announces")
    @Outcome(id = {"true, false", "false, true", "true, true"}, expect = ACCEPTABLE, desc = "at least one side saw the other")
    @State
    public static class FixedVolatileFields {
        private volatile Integer cell;     // the fix
        private volatile boolean waiting;  // the fix

        @Actor
        public void producer(ZZ_Result r) {
            cell = 1;
            r.r1 = waiting;
        }

        @Actor
        public void consumer(ZZ_Result r) {
            waiting = true;
            r.r2 = cell != null;
        }
    }
}
