/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.probe.ProbeRandom;

/**
 * The parallel hash table and the pipe handoff built for Lincheck's model checker: the same
 * classes as {@link Handoffs#create(String)} returns, whose random draws come from a
 * {@link WeylProbeRandom} instead of {@code ThreadLocalRandom} (see {@link ProbeRandom} for why
 * the model checker cannot use the latter with Lincheck 2.34 on JDK 25).
 *
 * <p>This class sits in package {@code dev.handoff} of the test module to reach the
 * package-private constructors that take a {@link ProbeRandom}. The tests run on the class path
 * ({@code useModulePath=false} in jcstress-tests/pom.xml), where a package may be split between
 * the library jar and the test classes; the library exports no way to replace its randomness.
 */
public final class ModelCheckedHandoffs {

    private ModelCheckedHandoffs() {
    }

    /**
     * A parallel hash table of the given capacity and slot form, with the default key source,
     * without statistics.
     *
     * @param capacity the number of slots
     * @param slots {@code monitor} or {@code cas}, as in a {@link Handoffs} spec, optionally
     *        followed by more of a pht spec's options ({@code cas,search=cursor})
     * @return a table whose producers' keys and consumers' search keys are drawn from a fresh
     *         {@link WeylProbeRandom}
     */
    public static Handoff<Integer> parallelHashTable(int capacity, String slots) {
        HandoffSpec.HashTable spec = (HandoffSpec.HashTable) HandoffSpec.parse("pht:" + capacity + ",slots=" + slots);
        return new ParallelHashTable<>(spec, new WeylProbeRandom());
    }

    /**
     * A pipe with the given number of worker slots, scanning by double hashing, without statistics.
     *
     * @param workerSlots W
     * @return a pipe whose producers draw scan starts and strides from a fresh {@link WeylProbeRandom}
     */
    public static Handoff<Integer> pipe(int workerSlots) {
        return new PipeHandoff<>(Handoffs.pipe(workerSlots), PipeHandoff.Scan.DOUBLE_HASHING, new WeylProbeRandom());
    }

    /**
     * A deterministic {@link ProbeRandom} for the model checker: the Weyl sequence
     * {@code n * 0x9E3779B97F4A7C15} (2^64 divided by the golden ratio), n = 1, 2, 3, ... counted
     * per instance.
     *
     * <p>Why it keeps the tests meaningful. The model checker replays an interleaving (to print
     * the trace of a failure, and to check that the code is deterministic), so the n-th draw of a
     * handoff must give the same value on every replay: one sequence per handoff, starting from
     * the same state, does. The high bits of a golden-ratio Weyl sequence are evenly spread over
     * their range, so consecutive draws start at different slots: on the capacity-2 table the
     * first probes of successive draws go to slots 1, 0, 1, 0, 0, 1, .... Producers (one draw
     * per insert, the table's default {@code KeySource.RANDOM}) and consumers (one per search)
     * share the sequence, so an offer starts sometimes at the free slot, sometimes at the
     * occupied one, and a poll sometimes at the element, sometimes at the empty slot, sometimes
     * at the same slot as a concurrent poll (the search conflict); which thread gets which draw
     * depends on the interleaving, which the model checker explores. A fixed start would have
     * left the empty slot first, or the element first, never explored.
     *
     * <p>The counter is a plain field shared by the threads of the scenario: under the model
     * checker's sequentially consistent execution every read and write of it is just another
     * shared access, and two threads that read the same n get the same start, which is a
     * legitimate outcome of a random draw too. Outside the model checker this would be a data race;
     * nothing else uses this class.
     */
    static final class WeylProbeRandom implements ProbeRandom {
        private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

        /** n * GOLDEN_GAMMA for the last draw n. Plain: see the class comment. */
        private long weyl;

        @Override
        public long nextLong() {
            weyl += GOLDEN_GAMMA;
            return weyl;
        }

        /** The high 32 bits of the next value reduced to [0, bound) by multiply-shift. */
        @Override
        public int nextInt(int bound) {
            return (int) (((nextLong() >>> 32) * bound) >>> 32);
        }
    }
}
