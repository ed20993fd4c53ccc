/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * Deterministically, on one carrier: a virtual thread that waits for a partner held in
 * the middle of its operation must park, and other virtual threads must still run. The scenes are
 * {@link VirtualWaitScenes}' (a drainTo whose target's add blocks holds an element claimed), run
 * in one forked JVM whose virtual-thread scheduler has a single carrier; each scene is one
 * dynamic test, named by spec and scene.
 *
 * <p>The scenes that reach a wait for the held partner, with the wait they reach:
 * <ul>
 *   <li>{@code core=cells} poll, take, timed poll: the take at the held position waits for the
 *       remover (CellsCore.poll and takeOrPass);</li>
 *   <li>{@code core=cells,classes=2} poll: the same wait, through the class's core;</li>
 *   <li>{@code classes=2} remove (over cells and over pht): every reservation is held by the drain,
 *       the match is still inside, and the removal waits for a reservation
 *       (ClassedHandoff.removeFirst).</li>
 * </ul>
 * The others are guards that already park: a {@code core=ring} poll or take behind a drain waits
 * for the frozen ring's lock, a pht take finds no element but the held one and waits for an
 * element, the lock kinds wait for their lock. No public call holds a ring producer or consumer
 * between its claim and its publish (SequencedRing's partner waits), nor a pht producer between
 * its fill and its re-read of the close (SlotTable.retract): those waits are a few instructions
 * long unless their partner lost its CPU, and {@link VirtualLivenessTest} is what exercises them.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VirtualWaitLivenessTest {

    /** spec|scene, in the order the child runs them. */
    static final List<String> SCENES = List.of(
            "circular:64,core=cells|poll",
            "circular:64,core=cells|take",
            "circular:64,core=cells|timed-poll",
            "circular:64,core=cells,classes=2|poll",
            "circular:64,core=cells,classes=2|remove",
            "pht:67,classes=2|remove",
            "circular:64,core=ring|poll",
            "circular:64,core=ring|take",
            "circular:64,core=ring,classes=2|remove",
            "pht:67|take",
            "pht:67,slots=monitor|take",
            "circular:64|take",
            "circular:64,wait=spin|take",
            "lock-split:64|take");

    @TestFactory
    Stream<DynamicTest> aVirtualThreadWaitingForAHeldPartnerParksAndOthersRunOnOneCarrier() throws Exception {
        ForkedJvm.Result result = ForkedJvm.run(VirtualWaitScenes.class, 1, 8 * 60, List.of(), SCENES);
        System.out.println(String.join("\n", result.lines()));
        assertFalse(result.timedOut(), "the scenes' JVM did not end:\n" + result.tail(40));
        List<String> results = result.linesAfter("RESULT ");
        return SCENES.stream().map(scene -> DynamicTest.dynamicTest(scene, () -> {
            String[] parts = scene.split("\\|");
            Optional<String> line = results.stream()
                    .filter(l -> l.startsWith("spec=" + parts[0] + " scene=" + parts[1] + " ")).findFirst();
            if (line.isEmpty()) {
                fail("no result for " + scene + " (the child ended with " + result.exitCode() + "):\n" + result.tail(40));
            }
            String l = line.get();
            int index = result.lines().indexOf("RESULT " + l);
            StringBuilder detail = new StringBuilder(l);
            for (int i = index + 1; i < result.lines().size() && result.lines().get(i).startsWith("  "); i++) {
                detail.append('\n').append(result.lines().get(i));
            }
            if (l.contains("progress=STALL")) {
                fail(scene + " stalled: with one carrier, no other virtual thread ran while it waited\n" + detail);
            }
            if (l.contains("parked=SPINNING")) {
                fail(scene + ": a virtual thread waiting for a held partner did not park\n" + detail);
            }
            assertEquals("outcome=ok", l.substring(l.indexOf("outcome=")), detail.toString());
        }));
    }
}
