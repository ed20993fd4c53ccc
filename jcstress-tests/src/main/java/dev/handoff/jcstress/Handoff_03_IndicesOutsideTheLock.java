/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import java.util.concurrent.locks.ReentrantLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_03

    Lesson 3: exactly once. A circular buffer of two cells; each of the two actors offers one
    element and then polls one (jcstress runs no more actors than CPUs, and these tests are sized
    for two, so "two producers and two consumers" are two threads that each produce and consume).
    The arbiter drains what is left. r1, r2 count how often elements 1 and 2 were seen: taken by an
    actor or left inside. Each must be seen exactly once: "1, 1".

    The racy ring holds its lock while it writes the cell and the count, but advances putIndex
    and takeIndex after unlocking, "since only this thread is using that index". It is not: the
    next producer can enter the lock before the index moved, write the same cell and overwrite
    the first element (lost, "0, 1" or "1, 0"), and the next consumer can read the same cell
    again (duplicated, "2, 0" or "0, 2"). The fix is to move the two index updates back inside
    the critical section: the lock protects an invariant (putIndex == takeIndex + count mod n),
    and every write that takes part in it must happen under the lock.

    The same actors then run against every buffered handoff of the library (the circular buffer,
    the lock-split queue, the parallel hash table in both slot forms), where any outcome but
    "1, 1" is FORBIDDEN. The pipe holds nothing, so its exactly-once test is Handoff_09.

    Observed on 2026-11-22 (AMD EPYC, 2 CPUs, Temurin 25.0.3, jcstress 0.16, short mode):
        test                                   1, 1        other outcomes
        FlawedRingExactlyOnce                  1,222,596   0, 1: 2,884; 1, 0: 3,100 (Interesting)
        FixedRingExactlyOnce                   1,896,524   0 (Forbidden)
        CircularBufferExactlyOnce              1,032,683   0 (Forbidden)
        LockSplitQueueExactlyOnce              1,423,252   0 (Forbidden)
        ParallelHashTableMonitorExactlyOnce    1,308,865   0 (Forbidden)
        ParallelHashTableCasExactlyOnce        1,124,812   0 (Forbidden)
    LockSplitQueueExactlyOnceAcrossChunks and LockSplitQueueReusesLeftChunk came later: run the
    lesson for their table.

    Ties back to the BlockingQueue contract: every element offered is either still inside or
    returned by exactly one poll/take; and the memory-consistency clause (the unlock at the end
    of an offer happens-before the lock at the start of the poll that takes that element).
 */
public class Handoff_03_IndicesOutsideTheLock {

    private Handoff_03_IndicesOutsideTheLock() {
    }

    /** A ring of two cells; the racy twin and its fix differ only in where the indices move. */
    interface TwoCellRing {
        /** Puts e into the next cell; false if both are full. */
        boolean offer(Integer e);

        /** Takes the oldest element; null if both cells are empty. */
        Integer poll();
    }

    /**
     * Deliberately wrong: {@code offer} and {@code poll} advance their index after unlocking
     * (the two lines marked {@code <- the race}), so two producers can write the same cell and
     * two consumers can read it.
     */
    static final class FlawedRing implements TwoCellRing {
        private final Object[] items = new Object[2];
        private int putIndex;
        private int takeIndex;
        private int count;
        private final ReentrantLock lock = new ReentrantLock();

        public boolean offer(Integer e) {
            int i;
            lock.lock();
            try {
                if (count == items.length) {
                    return false;
                }
                i = putIndex;
                items[i] = e;
                count++;
            } finally {
                lock.unlock();
            }
            putIndex = following(i);             // <- the race: another producer may use i meanwhile
            return true;
        }

        public Integer poll() {
            int i;
            Integer e;
            lock.lock();
            try {
                if (count == 0) {
                    return null;
                }
                i = takeIndex;
                e = (Integer) items[i];
                items[i] = null;
                count--;
            } finally {
                lock.unlock();
            }
            takeIndex = following(i);            // <- the race: another consumer may use i meanwhile
            return e;
        }
    }

