/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import java.lang.reflect.Method;
import java.util.List;
import kotlin.Unit;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.CustomScenarioDSLKt;
import org.jetbrains.kotlinx.lincheck.DSLThreadScenario;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;

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
 *
 * <p>Every handoff is model-checked. The parallel hash table and the pipe draw random numbers,
 * which the model checker must replay identically; their tests build them through
 * {@link dev.handoff.ModelCheckedHandoffs}, with a deterministic source in place of
 * {@code ThreadLocalRandom} (whose rewriting by Lincheck 2.34 fails verification on JDK 25).
 */
final class LincheckSupport {

    private LincheckSupport() {
    }

    /**
     * Scenarios of two threads, three operations each, plus two before and two after; 4
     * scenarios of 100 interleavings each, 2 to 20 s per test class on 2 CPUs shared with other
     * builds. A deeper search, by hand: {@code -Dlincheck.extraArgs="-Dlincheck.iterations=40
     * -Dlincheck.invocations=300"} on the Maven command line.
     */
    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .iterations(Integer.getInteger("lincheck.iterations", 4))
                .invocationsPerIteration(Integer.getInteger("lincheck.invocations", 100))
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2);
    }

    /**
     * A fixed scenario of operations without parameters (Lincheck's custom-scenario DSL, which
     * is Kotlin, from Java): an initial part, then two threads in parallel.
     *
     * @param operations the test class, whose public no-argument {@code @Operation} methods are named
     */
    static ExecutionScenario scenario(Class<?> operations, List<String> initial, List<String> thread1,
            List<String> thread2) {
        return CustomScenarioDSLKt.scenario(builder -> {
            builder.initial(part -> add(part, operations, initial));
            builder.parallel(threads -> {
                threads.thread(part -> add(part, operations, thread1));
                threads.thread(part -> add(part, operations, thread2));
                return Unit.INSTANCE;
            });
            return Unit.INSTANCE;
        });
    }

    private static Unit add(DSLThreadScenario part, Class<?> operations, List<String> names) {
        for (String name : names) {
            try {
                Method method = operations.getMethod(name);
                part.add(new Actor(method, List.of(), false, false, false, false, false));
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException("no operation " + name + "() in " + operations, e);
            }
        }
        return Unit.INSTANCE;
    }
}
