/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pool;

import dev.handoff.internal.waiting.Parking;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The pool threads that are parked waiting for a task, most recently parked first: a task can be
 * handed straight to one of them ({@link #handTo}), which it finds in its own {@link Waiter}
 * without taking any lock, or one can be woken to look in the queue again ({@link #wakeOne}).
 * A thread {@link #push}es a waiter, re-checks whatever it waits for, and then {@link #await}s;
 * a waiter is filled at most once, by a hand-over, a wake-up or its own cancellation.
 *
 * <p>Memory consistency: actions in a thread before {@link #handTo} hands over an object
 * happen-before {@link #await} returns that object in the waiting thread.
 */
final class IdleThreads {
    /*
     * Implementation notes.
     *
     * A Treiber stack of single-use waiters, as the non-fair SynchronousQueue's TransferStack
     * keeps its waiting nodes, with its clean() to unsplice cancelled ones.
     *
     *   top -> [W5 waiting] -> [W3 cancelled] -> [W2 waiting] -> null
     *
     * Last in, first out: the thread that parked last, whose cache is warm, gets the next task,
     * and threads that stay at the bottom idle long enough to reach their keep-alive and end, so
     * that the pool shrinks when the load falls.
     *
     * A waiter's item goes from null to exactly one of: a task (handTo), WAKE (wakeOne), CANCELLED
     * (cancel, by its own thread), by a CAS; whoever wins the CAS owns the outcome. A giver pops a
     * waiter off the stack before it fills it, so only the popper can fill a popped waiter with a
     * task or WAKE, and a waiter that loses to its own cancellation is dropped by the popper, which
     * tries the next. A waiter is never pushed twice, so no pop can suffer ABA (the collector
     * keeps an unreachable waiter's address from being reused while anyone holds it).
     *
     * Cancelled waiters below the top are unspliced by clean(), run by every cancellation: it pops
     * cancelled waiters off the top, then walks down to the cancelled waiter's successor and
     * CASes each predecessor's next past a cancelled successor. Next fields only ever move past
     * a cancelled waiter, so no waiting one is lost from the stack; a race between two cleaners
     * may leave a cancelled waiter linked, which a later clean or pop removes. Each clean walks
     * at most the waiters above its own, so the stack stays as long as the waiting threads plus
     * the cancellations not yet cleaned.
     *
     * Visibility: top is CASed (volatile) by push and pop; a pusher writes its waiter's next
     * plainly before the CAS that publishes it, which orders that write before any pop that reads
     * it. item is written only by CAS and read volatile (await), so a task and everything done
     * before its hand-over happen-before the waiting thread reads it. next is CASed by clean and
     * read plainly: a stale next only leaves a cancelled waiter linked a while longer.
     */

    /** What {@link #wakeOne} hands a waiter: look again at what you wait for. */
    static final Object WAKE = new Object();

    /** A waiter's item once its thread has given up waiting (timed out or interrupted). */
    private static final Object CANCELLED = new Object();

    /** The most recently pushed waiter, or null. */
    private volatile Waiter top;

    /** One thread's wait: filled once, by a hand-over, a wake-up or its cancellation. */
    static final class Waiter {
        final Thread thread = Thread.currentThread();
        /** null while it waits; then a handed object, WAKE or CANCELLED. Written only by CAS (ITEM). */
        volatile Object item;
        /** The waiter below; moved only past a cancelled waiter (clean), by CAS (NEXT). */
        Waiter next;

        boolean isCancelled() {
            return item == CANCELLED;
        }
    }

    private static final VarHandle TOP;
    private static final VarHandle ITEM;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(IdleThreads.class, "top", Waiter.class);
            ITEM = l.findVarHandle(Waiter.class, "item", Object.class);
            NEXT = l.findVarHandle(Waiter.class, "next", Waiter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Pushes a waiter for the calling thread; it is not yet parked. */
    Waiter push() {
        Waiter w = new Waiter();
        Waiter t;
        do {
            t = top;
            w.next = t; // plain: published by the CAS below, which pairs with the read of top in pop
        } while (!TOP.compareAndSet(this, t, w));
        return w;
    }

    /**
     * Hands x to the most recently parked waiter that still waits and unparks it.
     *
     * @return false if no thread waits
     */
    boolean handTo(Object x) {
        for (Waiter w; (w = pop()) != null; ) {
            // CAS: the thread's await reads item volatile, so x and all before this happen-before its return
            if (ITEM.compareAndSet(w, null, x)) {
                LockSupport.unpark(w.thread);
                return true;
            }
            // cancelled: its thread no longer waits; try the next
        }
        return false;
    }

    /** Wakes the most recently parked waiter, if any, to look again; returns whether one was woken. */
    boolean wakeOne() {
        return handTo(WAKE);
    }

    /** Wakes every waiter that waits now. */
    void wakeAll() {
        while (wakeOne()) {
            // one per waiter
        }
    }

    /** Whether some waiter is in the stack (it may be cancelled). A volatile read. */
    boolean any() {
        return top != null;
    }

    /** The waiters in the stack, cancelled ones not yet cleaned included: for tests, at rest. */
    int length() {
        int n = 0;
        for (Waiter w = top; w != null; w = w.next) {
            n++;
        }
        return n;
    }

    /** Pops the top waiter, or returns null if there is none. */
    private Waiter pop() {
        Waiter t;
        do {
            t = top;
            if (t == null) {
                return null;
            }
        } while (!TOP.compareAndSet(this, t, t.next));
        return t;
    }

    /**
     * Cancels w, pushed by the calling thread, unless it was filled first.
     *
     * @return true if cancelled: nothing was or will be handed to w; false if w holds a hand-over
     *         or a wake-up, which {@link #await} then returns at once
     */
    boolean cancel(Waiter w) {
        // assert w.thread == Thread.currentThread();
        if (ITEM.compareAndSet(w, null, CANCELLED)) { // against the giver's CAS in handTo: one wins
            clean(w);
            return true;
        }
        return false;
    }

    /**
     * Parks until w is filled, the deadline passes or the thread is interrupted.
     *
     * @param w the waiter the calling thread pushed
     * @param timed whether deadline applies
     * @param deadline the {@link System#nanoTime()} to give up at, if timed
     * @param owner the queue, the blocker named when the thread parks
     * @return what was handed over, or WAKE; null if the deadline passed first (w is cancelled).
     *         If the thread is interrupted after w was filled, it returns w's item and leaves the
     *         interrupt status set
     * @throws InterruptedException if interrupted before w was filled (w is cancelled)
     */
    Object await(Waiter w, boolean timed, long deadline, Object owner) throws InterruptedException {
        for (;;) {
            Object x = w.item; // volatile: pairs with the CAS in handTo
            if (x != null) {
                return x; // CANCELLED is written only by this thread, which then does not call await
            }
            if (Thread.currentThread().isInterrupted()) {
                if (cancel(w)) {
                    Thread.interrupted();
                    throw new InterruptedException();
                }
                continue; // filled meanwhile: return it, the interrupt status still set
            }
            if (timed) {
                long left = deadline - System.nanoTime();
                if (left <= 0L) {
                    if (cancel(w)) {
                        return null;
                    }
                    continue;
                }
                Parking.TAKE.parkNanos(owner, left);
            } else {
                Parking.TAKE.park(owner);
            }
        }
    }

    /** Unsplices cancelled waiters from the top down to w's successor (SynchronousQueue's clean). */
    private void clean(Waiter w) {
        Waiter past = w.next;
        if (past != null && past.isCancelled()) {
            past = past.next;
        }
        Waiter p;
        while ((p = top) != null && p != past && p.isCancelled()) {
            TOP.compareAndSet(this, p, p.next); // a lost CAS means top moved: read it again
        }
        while (p != null && p != past) {
            Waiter n = p.next;
            if (n != null && n.isCancelled()) {
                NEXT.compareAndSet(p, n, n.next); // only ever past a cancelled waiter
            } else {
                p = n;
            }
        }
    }
}
