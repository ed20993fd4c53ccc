/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.Handoff;
import dev.handoff.HandoffClosedException;
import dev.handoff.Handoffs;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_06

    Lesson 6: no lost wake-up in any handoff. Four termination tests per kind, the library's
    side of lesson 4:
      TakeWakesOnPut    a consumer blocked in take() on an empty handoff returns once an element
                        is put;
      PutWakesOnTake    a producer blocked in put() on a full handoff returns once one is taken;
      CloseWakesTake    close() wakes a consumer blocked in take() (it throws
                        HandoffClosedException, the handoff being closed and empty);
      CloseWakesPut     close() wakes a producer blocked in put() (it throws
                        HandoffClosedException, its element stays with it).
    The elastic pool's work queue (Handoffs.newElasticPool) parks its waiting threads on a stack of
    its own, outside the handoff: a task is handed straight to a parked thread, or inserted and a
    parked thread woken, each side with a full fence between its write and its read (ElasticQueue's
    notes). Two tests for it: TakeWakesOnOfferOrPut (an offer that finds the taker parked hands the
    task over, else a put inserts it) and CloseWakesTake.
    STALE (the blocked thread did not return within a second of the signal) is FORBIDDEN.

    Each kind repeats the four classes rather than inheriting them from one abstract test:
    jcstress's annotation processor (JCStressTestProcessor, 0.16) collects only the @Actor,
    @Signal and @Arbiter methods a test class declares itself (ElementFilter.methodsIn of its
    enclosed elements), so an inherited @Actor would not run.

    Ties back to the BlockingQueue contract ("take: waits if necessary until an element becomes
    available"; "put: waiting if necessary for space to become available") and to the Handoff
    close contract ("blocked threads are woken by close").
 */
public class Handoff_06_WakeUps {

    private Handoff_06_WakeUps() {
    }

    /** A handoff of the given spec with every slot filled. */
    static Handoff<Integer> full(String spec) {
        Handoff<Integer> h = Handoffs.create(spec);
        for (int i = 0; i < h.capacity(); i++) {
            h.add(-i);
        }
        return h;
    }

    /** The pipe's signals wait for the blocked thread at most this long (it is already there). */
    static final long SIGNAL_SECONDS = 10;

    static void takeUntilClosed(Handoff<Integer> h) throws InterruptedException {
        try {
            h.take();
        } catch (HandoffClosedException expected) {
            // closed and empty: the wake-up we wait for
        }
    }

    static void putUntilClosed(Handoff<Integer> h) throws InterruptedException {
        try {
            h.put(1);
        } catch (HandoffClosedException expected) {
            // closed: the element stays with us
        }
    }

    // ---- circular buffer ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class CircularBufferTakeWakesOnPut {
        private final Handoff<Integer> h = Handoffs.create("circular:1");

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
    public static class CircularBufferPutWakesOnTake {
        private final Handoff<Integer> h = full("circular:1");

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
    public static class CircularBufferCloseWakesTake {
        private final Handoff<Integer> h = Handoffs.create("circular:1");

        @Actor
        public void consumer() throws InterruptedException {
            takeUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class CircularBufferCloseWakesPut {
        private final Handoff<Integer> h = full("circular:1");

        @Actor
        public void producer() throws InterruptedException {
            putUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    // ---- circular buffer that spins first (wait=spin): the spin must not lose the wake-up ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class SpinningCircularBufferTakeWakesOnPut {
        private final Handoff<Integer> h = Handoffs.create("circular:1,wait=spin");

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
    public static class SpinningCircularBufferPutWakesOnTake {
        private final Handoff<Integer> h = full("circular:1,wait=spin");

        @Actor
        public void producer() throws InterruptedException {
            h.put(1);
        }

        @Signal
        public void consumer() {
            h.poll();
        }
    }

    // ---- lock-split queue ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class LockSplitQueueTakeWakesOnPut {
        private final Handoff<Integer> h = Handoffs.create("lock-split:1");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() {
            h.offer(1);
        }
    }

    /** As TakeWakesOnPut, where the put opens a new chunk (capacity 2: chunks of 2, both used). */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class LockSplitQueueTakeWakesOnPutIntoNewChunk {
        private final Handoff<Integer> h = Handoffs.create("lock-split:2");

        public LockSplitQueueTakeWakesOnPutIntoNewChunk() {
            h.offer(1);
            h.offer(2);
            h.poll();
            h.poll();
        }

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
    public static class LockSplitQueuePutWakesOnTake {
        private final Handoff<Integer> h = full("lock-split:1");

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
    public static class LockSplitQueueCloseWakesTake {
        private final Handoff<Integer> h = Handoffs.create("lock-split:1");

        @Actor
        public void consumer() throws InterruptedException {
            takeUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class LockSplitQueueCloseWakesPut {
        private final Handoff<Integer> h = full("lock-split:1");

        @Actor
        public void producer() throws InterruptedException {
            putUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    // ---- parallel hash table, monitor slots ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class ParallelHashTableMonitorTakeWakesOnPut {
        private final Handoff<Integer> h = Handoffs.create("pht:1,slots=monitor");

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
    public static class ParallelHashTableMonitorPutWakesOnTake {
        private final Handoff<Integer> h = full("pht:1,slots=monitor");

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
    public static class ParallelHashTableMonitorCloseWakesTake {
        private final Handoff<Integer> h = Handoffs.create("pht:1,slots=monitor");

        @Actor
        public void consumer() throws InterruptedException {
            takeUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class ParallelHashTableMonitorCloseWakesPut {
        private final Handoff<Integer> h = full("pht:1,slots=monitor");

        @Actor
        public void producer() throws InterruptedException {
            putUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    // ---- parallel hash table, cas slots ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class ParallelHashTableCasTakeWakesOnPut {
        private final Handoff<Integer> h = Handoffs.create("pht:1,slots=cas");

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
    public static class ParallelHashTableCasPutWakesOnTake {
        private final Handoff<Integer> h = full("pht:1,slots=cas");

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
    public static class ParallelHashTableCasCloseWakesTake {
        private final Handoff<Integer> h = Handoffs.create("pht:1,slots=cas");

        @Actor
        public void consumer() throws InterruptedException {
            takeUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class ParallelHashTableCasCloseWakesPut {
        private final Handoff<Integer> h = full("pht:1,slots=cas");

        @Actor
        public void producer() throws InterruptedException {
            putUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    /** A consumer whose searches take turns between its cursor and a probe lap (search=cursor). */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class ParallelHashTableCursorTakeWakesOnPut {
        private final Handoff<Integer> h = Handoffs.create("pht:2,search=cursor");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() {
            h.offer(1);
        }
    }

    // ---- pipe handoff: nothing is buffered, so "full" is a pipe with no worker waiting, and the
    //      signal that wakes a blocked thread is the other side arriving (a timed call that
    //      returns at once when the blocked thread is there) ----

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class PipeHandoffTakeWakesOnPut {
        private final Handoff<Integer> h = Handoffs.create("pipe:1");

        @Actor
        public void consumer() throws InterruptedException {
            h.take();
        }

        @Signal
        public void producer() throws InterruptedException {
            h.offer(1, SIGNAL_SECONDS, TimeUnit.SECONDS); // hands over as soon as the worker waits
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class PipeHandoffPutWakesOnTake {
        private final Handoff<Integer> h = Handoffs.create("pipe:1");

        @Actor
        public void producer() throws InterruptedException {
            h.put(1);
        }

        @Signal
        public void consumer() throws InterruptedException {
            h.poll(SIGNAL_SECONDS, TimeUnit.SECONDS); // a worker arrives: the producer hands to it
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class PipeHandoffCloseWakesTake {
        private final Handoff<Integer> h = Handoffs.create("pipe:1");

        @Actor
        public void consumer() throws InterruptedException {
            takeUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class PipeHandoffCloseWakesPut {
        private final Handoff<Integer> h = Handoffs.create("pipe:1");

        @Actor
        public void producer() throws InterruptedException {
            putUntilClosed(h);
        }

        @Signal
        public void close() {
            h.close();
        }
    }

    // ---- the elastic pool's work queue ----

    /** The work queue of an elastic pool that never started a thread: this test's threads use it. */
    static BlockingQueue<Runnable> elasticQueue() {
        return Handoffs.newElasticPool("circular:1", 0, 1, 1, TimeUnit.MINUTES).getQueue();
    }

    static final Runnable TASK = () -> { };

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class ElasticQueueTakeWakesOnOfferOrPut {
        private final BlockingQueue<Runnable> q = elasticQueue();

        @Actor
        public void consumer() throws InterruptedException {
            q.take();
        }

        @Signal
        public void producer() throws InterruptedException {
            if (!q.offer(TASK)) { // no thread parked yet: the pool would start one; here, insert
                q.put(TASK);
            }
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the blocked thread returned")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the blocked thread hangs: lost wake-up")
    @Outcome(expect = FORBIDDEN, desc = "the blocked thread threw")
    @State
    public static class ElasticQueueCloseWakesTake {
        private final BlockingQueue<Runnable> q = elasticQueue();

        @Actor
        public void consumer() throws InterruptedException {
            try {
                q.take();
            } catch (HandoffClosedException expected) {
                // closed and empty: the wake-up we wait for
            }
        }

        @Signal
        public void close() {
            ((Handoff<Runnable>) q).close();
        }
    }
}
