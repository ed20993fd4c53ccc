/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.HandoffClosedException;
import dev.handoff.Handoffs;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_08

    Lesson 8: the parallel hash table's conflicts, in both slot forms. (Two producers reaching
    the same empty slot, neither overwritten, is lesson 1's ParallelHashTable*Insert.)

    TwoConsumers: a table of capacity 2 holds elements 1 and 2; two consumers poll at once. Each
    starts its probe at a random slot, so half the time both reach the same occupied slot first;
    exactly one may win it (its compare-and-set from the element to null), and the loser must
    probe on and take the other element. r1, r2: what each consumer took; "1, 2" or "2, 1" only.

    SingleProducer: the setting of B. Roussev, J. Wu, "Distributed computing using Java: a
    comparison of two server designs" (Journal of Systems Architecture, 2006): one producer and
    one consumer. The producer offers 1 and then 2; the consumer polls twice; the arbiter drains
    the rest. r1, r2 count how often elements 1 and 2 were seen: "1, 1" only.

    RefillDuringRemoval: the occupancy summary's race (both slot forms). A table of capacity 2
    holds 1; a consumer polls while a producer offers 2, which may land in the slot the consumer
    is emptying, between its compare-and-set and its clear of the slot's bit. The arbiter drains
    the rest with poll(), which must find 2 whatever the bits say: "1, 1" only.

    ProbeSearchTwoConsumers: TwoConsumers on that paper's search (search=probe), slot by slot.

    CursorSearchTwoConsumers, CursorRefillDuringRemoval: the same under search=cursor, where a
    consumer's first search walks slot by slot from its own cursor: a walk that loses a slot's
    element to the other consumer walks on to the next slot, "1, 2" or "2, 1" and "1, 1" only.

    CloseRacesInsert (both slot forms): an insert counts itself under way before it reads the
    table open and until its element is in its slot; a consumer calls a closed table empty only
    when nothing is under way and no slot holds an element.
    A producer offers 1 while another thread closes and then takes; the arbiter polls what is
    left. The offer either came first (true: the take must wait for the element, even if it finds
    the table closed and empty meanwhile) or was refused (false: the take throws).
    r1: offered (1) or refused (0); r2: the element taken, or -1 if take threw; r3: left inside.
    "1, 1, 0" or "0, -1, 0" only; a take that hangs is a lost wake-up (the run never ends).

    Ties back to the BlockingQueue contract: each element is removed by exactly one poll/take.
 */
public class Handoff_08_HashTableConflicts {

    private Handoff_08_HashTableConflicts() {
    }

    static Handoff<Integer> holding(String spec, Integer... elements) {
        Handoff<Integer> h = Handoffs.create(spec);
        for (Integer e : elements) {
            h.add(e);
        }
        return h;
    }

    static int value(Integer e) {
        return e == null ? 0 : e;
    }

