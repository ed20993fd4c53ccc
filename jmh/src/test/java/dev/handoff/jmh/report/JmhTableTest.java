/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JmhTable}: the rows and ratios it reads from JMH's JSON. */
class JmhTableTest {

    private static String run(String benchmark, String kind, String batch, double score, double handoffs) {
        return """
                {"benchmark": "dev.handoff.jmh.throughput.%s", "params": {"kind": "%s", "batch": "%s", "capacity": "1024"},
                 "primaryMetric": {"score": %s, "scoreError": 1.0, "scoreUnit": "ops/s"},
                 "secondaryMetrics": {"handoffs": {"score": %s, "scoreError": "NaN", "scoreUnit": "ops/s"}}}
                """.formatted(benchmark, kind, batch, score, handoffs);
    }

    private static final JsonArray RUNS = JsonParser.parseString("[" + String.join(",",
            run("BatchTake.pollLoop", "abq", "64", 100, 2_000_000),
            run("BatchTake.pollLoop", "circular", "64", 300, 3_000_000),
            run("BatchTake.pollLoop", "circular", "8", 50, 500_000),
            run("BatchTake.pollLoop", "abq", "8", 25, 1_000_000)) + "]").getAsJsonArray();

    @Test
    void readsThePrimaryOrTheNamedSecondaryMetric() {
        assertEquals(List.of(100.0, 300.0, 50.0, 25.0),
                JmhTable.rows(RUNS, null).stream().map(JmhTable.Row::score).toList());
        assertEquals(List.of(2e6, 3e6, 5e5, 1e6),
                JmhTable.rows(RUNS, "handoffs").stream().map(JmhTable.Row::score).toList());
        assertTrue(JmhTable.rows(RUNS, "no such metric").isEmpty());
    }

    @Test
    void showsOnlyTheParametersThatVaryAndRatiosToTheFirstValueWithTheOthersEqual() {
        String md = JmhTable.markdown(JmhTable.rows(RUNS, "handoffs"), "r.json", "handoffs");
        assertTrue(md.contains("| benchmark | kind | batch | score | error | unit | ratio |"), md);
        assertTrue(!md.contains("capacity"), md);
        assertTrue(md.contains("| BatchTake.pollLoop | circular | 64 | 3.00 M | - | ops/s | 1.50x |"), md);
        assertTrue(md.contains("| BatchTake.pollLoop | abq | 8 | 1.00 M | - | ops/s | 2.00x |"), md);
        assertTrue(md.contains("| BatchTake.pollLoop | circular | 8 | 500.0 k | - | ops/s | 1.00x |"), md);
    }
}
