/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.jmh.clients.WorkloadRun.Result;
import dev.handoff.jmh.clients.WorkloadRun.Settings;
import dev.handoff.jmh.clients.WorkloadRun.Shape;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pool workload's accounting, in this JVM, on a few thousand tasks: never its timing. */
class WorkloadRunTest {

    private static final int TASKS = 5_000;

    /**
     * Every task runs exactly once and is counted once, its queue wait recorded once; with 64
     * tasks in flight the submitters wait for permits, and the pipe, which holds nothing, makes
     * them wait in the reject handler's {@code put}.
     */
    @ParameterizedTest(name = "{0}, {1}, virtual submitters {2}")
    @CsvSource({
            "tpe+abq, STEADY, false", "tpe+circular, STEADY, true", "tpe+pipe, STEADY, false",
            "eqe, STEADY, true", "elastic+circular, GROWTH, false"})
    void everyTaskRunsOnceAndIsCountedOnce(String pool, Shape shape, boolean virtual) throws InterruptedException {
        boolean growth = shape == Shape.GROWTH;
        Settings s = new Settings(pool, shape, 50, virtual, false, growth ? 1 : 4, growth ? 16 : 4,
                4, 64, 64, 0, 0, TASKS, 64, 200, 42);
        AtomicIntegerArray ran = new AtomicIntegerArray(TASKS);
        Result r = WorkloadRun.run(s, ran);
        for (int id = 0; id < TASKS; id++) {
            assertEquals(1, ran.get(id), pool + ": runs of task " + id);
        }
        assertEquals(TASKS, r.tasks(), pool + ": tasks counted");
        assertEquals(TASKS, r.waitCount(), pool + ": queue waits recorded");
        assertTrue(r.waitP50Nanos() <= r.waitP99Nanos(), pool + ": p50 " + r.waitP50Nanos() + " above p99 " + r.waitP99Nanos());
        assertTrue(r.threadsStarted() >= 1 && r.threadsStarted() <= s.max(), pool + ": threads " + r.threadsStarted());
    }
}
