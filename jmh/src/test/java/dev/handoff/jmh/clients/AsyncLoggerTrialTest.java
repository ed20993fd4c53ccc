/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.jmh.clients.AsyncLoggerTrial.Variant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One in-process run of the async logger per queue and target, small: every line arrives exactly
 * once and in order per producer, through the queue the factory made, and the run measured
 * something. A queue that loses, repeats or reorders a line fails here (the check's own failures
 * are proven in {@link SequenceCheckTest}).
 */
class AsyncLoggerTrialTest {

    private static final long LINES = 20_000;

    @ParameterizedTest
    @CsvSource({
        "abq, file, java.util.concurrent.ArrayBlockingQueue",
        "abq, count, java.util.concurrent.ArrayBlockingQueue",
        "circular, file, dev.handoff",
        "circular, count, dev.handoff",
        "circular+core=cells, count, dev.handoff",
    })
    void everyLineArrivesOnceAndInOrder(String kind, String variant, String queuePackage) throws Exception {
        TrialResult run = AsyncLoggerTrial.run(kind, Variant.of(variant), LINES, 64);
        assertEquals(List.of(), run.problems());
        assertTrue(run.passed());
        assertTrue(run.queueClass().startsWith(queuePackage), run.queueClass());
        assertEquals(LINES, run.lines());
        assertTrue(run.wallNanos() > 0, "wall " + run.wallNanos());
        assertTrue(run.cpuNanos() != 0, "CPU " + run.cpuNanos());
    }
}
