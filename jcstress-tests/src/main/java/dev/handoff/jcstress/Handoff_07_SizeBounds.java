/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_07

    Lesson 7: snapshots stay in range. One actor fills a handoff of capacity 2 and empties it
    again; the other reads size() and remainingCapacity() while it does. Neither may leave
    [0, 2], whatever the interleaving: a count updated in two steps (decrement before the check,
    or a counter shared by two locks without an atomic) would show -1 or 3 here. The sum may
    differ from 2 while the handoff is changing: the two reads are two snapshots.

    For the pipe, which holds nothing, the filling actor is a worker whose timed polls make it
    wait and stop waiting; size() must stay 0 and remainingCapacity() (the workers waiting now)
    within [0, 2].

    r1: size(); r2: remainingCapacity().

    At rest, size() is exact: in ParallelHashTableSizeAtRest a poll races an offer and a poll on
    a table of one slot, and once both actors have returned size() must say what is inside, so
    the table's record of occupied slots must agree with the slots (r1: what is inside, counted
    from what the actors did; r2: size() after both).

    Ties back to the BlockingQueue contract: remainingCapacity() is "the number of additional
    elements that this queue can ideally accept", never negative, and size() never above it.
 */
public class Handoff_07_SizeBounds {

    private Handoff_07_SizeBounds() {
    }

    static void fillAndEmpty(Handoff<Integer> h) {
        h.offer(1);
        h.offer(2);
        h.poll();
        h.poll();
    }

    static void observe(Handoff<Integer> h, II_Result r) {
        r.r1 = h.size();
        r.r2 = h.remainingCapacity();
    }

    @JCStressTest
    @Outcome(id = "[012], [012]", expect = ACCEPTABLE, desc = "both within [0, capacity]")
    @Outcome(expect = FORBIDDEN, desc = "a snapshot left [0, capacity]")
    @State
    public static class CircularBufferBounds {
        private final Handoff<Integer> h = Handoffs.create("circular:2");

        @Actor
        public void fillAndEmpty() {
            Handoff_07_SizeBounds.fillAndEmpty(h);
        }

        @Actor
        public void observe(II_Result r) {
            Handoff_07_SizeBounds.observe(h, r);
        }
    }

    @JCStressTest
    @Outcome(id = "[012], [012]", expect = ACCEPTABLE, desc = "both within [0, capacity]")
    @Outcome(expect = FORBIDDEN, desc = "a snapshot left [0, capacity]")
    @State
    public static class LockSplitQueueBounds {
        private final Handoff<Integer> h = Handoffs.create("lock-split:2");

        @Actor
        public void fillAndEmpty() {
            Handoff_07_SizeBounds.fillAndEmpty(h);
        }

        @Actor
        public void observe(II_Result r) {
            Handoff_07_SizeBounds.observe(h, r);
        }
    }

    @JCStressTest
    @Outcome(id = "[012], [012]", expect = ACCEPTABLE, desc = "both within [0, capacity]")
    @Outcome(expect = FORBIDDEN, desc = "a snapshot left [0, capacity]")
    @State
    public static class ParallelHashTableMonitorBounds {
        private final Handoff<Integer> h = Handoffs.create("pht:2,slots=monitor");

        @Actor
        public void fillAndEmpty() {
            Handoff_07_SizeBounds.fillAndEmpty(h);
        }

        @Actor
        public void observe(II_Result r) {
            Handoff_07_SizeBounds.observe(h, r);
        }
    }

    @JCStressTest
    @Outcome(id = "[012], [012]", expect = ACCEPTABLE, desc = "both within [0, capacity]")
    @Outcome(expect = FORBIDDEN, desc = "a snapshot left [0, capacity]")
    @State
    public static class ParallelHashTableCasBounds {
        private final Handoff<Integer> h = Handoffs.create("pht:2,slots=cas");

        @Actor
        public void fillAndEmpty() {
            Handoff_07_SizeBounds.fillAndEmpty(h);
        }

        @Actor
        public void observe(II_Result r) {
            Handoff_07_SizeBounds.observe(h, r);
        }
    }

    /** The pipe: size() is always 0, remainingCapacity() counts the workers waiting now. */
    @JCStressTest
    @Outcome(id = "0, [012]", expect = ACCEPTABLE, desc = "size 0 (a pipe holds nothing), waiting workers within [0, capacity]")
    @Outcome(expect = FORBIDDEN, desc = "a snapshot left [0, capacity]")
    @State
    public static class PipeHandoffBounds {
        private final Handoff<Integer> h = Handoffs.create("pipe:2");

        @Actor
        public void waitTwice() {
            Timed.poll(h, 10); // a worker: waiting, then not, twice
            Timed.poll(h, 10);
        }

        @Actor
        public void observe(II_Result r) {
            Handoff_07_SizeBounds.observe(h, r);
        }
    }

    /**
     * Exact at rest: a table of one slot holds 1; a poll races an offer of 2 followed by a poll;
     * then size(). A poll clears the slot's record after emptying it and sets it again if it
     * finds the slot refilled; if that set lands after the other poll cleared the record, size()
     * counts an empty slot.
     */
    @JCStressTest
    @Outcome(id = {"0, 0", "1, 1"}, expect = ACCEPTABLE, desc = "size() at rest = 1 + inserted - taken")
    @Outcome(expect = FORBIDDEN, desc = "size() at rest disagrees with what is inside")
    @State
    public static class ParallelHashTableSizeAtRest {
        private final Handoff<Integer> h = Handoffs.create("pht:1");
        private int takenFirst;
        private int insertedThenTaken;

        public ParallelHashTableSizeAtRest() {
            h.offer(1);
        }

        @Actor
        public void poll() {
            takenFirst = h.poll() == null ? 0 : 1;
        }

        @Actor
        public void offerThenPoll() {
            int inserted = h.offer(2) ? 1 : 0;
            insertedThenTaken = inserted - (h.poll() == null ? 0 : 1);
        }

        @Arbiter
        public void sizeAtRest(II_Result r) {
            r.r1 = 1 + insertedThenTaken - takenFirst; // what is inside
            r.r2 = h.size();
        }
    }
}
