/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.probe;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Where the randomized kinds draw the start of a probe sequence: the consumer's search key and
 * the producer's {@code key=random} key of the hash table, and
 * the producer's scan start and stride of the pipe.
 * Not API (its package is not exported), and a testing seam only: every public constructor uses {@link #THREAD_LOCAL},
 * and no public method lets a caller pass another source.
 *
 * <p>Why the seam exists: Lincheck's model checker replays thread interleavings and needs every
 * random draw to be the same on each replay. It rewrites calls to {@link ThreadLocalRandom} for
 * that, and with Lincheck 2.34 on JDK 25 the rewritten {@code ThreadLocalRandom} fails
 * verification ({@code VerifyError}). The model-checking tests (module jcstress-tests) build the
 * two kinds through their package-private constructors with a deterministic source instead, and
 * so do the theorem properties (a seeded generator, so that their verdict repeats); the library's
 * other tests keep the real one.
 *
 * <p>Cost: a final field read and an interface call per draw. Outside those tests only
 * {@link #THREAD_LOCAL}'s class is ever loaded, so the call site is monomorphic and the JIT
 * inlines it down to the {@code ThreadLocalRandom} call it replaces.
 *
 * <p>Implementations are called by many threads at once without synchronization;
 * {@link #THREAD_LOCAL} keeps no shared state.
 */
public interface ProbeRandom {

    /** The source of every public constructor: the calling thread's {@link ThreadLocalRandom}. */
    public ProbeRandom THREAD_LOCAL = new ProbeRandom() {
        @Override
        public long nextLong() {
            return ThreadLocalRandom.current().nextLong();
        }

        @Override
        public int nextInt(int bound) {
            return ThreadLocalRandom.current().nextInt(bound);
        }
    };

    /**
     * A uniformly distributed long.
     *
     * @return the next pseudo-random long
     */
    public long nextLong();

    /**
     * A uniformly distributed int in {@code [0, bound)}.
     *
     * @param bound the exclusive upper bound, {@code > 0}
     * @return the next pseudo-random int below {@code bound}
     */
    public int nextInt(int bound);
}
