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
import org.openjdk.jcstress.infra.results.ZI_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson:
        $ /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar jcstress-tests/target/jcstress.jar \
              -t Handoff_09_PipeExpiringPoll -m quick

    Lesson 9: the pipe's edge. A pipe holds nothing: a producer hands its element directly to a
    worker that is waiting in take() or a timed poll. The dangerous moment is a worker whose timed
    poll is expiring just as a producer picks it: both race to move the worker's status out of
    WAITING, the worker to give up, the producer to hand over. Exactly one may win. If the
    producer wins, the worker must return the element even though its time is up; if the worker
    wins, the producer's offer must fail and keep the element (or go on to another worker).

    A worker polls with a 10 us timeout while a producer offers, either without waiting
    (NonBlockingOffer: succeeds only if the worker is waiting at that instant) or with the same
    10 us timeout (TimedOffer). r1: did the offer succeed; r2: what the worker's poll returned
    (0 for nothing). "true, 1" and "false, 0" are the two honest outcomes; "true, 0" is an
    element lost (the producer was told it was handed over, the worker returned without it), and
    "false, 1" an element delivered although the producer still has it (delivered twice, once
    handed and once retried elsewhere).

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

    @JCStressTest
    @Outcome(id = "true, 1", expect = ACCEPTABLE, desc = "handed over: the worker returned the element")
    @Outcome(id = "false, 0", expect = ACCEPTABLE, desc = "missed each other: the producer keeps the element")
    @Outcome(id = "true, 0", expect = FORBIDDEN, desc = "lost: the offer succeeded but the worker returned nothing")
    @Outcome(id = "false, 1", expect = FORBIDDEN, desc = "twice: the worker got an element the producer still holds")
    @State
    public static class NonBlockingOffer {
        private final Handoff<Integer> pipe = Handoffs.create("pipe:1");

        @Actor
        public void worker(ZI_Result r) {
            r.r2 = value(Timed.poll(pipe, TIMEOUT_MICROS));
        }

        @Actor
        public void producer(ZI_Result r) {
            r.r1 = pipe.offer(1);
        }
    }

    @JCStressTest
    @Outcome(id = "true, 1", expect = ACCEPTABLE, desc = "handed over: the worker returned the element")
    @Outcome(id = "false, 0", expect = ACCEPTABLE, desc = "missed each other: the producer keeps the element")
    @Outcome(id = "true, 0", expect = FORBIDDEN, desc = "lost: the offer succeeded but the worker returned nothing")
    @Outcome(id = "false, 1", expect = FORBIDDEN, desc = "twice: the worker got an element the producer still holds")
    @State
    public static class TimedOffer {
        private final Handoff<Integer> pipe = Handoffs.create("pipe:1");

        @Actor
        public void worker(ZI_Result r) {
            r.r2 = value(Timed.poll(pipe, TIMEOUT_MICROS));
        }

        @Actor
        public void producer(ZI_Result r) {
            r.r1 = Timed.offer(pipe, 1, TIMEOUT_MICROS);
        }
    }
}
