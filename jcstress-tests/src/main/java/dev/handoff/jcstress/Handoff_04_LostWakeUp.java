/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/*
    How to run this lesson, from the top of the repository (docs/teaching.md, "Start here", says
    what to read in the output):
        $ mvn -B -ntp -pl src,jcstress-tests verify -DskipTests -Djcstress.tests=Handoff_04

    Lesson 4: the lost wake-up. A termination test: the @Actor is a consumer that calls take()
    on an empty one-cell handoff, and the @Signal is a producer that puts an element. The
    consumer must return. If it has not returned within a second, jcstress records STALE: the
    consumer hangs with an element inside.

    The racy consumer checks once whether the cell is empty, backs off for a moment to let a
    producer get ahead (a spin or back-off phase, as many handoffs have before they block), and
    then waits on the condition *if* its earlier check said empty. But the producer put its
    element and signalled during the back-off, while nobody was registered on the condition: the
    signal went to no one, and the consumer then waits for a signal that has already happened.
    The fix is the rule every Condition and Object.wait() user learns once: wait in a loop that
    re-checks the state under the lock, `while (cell == null) notEmpty.await();`. A signal is a
    hint that the state may have changed, never the state itself.

    Why the back-off: jcstress delivers the @Signal only after the actor thread has started and
    the harness has slept for a millisecond, so a consumer that checks and waits within
    nanoseconds is almost always already waiting when the signal comes (jcstress's own
    API_03_Termination sample, a bare wait()/notify(), reports 1 stale run in 13,168). The 2 ms
    back-off stands for anything that can run between the check and the wait: a spin phase, a
    statistics update, a safepoint, a preemption. With it the racy form hangs on almost every
    run, and the fixed form, identical except for the loop, never does.

    Observed on 2026-11-22 (AMD EPYC, 2 CPUs, Temurin 25.0.3, jcstress 0.16, short mode):
        test              STALE (hung)     TERMINATED
        FlawedIfTake      4 Interesting    1
        FixedWhileTake    0 Forbidden      77

    Ties back to the BlockingQueue contract: take() "waits if necessary until an element becomes
    available"; it must return once one is available, whenever the put happened.
 */
public class Handoff_04_LostWakeUp {

    private Handoff_04_LostWakeUp() {
    }

    /** Longer than the millisecond jcstress sleeps before it delivers the signal. */
    static final long BACK_OFF_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /**
     * Deliberately wrong: {@code take} waits {@code if} its earlier check saw the cell empty (the
     * line marked {@code <- the bug}) instead of re-checking the cell under the lock, so a signal
     * sent before it registered on the condition is lost.
     */
    static final class FlawedCell {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition notEmpty = lock.newCondition();
        private Integer cell; // guarded by lock

        void put(Integer e) {
            lock.lock();
            try {
                cell = e;
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }

        Integer take() throws InterruptedException {
            boolean empty = isEmpty();
            if (empty) {
                LockSupport.parkNanos(BACK_OFF_NANOS); // back off before blocking
            }
            lock.lock();
            try {
                if (empty) {                 // <- the bug: trusts a check made before the back-off
                    notEmpty.await();
                }
                Integer e = cell;
                cell = null;
                return e;
            } finally {
                lock.unlock();
            }
        }

        boolean isEmpty() {
            lock.lock();
            try {
                return cell == null;
            } finally {
                lock.unlock();
            }
        }
    }

    /** The fix: the same cell, waiting in a loop that re-checks the state under the lock. */
    static final class Cell {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition notEmpty = lock.newCondition();
        private Integer cell; // guarded by lock

        void put(Integer e) {
            lock.lock();
            try {
                cell = e;
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }

        Integer take() throws InterruptedException {
            boolean empty = isEmpty();
            if (empty) {
                LockSupport.parkNanos(BACK_OFF_NANOS); // back off before blocking
            }
            lock.lock();
            try {
                while (cell == null) {       // the fix: re-check under the lock, every time
                    notEmpty.await();
                }
                Integer e = cell;
                cell = null;
                return e;
            } finally {
                lock.unlock();
            }
        }

        boolean isEmpty() {
            lock.lock();
            try {
                return cell == null;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Deliberately wrong: a consumer on {@link FlawedCell}, which waits {@code if} an earlier check
     * saw the cell empty (the line marked {@code <- the bug}); identical to {@link FixedWhileTake} but
     * for the cell.
     */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "take() returned the element")
    @Outcome(id = "STALE", expect = ACCEPTABLE_INTERESTING, desc = "take() hangs: the wake-up was lost")
    @Outcome(expect = FORBIDDEN, desc = "take() threw")
    @State
    public static class FlawedIfTake {
        private final FlawedCell cell = new FlawedCell();

        @Actor
        public void consumer() throws InterruptedException {
            cell.take();
        }

        @Signal
        public void producer() {
            cell.put(1);
        }
    }

    /** The fix: the same consumer on {@link Cell}, which re-checks under the lock in a loop. */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "take() returned the element")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "take() hangs: the wake-up was lost")
    @Outcome(expect = FORBIDDEN, desc = "take() threw")
    @State
    public static class FixedWhileTake {
        private final Cell cell = new Cell();

        @Actor
        public void consumer() throws InterruptedException {
            cell.take();
        }

        @Signal
        public void producer() {
            cell.put(1);
        }
    }
}
