/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_09

    Lesson 9: the pipe's edge. A pipe holds nothing: a producer hands its element directly to a
    worker that is waiting in take() or a timed poll. The dangerous moment is a worker whose timed
    poll is expiring just as a producer picks it: both race to move the worker's status out of
    WAITING, the worker to give up, the producer to hand over. Exactly one may win. If the
    producer wins, the worker must return the element even though its time is up; if the worker
    wins, the producer's offer must fail and keep the element (or go on to another worker).

    A worker polls with a 10 us timeout while a producer offers, either without waiting
    (NonBlockingOffer: succeeds only if the worker is waiting at that instant) or with the same
    10 us timeout (TimedOffer). r1: did the offer succeed (1) or not (0); r2: what the worker's
    poll returned (0 for nothing). "1, 1" and "0, 0" are the two honest outcomes; "1, 0" is an
    element lost (the producer was told it was handed over, the worker returned without it), and
    "0, 1" an element delivered although the producer still has it (delivered twice, once
    handed and once retried elsewhere).

    r3 and r4 say whether the run hit the edge at all, from the pipe's own counters (spec
    pipe:1,stats): r3 = searchConflicts, a worker whose give-up lost to a producer and so returned
    the element after its time was up; r4 = insertConflicts, a producer that saw the worker
    waiting but lost it to the worker's give-up. Those outcomes are marked Interesting: they are
    the race this lesson is about, and the observed counts show how often it was reached.

    Ties back to the BlockingQueue contract: offer() returning true means the element was
    transferred; poll(timeout) returning null means nothing was.
 */
public class Handoff_09_PipeExpiringPoll {

    private Handoff_09_PipeExpiringPoll() {
    }

    static final long TIMEOUT_MICROS = 10;

    static int value(Integer e) {
        return e == null ? 0 : e;
    }

    static int bit(boolean b) {
        return b ? 1 : 0;
    }

    /** r3, r4: whether the worker's give-up lost to the producer, or the producer's CAS to it. */
    static void edge(Handoff<Integer> pipe, IIII_Result r) {
        r.r3 = (int) pipe.stats().searchConflicts();
        r.r4 = (int) pipe.stats().insertConflicts();
    }

    @JCStressTest
    @Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "handed over")
    @Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "handed over at the edge: the worker's give-up lost, it returned the element")
    @Outcome(id = "0, 0, 0, 0", expect = ACCEPTABLE, desc = "missed each other: the producer keeps the element")
    @Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "missed at the edge: the producer saw the worker waiting, its give-up won")
    @Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "lost: the offer succeeded but the worker returned nothing")
    @Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "twice: the worker got an element the producer still holds")
    @Outcome(expect = FORBIDDEN, desc = "counters disagree with the outcome")
    @State
    public static class NonBlockingOffer {
        private final Handoff<Integer> pipe = Handoffs.create("pipe:1,stats");

        @Actor
        public void worker(IIII_Result r) {
            r.r2 = value(Timed.poll(pipe, TIMEOUT_MICROS));
        }

        @Actor
        public void producer(IIII_Result r) {
            r.r1 = bit(pipe.offer(1));
        }

        @Arbiter
        public void edge(IIII_Result r) {
            Handoff_09_PipeExpiringPoll.edge(pipe, r);
        }
    }

    @JCStressTest
    @Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "handed over")
    @Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "handed over at the edge: the worker's give-up lost, it returned the element")
    @Outcome(id = "0, 0, 0, 0", expect = ACCEPTABLE, desc = "missed each other: the producer keeps the element")
    @Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "missed at the edge: the producer saw the worker waiting, its give-up won")
    @Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "lost: the offer succeeded but the worker returned nothing")
    @Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "twice: the worker got an element the producer still holds")
    @Outcome(expect = FORBIDDEN, desc = "counters disagree with the outcome")
    @State
    public static class TimedOffer {
        private final Handoff<Integer> pipe = Handoffs.create("pipe:1,stats");

        @Actor
        public void worker(IIII_Result r) {
            r.r2 = value(Timed.poll(pipe, TIMEOUT_MICROS));
        }

        @Actor
        public void producer(IIII_Result r) {
            r.r1 = bit(Timed.offer(pipe, 1, TIMEOUT_MICROS));
        }

        @Arbiter
        public void edge(IIII_Result r) {
            Handoff_09_PipeExpiringPoll.edge(pipe, r);
        }
    }
}
