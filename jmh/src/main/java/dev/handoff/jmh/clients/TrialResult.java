/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import java.util.List;

/**
 * One run of {@link AsyncLoggerTrial}: what it ran and what it measured, as the JSON beside the
 * page keeps it.
 *
 * @param kind the queue, a {@link dev.handoff.jmh.Queues} name
 * @param variant {@code file} or {@code count}
 * @param round the round of the run, from 0 (0 for a run outside a series)
 * @param lines lines logged, by all producers together
 * @param capacity the async appender's queue capacity
 * @param queueClass the class of the queue the appender used
 * @param wallNanos from the first log call to the end (see {@link AsyncLoggerTrial})
 * @param cpuNanos process CPU time over the same span, or -1 where unknown
 * @param contextSwitches context switches from the first log call until the last returned, or -1
 *        where unknown
 * @param problems the check's findings; empty when every line arrived exactly once and in order
 */
public record TrialResult(String kind, String variant, int round, long lines, int capacity, String queueClass,
        long wallNanos, long cpuNanos, long contextSwitches, List<String> problems) {

    /** Whether every line arrived exactly once and in order per producer. */
    public boolean passed() {
        return problems.isEmpty();
    }

    /** The same run, numbered as round {@code r} of a series. */
    TrialResult inRound(int r) {
        return new TrialResult(kind, variant, r, lines, capacity, queueClass, wallNanos, cpuNanos, contextSwitches, problems);
    }
}
