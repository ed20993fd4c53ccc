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
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_05

    Lesson 5: safe publication through every handoff. The producer writes a plain field of the
    test state (before = 42), builds an element whose two fields are plain and non-final (a = 1,
    b = 2) and offers it. The consumer polls; if it got the element, it reads a, b and before.

    This is message passing: "write the data, then publish a reference; read the reference,
    then the data". On AArch64 or POWER the hardware itself may reorder the two stores or the two
    loads, so a cell published through a plain field could show the element with a == 0. On x86
    the hardware keeps both orders and only the JIT compiler could break it, which is why the
    racy twin of lesson 2 uses a scenario that x86 does show. Here there is no racy twin: the
    point is that every handoff of the library gives the guarantee, on every platform, by the
    happens-before edge of its lock release/acquire or its release/acquire slot accesses.

    r1, r2: the element's fields (-1 if the poll found nothing); r3: the state field written
    before the offer (-1 if nothing was polled).

    Ties back to the BlockingQueue memory-consistency clause: "actions in a thread prior to
    placing an object into a BlockingQueue happen-before actions subsequent to the access or
    removal of that element from the BlockingQueue in another thread."
 */
public class Handoff_05_SafePublication {

    private Handoff_05_SafePublication() {
    }

    /** An element with plain, non-final fields: only a happens-before edge makes them visible. */
    static final class Box {
        int a;
        int b;
    }

    /** How long the pipe's producer and worker wait for each other. */
    static final long MEET_MICROS = 100;

    static Box box() {
        Box x = new Box();
        x.a = 1;
        x.b = 2;
        return x;
    }

    static void read(Box x, int before, III_Result r) {
        if (x == null) {
            r.r1 = -1;
            r.r2 = -1;
            r.r3 = -1;
        } else {
            r.r1 = x.a;
            r.r2 = x.b;
            r.r3 = before;
        }
    }

    @JCStressTest
    @Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "polled before the offer")
    @Outcome(id = "1, 2, 42", expect = ACCEPTABLE, desc = "took the element and saw everything written before the offer")
    @Outcome(expect = FORBIDDEN, desc = "took the element but saw stale fields")
    @State
    public static class CircularBufferPublication {
        private final Handoff<Box> handoff = Handoffs.create("circular:1");
        private int before;

        @Actor
        public void producer() {
            before = 42;
            handoff.offer(box());
        }

        @Actor
        public void consumer(III_Result r) {
            read(handoff.poll(), before, r);
        }
    }

    @JCStressTest
    @Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "polled before the offer")
    @Outcome(id = "1, 2, 42", expect = ACCEPTABLE, desc = "took the element and saw everything written before the offer")
    @Outcome(expect = FORBIDDEN, desc = "took the element but saw stale fields")
    @State
    public static class LockSplitQueuePublication {
        private final Handoff<Box> handoff = Handoffs.create("lock-split:1");
        private int before;

        @Actor
        public void producer() {
            before = 42;
            handoff.offer(box());
        }

        @Actor
        public void consumer(III_Result r) {
            read(handoff.poll(), before, r);
        }
    }

    /**
     * As LockSplitQueuePublication, where the offer opens a new chunk: the queue of capacity 2
     * stores elements in chunks of 2 slots, both of the first chunk used, so the consumer must
     * see the link to the new chunk as well as the element in it.
     */
    @JCStressTest
    @Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "polled before the offer")
    @Outcome(id = "1, 2, 42", expect = ACCEPTABLE, desc = "took the element and saw everything written before the offer")
    @Outcome(expect = FORBIDDEN, desc = "took the element but saw stale fields")
    @State
    public static class LockSplitQueueNewChunkPublication {
        private final Handoff<Box> handoff = Handoffs.create("lock-split:2");
        private int before;

        public LockSplitQueueNewChunkPublication() {
            handoff.offer(box());
            handoff.offer(box());
            handoff.poll();
            handoff.poll();
        }

        @Actor
        public void producer() {
            before = 42;
            handoff.offer(box());
        }

        @Actor
        public void consumer(III_Result r) {
            read(handoff.poll(), before, r);
        }
    }

    @JCStressTest
    @Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "polled before the offer")
    @Outcome(id = "1, 2, 42", expect = ACCEPTABLE, desc = "took the element and saw everything written before the offer")
    @Outcome(expect = FORBIDDEN, desc = "took the element but saw stale fields")
    @State
    public static class ParallelHashTableMonitorPublication {
        private final Handoff<Box> handoff = Handoffs.create("pht:1,slots=monitor");
        private int before;

        @Actor
        public void producer() {
            before = 42;
            handoff.offer(box());
        }

        @Actor
        public void consumer(III_Result r) {
            read(handoff.poll(), before, r);
        }
    }

    @JCStressTest
    @Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "polled before the offer")
    @Outcome(id = "1, 2, 42", expect = ACCEPTABLE, desc = "took the element and saw everything written before the offer")
    @Outcome(expect = FORBIDDEN, desc = "took the element but saw stale fields")
    @State
    public static class ParallelHashTableCasPublication {
        private final Handoff<Box> handoff = Handoffs.create("pht:1,slots=cas");
        private int before;

        @Actor
        public void producer() {
            before = 42;
            handoff.offer(box());
        }

        @Actor
        public void consumer(III_Result r) {
            read(handoff.poll(), before, r);
        }
    }

    /** The pipe holds nothing: the two sides meet with timed calls, or miss each other. */
    @JCStressTest
    @Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "polled before the offer")
    @Outcome(id = "1, 2, 42", expect = ACCEPTABLE, desc = "took the element and saw everything written before the offer")
    @Outcome(expect = FORBIDDEN, desc = "took the element but saw stale fields")
    @State
    public static class PipeHandoffPublication {
        private final Handoff<Box> handoff = Handoffs.create("pipe:1");
        private int before;

        @Actor
        public void producer() {
            before = 42;
            Timed.offer(handoff, box(), MEET_MICROS); // a pipe hands over only to a waiting worker
        }

        @Actor
        public void consumer(III_Result r) {
            read(Timed.poll(handoff, MEET_MICROS), before, r);
        }
    }
}
