/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.waiting;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The one spin-before-park policy of the library: whether a thread that must wait may first
 * re-read what it waits for, and for how many rounds, before it parks. One spinner serves one
 * side of a handoff (its consumers, or its producers), or one channel that a single thread
 * waits on.
 *
 * <p>Every spin before a park is {@link #spin}: it asks the policy ({@link #begin(int)}), reads
 * what the thread waits for between rounds of {@link Thread#onSpinWait()}, and reports the outcome
 * back to the policy ({@link #end(boolean)}); the caller then reads everything again and parks if
 * it must. What the thread waits for is a {@link Ready}: a method reference that captures nothing,
 * given the object it reads and one number, so that a wait allocates nothing and the JIT, inlining
 * {@code spin} into its caller, inlines the condition too. A wait on a partner already in the
 * middle of its operation is {@link #spinForPartner} (a spin the policy does not govern) or, in a
 * retry loop, {@link #pauseForPartner(int)}.
 *
 * <p>{@link #begin(int)} answers 0, and the thread parks at once, when spinning cannot pay:
 * <ul>
 *   <li>on a virtual thread: parking one costs no OS wake-up, and its spin would hold a carrier
 *       that another virtual thread (perhaps the one it waits for) needs;</li>
 *   <li>while another thread of the same side spins ({@link Gate}): one spinner catches the next
 *       element or room as well as several would, and every spinner re-reads the line the other
 *       side writes;</li>
 *   <li>while as many threads of this JVM spin as it has CPUs ({@link #MAX_SPINNERS}), and always on
 *       one CPU: a spinner beyond that could run only on a CPU taken from a thread that makes
 *       progress, perhaps the one it waits for;</li>
 * </ul>
 *
 * <p>The rounds adapt to what recent spins of this side earned, as HotSpot's monitors adapt
 * their spinning. A spin that ends in a handoff adds a quarter of {@link #ROUNDS} to the budget
 * (from at least half), one that ends empty takes a quarter off, so a side keeps spinning while
 * more of its spins pay than not, and four empty spins in a row bring it to 0. At 0 the side
 * parks at once, and every {@link #PROBE_EVERY}-th wait spins a probe of {@link #ROUNDS} to learn
 * whether spinning pays again. On a busy machine, where the partner cannot run while this thread
 * spins, the spins fail and the side parks.
 *
 * <p>A spinner of a handoff built with {@code wait=spin} ({@link #latencyFirst()}), whose user
 * asked for latency at the price of CPU, keeps looking at 0: each wait glances
 * ({@link #GLANCE_ROUNDS}, a small part of what parking and waking costs) before it parks, and
 * its probe ({@link #LONG_PROBE_ROUNDS}) outlasts a wake-up. Two threads that pass work back and
 * forth (a request and its reply, each on its own handoff) can otherwise fall to 0 together:
 * once one of them parked, the other's spin ends before the wake-up it caused has let the first
 * answer, so its spin fails too, and then both park on every wait, each waiting out the other's
 * wake-up, for thousands of exchanges. A probe that outlasts a wake-up catches the answer of a
 * partner that was parked; the partner, running now, glances at its next wait and catches the
 * reply that this thread, spinning again, sends at once: both budgets recover within a few
 * exchanges. The other spinners (the pipe's, the hash table's, a {@code core=cells} put's wait
 * for a batch of room) spin by the library's choice, often with more threads than CPUs, and a
 * glance on every wait of a side whose spins do not pay would take CPU from the threads that
 * make progress.
 *
 * <p>Every read and write here is a hint: the budget and the probe count are read and written
 * with opaque accesses and may lose an update under races, which only changes how long the next
 * wait spins. Whether a thread gets an element or room is decided elsewhere.
 */
public final class Spinner {

    /**
     * The longest spin, in rounds of {@link Thread#onSpinWait()}: about 12 us on an AMD EPYC, longer
     * where a pause takes longer (a wake-up costs tens of microseconds on either). No round
     * yields: a yield hands the CPU to whatever else is runnable, on a busy machine for a whole
     * time slice, and a thread that cannot spin on a CPU of its own parks instead.
     */
    public static final int ROUNDS = 512;

    /**
     * Rounds of {@link Thread#onSpinWait()} in a wait for a partner in the middle of its operation,
     * a few microseconds: what it is about to do takes a few instructions unless it lost its CPU.
     */
    public static final int PARTNER_ROUNDS = 128;

    /**
     * The rounds of a probe, the spin that a side whose budget fell to 0 tries now and then: a full
     * one, since a shorter spin would miss a partner that a full spin catches, and never recover.
     */
    static final int PROBE_ROUNDS = ROUNDS;

    /**
     * The rounds of a {@link #latencyFirst()} spinner's probe: four full spins, about 50 us on an
     * AMD EPYC, longer than a parked partner takes to wake up and answer.
     */
    static final int LONG_PROBE_ROUNDS = 4 * ROUNDS;

    /**
     * The rounds that a {@link #latencyFirst()} spinner whose budget is 0 spins on each wait that
     * does not probe: about 2 us on an AMD EPYC, a small part of a park and its wake-up, enough to
     * catch a partner that is running and about to hand over.
     */
    static final int GLANCE_ROUNDS = 64;

    /** What a spin takes off the budget when it ends empty, and adds when it pays. */
    static final int STEP = ROUNDS / 4;

    /** A side whose budget is 0 probes on every this many waits. */
    static final int PROBE_EVERY = 32;

    /**
     * The most threads of this JVM that spin at once: one per CPU the JVM may use, and none on
     * one CPU, where the thread waited for cannot run while another spins. With one spinner per
     * side, a producer and a consumer on two CPUs both spin, each on its own CPU; on a busy
     * machine the adaptive budget, not this bound, is what stops the spinning.
     */
    public static final int MAX_SPINNERS = maxSpinners(Runtime.getRuntime().availableProcessors());

    static int maxSpinners(int cpus) {
        return cpus == 1 ? 0 : cpus;
    }

    private static final VarHandle BUDGET;
    private static final VarHandle WAITS;
    private static final VarHandle SPINNING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            BUDGET = lookup.findVarHandle(Spinner.class, "budget", int.class);
            WAITS = lookup.findVarHandle(Spinner.class, "waitsAtZero", int.class);
            SPINNING = lookup.findStaticVarHandle(Spinner.class, "spinning", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Threads of this JVM between a begin() that answered rounds and its end(). Through SPINNING. */
    @SuppressWarnings("unused")
    private static int spinning;

    /** Rounds the next wait of this side may spin; adapts in end(). Opaque, a hint. */
    @SuppressWarnings("FieldMayBeFinal")
    private int budget = ROUNDS;

    /** Waits that began at budget 0 since the last probe. Opaque, a hint. */
    @SuppressWarnings("unused")
    private int waitsAtZero;

    /** One spinner per side at a time; null for a spinner that admits many at once. */
    private final Gate gate;

    /** Whether a wait at budget 0 glances, and probes for LONG_PROBE_ROUNDS (see the class comment). */
    private final boolean latencyFirst;

    /** A spinner that lets one thread of its side spin at a time. */
    public Spinner() {
        this(new Gate(), false);
    }

    private Spinner(Gate gate, boolean latencyFirst) {
        this.gate = gate;
        this.latencyFirst = latencyFirst;
    }

    /**
     * A spinner that lets one thread of its side spin at a time and, for a handoff built with
     * {@code wait=spin}, keeps looking when its spins stop paying: a glance on each wait and a
     * probe that outlasts a wake-up (see the class comment).
     *
     * @return the new spinner
     */
    public static Spinner latencyFirst() {
        return new Spinner(new Gate(), true);
    }

    /**
     * A spinner that lets every thread of its side spin at once, within the JVM's bound and the
     * shared adaptive budget: for threads that each watch a word the other side writes only when
     * it hands over (the pipe's producers watching for a spinning worker), where one spinner per
     * side would send the others to park and be woken for every element.
     *
     * @return the new spinner
     */
    public static Spinner manyAtOnce() {
        return new Spinner(null, false);
    }

    /** How many rounds a spin holds: the budget, or at 0 a probe's rounds or a glance's. */
    private int roundsNow() {
        int b = (int) BUDGET.getOpaque(this);
        if (b > 0) {
            return b;
        }
        int w = (int) WAITS.getOpaque(this) + 1;
        WAITS.setOpaque(this, w == PROBE_EVERY ? 0 : w);
        if (w == PROBE_EVERY) {
            return latencyFirst ? LONG_PROBE_ROUNDS : PROBE_ROUNDS;
        }
        return latencyFirst ? GLANCE_ROUNDS : 0;
    }

    /**
     * What a spin waits for, read on each look: a condition on the object waited on and one
     * number (a count, a position, a slot) that the caller passes along. Pass a method reference or
     * lambda that captures nothing, so that a wait allocates nothing. Its reads are hints: the
     * caller reads everything again after the spin, with the accesses that decide.
     *
     * @param <T> the type of the object waited on
     */
    @FunctionalInterface
    public interface Ready<T> {
        /**
         * {@return whether what the thread waits for has come, or its wait must end anyway}
         *
         * @param on the object waited on
         * @param at the number the caller passed to the spin
         */
        boolean test(T on, long at);
    }

    /** What {@link #spin} answers when the policy refused to spin: park at once. */
    public static final int REFUSED = 0;

    /** What {@link #spin} answers when what the thread waited for came while it spun. */
    public static final int CAME = 1;

    /** What {@link #spin} answers when the spin ran its rounds and nothing came. */
    public static final int MISSED = 2;

    /**
     * Spins before a park, as this side's policy allows, until {@code ready} holds.
     *
     * @param on the object waited on
     * @param at the number passed to {@code ready}
     * @param ready what the thread waits for
     * @param <T> the type of the object waited on
     * @return whether {@code ready} held before the spin ended; false also when no spin was allowed
     */
    public <T> boolean spinUntil(T on, long at, Ready<? super T> ready) {
        return spin(on, at, ready, null, 0, 1) == CAME;
    }

    /**
     * As {@link #spinUntil(Object, long, Ready)}, ending the spin early, as one that did not pay,
     * once {@code giveUp} holds: the wait must end for another reason (a close, an interrupt), or
     * spinning no longer pays (threads of the side parked, ahead of this one).
     *
     * @param on the object waited on
     * @param at the number passed to {@code ready} and {@code giveUp}
     * @param ready what the thread waits for
     * @param giveUp when to stop spinning without it
     * @param <T> the type of the object waited on
     * @return whether {@code ready} held before the spin ended
     */
    public <T> boolean spinUntil(T on, long at, Ready<? super T> ready, Ready<? super T> giveUp) {
        return spin(on, at, ready, giveUp, 0, 1) == CAME;
    }

    /**
     * The spin before a park, written once for the library: asks the policy for rounds, reads
     * {@code ready} on the first round and every {@code lookEvery} rounds after, pausing with
     * {@link Thread#onSpinWait()} in between, until it holds, {@code giveUp} holds (read after
     * each look that found nothing) or the rounds run out, and tells the policy whether the spin
     * paid: only if {@code ready} held.
     *
     * @param on the object waited on
     * @param at the number passed to {@code ready} and {@code giveUp}
     * @param ready what the thread waits for
     * @param giveUp when to stop spinning without it, or null
     * @param id shown to the other side while the thread spins ({@link #holder()}); 0 if nobody looks
     * @param lookEvery rounds from one look to the next, at least 1: more where a look reads much
     * @param <T> the type of the object waited on
     * @return {@link #CAME}, {@link #MISSED}, or {@link #REFUSED} when the policy allowed no spin
     */
    public <T> int spin(T on, long at, Ready<? super T> ready, Ready<? super T> giveUp, int id, int lookEvery) {
        int rounds = begin(id);
        if (rounds == 0) {
            return REFUSED;
        }
        boolean came = ready.test(on, at);
        boolean over = came || giveUp != null && giveUp.test(on, at);
        for (int i = 0, look = lookEvery; i < rounds && !over; i++) {
            Thread.onSpinWait();
            if (--look == 0) {
                look = lookEvery;
                came = ready.test(on, at);
                over = came || giveUp != null && giveUp.test(on, at);
            }
        }
        end(came);
        return came ? CAME : MISSED;
    }

    /**
     * Spins for a partner already in the middle of its operation (it has claimed the place and is
     * about to write it), until {@code ready} holds: {@link #PARTNER_ROUNDS} rounds of
     * {@link Thread#onSpinWait()}, none on a virtual thread. Not governed by a side's budget or
     * the JVM's bound: the partner is running, and what it is about to do takes a few instructions.
     *
     * @param on the object waited on
     * @param at the number passed to {@code ready}
     * @param ready what the thread waits for
     * @param <T> the type of the object waited on
     * @return whether {@code ready} held before the spin ended
     */
    public static <T> boolean spinForPartner(T on, long at, Ready<? super T> ready) {
        boolean came = ready.test(on, at);
        for (int i = partnerRounds(); i > 0 && !came; i--) {
            Thread.onSpinWait();
            came = ready.test(on, at);
        }
        return came;
    }

    /**
     * Asks to spin before parking. A positive answer is the number of rounds the caller may spin
     * and obliges it to call {@link #end(boolean)} once after; 0 means park at once (and call
     * nothing). {@code id >= 0} is shown to the other side while this thread spins
     * ({@link #holder()}): the pipe's producers serve the spinning worker first.
     *
     * @param id the spinner's id
     * @return the rounds to spin, or 0
     */
    int begin(int id) {
        if (Thread.currentThread().isVirtual()) {
            return 0;
        }
        int rounds = roundsNow();
        if (rounds == 0) {
            return 0;
        }
        if (gate != null && !gate.tryEnter(id)) {
            return 0;
        }
        // Opaque read first, then one unconditional add: no retry loop on this JVM-wide word.
        if ((int) SPINNING.getOpaque() >= MAX_SPINNERS) {
            exitGate();
            return 0;
        }
        if ((int) SPINNING.getAndAdd(1) >= MAX_SPINNERS) { // another thread took the last place
            SPINNING.getAndAdd(-1);
            exitGate();
            return 0;
        }
        return rounds;
    }

    /** As {@link #begin(int)} with id 0. */
    int begin() {
        return begin(0);
    }

    /**
     * Ends a spin that {@link #begin(int)} allowed, and adapts the next spin's budget.
     *
     * @param cameWhileSpinning whether what the thread waited for came during the spin
     */
    void end(boolean cameWhileSpinning) {
        SPINNING.getAndAdd(-1);
        exitGate();
        adapt(cameWhileSpinning);
    }

    private void adapt(boolean cameWhileSpinning) {
        int b = (int) BUDGET.getOpaque(this);
        int next = cameWhileSpinning ? Math.min(ROUNDS, Math.max(b, ROUNDS / 2) + STEP) : Math.max(0, b - STEP);
        BUDGET.setOpaque(this, next);
    }

    /** What {@link #holder()} answers while nobody of this side spins. */
    public static final int NONE = Gate.NONE;

    private void exitGate() {
        if (gate != null) {
            gate.exit();
        }
    }

    /** The id of the thread spinning on this side now, or {@link #NONE}: a hint, possibly stale. */
    public int holder() {
        return gate == null ? NONE : gate.holder();
    }

    /** The budget: the rounds the next wait of this side would spin, 0 when it would not; for tests. */
    public int budget() {
        return (int) BUDGET.getOpaque(this);
    }

    /** The rounds of {@link #spinForPartner}: {@link #PARTNER_ROUNDS}, or 0 on a virtual thread. */
    private static int partnerRounds() {
        return Thread.currentThread().isVirtual() ? 0 : PARTNER_ROUNDS;
    }

    /**
     * Pauses for round {@code round} of a wait for a partner in the middle of its operation (a
     * cell claimed and not yet released, a slot held by a drain): a wait with no bound on its
     * rounds, since it ends only when the partner is done, whose every round but the first few
     * gives the CPU away.
     * <ul>
     *   <li>On a platform thread, {@link Thread#onSpinWait()} for the first
     *       {@link #PARTNER_ROUNDS} rounds (the partner is running and a few instructions from
     *       done), then {@link Thread#yield()} for {@link #PARTNER_YIELDS} rounds (it has likely
     *       lost its CPU: a yield lets a partner queued on this CPU run);</li>
     *   <li>on a virtual thread, no spin and no yield: a yield re-queues it on its carrier, which
     *       runs it again before the wake-ups submitted from outside (a platform thread's unpark,
     *       a timer), so a loop of yields keeps the carriers from the very threads it waits for;</li>
     *   <li>then, on either, a timed park of {@link #PARTNER_PARK_MIN_NANOS}, doubling each round
     *       up to {@link #PARTNER_PARK_MAX_NANOS}: the carrier, or the CPU, goes to whatever can
     *       run, the partner included.</li>
     * </ul>
     * The park is timed, not unparked by the partner: the partner's release would otherwise have
     * to look for a waiter on every operation, for a wait that is rare (see the notes of
     * {@code package-info}). A set interrupt status, which would end every park at once, is put
     * aside during the park and restored after, so that the caller sees it as before.
     *
     * @param round the round, from 0
     */
    public static void pauseForPartner(int round) {
        int parks = round;
        if (!Thread.currentThread().isVirtual()) {
            if (round < PARTNER_ROUNDS) {
                Thread.onSpinWait();
                return;
            }
            if (round < PARTNER_ROUNDS + PARTNER_YIELDS) {
                Thread.yield();
                return;
            }
            parks = round - PARTNER_ROUNDS - PARTNER_YIELDS;
        }
        parkForPartner(partnerParkNanos(parks));
    }

    /** Rounds of {@link Thread#yield()} in a platform thread's wait for a partner, after its spin. */
    public static final int PARTNER_YIELDS = 8;

    /** The first park of a wait for a partner: a microsecond (an OS rounds it up to its timer slack). */
    public static final long PARTNER_PARK_MIN_NANOS = 1_000L;

    /** The longest park of a wait for a partner: a millisecond, a small part of a time slice. */
    public static final long PARTNER_PARK_MAX_NANOS = 1_000_000L;

    /** The park of the {@code parks}-th parking round of a wait for a partner, from 0: doubling. */
    static long partnerParkNanos(int parks) {
        return parks >= 10 ? PARTNER_PARK_MAX_NANOS : Math.min(PARTNER_PARK_MAX_NANOS, PARTNER_PARK_MIN_NANOS << parks);
    }

    private static void parkForPartner(long nanos) {
        boolean interrupted = Thread.interrupted(); // else every park would return at once
        long deadline = System.nanoTime() + nanos;
        // A park may return at once for a permit: an unpark meant for an earlier wait, or the one
        // that restoring the interrupt status after the last pause left. Park again for the rest,
        // unless an interrupt came meanwhile.
        for (long left = nanos; left > 0L && !Thread.currentThread().isInterrupted(); left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        if (interrupted) {
            Thread.currentThread().interrupt(); // as the caller had it; leaves a permit, see above
        }
    }

    /**
     * At most one spinning thread per side: {@link #tryEnter(int)} before spinning,
     * {@link #exit()} after. The spinner's id is shown to the other side ({@link #holder()}).
     */
    static final class Gate {
        private static final VarHandle HOLDER;

        /** The value of holder while nobody spins. */
        static final int NONE = -1;

        static {
            try {
                HOLDER = MethodHandles.lookup().findVarHandle(Gate.class, "holder", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The spinner's id, or NONE. Accessed through HOLDER; a hint, ordered with nothing else. */
        @SuppressWarnings("FieldMayBeFinal")
        private int holder = NONE;

        /** Whether the calling thread may spin now; if so, it must call {@link #exit()} after. */
        boolean tryEnter(int id) {
            // Opaque read first, so that a side whose spinner is busy does not fight for the line;
            // the CAS races other entrants only, and exit()'s opaque write of NONE is its partner.
            return (int) HOLDER.getOpaque(this) == NONE && HOLDER.compareAndSet(this, NONE, id);
        }

        /** The id of the thread spinning now, or {@link #NONE}: a hint, possibly stale. */
        int holder() {
            return (int) HOLDER.getOpaque(this);
        }

        /** Ends the caller's spin. Only the thread whose tryEnter() succeeded calls it. */
        void exit() {
            HOLDER.setOpaque(this, NONE); // only the spinner writes it back: no CAS needed
        }
    }
}