    @JCStressTest
    @Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "each consumer took a different element")
    @Outcome(expect = FORBIDDEN, desc = "an element taken twice, or a poll found nothing in a full table")
    @State
    public static class MonitorTwoConsumers {
        private final Handoff<Integer> table = holding("pht:2,slots=monitor", 1, 2);

        @Actor
        public void consumer1(II_Result r) {
            r.r1 = value(table.poll());
        }

        @Actor
        public void consumer2(II_Result r) {
            r.r2 = value(table.poll());
        }
    }

    @JCStressTest
    @Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "each consumer took a different element")
    @Outcome(expect = FORBIDDEN, desc = "an element taken twice, or a poll found nothing in a full table")
    @State
    public static class CasTwoConsumers {
        private final Handoff<Integer> table = holding("pht:2,slots=cas", 1, 2);

        @Actor
        public void consumer1(II_Result r) {
            r.r1 = value(table.poll());
        }

        @Actor
        public void consumer2(II_Result r) {
            r.r2 = value(table.poll());
        }
    }

    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class MonitorSingleProducer {
        private final Handoff<Integer> table = Handoffs.create("pht:2,slots=monitor");
        private Integer taken1;
        private Integer taken2;

        @Actor
        public void producer() {
            table.offer(1);
            table.offer(2);
        }

        @Actor
        public void consumer() {
            taken1 = table.poll();
            taken2 = table.poll();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            Handoff_03_IndicesOutsideTheLock.count(r, taken1, taken2, table.poll(), table.poll());
        }
    }

    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class CasSingleProducer {
        private final Handoff<Integer> table = Handoffs.create("pht:2,slots=cas");
        private Integer taken1;
        private Integer taken2;

        @Actor
        public void producer() {
            table.offer(1);
            table.offer(2);
        }

        @Actor
        public void consumer() {
            taken1 = table.poll();
            taken2 = table.poll();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            Handoff_03_IndicesOutsideTheLock.count(r, taken1, taken2, table.poll(), table.poll());
        }
    }

    @JCStressTest
    @Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "each consumer took a different element")
    @Outcome(expect = FORBIDDEN, desc = "an element taken twice, or a poll found nothing in a full table")
    @State
    public static class ProbeSearchTwoConsumers {
        private final Handoff<Integer> table = holding("pht:2,search=probe", 1, 2);

        @Actor
        public void consumer1(II_Result r) {
            r.r1 = value(table.poll());
        }

        @Actor
        public void consumer2(II_Result r) {
            r.r2 = value(table.poll());
        }
    }

    /** Two consumers whose first searches are walks from their own cursors (search=cursor). */
    @JCStressTest
    @Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "each consumer took a different element")
    @Outcome(expect = FORBIDDEN, desc = "an element taken twice, or a poll found nothing in a full table")
    @State
    public static class CursorSearchTwoConsumers {
        private final Handoff<Integer> table = holding("pht:2,search=cursor", 1, 2);

        @Actor
        public void consumer1(II_Result r) {
            r.r1 = value(table.poll());
        }

        @Actor
        public void consumer2(II_Result r) {
            r.r2 = value(table.poll());
        }
    }

    /** A walk from a consumer's cursor while a producer fills the other slot (search=cursor). */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class CursorRefillDuringRemoval {
        private final Handoff<Integer> table = holding("pht:2,search=cursor", 1);
        private Integer taken;

        @Actor
        public void consumer() {
            taken = table.poll();
        }

        @Actor
        public void producer() {
            table.offer(2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            Handoff_03_IndicesOutsideTheLock.count(r, taken, table.poll(), table.poll(), table.poll());
        }
    }

    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class MonitorRefillDuringRemoval {
        private final Handoff<Integer> table = holding("pht:2,slots=monitor", 1);
        private Integer taken;

        @Actor
        public void consumer() {
            taken = table.poll();
        }

        @Actor
        public void producer() {
            table.offer(2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            Handoff_03_IndicesOutsideTheLock.count(r, taken, table.poll(), table.poll(), table.poll());
        }
    }

    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class CasRefillDuringRemoval {
        private final Handoff<Integer> table = holding("pht:2,slots=cas", 1);
        private Integer taken;

        @Actor
        public void consumer() {
            taken = table.poll();
        }

        @Actor
        public void producer() {
            table.offer(2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            Handoff_03_IndicesOutsideTheLock.count(r, taken, table.poll(), table.poll(), table.poll());
        }
    }

    static int takeOrClosed(Handoff<Integer> table) {
        try {
            return table.take();
        } catch (HandoffClosedException closed) {
            return -1;
        } catch (InterruptedException e) {
            throw new IllegalStateException("jcstress actors are never interrupted", e);
        }
    }

    @JCStressTest
    @Outcome(id = {"1, 1, 0", "0, -1, 0"}, expect = ACCEPTABLE, desc = "inserted and taken, or refused and take threw")
    @Outcome(expect = FORBIDDEN, desc = "an accepted element lost or left inside, or a refused one delivered")
    @State
    public static class MonitorCloseRacesInsert {
        private final Handoff<Integer> table = Handoffs.create("pht:1,slots=monitor");

        @Actor
        public void producer(III_Result r) {
            r.r1 = table.offer(1) ? 1 : 0;
        }

        @Actor
        public void closerThenConsumer(III_Result r) {
            table.close();
            r.r2 = takeOrClosed(table);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = table.poll() == null ? 0 : 1;
        }
    }

    @JCStressTest
    @Outcome(id = {"1, 1, 0", "0, -1, 0"}, expect = ACCEPTABLE, desc = "inserted and taken, or refused and take threw")
    @Outcome(expect = FORBIDDEN, desc = "an accepted element lost or left inside, or a refused one delivered")
    @State
    public static class CasCloseRacesInsert {
        private final Handoff<Integer> table = Handoffs.create("pht:1,slots=cas");

        @Actor
        public void producer(III_Result r) {
            r.r1 = table.offer(1) ? 1 : 0;
        }

        @Actor
        public void closerThenConsumer(III_Result r) {
            table.close();
            r.r2 = takeOrClosed(table);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = table.poll() == null ? 0 : 1;
        }
    }
}
