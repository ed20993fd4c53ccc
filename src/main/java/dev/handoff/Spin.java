/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The brief wait before parking that the hash table, the pipe and a circular buffer built with
 * {@code wait=spin} use, and the gate that lets one thread of a side spin at a time.
 * LockSplitQueue and the default circular buffer do not spin: with one producer and one consumer,
 * a consumer spinning at the producer's heels loses more throughput than the wake-ups cost (see
 * their notes).
 *
 * <p>Why spin at all: waking a parked thread on the other CPU costs 25-35 us on the reference
 * machine ({@code MachineLimits.wakeRoundTrip} in docs/benchmarks.md), while the other side of a
 * busy handoff usually answers within a microsecond. So a thread that must wait first re-reads
 * what it waits for during {@link #SPINS} rounds of {@link Thread#onSpinWait()} (about 3 us
 * here), then {@link #YIELDS} rounds of {@link Thread#yield()}, which give its CPU to the thread it
 * waits for when there are more runnable threads than CPUs, and only then parks.
 *
 * <p>Why one spinner per side: every spinner re-reads the word the other side writes (a count, a
 * status), so each write by the other side invalidates the line in every spinner's cache and the
 * writer waits for it to come back. One spinner catches the next element (or room) as well as
 * four would, and the others parking instead costs nothing while the spinner catches it. A
 * thread also does not spin while others of its side are parked: they are ahead of it in line.
 * Both are hints read without a lock; whether a thread gets an element is decided elsewhere.
 */
final class Spin {

    /** Rounds of {@link Thread#onSpinWait()} before a waiting thread yields: about 3 us here. */
    static final int SPINS = 128;

    /** {@link Thread#yield()} rounds after the spins, before the thread parks. */
    static final int YIELDS = 4;

    /** All rounds of a wait: {@code SPINS + YIELDS}. */
    static final int ROUNDS = SPINS + YIELDS;

    private Spin() {
    }

    /**
     * Pauses for round {@code round} of a wait: {@link Thread#onSpinWait()} in the first
     * {@link #SPINS} rounds, {@link Thread#yield()} after them.
     */
    static void pause(int round) {
        if (round < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // give way: the thread we wait for may need this CPU
        }
    }

    /** At most one spinning thread per side: {@link #tryEnter()} before spinning, {@link #exit()} after. */
    static final class Gate {
        private static final VarHandle TAKEN;

        static {
            try {
                TAKEN = MethodHandles.lookup().findVarHandle(Gate.class, "taken", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** 1 while a thread spins. Accessed through TAKEN; a hint, ordered with nothing else. */
        private int taken;

        /** Whether the calling thread may spin now; if so, it must call {@link #exit()} after. */
        boolean tryEnter() {
            // Opaque read first, so that a side whose spinner is busy does not fight for the line.
            return (int) TAKEN.getOpaque(this) == 0 && TAKEN.compareAndSet(this, 0, 1);
        }

        /** Ends the caller's spin. Only the thread whose tryEnter() succeeded calls it. */
        void exit() {
            TAKEN.setOpaque(this, 0); // only the spinner writes 1 -> 0: no CAS needed
        }
    }
}
