/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_11

    Lesson 11: the pipe's line of waiting producers. A producer that finds no waiting worker does
    not wait for one to appear: it waits in a line with its element, and a worker that arrives
    takes the element from the line, so whichever side comes second completes the handoff. Three
    things could go wrong, one per test:

    - WorkerServesTheLine (termination): the actor is a producer whose put() finds no worker and
      waits in line; the signal, a millisecond later, is a worker's take(). The put must return:
      the worker that took its element must wake it.
    - ArriveTogether: a producer's offer and a worker's poll start together, both willing to wait
      a second. The dangerous interleaving: the worker finds the line empty and starts waiting in
      its slot just as the producer, having found no waiting slot, joins the line; each has
      missed the other. The pipe pairs them as a Dekker pair: the producer writes the line's size
      and then reads every slot's status, waking a waiting worker; the worker writes its status
      and then reads the line's size. So one of them sees the other. r1: the offer succeeded (1);
      r2: the value field the worker read from the element it got (0 for none). "1, 42" is the
      only honest outcome: "0, 0" means both waited the whole second side by side, a lost
      wake-up; "1, 0" and "0, 42" an element lost or delivered although the offer failed; "1, 7"
      an element seen without the producer's write of its field (unsafe publication).
    - (The race of a producer whose timed offer expires in line while a worker takes its
      element is Handoff_09's TimedOffer: its producer waits in the line.)

    Ties back to the BlockingQueue contract: a put or offer returns once a consumer has the
    element, and "actions in a thread prior to placing an object into a BlockingQueue
    happen-before actions subsequent to the access or removal of that element".
 */
public class Handoff_11_PipeLine {

    private Handoff_11_PipeLine() {
    }

    /** Long enough that the two sides of ArriveTogether always overlap. */
    static final long ONE_SECOND_MICROS = 1_000_000;

    /** An element whose field the producer writes after construction, before handing it over. */
    static final class Payload {
        int value = 7;
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "put() returned: the worker took its element and woke it")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "put() hangs: the producer in line was not woken")
    @Outcome(expect = FORBIDDEN, desc = "put() threw")
    @State
    public static class WorkerServesTheLine {
        private final Handoff<Integer> pipe = Handoffs.create("pipe:1");

        @Actor
        public void producer() throws InterruptedException {
            pipe.put(1);
        }

        @Signal
        public void worker() {
            try {
                pipe.take();
            } catch (InterruptedException e) {
                throw new IllegalStateException("the signal is never interrupted", e);
            }
        }
    }

    @JCStressTest
    @Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "handed over, the field visible")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost wake-up: both waited a second, each unseen by the other")
    @Outcome(id = "1, 7", expect = FORBIDDEN, desc = "unsafe publication: the element without the producer's write")
    @Outcome(expect = FORBIDDEN, desc = "lost or delivered twice")
    @State
    public static class ArriveTogether {
        private final Handoff<Payload> pipe = Handoffs.create("pipe:1");

        @Actor
        public void producer(II_Result r) {
            Payload p = new Payload();
            p.value = 42;
            r.r1 = Timed.offer(pipe, p, ONE_SECOND_MICROS) ? 1 : 0;
        }

        @Actor
        public void worker(II_Result r) {
            Payload p = Timed.poll(pipe, ONE_SECOND_MICROS);
            r.r2 = p == null ? 0 : p.value;
        }
    }
}
