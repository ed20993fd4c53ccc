/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Liveness with virtual threads: thousands of virtual threads in timed waits against a
 * few platform threads, over the specs of the contract matrix, on one carrier and on two, each
 * mode and carrier count in a forked JVM ({@link VirtualLivenessRun} says what each mode does).
 * Every element is taken exactly once, and a stall, no element taken for 10 s, fails the test
 * with a dump of every thread, virtual ones included, under {@code target/liveness-dumps}.
 *
 * <p>CI runs a reduced count. The soak (docs/developing.md, "Liveness with virtual threads")
 * scales it with system properties, which are passed on to the child:
 * {@code -Dliveness.runs=100 -Dliveness.consumers=10000 -Dliveness.elements=200000}, and
 * {@code -Dliveness.specs=spec;spec}, {@code -Dliveness.modes=consumers,producers,mixed} and
 * {@code -Dliveness.carriers=1,2} to choose.
 */
@Timeout(value = 60, unit = TimeUnit.MINUTES)
class VirtualLivenessTest {

    /** The contract matrix's specs; {@code %v} is the number of virtual threads (a pipe's worker slots). */
    static final List<String> SPECS = List.of(
            "circular:64",
            "circular:64,core=ring",
            "circular:64,core=cells",
            "circular:64,core=cells,classes=2",
            "circular:64,core=ring,classes=2",
            "circular:64,wait=spin",
            "lock-split:64",
            "pht:67",
            "pht:67,slots=monitor",
            "pht:67,classes=2",
            "pipe:%v",
            "circular:64,core=cells,sojourn");

    /** The CI size: each fork a few seconds on two busy CPUs. */
    static final String CI_RUNS = "1", CI_CONSUMERS = "1000", CI_ELEMENTS = "20000";

    static Stream<Arguments> modesAndCarriers() {
        List<Arguments> all = new ArrayList<>();
        for (String mode : System.getProperty("liveness.modes", "consumers,producers,mixed").split(",")) {
            for (String carriers : System.getProperty("liveness.carriers", "1,2").split(",")) {
                all.add(Arguments.of(mode, Integer.parseInt(carriers)));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} on {1} carrier(s)")
    @MethodSource("modesAndCarriers")
    void everyElementOnceAndNoStall(String mode, int carriers) throws Exception {
        List<String> specs = System.getProperty("liveness.specs") == null ? SPECS
                : Arrays.asList(System.getProperty("liveness.specs").split(";"));
        List<String> options = List.of(
                "-Dliveness.runs=" + System.getProperty("liveness.runs", CI_RUNS),
                "-Dliveness.consumers=" + System.getProperty("liveness.consumers", CI_CONSUMERS),
                "-Dliveness.elements=" + System.getProperty("liveness.elements", CI_ELEMENTS),
                "-Dliveness.dumps=" + Path.of("target", "liveness-dumps").toAbsolutePath());
        List<String> args = new ArrayList<>();
        args.add(mode);
        args.addAll(specs);
        long started = System.nanoTime();
        ForkedJvm.Result result = ForkedJvm.run(VirtualLivenessRun.class, carriers, TimeUnit.MINUTES.toSeconds(55),
                options, args);
        System.out.println(String.join("\n", result.lines()));
        System.out.println("liveness " + mode + " on " + carriers + " carrier(s): "
                + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + " s");
        assertFalse(result.timedOut(), "the liveness JVM did not end:\n" + result.tail(40));
        List<String> stalls = result.linesAfter("STALL ");
        if (!stalls.isEmpty()) {
            fail("stalled: " + String.join("\n", stalls));
        }
        List<String> failed = result.linesAfter("FAIL ");
        if (!failed.isEmpty()) {
            fail(failed.size() + " run(s) failed:\n" + String.join("\n", failed));
        }
        assertEquals(0, result.exitCode(), result.tail(40));
        int runs = Integer.parseInt(System.getProperty("liveness.runs", CI_RUNS));
        assertEquals(specs.size() * runs, result.linesAfter("RUN ").size(), "a result per spec and run:\n" + result.tail(40));
    }
}
