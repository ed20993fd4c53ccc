/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.HandoffClosedException;
import dev.handoff.Handoffs;
import dev.handoff.internal.observe.WaitEvent;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_13

    Lesson 13: the cells (circular:N,core=cells, CircularBuffer.Core.CELLS). A put and a take
    claim a position with one fetch-and-add each and meet at its cell, whose word 4p + phase says
    what position p's cell holds (CellRing's notes). A cell has four races, and a test each:
      FillTake, SafePublication   a fill against a take: the element is taken once, and with
                                  everything written before it;
      FillTimedTake, TimedTakesBesideFill, FarTakeGivesUp
                                  a fill against takes that give up (1 us timed polls), near their
                                  lap, beside a take a lap ahead, or a lap early with a later take
                                  behind them (the record put p reads after its fill): the element
                                  is taken by exactly one poll or stays inside;
      TimedPutGivesUp, TimedPutsGiveUp
                                  takes against puts that give up (1 us timed offers on a full
                                  buffer): each element accepted is taken or inside, once;
      CloseAgainstWaitingPut, CloseAgainstWaitingTake
                                  close against a thread waiting at a cell: it completes or is
                                  refused (sees closed and empty), within its 1 s patience;
      TakeWakesOnPut, PutWakesOnTake, SpinningTakeWakesOnPut, TakeALapBehind, PutALapBehind
                                  the wake-up that must not be lost (termination tests, as in
                                  lesson 6): a take or put a lap behind another at a capacity-1
                                  cell is woken by the second partner, not the first.
    Three tests start virtual threads inside an actor for a third or fourth party: jcstress runs
    two actors on two CPUs, and a far give-up needs a later claim behind it.

    The racy twin: FlawedEarlyRead reads a cell's item before its CAS of the word from FULL to
    TAKING, so it can read the cell before the fill's write and then claim the fill's word: the
    element is lost ("0, 0"). FixedReadAfterClaim reads after the CAS, as CellRing.claim does: the
    put's write of the item comes before its CAS to FULL, which the take's CAS read.

    Observed on 2026-11-27 (AMD EPYC, 2 CPUs, Temurin 25.0.3, jcstress 0.16, short mode):
        test                   0, 0 (lost)        1, 0 (taken)   0, 1 (left inside)
        FlawedEarlyRead        371 Interesting    1,025,932      178,206
        FixedReadAfterClaim    0 Forbidden        681,459        187,537
    The tests of the core passed (no forbidden outcome): 28,000 to 780,000 samples each, fewer
    where a timed operation waits; the termination tests, 4 runs each in this mode.

    Ties back to the BlockingQueue contract: an element put is taken exactly once, offer(e,
    timeout) returning false leaves nothing inside, poll(timeout) returning null took nothing,
    and close wakes every blocked thread.
 */
public class Handoff_13_Cells {

    private Handoff_13_Cells() {
    }

    static {
        // The first park in a JVM initializes WaitEvent, and with it JFR's metadata, which on a
        // busy machine takes longer than the patience below: done here, before any test waits.
        new WaitEvent();
    }

    /** A timed operation that must give up: 1 us, so that it gives up around its partner. */
    static final long SHORT_MICROS = 1;

    /** A timed operation that must not give up: its expiry is a lost wake-up. */
    static final long PATIENCE_MICROS = 1_000_000;

    static Handoff<Integer> cells(int capacity) {
        return Handoffs.create("circular:" + capacity + ",core=cells");
    }

    static int value(Integer e) {
        return e == null ? 0 : e;
    }

    /** A timed take that waits up to the patience: the element, 0 if closed and empty, -1 if it expired. */
    static int patientPoll(Handoff<Integer> h) {
        try {
            Integer e = h.take(PATIENCE_MICROS, TimeUnit.MICROSECONDS); // learns of the close, as poll does not
            return e != null ? e : -1;
        } catch (HandoffClosedException closedAndEmpty) {
            return 0;
        } catch (InterruptedException e) {
            throw new IllegalStateException("jcstress actors are never interrupted", e);
        }
    }

    /** An offer that waits up to the patience: 1 if inserted, 0 if refused, -1 if it expired. */
    static int patientOffer(Handoff<Integer> h, Integer e) {
        long start = System.nanoTime();
        return Timed.offer(h, e, PATIENCE_MICROS) ? 1 : expired(start) ? -1 : 0;
    }

    private static boolean expired(long start) {
        return System.nanoTime() - start >= PATIENCE_MICROS * 1_000L;
    }

    /** A virtual thread started now that runs body: a third party beside jcstress's two actors. */
    static Thread beside(Runnable body) {
        return Thread.ofVirtual().start(body);
    }

