/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import dev.handoff.server.ServerExperiment.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Turns the experiment's runs into the printed summary, the CSV and JSON files of every run, and
 * (through {@link TheoremTable}, {@link DeadlineTable} and {@link ExperimentCharts}) the
 * hash-table theorems, the deadline tables and the charts.
 */
final class ExperimentReport {

    private final Workload workload;
    private final Path out;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private List<Run> tableRuns = List.of();
    private List<Run> tableMedians = List.of();
    /** The median run of every sweep point, in sweep order. */
    private List<Run> sweepRuns = List.of();
    private List<Run> sweepAll = List.of();
    private int sweepRepeat = 1;
    private int repeat = 1;
    /** Every run of the deadline phase, in the order run. */
    private List<Run> deadlineRuns = List.of();
    private int deadlineRepeat = 1;

    ExperimentReport(Workload workload, Path out) {
        this.workload = workload;
        this.out = out;
    }

    void environmentAtStart() {
        environment.put("started", Instant.now().toString());
        environment.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name")
                + " " + System.getProperty("java.runtime.version"));
        environment.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        environment.put("cpus", Integer.toString(Runtime.getRuntime().availableProcessors()));
        environment.put("loadAverageAtStart", loadAverage());
        environment.put("workload", workload.toString());
        environment.put("connectionsPerRun", Integer.toString(workload.totalRequests()));
    }

    void environmentAtEnd() {
        environment.put("loadAverageAtEnd", loadAverage());
        environment.put("finished", Instant.now().toString());
    }

    private static String loadAverage() {
        return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    void table(List<Run> runs, int repeat) {
        this.tableRuns = runs;
        this.tableMedians = ServerExperiment.medians(runs);
        this.repeat = repeat;
    }

    void sweep(List<Run> runs, int repeat) {
        this.sweepAll = runs;
        this.sweepRuns = ServerExperiment.medians(runs);
        this.sweepRepeat = repeat;
    }

    void deadlines(List<Run> runs, int repeat) {
        this.deadlineRuns = runs;
        this.deadlineRepeat = repeat;
    }

    private DeadlineTable deadlines() {
        return new DeadlineTable(deadlineRuns, workload, deadlineRepeat);
    }

    // ---------------------------------------------------------------- printed tables

    void print(PrintStream ps) {
        ps.println();
        ps.println("Server experiment on 127.0.0.1: " + workload + " (" + workload.totalRequests()
                + " connections per run, at most " + workload.concurrency() + " at once)");
        ps.println(environment.get("jdk") + ", " + environment.get("os") + ", " + environment.get("cpus")
                + " CPUs, load average " + environment.get("loadAverageAtStart") + " -> "
                + environment.get("loadAverageAtEnd"));
        ps.println("Median of " + repeat + " runs by wall time (iterative: 1 run). CPU = the server JVM's process CPU"
                + " time over the run; wall = first GO to last connection served; latency as the client saw it.");
        if (!tableMedians.isEmpty()) {
            ps.println();
            printTable(ps);
        }
        if (!sweepRuns.isEmpty()) {
            ps.println();
            printSweep(ps, "Worker sweep, server wall time in ms (median of " + sweepRepeat + ")", Run::wallMillis);
            ps.println();
            printSweep(ps, "Worker sweep, server CPU time in ms (median of " + sweepRepeat + ")", Run::cpuMillis);
        }
        List<Run> withStats = statsRuns();
        if (!withStats.isEmpty()) {
            ps.println();
            TheoremTable.print(ps, withStats, tableMedians);
        }
        for (DeadlineTable.DeadlineRow row : deadlines().rows()) {
            if (row.first()) {
                ps.println();
                ps.println("Deadlines: " + row.mixed() + "; each design's " + deadlineRepeat
                        + " run(s) pooled. missed = failed or complete later than the deadline after connect;"
                        + " fairness over the class's children; wall = median run");
                ps.printf(Locale.ROOT, "%-36s %-9s %8s %7s %8s %7s %7s %7s %8s %8s%n", "design", "class", "requests",
                        "missed", "miss", "p50 ms", "p95 ms", "p99 ms", "fairness", "wall ms");
            }
            DeadlineTable.printRow(ps, row);
        }
        ps.println();
        ps.println("Files: " + out.toAbsolutePath());
    }

    private void printTable(PrintStream ps) {
        ps.printf(Locale.ROOT, "%-2s %-36s %7s %8s %8s %9s %7s %7s %7s %7s %7s %8s %7s %6s%n",
                "#", "design", "workers", "CPU ms", "CPU/req", "wall ms", "req/s", "p50 ms", "p95 ms", "p99 ms",
                "max ms", "fairness", "threads", "errors");
        int i = 0;
        for (Run r : tableMedians) {
            i++;
            if (!r.outcome().available()) {
                ps.printf(Locale.ROOT, "%-2d %-36s %s%n", i, r.entry().design(), r.outcome().unavailable());
                continue;
            }
            LoadResult c = r.outcome().client();
            ps.printf(Locale.ROOT, "%-2d %-36s %7s %8.0f %6.0fus %9.0f %7.0f %7.1f %7.1f %7.1f %7.1f %8.3f %7d %6d%s%n",
                    i, r.entry().design(), r.entry().pooled() ? Integer.toString(r.entry().workers()) : "-",
                    r.cpuMillis(), r.cpuMillis() * 1000 / Math.max(1, c.completed()), r.wallMillis(), r.throughput(),
                    c.percentileNanos(50) / 1e6, c.percentileNanos(95) / 1e6, c.percentileNanos(99) / 1e6,
                    c.percentileNanos(100) / 1e6, c.fairness(), r.outcome().serverLong("peakThreads"), r.errors(),
                    r.timedOut() ? "  TIMED OUT" : "");
        }
    }

    private void printSweep(PrintStream ps, String title, java.util.function.ToDoubleFunction<Run> metric) {
        List<Integer> workers = sweepWorkers();
        ps.println(title);
        ps.printf(Locale.ROOT, "%-26s", "design \\ workers");
        for (int w : workers) {
            ps.printf(Locale.ROOT, " %7d", w);
        }
        ps.println();
        for (Map.Entry<String, List<Run>> e : sweepByDesign().entrySet()) {
            ps.printf(Locale.ROOT, "%-26s", e.getKey());
            if (!e.getValue().get(0).outcome().available()) {
                ps.println(" " + e.getValue().get(0).outcome().unavailable());
                continue;
            }
            for (Run r : e.getValue()) {
                ps.printf(Locale.ROOT, " %7.0f", metric.applyAsDouble(r));
            }
            ps.println();
        }
        if (title.contains("wall")) {
            ps.printf(Locale.ROOT, "%-26s", "ideal N*t/min(W,clients)");
            for (int w : workers) {
                ps.printf(Locale.ROOT, " %7.0f", ideal(w));
            }
            ps.println();
        }
    }

    private double ideal(int workers) {
        return ideal(workload, workers);
    }

    /** The sweep's ideal wall time: N requests of t ms each over min(W, clients) workers at once. */
    static double ideal(Workload workload, int workers) {
        return (double) workload.totalRequests() * workload.delayMillis() / Math.min(workers, workload.concurrency());
    }

    private List<Integer> sweepWorkers() {
        List<Integer> ws = new ArrayList<>();
        for (Run r : sweepRuns) {
            if (!ws.contains(r.entry().workers())) {
                ws.add(r.entry().workers());
            }
        }
        return ws;
    }

    private Map<String, List<Run>> sweepByDesign() {
        Map<String, List<Run>> by = new LinkedHashMap<>();
        for (Run r : sweepRuns) {
            by.computeIfAbsent(r.entry().design(), k -> new ArrayList<>()).add(r);
        }
        return by;
    }

    private List<Run> statsRuns() {
        List<Run> rs = new ArrayList<>();
        for (Run r : tableMedians) {
            if (r.outcome().available() && r.outcome().server().containsKey("searchConflicts")) {
                rs.add(r);
            }
        }
        for (Run r : sweepRuns) {
            if (r.outcome().available() && r.outcome().server().containsKey("searchConflicts")) {
                rs.add(r);
            }
        }
        return rs;
    }

    // ---------------------------------------------------------------- files

    void write() throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve("runs.csv"), csv(allRuns()));
        if (!tableMedians.isEmpty()) {
            Files.writeString(out.resolve("table.csv"), csv(tableMedians));
        }
        if (!deadlineRuns.isEmpty()) {
            Files.writeString(out.resolve("deadlines.csv"), deadlines().csv());
            Files.writeString(out.resolve("deadlines.md"), deadlines().markdown());
            deadlines().charts(out);
        }
        if (!sweepRuns.isEmpty()) {
            Files.writeString(out.resolve("sweep.csv"), csv(sweepRuns));
        }
        Files.writeString(out.resolve("pht.csv"), TheoremTable.csv(statsRuns(), tableMedians));
        Files.writeString(out.resolve("results.json"), json());
        try (PrintStream txt = new PrintStream(Files.newOutputStream(out.resolve("summary.txt")), true, "UTF-8")) {
            print(txt);
        }
        ExperimentCharts charts = new ExperimentCharts(workload, out);
        charts.table(tableMedians);
        if (!sweepRuns.isEmpty()) {
            charts.sweepThroughput(sweepRuns);
            charts.sweep(sweepByDesign(), sweepWorkers(), "sweep-wall.png", "Server wall time vs workers", "wall time (ms)", Run::wallMillis, true);
            charts.sweep(sweepByDesign(), sweepWorkers(), "sweep-cpu.png", "Server CPU time vs workers", "server process CPU time (ms)", Run::cpuMillis, false);
        }
    }

    private List<Run> allRuns() {
        List<Run> all = new ArrayList<>(tableRuns);
        all.addAll(sweepAll);
        all.addAll(deadlineRuns);
        return all;
    }

    private static final List<String> STATS_KEYS = List.of("puts", "takes", "producerWaits", "consumerWaits",
            "insertProbes", "searchProbes", "insertConflicts", "searchConflicts", "takeMedianNanos", "meanSizeAtPut",
            "insertProbeBound", "searchProbeBound");

    private Map<String, Object> row(Run r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("phase", phaseOf(r));
        m.put("design", r.entry().design());
        m.put("workers", r.entry().pooled() ? r.entry().workers() : 0);
        m.put("clients", r.workload().clients());
        m.put("children", r.workload().children());
        m.put("requests", r.workload().requests());
        m.put("delay_ms", r.workload().delayMillis());
        if (r.mixed() != null) {
            m.put("important_share", r.mixed().importantShare());
            m.put("deadline_ms", r.mixed().deadlineMillis());
        }
        if (!r.outcome().available()) {
            m.put("unavailable", r.outcome().unavailable());
            return m;
        }
        LoadResult c = r.outcome().client();
        m.put("served", r.outcome().serverLong("served"));
        m.put("errors", r.errors());
        m.put("timed_out", r.timedOut());
        m.put("cpu_ms", round(r.cpuMillis()));
        m.put("wall_ms", round(r.wallMillis()));
        m.put("client_wall_ms", round(c.wallNanos() / 1e6));
        m.put("throughput_per_s", round(r.throughput()));
        m.put("p50_ms", round(c.percentileNanos(50) / 1e6));
        m.put("p95_ms", round(c.percentileNanos(95) / 1e6));
        m.put("p99_ms", round(c.percentileNanos(99) / 1e6));
        m.put("max_ms", round(c.percentileNanos(100) / 1e6));
        m.put("fairness", Math.round(c.fairness() * 10000) / 10000.0);
        m.put("peak_threads", r.outcome().serverLong("peakThreads"));
        for (String k : STATS_KEYS) {
            String v = r.outcome().server().get(k);
            m.put(k, v == null ? "" : v);
        }
        for (ClassResult cr : c.classes()) {
            String name = DeadlineTable.className(cr.importanceClass());
            m.put(name + "_requests", cr.requests());
            m.put(name + "_missed", cr.missed());
        }
        return m;
    }

    private String phaseOf(Run r) {
        if (r.mixed() != null) {
            return "deadlines";
        }
        return tableRuns.contains(r) ? "table" : "sweep";
    }

    /** v to two decimals, as every file writes a measured figure. */
    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private static final List<String> COLUMNS = List.of("phase", "design", "workers", "clients", "children", "requests",
            "delay_ms", "served", "errors", "timed_out", "cpu_ms", "wall_ms", "client_wall_ms", "throughput_per_s",
            "p50_ms", "p95_ms", "p99_ms", "max_ms", "fairness", "peak_threads", "puts", "takes", "producerWaits",
            "consumerWaits", "insertProbes", "searchProbes", "insertConflicts", "searchConflicts", "takeMedianNanos",
            "meanSizeAtPut", "insertProbeBound", "searchProbeBound", "important_share", "deadline_ms",
            "important_requests", "important_missed", "ordinary_requests", "ordinary_missed", "unavailable");

    private String csv(List<Run> runs) {
        StringBuilder sb = new StringBuilder(String.join(",", COLUMNS)).append('\n');
        for (Run r : runs) {
            Map<String, Object> m = row(r);
            List<String> cells = new ArrayList<>();
            for (String col : COLUMNS) {
                Object v = m.getOrDefault(col, "");
                String s = String.valueOf(v);
                cells.add(s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s);
            }
            sb.append(String.join(",", cells)).append('\n');
        }
        return sb.toString();
    }


    private String json() {
        StringBuilder sb = new StringBuilder("{\n  \"environment\": {");
        appendObject(sb, new LinkedHashMap<>(environment));
        sb.append("},\n  \"table\": [");
        appendRows(sb, tableMedians);
        sb.append("],\n  \"sweep\": [");
        appendRows(sb, sweepRuns);
        sb.append("],\n  \"deadlines\": [");
        List<DeadlineTable.DeadlineRow> rows = deadlines().rows();
        for (int i = 0; i < rows.size(); i++) {
            sb.append(i == 0 ? "\n    {" : ",\n    {");
            appendObject(sb, DeadlineTable.cells(rows.get(i)));
            sb.append('}');
        }
        sb.append(rows.isEmpty() ? "" : "\n  ");
        sb.append("],\n  \"runs\": [");
        appendRows(sb, allRuns());
        sb.append("]\n}\n");
        return sb.toString();
    }

    private void appendRows(StringBuilder sb, List<Run> runs) {
        for (int i = 0; i < runs.size(); i++) {
            sb.append(i == 0 ? "\n    {" : ",\n    {");
            appendObject(sb, row(runs.get(i)));
            sb.append('}');
        }
        if (!runs.isEmpty()) {
            sb.append("\n  ");
        }
    }

    private static void appendObject(StringBuilder sb, Map<String, ?> m) {
        boolean first = true;
        for (Map.Entry<String, ?> e : m.entrySet()) {
            Object v = e.getValue();
            if ("".equals(v)) {
                continue;
            }
            sb.append(first ? "" : ", ").append('"').append(e.getKey()).append("\": ");
            if (v instanceof Number n && Double.isFinite(n.doubleValue()) || v instanceof Boolean) {
                sb.append(v);
            } else if (v instanceof String s && s.matches("-?\\d+(\\.\\d+)?(E-?\\d+)?")) {
                sb.append(s);
            } else {
                sb.append('"').append(String.valueOf(v).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            }
            first = false;
        }
    }
}
