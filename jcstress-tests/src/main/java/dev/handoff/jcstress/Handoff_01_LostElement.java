/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_01

    Lesson 1: the lost element. Two producers insert into a table of two slots; both start their
    probe at slot 0, as two elements with the same hash do. The hash table in the appendix of
    B. Roussev, J. Wu, "Client-server design alternatives: back to pipes but with threads" (HiPC
    2001) inserts with a check-then-set: "if the slot is empty, set it". Both producers can see
    slot 0 empty, both set it, both report success, and the second write silently replaces the
    first element.

    The fix is to make the check and the set one atomic step: compareAndSet(null, e). The loser of
    the race sees the CAS fail and probes on to slot 1. The same two producers then run against
    the library's ParallelHashTable in both slot forms (pht:2,slots=monitor and slots=cas), with
    two elements whose hash codes are equal, so that both producers start at the same slot. The
    lesson's own two tables keep their slots in an AtomicReferenceArray, so every read and write
    is volatile: the lost element is not a visibility problem but an atomicity one, and no
    memory-ordering mode can fix it.

    r1, r2: did producer 1 / producer 2 report success (1) or not (0); r3: elements in the table.

    Observed on 2026-11-27 with the command above (AMD EPYC, 2 CPUs shared with other builds,
    Temurin 25.0.3, jcstress 0.16, short mode), samples per outcome:
        test                              1, 1, 1 (lost)       1, 1, 2
        FlawedInsert                      22,312 Interesting   1,437,033
        FixedInsert                       0 Forbidden          2,091,084
        ParallelHashTableMonitorInsert    0 Forbidden          1,179,803
        ParallelHashTableCasInsert        0 Forbidden          1,177,755
    The racy twin fails: its bad outcome was seen 22,312 times, and CheckedRun says "seen failing".

    Ties back to the BlockingQueue contract: offer() returning true promises the element is in
    the queue; a later take() must be able to return it.
 */
public class Handoff_01_LostElement {

    private Handoff_01_LostElement() {
    }

    /** A table of two slots that probes from slot 0: the smallest table two producers collide in. */
    interface TwoSlots {
        /** Puts e into the first empty slot; false if there is none. */
        boolean insert(Integer e);

        /** Counts the occupied slots; called by the arbiter, when no one else runs. */
        int count();
    }

    /**
     * Deliberately wrong: {@code insert} reads a slot and then sets it in two separate steps
     * (the line marked {@code <- the race}), as the papers' appendix does; two producers can both
     * see the slot empty and the second overwrites the first.
     */
    static final class FlawedTwoSlots implements TwoSlots {
        private final AtomicReferenceArray<Integer> slots = new AtomicReferenceArray<>(2);

        @Override
        public boolean insert(Integer e) {
            for (int i = 0; i < slots.length(); i++) {
                if (slots.get(i) == null) {     // <- the race: another producer may set it now
                    slots.set(i, e);
                    return true;
                }
            }
            return false;
        }

        @Override
        public int count() {
            return occupied(slots);
        }
    }

    /** The fix: the check and the set are one compare-and-set, so a slot has one owner. */
    static final class CasTwoSlots implements TwoSlots {
        private final AtomicReferenceArray<Integer> slots = new AtomicReferenceArray<>(2);

        @Override
        public boolean insert(Integer e) {
            for (int i = 0; i < slots.length(); i++) {
                if (slots.compareAndSet(i, null, e)) { // the fix: check and set in one step
                    return true;
                }
            }
            return false;
        }

        @Override
        public int count() {
            return occupied(slots);
        }
    }

    /** An element whose hash code is the same for every instance: all probe from one slot. */
    static final class Colliding {
        final int id;

        Colliding(int id) {
            this.id = id;
        }

        @Override
        public int hashCode() {
            return 0;
        }

        // equals stays identity: two producers insert two distinct elements
    }

    /** The library's parallel hash table of capacity 2, fed elements that collide. */
    static final class HashTableTwoSlots implements TwoSlots {
        private final Handoff<Colliding> table;

        HashTableTwoSlots(String slots) {
            this.table = Handoffs.create("pht:2,slots=" + slots);
        }

        @Override
        public boolean insert(Integer e) {
            return table.offer(new Colliding(e));
        }

        @Override
        public int count() {
            int n = 0;
            while (table.poll() != null) {
                n++;
            }
            return n;
        }
    }

    static int occupied(AtomicReferenceArray<Integer> slots) {
        int n = 0;
        for (int i = 0; i < slots.length(); i++) {
            n += slots.get(i) == null ? 0 : 1;
        }
        return n;
    }

    static int bit(boolean b) {
        return b ? 1 : 0;
    }

    /**
     * Deliberately wrong: two producers on {@link FlawedTwoSlots}, whose insert is the papers'
     * check-then-set (the line marked {@code <- the race}); identical to {@link FixedInsert} but for
     * the table.
     */
    @JCStressTest
    @Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "both inserted, both inside")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "both reported success, one element was overwritten: lost")
    @Outcome(expect = FORBIDDEN, desc = "not expected even from the racy form")
    @State
    public static class FlawedInsert {
        private final TwoSlots table = new FlawedTwoSlots();

        @Actor
        public void producer1(III_Result r) {
            r.r1 = bit(table.insert(1));
        }

        @Actor
        public void producer2(III_Result r) {
            r.r2 = bit(table.insert(2));
        }

        @Arbiter
        public void inside(III_Result r) {
            r.r3 = table.count();
        }
    }

    /** The fix: the same two producers on slots claimed by compare-and-set. */
    @JCStressTest
    @Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "both inserted, both inside")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "both reported success, one element was overwritten: lost")
    @Outcome(expect = FORBIDDEN, desc = "an insert failed or an element is missing")
    @State
    public static class FixedInsert {
        private final TwoSlots table = new CasTwoSlots();

        @Actor
        public void producer1(III_Result r) {
            r.r1 = bit(table.insert(1));
        }

        @Actor
        public void producer2(III_Result r) {
            r.r2 = bit(table.insert(2));
        }

        @Arbiter
        public void inside(III_Result r) {
            r.r3 = table.count();
        }
    }

    /** The library's table, the papers' slot form (a monitor per slot), two colliding producers. */
    @JCStressTest
    @Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "both inserted, both inside")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "both reported success, one element was overwritten: lost")
    @Outcome(expect = FORBIDDEN, desc = "an insert failed or an element is missing")
    @State
    public static class ParallelHashTableMonitorInsert {
        private final TwoSlots table = new HashTableTwoSlots("monitor");

        @Actor
        public void producer1(III_Result r) {
            r.r1 = bit(table.insert(1));
        }

        @Actor
        public void producer2(III_Result r) {
            r.r2 = bit(table.insert(2));
        }

        @Arbiter
        public void inside(III_Result r) {
            r.r3 = table.count();
        }
    }

    /** The library's table, the lock-free slot form (VarHandle CAS), two colliding producers. */
    @JCStressTest
    @Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "both inserted, both inside")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "both reported success, one element was overwritten: lost")
    @Outcome(expect = FORBIDDEN, desc = "an insert failed or an element is missing")
    @State
    public static class ParallelHashTableCasInsert {
        private final TwoSlots table = new HashTableTwoSlots("cas");

        @Actor
        public void producer1(III_Result r) {
            r.r1 = bit(table.insert(1));
        }

        @Actor
        public void producer2(III_Result r) {
            r.r2 = bit(table.insert(2));
        }

        @Arbiter
        public void inside(III_Result r) {
            r.r3 = table.count();
        }
    }
}