    /** The fix: the same ring with both index updates back under the lock. */
    static final class Ring implements TwoCellRing {
        private final Object[] items = new Object[2];
        private int putIndex;
        private int takeIndex;
        private int count;
        private final ReentrantLock lock = new ReentrantLock();

        public boolean offer(Integer e) {
            int i;
            lock.lock();
            try {
                if (count == items.length) {
                    return false;
                }
                i = putIndex;
                items[i] = e;
                count++;
                putIndex = following(i);         // the fix: under the lock
            } finally {
                lock.unlock();
            }
            return true;
        }

        public Integer poll() {
            int i;
            Integer e;
            lock.lock();
            try {
                if (count == 0) {
                    return null;
                }
                i = takeIndex;
                e = (Integer) items[i];
                items[i] = null;
                count--;
                takeIndex = following(i);        // the fix: under the lock
            } finally {
                lock.unlock();
            }
            return e;
        }
    }

    static int following(int i) {
        return i == 1 ? 0 : 1;
    }

    /** Counts element e among what the actors took and what polling {@code leftovers} finds. */
    static void count(II_Result r, Integer taken1, Integer taken2, Integer... leftovers) {
        int[] seen = new int[3];
        for (Integer e : new Integer[] {taken1, taken2}) {
            if (e != null) {
                seen[e]++;
            }
        }
        for (Integer e : leftovers) {
            if (e != null) {
                seen[e]++;
            }
        }
        r.r1 = seen[1];
        r.r2 = seen[2];
    }

    /**
     * Deliberately wrong: the actors of {@link FixedRingExactlyOnce} on {@link FlawedRing}, which
     * advances its indices after the unlock (the two lines marked {@code <- the race}).
     */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(id = {"0, 1", "1, 0", "0, 0"}, expect = ACCEPTABLE_INTERESTING, desc = "an element was lost: its cell was overwritten")
    @Outcome(id = {"2, 0", "0, 2", "2, 1", "1, 2", "2, 2"}, expect = ACCEPTABLE_INTERESTING, desc = "an element was delivered twice")
    @Outcome(expect = ACCEPTABLE_INTERESTING, desc = "lost and duplicated")
    @State
    public static class FlawedRingExactlyOnce {
        private final FlawedRing buffer = new FlawedRing();
        private Integer taken1;
        private Integer taken2;

        @Actor
        public void actor1() {
            buffer.offer(1);
            taken1 = buffer.poll();
        }

        @Actor
        public void actor2() {
            buffer.offer(2);
            taken2 = buffer.poll();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            count(r, taken1, taken2, buffer.poll(), buffer.poll());
        }
    }

    /** The fix: the same actors on {@link Ring}, whose index updates are under the lock. */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(id = {"0, 1", "1, 0", "0, 0"}, expect = FORBIDDEN, desc = "an element was lost: its cell was overwritten")
    @Outcome(id = {"2, 0", "0, 2", "2, 1", "1, 2", "2, 2"}, expect = FORBIDDEN, desc = "an element was delivered twice")
    @Outcome(expect = FORBIDDEN, desc = "lost and duplicated")
    @State
    public static class FixedRingExactlyOnce {
        private final Ring buffer = new Ring();
        private Integer taken1;
        private Integer taken2;

        @Actor
        public void actor1() {
            buffer.offer(1);
            taken1 = buffer.poll();
        }

        @Actor
        public void actor2() {
            buffer.offer(2);
            taken2 = buffer.poll();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            count(r, taken1, taken2, buffer.poll(), buffer.poll());
        }
    }

