/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.HandoffClosedException;
import dev.handoff.Handoffs;
import dev.handoff.Importance;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_10

    Lesson 10: importance classes keep every promise of lessons 1 and 6. A handoff built with
    classes=2 is two handoffs of one kind and one count of the elements consumers may take
    (ClassedHandoff; the pipe instead keeps its waiting producers per class). Two new places
    where an element could be lost or a wake-up missed: between a producer's insert into its
    class and its publish of the count, and between a consumer's reservation and the class it
    finds the element in.

      NoLostElement     the handoff holds A (class 0) from the start; a producer offers B
                        (class 1) while a consumer polls twice; the arbiter drains what is left.
                        Each of A and B is returned exactly once, and the consumer's first poll
                        returns A: class 0 is non-empty when it looks, and a take that is not a
                        fair one serves the most important non-empty class.
      TakeWakesOnPut    a consumer blocked in take() on an empty handoff returns once a producer
                        puts an element of class 1, the least important (the pipe: once a
                        producer of class 1 offers while the worker waits).
      CloseWakesPut     a producer blocked in put() because its class is full is woken by
                        close() and throws HandoffClosedException.

    r1: the consumer's first poll, r2: its second (0 nothing, 1 A, 2 B); r3: what the arbiter
    found left (1 A, 2 B, 3 both, 0 nothing). STALE is FORBIDDEN, as in lesson 6.

    Observed on 2026-11-23 (AMD EPYC, 2 CPUs, Temurin 25.0.3, jcstress 0.16, short mode); no
    other outcome was seen:
        ClassedCircularNoLostElement      1, 2, 0: 1,226,937   1, 0, 2: 93,039
        ClassedLockSplitNoLostElement     1, 2, 0: 1,248,262   1, 0, 2: 75,814
        ClassedHashTableNoLostElement     1, 2, 0: 1,137,534   1, 0, 2: 117,388
        Classed{Circular,LockSplit,HashTable,Pipe}TakeWakesOnPut   TERMINATED 46, 39, 35, 94
        ClassedCircularCloseWakesPut      TERMINATED 67

    Ties back to the BlockingQueue contract (offer returning true means the element is inside
    and a later take returns it; take "waits if necessary until an element becomes available")
    and to the guarantee of importance classes (dev.handoff.Importance).
 */
public class Handoff_10_ClassedHandoffs {

    private Handoff_10_ClassedHandoffs() {
    }

    /** An element of a given class. */
    record Job(int importanceClass, int id) implements Importance {
    }

    static final Job A = new Job(0, 1);
    static final Job B = new Job(1, 2);

    /** The pipe's signal waits for the blocked worker at most this long (it is already there). */
    static final long SIGNAL_SECONDS = 10;

    /** A handoff of two classes holding A, of one element per class. */
    static Handoff<Job> holdingA(String kind) {
        Handoff<Job> h = Handoffs.create(kind + ":1,classes=2");
        h.add(A);
        return h;
    }

    /** 0 for null, else the element's id. */
    static int id(Job j) {
        return j == null ? 0 : j.id();
    }

    /** What is left in h, as a bit mask of ids. */
    static int left(Handoff<Job> h) {
        int mask = 0;
        for (Job j; (j = h.poll()) != null; ) {
            mask |= j.id();
        }
        return mask;
    }

    // ---- no lost element: one class-1 producer, one consumer, A inside from the start ----

    @JCStressTest
    @Outcome(id = "1, 2, 0", expect = ACCEPTABLE, desc = "A, then B: B arrived before the second poll")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "A, then nothing: B arrived after it, still inside")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or returned twice, or B taken while A waited in class 0")
    @State
    public static class ClassedCircularNoLostElement {
        private final Handoff<Job> h = holdingA("circular");

        @Actor
        public void producer() {
            h.offer(B);
        }

        @Actor
        public void consumer(III_Result r) {
            r.r1 = id(h.poll());
            r.r2 = id(h.poll());
        }

        @Arbiter
        public void inside(III_Result r) {
            r.r3 = left(h);
        }
    }

    @JCStressTest
    @Outcome(id = "1, 2, 0", expect = ACCEPTABLE, desc = "A, then B: B arrived before the second poll")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "A, then nothing: B arrived after it, still inside")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or returned twice, or B taken while A waited in class 0")
    @State
    public static class ClassedLockSplitNoLostElement {
        private final Handoff<Job> h = holdingA("lock-split");

        @Actor
        public void producer() {
            h.offer(B);
        }

        @Actor
        public void consumer(III_Result r) {
            r.r1 = id(h.poll());
            r.r2 = id(h.poll());
        }

        @Arbiter
        public void inside(III_Result r) {
            r.r3 = left(h);
        }
    }

    @JCStressTest
    @Outcome(id = "1, 2, 0", expect = ACCEPTABLE, desc = "A, then B: B arrived before the second poll")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "A, then nothing: B arrived after it, still inside")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or returned twice, or B taken while A waited in class 0")
    @State
    public static class ClassedHashTableNoLostElement {
        private final Handoff<Job> h = holdingA("pht");

        @Actor
        public void producer() {
            h.offer(B);
        }

        @Actor
        public void consumer(III_Result r) {
            r.r1 = id(h.poll());
            r.r2 = id(h.poll());
        }

        @Arbiter
        public void inside(III_Result r) {
            r.r3 = left(h);
        }
    }

    // ---- no lost wake-up: a consumer blocked in take, a producer of class 1 ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked consumer returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked consumer hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked consumer threw")
    @State
    public static class ClassedCircularTakeWakesOnPut {
        private final Handoff<Job> h = Handoffs.create("circular:1,classes=2");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() throws InterruptedException {
            h.put(B);
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked consumer returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked consumer hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked consumer threw")
    @State
    public static class ClassedLockSplitTakeWakesOnPut {
        private final Handoff<Job> h = Handoffs.create("lock-split:1,classes=2");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() throws InterruptedException {
            h.put(B);
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked consumer returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked consumer hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked consumer threw")
    @State
    public static class ClassedHashTableTakeWakesOnPut {
        private final Handoff<Job> h = Handoffs.create("pht:1,classes=2");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() throws InterruptedException {
            h.put(B);
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked worker returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked worker hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked worker threw")
    @State
    public static class ClassedPipeTakeWakesOnPut {
        private final Handoff<Job> h = Handoffs.create("pipe:1,classes=2");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() throws InterruptedException {
            h.offer(B, SIGNAL_SECONDS, TimeUnit.SECONDS); // hands over as soon as the worker waits
        }
    }

    // ---- close wakes a producer whose class is full ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked producer returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked producer hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked producer threw something else")
    @State
    public static class ClassedCircularCloseWakesPut {
        private final Handoff<Job> h = holdingA("circular");

        @Actor
        public void producer() throws InterruptedException {
            try {
                h.put(new Job(0, 4)); // class 0 holds A: full
            } catch (HandoffClosedException expected) {
                // closed: the element stays with us
            }
        }

        @Signal
        public void close() {
            h.close();
        }
    }
}