    static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException("jcstress actors are never interrupted", e);
        }
    }

    // ---- a fill against a take ----

    @JCStressTest
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the poll took the element")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the poll came first; the element stays")
    @Outcome(expect = FORBIDDEN, desc = "the element was refused, lost or taken twice")
    @State
    public static class FillTake {
        private final Handoff<Integer> h = cells(1);

        @Actor
        public void producer(III_Result r) {
            r.r1 = h.offer(1) ? 1 : 0;
        }

        @Actor
        public void consumer(III_Result r) {
            r.r2 = value(h.poll());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = Handoff_12_Ring.drain(h);
        }
    }

    @JCStressTest
    @Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "polled before the offer")
    @Outcome(id = "1, 2, 42", expect = ACCEPTABLE, desc = "took the element and saw everything written before the offer")
    @Outcome(expect = FORBIDDEN, desc = "took the element but saw stale fields")
    @State
    public static class SafePublication {
        private final Handoff<Handoff_12_Ring.Box> h = Handoffs.create("circular:1,core=cells");
        private int before;

        @Actor
        public void producer() {
            before = 42;
            Handoff_12_Ring.Box x = new Handoff_12_Ring.Box();
            x.a = 1;
            x.b = 2;
            h.offer(x);
        }

        @Actor
        public void consumer(III_Result r) {
            Handoff_12_Ring.Box x = h.poll();
            r.r1 = x == null ? -1 : x.a;
            r.r2 = x == null ? -1 : x.b;
            r.r3 = x == null ? -1 : before;
        }
    }

    // ---- a fill against takes that give up ----

    @JCStressTest
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the timed poll took the element")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the timed poll gave up; the element stays")
    @Outcome(expect = FORBIDDEN, desc = "the element was refused, lost or taken twice")
    @State
    public static class FillTimedTake {
        private final Handoff<Integer> h = cells(1);

        @Actor
        public void producer(III_Result r) {
            r.r1 = h.offer(1) ? 1 : 0;
        }

        @Actor
        public void consumer(III_Result r) {
            r.r2 = value(Timed.poll(h, SHORT_MICROS));
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = Handoff_12_Ring.drain(h);
        }
    }

    /**
     * Two timed polls, then (in the second actor) an offer: a poll that gives up while the other
     * holds the next position settles its cell (TAKE_GONE, which the put passes), and the poll at
     * the next position waits a lap ahead. r1, r2: the polls; r3: the offer; r4: left inside.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "the first actor's poll took the element")
    @Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "both polls gave up; the element stays")
    @Outcome(expect = FORBIDDEN, desc = "the element was refused, lost or taken twice")
    @State
    public static class TimedTakesBesideFill {
        private final Handoff<Integer> h = cells(1);

        @Actor
        public void consumer(IIII_Result r) {
            r.r1 = value(Timed.poll(h, SHORT_MICROS));
        }

        @Actor
        public void consumerThenProducer(IIII_Result r) {
            r.r2 = value(Timed.poll(h, SHORT_MICROS));
            r.r3 = h.offer(1) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r4 = Handoff_12_Ring.drain(h);
        }
    }

    /**
     * Three timed polls (one actor and two virtual threads) against offers of 1 and 8 on
     * capacity 1. With three takes claimed, the middle one can give up a lap before its cell
     * reaches it and with a later take behind it: it leaves a record, and put p, after its fill,
     * takes the element back and claims again. r1: the offers accepted (1 + 8); r2: the sum
     * the polls took (a duplicate shows as 2 or 16); r3: left inside.
     */
    @JCStressTest
    @Outcome(id = {"1, 1, 0", "1, 0, 1"}, expect = ACCEPTABLE, desc = "1 accepted, 8 refused (full): 1 taken once or inside")
    @Outcome(id = {"9, 9, 0", "9, 1, 8", "9, 8, 1", "9, 0, 9"}, expect = ACCEPTABLE, desc = "both accepted: each taken once or inside")
    @Outcome(expect = FORBIDDEN, desc = "an element refused on an empty buffer, lost or taken twice")
    @State
    public static class FarTakeGivesUp {
        private final Handoff<Integer> h = cells(1);
        private int tookA;
        private int tookB;

        @Actor
        public void consumers(III_Result r) {
            Thread a = beside(() -> tookA = value(Timed.poll(h, SHORT_MICROS)));
            Thread b = beside(() -> tookB = value(Timed.poll(h, SHORT_MICROS)));
            int took = value(Timed.poll(h, SHORT_MICROS));
            join(a);
            join(b);
            r.r2 = took + tookA + tookB;
        }

        @Actor
        public void producer(III_Result r) {
            r.r1 = (h.offer(1) ? 1 : 0) + (h.offer(8) ? 8 : 0);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = Handoff_12_Ring.drain(h);
        }
    }

    // ---- takes against puts that give up ----

    @JCStressTest
    @Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "the timed offer got the room the poll made")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the timed offer gave up; nothing of it inside")
    @Outcome(expect = FORBIDDEN, desc = "the poll missed the element inside, or the offer's answer and the contents disagree")
    @State
    public static class TimedPutGivesUp {
        private final Handoff<Integer> h = cells(1);

        {
            h.add(1);
        }

        @Actor
        public void producer(III_Result r) {
            r.r1 = Timed.offer(h, 2, SHORT_MICROS) ? 1 : 0;
        }

        @Actor
        public void consumer(III_Result r) {
            r.r2 = value(h.poll());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = Handoff_12_Ring.drain(h);
        }
    }

    /**
     * Two timed offers (an actor and a virtual thread) of 2 and 4 on a full buffer of capacity 1
     * against two polls: the earlier offer can give up a lap before its cell reaches it, with the
     * later one behind it (a CANCELLED record that the take applies at the lap's start). r1: the
     * offers accepted (2 + 4); r2, r3: the polls; r4: left inside.
     */
    @JCStressTest
    @Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "both offers gave up")
    @Outcome(id = {"2, 1, 2, 0", "2, 1, 0, 2", "4, 1, 4, 0", "4, 1, 0, 4"}, expect = ACCEPTABLE, desc = "one offer got in: taken or inside")
    @Outcome(id = {"6, 1, 2, 4", "6, 1, 4, 2"}, expect = ACCEPTABLE, desc = "both got in: one taken, one inside")
    @Outcome(expect = FORBIDDEN, desc = "the first poll missed 1, or an element was lost or taken twice")
    @State
    public static class TimedPutsGiveUp {
        private final Handoff<Integer> h = cells(1);
        private boolean insertedA;

        {
            h.add(1);
        }

        @Actor
        public void producers(IIII_Result r) {
            Thread a = beside(() -> insertedA = Timed.offer(h, 2, SHORT_MICROS));
            boolean inserted = Timed.offer(h, 4, SHORT_MICROS);
            join(a);
            r.r1 = (insertedA ? 2 : 0) + (inserted ? 4 : 0);
        }

        @Actor
        public void consumer(IIII_Result r) {
            r.r2 = value(h.poll());
            r.r3 = value(h.poll());
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r4 = Handoff_12_Ring.drain(h);
        }
    }

    // ---- close against a thread waiting at a cell ----

    @JCStressTest
    @Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "the waiting offer got the room before the close")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the close refused the waiting offer; nothing of it inside")
    @Outcome(id = "-1, .*", expect = FORBIDDEN, desc = "the offer waited out its patience: the close lost the wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the offer's answer and the contents disagree")
    @State
    public static class CloseAgainstWaitingPut {
        private final Handoff<Integer> h = cells(1);

        {
            h.add(1);
        }

        @Actor
        public void producer(III_Result r) {
            r.r1 = patientOffer(h, 2);
        }

        @Actor
        public void consumerThenCloser(III_Result r) {
            r.r2 = value(h.poll());
            h.close();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = Handoff_12_Ring.drain(h);
        }
    }

    /**
     * A take waiting on an empty buffer while an offer (in a virtual thread) races close(): an
     * offer that claimed before the close is below the closing count, so the take waits on for it;
     * one after is refused, and the take sees closed and empty. r1: the take; r2: the offer;
     * r3: left inside.
     */
    @JCStressTest
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "offered before the close: the waiting take got it")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "refused after the close: the take saw closed and empty")
    @Outcome(id = "-1, .*", expect = FORBIDDEN, desc = "the take waited out its patience: a lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "closed and empty with an element put before the close, or taken twice")
    @State
    public static class CloseAgainstWaitingTake {
        private final Handoff<Integer> h = cells(1);
        private boolean inserted;

        @Actor
        public void consumer(III_Result r) {
            r.r1 = patientPoll(h);
        }

        @Actor
        public void producerAndCloser(III_Result r) {
            Thread p = beside(() -> inserted = h.offer(1));
            h.close();
            join(p);
            r.r2 = inserted ? 1 : 0;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = Handoff_12_Ring.drain(h);
        }
    }

    // ---- the wake-up that must not be lost: termination tests, as in lesson 6 ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class TakeWakesOnPut {
        private final Handoff<Integer> h = cells(1);

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
        private final Handoff<Integer> h = Handoff_06_WakeUps.full("circular:1,core=cells");

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
        private final Handoff<Integer> h = Handoffs.create("circular:1,core=cells,wait=spin");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() {
            h.offer(1);
        }
    }

    /**
     * Two takes on an empty cell of capacity 1 (positions 0 and 1, the second a lap behind) and
     * two puts: put 1 waits for take 0 to free the cell, and take 1 for put 1's fill. Each is
     * woken by the partner that made its turn, never by the first one.
     */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "both blocked takes returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "a take or the second put hangs: a lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "a blocked thread threw")
    @State
    public static class TakeALapBehind {
        private final Handoff<Integer> h = cells(1);
        private final Thread other = Handoff_12_Ring.blockedBeside(h::take);

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
            other.join();
        }

        @Signal
        public void producer() throws InterruptedException {
            h.put(1);
            h.put(2);
        }
    }

    /** The mirror of {@link TakeALapBehind}: two puts on a full cell of capacity 1, two takes. */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "both blocked puts returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "a put or the second take hangs: a lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "a blocked thread threw")
    @State
    public static class PutALapBehind {
        private final Handoff<Integer> h = Handoff_06_WakeUps.full("circular:1,core=cells");
        private final Thread other = Handoff_12_Ring.blockedBeside(() -> h.put(1));

        @Actor
        public void producer() throws InterruptedException {
            h.put(2);
            other.join();
        }

        @Signal
        public void consumer() throws InterruptedException {
            h.take();
            h.take();
        }
    }

    // ---- the racy twin: reading a cell before its word says FULL ----

    /** One cell of lap 0 and capacity 1, with CellRing's words; the twin and its fix differ in one line. */
    interface OneCell {
        /** Put 0's fill: writes the item, then moves the word from EMPTY to FULL. */
        void fill(Integer e);

        /** Take 0 without waiting: the element, or null if the cell is not FULL yet. */
        Integer take();

        /** The element still inside, for the arbiter; null if none. */
        Integer left();
    }

    /** CellRing's words for position 0 of a one-cell ring: 4p + phase, then 4(p + 1) for the next lap. */
    static final long EMPTY = 0, FULL = 1, TAKING = 3, NEXT_LAP = 4;

    /**
     * Deliberately wrong: {@code take} reads the item before its CAS of the word (the line marked
     * {@code <- the race}), so it can read the cell before the fill writes it, then see FULL and
     * claim it: the take returns nothing, and the element is gone with the lap.
     */
    static final class FlawedCell implements OneCell {
        private Integer item;                          // plain: ordered by the word, as in CellRing
        private final AtomicLong word = new AtomicLong(EMPTY);

        public void fill(Integer e) {
            item = e;
            word.compareAndSet(EMPTY, FULL);           // publishes item
        }

        public Integer take() {
            Integer e = item;                          // <- the race: read before the word says FULL
            if (!word.compareAndSet(FULL, TAKING)) {
                return null;                           // not filled yet: a real take would wait
            }
            item = null;
            word.set(NEXT_LAP);
            return e;
        }

        public Integer left() {
            return word.get() == FULL ? item : null;
        }
    }

    /** The fix: the item is read after the CAS that saw FULL, which follows the fill's write. */
    static final class Cell implements OneCell {
        private Integer item;
        private final AtomicLong word = new AtomicLong(EMPTY);

        public void fill(Integer e) {
            item = e;
            word.compareAndSet(EMPTY, FULL);
        }

        public Integer take() {
            if (!word.compareAndSet(FULL, TAKING)) {
                return null;
            }
            Integer e = item;                          // the fix: after the claim
            item = null;
            word.set(NEXT_LAP);
            return e;
        }

        public Integer left() {
            return word.get() == FULL ? item : null;
        }
    }

    @JCStressTest
    @Outcome(id = "0, 0", expect = ACCEPTABLE_INTERESTING, desc = "lost: the take claimed the cell with the item it read before the fill")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the take got the element")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the take came first; the element stays")
    @State
    public static class FlawedEarlyRead {
        private final OneCell cell = new FlawedCell();

        @Actor
        public void producer() {
            cell.fill(1);
        }

        @Actor
        public void consumer(II_Result r) {
            r.r1 = value(cell.take());
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = value(cell.left());
        }
    }

    @JCStressTest
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost: the take claimed the cell with the item it read before the fill")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the take got the element")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the take came first; the element stays")
    @State
    public static class FixedReadAfterClaim {
        private final OneCell cell = new Cell();

        @Actor
        public void producer() {
            cell.fill(1);
        }

        @Actor
        public void consumer(II_Result r) {
            r.r1 = value(cell.take());
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = value(cell.left());
        }
    }
}