    /** The library's circular buffer, same actors: every index update is under its lock. */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class CircularBufferExactlyOnce {
        private final Handoff<Integer> buffer = Handoffs.create("circular:2");
        private Integer taken1;
        private Integer taken2;

        @Actor
        public void actor1() {
            buffer.offer(1);
            taken1 = buffer.poll();
        }

        @Actor
        public void actor2() {
            buffer.offer(2);
            taken2 = buffer.poll();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            count(r, taken1, taken2, buffer.poll(), buffer.poll());
        }
    }

    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class LockSplitQueueExactlyOnce {
        private final Handoff<Integer> buffer = Handoffs.create("lock-split:2");
        private Integer taken1;
        private Integer taken2;

        @Actor
        public void actor1() {
            buffer.offer(1);
            taken1 = buffer.poll();
        }

        @Actor
        public void actor2() {
            buffer.offer(2);
            taken2 = buffer.poll();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            count(r, taken1, taken2, buffer.poll(), buffer.poll());
        }
    }

    /**
     * As LockSplitQueueExactlyOnce, with the ends one slot before a chunk boundary: the queue of
     * capacity 2 stores elements in chunks of 2 slots, and one element went through first, so
     * of the two offers one fills the last slot of a chunk and the other opens the next chunk.
     */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class LockSplitQueueExactlyOnceAcrossChunks {
        private final Handoff<Integer> buffer = Handoffs.create("lock-split:2");
        private Integer taken1;
        private Integer taken2;

        public LockSplitQueueExactlyOnceAcrossChunks() {
            buffer.offer(0);
            buffer.poll();
        }

        @Actor
        public void actor1() {
            buffer.offer(1);
            taken1 = buffer.poll();
        }

        @Actor
        public void actor2() {
            buffer.offer(2);
            taken2 = buffer.poll();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            count(r, taken1, taken2, buffer.poll(), buffer.poll());
        }
    }

    /**
     * The lock-split queue's chunk reuse: a consumer that leaves an emptied chunk hands it to
     * the producers. Capacity 65 gives chunks of 64; the first chunk has been filled and emptied
     * and the second filled, so the poll leaves the first chunk while the offer opens a new one,
     * the chunk just left if the poll came first. r1: elements seen (polled or left inside), r2:
     * 1 if they came out in the order they went in. Anything but "65, 1" means the reused chunk
     * lost, repeated or reordered an element.
     */
    @JCStressTest
    @Outcome(id = "65, 1", expect = ACCEPTABLE, desc = "each element seen exactly once, in order")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost, delivered twice or reordered")
    @State
    public static class LockSplitQueueReusesLeftChunk {
        private final Handoff<Integer> buffer = Handoffs.create("lock-split:65");
        private Integer taken;

        public LockSplitQueueReusesLeftChunk() {
            for (int i = 0; i < 64; i++) {
                buffer.offer(-1);
            }
            for (int i = 0; i < 64; i++) {
                buffer.poll();
            }
            for (int i = 0; i < 64; i++) {
                buffer.offer(i);
            }
        }

        @Actor
        public void consumer() {
            taken = buffer.poll();
        }

        @Actor
        public void producer() {
            buffer.offer(64);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            int seen = 0;
            boolean inOrder = true;
            for (Integer e = taken; e != null; e = buffer.poll()) {
                inOrder &= e == seen;
                seen++;
            }
            r.r1 = seen;
            r.r2 = inOrder ? 1 : 0;
        }
    }

    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class ParallelHashTableMonitorExactlyOnce {
        private final Handoff<Integer> buffer = Handoffs.create("pht:2,slots=monitor");
        private Integer taken1;
        private Integer taken2;

        @Actor
        public void actor1() {
            buffer.offer(1);
            taken1 = buffer.poll();
        }

        @Actor
        public void actor2() {
            buffer.offer(2);
            taken2 = buffer.poll();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            count(r, taken1, taken2, buffer.poll(), buffer.poll());
        }
    }

    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element seen exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
    @State
    public static class ParallelHashTableCasExactlyOnce {
        private final Handoff<Integer> buffer = Handoffs.create("pht:2,slots=cas");
        private Integer taken1;
        private Integer taken2;

        @Actor
        public void actor1() {
            buffer.offer(1);
            taken1 = buffer.poll();
        }

        @Actor
        public void actor2() {
            buffer.offer(2);
            taken2 = buffer.poll();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            count(r, taken1, taken2, buffer.poll(), buffer.poll());
        }
    }
}
