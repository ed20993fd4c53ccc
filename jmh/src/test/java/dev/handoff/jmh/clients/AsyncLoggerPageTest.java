/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The page's figures: medians with min-max, and ratios to the same round's ABQ run. */
class AsyncLoggerPageTest {

    private static TrialResult run(String kind, int round, double wallSeconds, long switches) {
        return new TrialResult(kind, "count", round, 1000, 1024, "q", (long) (wallSeconds * 1e9),
                (long) (wallSeconds * 2e9), switches, List.of());
    }

    @Test
    void aRatioIsTheMedianOfPerRoundRatiosNotTheRatioOfMedians() {
        // per round the kind takes 3x, 1x and 1x ABQ's time: 1.00x, where its median wall over
        // ABQ's median wall (3 s / 2 s) would say 1.50x
        List<TrialResult> runs = List.of(
                run("abq", 0, 1, 100), run("k", 0, 3, 200),
                run("abq", 1, 4, 100), run("k", 1, 4, 200),
                run("abq", 2, 2, 100), run("k", 2, 2, 200));
        AsyncLoggerPage.Series series = new AsyncLoggerPage.Series("c", new Properties(), "cmd", "s", "f",
                1000, 1024, 3, List.of("abq", "k"), List.of("count"), runs);
        String table = AsyncLoggerPage.table(series, "count");
        assertTrue(table.contains("| `abq` | 2.000 (1.000-4.000) | 1.00x | 4.000 (2.000-8.000) | 1.00x | 0.1000 |"), table);
        assertTrue(table.contains("| `k` | 3.000 (2.000-4.000) | 1.00x | 6.000 (4.000-8.000) | 1.00x | 0.2000 |"), table);
    }

    @Test
    void unknownCountersAndAMissingAbqReadNotAvailable() {
        List<TrialResult> runs = List.of(run("k", 0, 1, -1));
        AsyncLoggerPage.Series series = new AsyncLoggerPage.Series("c", new Properties(), "cmd", "s", "f",
                1000, 1024, 1, List.of("k"), List.of("count"), runs);
        assertTrue(AsyncLoggerPage.table(series, "count").contains("| `k` | 1.000 (1.000-1.000) | n/a | 2.000 (2.000-2.000) | n/a | n/a |"));
    }

    @Test
    void theJsonLiesBesideThePage() {
        assertEquals(Path.of("docs/data/async-logger-abc.json"), AsyncLoggerPage.jsonOf(Path.of("docs/data/async-logger-abc.md")));
    }
}
