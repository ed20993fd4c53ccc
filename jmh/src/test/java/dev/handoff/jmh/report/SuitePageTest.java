/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SuitePage} and {@link SuiteResults}: the work tables and the cost of each handoff. */
class SuitePageTest {

    /** One WorkThroughput or HandoffThroughput result with two iterations of each figure. */
    private static String run(String benchmark, String kind, String work, double handoffs, double cores,
            double processCores, double switches) {
        String params = work == null ? "\"kind\": \"%s\", \"capacity\": \"1024\"".formatted(kind)
                : "\"kind\": \"%s\", \"capacity\": \"16\", \"work\": \"%s\"".formatted(kind, work);
        return """
                {"benchmark": "dev.handoff.jmh.throughput.%s", "mode": "thrpt", "jmhVersion": "1.37",
                 "vmName": "VM", "vmVersion": "1", "jdkVersion": "25", "params": {%s},
                 "primaryMetric": {"score": 1, "rawData": [[1, 1]]},
                 "secondaryMetrics": {
                   "handoffs": {"rawData": [[%s, %s]]},
                   "cpuCores": {"rawData": [[%s, %s]]},
                   "processCores": {"rawData": [[%s, %s]]},
                   "switchesPerHandoff": {"rawData": [[%s, %s]]}}}
                """.formatted(benchmark, params, handoffs, handoffs, cores, cores, processCores, processCores,
                switches, switches);
    }

    private static Path results(Path dir) throws IOException {
        Path json = dir.resolve("suite.json");
        Files.writeString(json, "[" + String.join(",",
                run("WorkThroughput.p4c1", "abq", "100", 1_000_000, 1.0, 1.5, 0.25),
                run("WorkThroughput.p4c1", "circular+core=cells", "100", 1_500_000, 2.0, 2.0, 0.5),
                run("HandoffThroughput.p1c1", "abq", null, 10_000_000, 1.0, 1.0, 0.0)) + "]");
        Files.writeString(dir.resolve("suite.json.properties"), "cpus=2\ncommit=abc1234\n");
        return json;
    }

    @Test
    void readsTheWorkSettingsApartFromTheNoWorkShapes(@TempDir Path dir) throws IOException {
        SuiteResults r = SuiteResults.read(results(dir));
        SuiteResults.Work setting = new SuiteResults.Work(100, 16);
        assertEquals(1, r.work.size());
        assertEquals(1_500_000, r.tp(setting, "p4c1", "circular+core=cells").handoffs()[0]);
        assertEquals(java.util.List.of("p1c1"), java.util.List.copyOf(r.throughput.keySet()));
        // 2 CPUs busy for 1.5 M handoffs a second: 1.33 CPU-seconds per million
        assertEquals(2.0 / 1.5, r.tp(setting, "p4c1", "circular+core=cells").cpuSecondsPerMillion(), 1e-9);
        assertEquals(0.5, r.tp(setting, "p4c1", "circular+core=cells").switchesPerHandoff(), 1e-9);
    }

    @Test
    void writesTheRatioAndTheCostOfEachHandoffAndMarksOversubscribedShapes(@TempDir Path dir) throws IOException {
        SuitePage.render(results(dir), dir);
        String md = Files.readString(dir.resolve("benchmarks.md"));
        assertTrue(md.contains("### work 100 tokens, capacity 16"), md);
        assertTrue(md.contains("| kind | 4P/1C* |"), md); // five threads on two CPUs
        assertTrue(md.contains("| abq | 1.00 M ± 0/s<br>1.00 (1.50) s/M, 0.25 cs |"), md);
        assertTrue(md.contains("| circular+core=cells | 1.50x ± 0.00<br>1.33 (1.33) s/M, 0.50 cs |"), md);
        assertTrue(md.contains("more threads than this machine's 2 CPUs"), md);
        assertTrue(md.contains("| kind | 1P/1C |"), md); // the no-work table: two threads, not marked
    }
}
