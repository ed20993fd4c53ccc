/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.internal.waiting.Waiters;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_12

    Lesson 12: the lock-free fast paths of the ring (circular:N,core=ring, CircularBuffer.Core.RING). Puts and
    takes claim cells with a CAS and publish them with a release store of the cell's sequence;
    only waiting and the inside operations take the lock. Each race below has one actor on a
    fast path and one on another path that must agree with it:
      TwoProducers       two offers into a two-cell ring: both land, in two cells (no lost element);
      OfferPoll          an offer and a poll: the element is taken exactly once;
      SafePublication    the consumer of an element sees what its producer wrote before the offer;
      OfferRemove        an offer races remove(Object), which freezes the ring: both effects stay;
      PollRemove         a poll races remove(Object) of the same element: exactly one gets it;
      OfferClose         an offer races close(): the element is inside if and only if the offer
                         said so (the CLOSED bit in tail);
      TakeWakesOnPut, PutWakesOnTake, CloseWakesTake and their wait=spin twins: termination
                         tests, as in lesson 6, for the waiter count the fast paths read after
                         their CAS, with no fence of their own;
      TwoTakesWakeOnTwoPuts, TwoPutsWakeOnTwoTakes: two threads blocked on one side and a
                         burst of two on the other, which signals once: the woken thread must
                         pass the wake-up on (Waiters' one wake-up per burst).
    The arbiter drains what is left, so a lost or duplicated element shows as a FORBIDDEN count.

    Ties back to the BlockingQueue contract: an element put is taken exactly once, and
    "actions in a thread prior to placing an object into a BlockingQueue happen-before actions
    subsequent to the access or removal of that element from the BlockingQueue in another thread".
 */
public class Handoff_12_Ring {

    private Handoff_12_Ring() {
    }

    /** Polls everything left; returns the sum of their values (distinct powers of two). */
    static int drain(Handoff<Integer> h) {
        int sum = 0;
        for (Integer e; (e = h.poll()) != null; ) {
            sum += e;
        }
        return sum;
    }

    @JCStressTest
    @Outcome(id = "1, 1, 3", expect = ACCEPTABLE, desc = "both offers landed, each once")
    @Outcome(expect = FORBIDDEN, desc = "an offer was refused, lost or landed twice")
    @State
    public static class TwoProducers {
        private final Handoff<Integer> h = Handoffs.create("circular:2,core=ring");

        @Actor
        public void producer1(III_Result r) {
            r.r1 = h.offer(1) ? 1 : 0;
        }

        @Actor
        public void producer2(III_Result r) {
            r.r2 = h.offer(2) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = drain(h);
        }
    }

    @JCStressTest
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the poll took the element")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the poll came first; the element stays")
    @Outcome(expect = FORBIDDEN, desc = "the element was lost or taken twice")
    @State
    public static class OfferPoll {
        private final Handoff<Integer> h = Handoffs.create("circular:1,core=ring");

        @Actor
        public void producer() {
            h.offer(1);
        }

        @Actor
        public void consumer(II_Result r) {
            Integer e = h.poll();
            r.r1 = e == null ? 0 : e;
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = drain(h);
        }
    }

    /** An element with plain, non-final fields: only a happens-before edge makes them visible. */
    static final class Box {
        int a;
        int b;
    }

    @JCStressTest
    @Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "polled before the offer")
    @Outcome(id = "1, 2, 42", expect = ACCEPTABLE, desc = "took the element and saw everything written before the offer")
    @Outcome(expect = FORBIDDEN, desc = "took the element but saw stale fields")
    @State
    public static class SafePublication {
        private final Handoff<Box> h = Handoffs.create("circular:1,core=ring");
        private int before;

        @Actor
        public void producer() {
            before = 42;
            Box x = new Box();
            x.a = 1;
            x.b = 2;
            h.offer(x);
        }

        @Actor
        public void consumer(III_Result r) {
            Box x = h.poll();
            r.r1 = x == null ? -1 : x.a;
            r.r2 = x == null ? -1 : x.b;
            r.r3 = x == null ? -1 : before;
        }
    }

    @JCStressTest
    @Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "1 removed, 2 inserted and left")
    @Outcome(expect = FORBIDDEN, desc = "the removal or the offer was lost, or an element duplicated")
    @State
    public static class OfferRemove {
        private final Handoff<Integer> h = Handoffs.create("circular:2,core=ring");

        {
            h.add(1);
        }

        @Actor
        public void producer() {
            h.offer(2);
        }

        @Actor
        public void remover(II_Result r) {
            r.r1 = h.remove(1) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = drain(h);
        }
    }

    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the poll took the element")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "remove(Object) took the element")
    @Outcome(expect = FORBIDDEN, desc = "both or neither got it")
    @State
    public static class PollRemove {
        private final Handoff<Integer> h = Handoffs.create("circular:2,core=ring");

        {
            h.add(1);
        }

        @Actor
        public void consumer(III_Result r) {
            Integer e = h.poll();
            r.r1 = e == null ? 0 : e;
        }

        @Actor
        public void remover(III_Result r) {
            r.r2 = h.remove(1) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = drain(h);
        }
    }

    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "offered before the close: inside")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "refused after the close: not inside")
    @Outcome(expect = FORBIDDEN, desc = "the offer's answer and the contents disagree")
    @State
    public static class OfferClose {
        private final Handoff<Integer> h = Handoffs.create("circular:1,core=ring");

        @Actor
        public void producer(II_Result r) {
            r.r1 = h.offer(1) ? 1 : 0;
        }

        @Actor
        public void closer() {
            h.close();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = drain(h);
        }
    }

    // ---- wake-ups: termination tests, as in lesson 6 ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class TakeWakesOnPut {
        private final Handoff<Integer> h = Handoffs.create("circular:1,core=ring");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() {
            h.offer(1);
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class PutWakesOnTake {
        private final Handoff<Integer> h = Handoff_06_WakeUps.full("circular:1,core=ring");

        @Actor
        public void producer() throws InterruptedException {
            h.put(1);
        }

        @Signal
        public void consumer() {
            h.poll();
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class SpinningTakeWakesOnPut {
        private final Handoff<Integer> h = Handoffs.create("circular:1,core=ring,wait=spin");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() {
            h.offer(1);
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class SpinningPutWakesOnTake {
        private final Handoff<Integer> h = Handoff_06_WakeUps.full("circular:1,core=ring,wait=spin");

        @Actor
        public void producer() throws InterruptedException {
            h.put(1);
        }

        @Signal
        public void consumer() {
            h.poll();
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked take threw HandoffClosedException")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: close lost the wake-up")
    @State
    public static class CloseWakesTake {
        private final Handoff<Integer> h = Handoffs.create("circular:1,core=ring");

        @Actor
        public void consumer() throws InterruptedException {
            try {
                h.take();
            } catch (dev.handoff.HandoffClosedException expected) {
                // closed and empty
            }
        }

        @Signal
        public void closer() {
            h.close();
        }
    }

    /** A thread started now that runs body, for a second blocked thread beside the actor. */
    static Thread blockedBeside(BlockedBody body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException("never interrupted", e);
            }
        });
        t.setDaemon(true); // a STALE outcome must not keep the harness alive
        t.start();
        return t;
    }

    /** What the second blocked thread runs. */
    interface BlockedBody {
        void run() throws InterruptedException;
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "both blocked takes returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "a take hangs: the burst's wake-up was not passed on")
    @Outcome(expect = FORBIDDEN, desc = "a blocked thread threw")
    @State
    public static class TwoTakesWakeOnTwoPuts {
        private final Handoff<Integer> h = Handoffs.create("circular:2,core=ring");
        private final Thread other = blockedBeside(h::take);

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
            other.join();
        }

        @Signal
        public void producer() {
            h.offer(1);
            h.offer(2);
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "both blocked puts returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "a put hangs: the burst's wake-up was not passed on")
    @Outcome(expect = FORBIDDEN, desc = "a blocked thread threw")
    @State
    public static class TwoPutsWakeOnTwoTakes {
        private final Handoff<Integer> h = Handoff_06_WakeUps.full("circular:2,core=ring");
        private final Thread other = blockedBeside(() -> h.put(1));

        @Actor
        public void producer() throws InterruptedException {
            h.put(2);
            other.join();
        }

        @Signal
        public void consumer() {
            h.poll();
            h.poll();
        }
    }
}
