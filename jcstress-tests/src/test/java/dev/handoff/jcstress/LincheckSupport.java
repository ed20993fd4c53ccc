/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;

/**
 * The model-checking budget every Lincheck test here uses: small, so that the whole module's
 * tests stay within seconds on 2 CPUs, and the same for every handoff so that they compare.
 *
 * <p>Lincheck generates small scenarios (an initial part, two threads of three operations, a
 * final part) and, for each, explores thread interleavings under the managed strategy: every
 * shared read, write, CAS, lock and park is a point where it may switch threads. Each result
 * of the run is checked against the sequential specification: some order of the operations,
 * consistent with real time, must give the same results (linearizability).
 *
 * <p>What Lincheck cannot see: it runs the interleavings under sequential consistency. A
 * missing {@code volatile}, a plain field where a release/acquire pair is needed, a store
 * reordered past a load: none of these can show up here (lesson 2 of the jcstress lessons is
 * exactly such a bug, and {@link LincheckCannotSeeMissingVolatileTest} shows it passing). That
 * is jcstress's job; Lincheck's is the long interleavings jcstress's fixed two-actor scenarios
 * never reach.
 */
final class LincheckSupport {

    private LincheckSupport() {
    }

    /**
     * Scenarios of two threads, three operations each, plus two before and two after; 4
     * scenarios of 100 interleavings each, 10 to 40 s per handoff on 2 CPUs shared with other
     * builds.
     */
    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .iterations(4)
                .invocationsPerIteration(100)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2);
    }

    /**
     * The same scenarios in Lincheck's stress mode: real threads, each scenario run many times,
     * every result checked against the sequential specification, but no guided search of
     * interleavings. For the handoffs that draw from {@code ThreadLocalRandom} (the parallel hash
     * table's consumer start, the pipe's scan start): model checking replays each interleaving and
     * so needs every random draw replaced by a deterministic one, and Lincheck 2.34's rewriting of
     * {@code ThreadLocalRandom} produces bytecode that JDK 25's verifier rejects (VerifyError in
     * {@code java.util.concurrent.ThreadLocalRandom}), so these two kinds cannot be model-checked
     * with this Lincheck on this JDK.
     */
    static StressOptions stress() {
        return new StressOptions()
                .iterations(8)
                .invocationsPerIteration(300)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2);
    }
}
