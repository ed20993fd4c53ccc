/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.waiting;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * The brief wait before parking that the hash table, the pipe and a circular buffer built with
 * {@code wait=spin} use, and the gate that lets one thread of a side spin at a time.
 * LockSplitQueue and the default circular buffer do not spin: with one producer and one consumer,
 * a consumer spinning at the producer's heels loses more throughput than the wake-ups cost (see
 * their notes).
 *
 * <p>Why spin at all: waking a parked thread on another CPU takes far longer than the other side
 * of a busy handoff usually takes to answer ({@code MachineLimits.wakeRoundTrip} in
 * docs/benchmarks.md has both). So a thread that must wait first re-reads what it waits for
 * during {@link #SPINS} rounds of {@link Thread#onSpinWait()}, then {@link #YIELDS} rounds of
 * {@link Thread#yield()}, which give its CPU to the thread it waits for when there are more
 * runnable threads than CPUs, and only then parks.
 *
 * <p>Why one spinner per side: every spinner re-reads the word the other side writes (a count, a
 * status), so each write by the other side invalidates the line in every spinner's cache and the
 * writer waits for it to come back. One spinner catches the next element (or room) as well as
 * four would, and the others parking instead costs nothing while the spinner catches it. A
 * thread also does not spin while others of its side are parked: they are ahead of it in line.
 * Both are hints read without a lock; whether a thread gets an element is decided elsewhere.
 * The pipe's workers are the exception: each waits on a channel of its own, which no other
 * worker reads, so every one of them spins and the gate only shows producers the first.
 */
public final class Spin {

    /** Rounds of {@link Thread#onSpinWait()} before a waiting thread yields: a few microseconds. */
    public static final int SPINS = 128;

    /** {@link Thread#yield()} rounds after the spins, before the thread parks. */
    public static final int YIELDS = 4;

    /** All rounds of a wait: {@code SPINS + YIELDS}. */
    public static final int ROUNDS = SPINS + YIELDS;

    private Spin() {
    }

    /**
     * Pauses for round {@code round} of a wait: {@link Thread#onSpinWait()} in the first
     * {@link #SPINS} rounds, {@link Thread#yield()} after them.
     */
    public static void pause(int round) {
        if (round < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // give way: the thread we wait for may need this CPU
        }
    }

    /**
     * Waits at most {@link #ROUNDS} rounds, pausing as {@link #pause(int)} does, until
     * {@code done} is true.
     *
     * @return whether {@code done} became true
     */
    public static boolean until(BooleanSupplier done) {
        for (int i = 0; i < ROUNDS; i++) {
            if (done.getAsBoolean()) {
                return true;
            }
            pause(i);
        }
        return done.getAsBoolean();
    }

    /**
     * Waits at most {@link #YIELDS} rounds of {@link Thread#yield()} until {@code done} is true:
     * the wait of a thread that finds its side's {@link Gate} taken. It gives its CPU to the
     * thread it waits for when more threads than CPUs are runnable, and costs next to nothing
     * otherwise. A virtual thread does not wait here: parking one costs no OS wake-up, and its
     * yield would only requeue it on its carrier.
     *
     * @return whether {@code done} became true
     */
    public static boolean yieldUntil(BooleanSupplier done) {
        for (int i = 0; i < YIELDS && !Thread.currentThread().isVirtual(); i++) {
            if (done.getAsBoolean()) {
                return true;
            }
            Thread.yield();
        }
        return done.getAsBoolean();
    }

    /**
     * At most one spinning thread per side: {@link #tryEnter()} before spinning, {@link #exit()}
     * after. A spinner may enter with an id (the pipe's worker slot), which {@link #holder()}
     * shows the other side as a hint of whom to serve first.
     */
    public static final class Gate {
        private static final VarHandle HOLDER;

        /** The value of holder while nobody spins. */
        public static final int NONE = -1;

        static {
            try {
                HOLDER = MethodHandles.lookup().findVarHandle(Gate.class, "holder", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The spinner's id, or NONE. Accessed through HOLDER; a hint, ordered with nothing else. */
        private int holder = NONE;

        /** Whether the calling thread may spin now; if so, it must call {@link #exit()} after. */
        public boolean tryEnter() {
            return tryEnter(0);
        }

        /** {@link #tryEnter()}, showing {@code id >= 0} as the holder while the caller spins. */
        public boolean tryEnter(int id) {
            // Opaque read first, so that a side whose spinner is busy does not fight for the line;
            // the CAS races other entrants only, and exit()'s opaque write of NONE is its partner.
            return (int) HOLDER.getOpaque(this) == NONE && HOLDER.compareAndSet(this, NONE, id);
        }

        /** The id of the thread spinning now, or {@link #NONE}: a hint, possibly stale. */
        public int holder() {
            return (int) HOLDER.getOpaque(this);
        }

        /** Ends the caller's spin. Only the thread whose tryEnter() succeeded calls it. */
        public void exit() {
            HOLDER.setOpaque(this, NONE); // only the spinner writes it back: no CAS needed
        }
    }
}
