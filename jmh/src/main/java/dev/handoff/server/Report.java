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
 * Turns the experiment's runs into the printed tables, CSV and JSON files and PNG charts.
 */
final class Report {

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

    Report(Workload workload, Path out) {
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
            printTheorems(ps, withStats);
        }
        for (DeadlineRow row : deadlineRows()) {
            if (row.first()) {
                ps.println();
                ps.println("Deadlines: " + row.mixed() + "; each design's " + deadlineRepeat
                        + " run(s) pooled. missed = failed or complete later than the deadline after connect;"
                        + " fairness over the class's children; wall = median run");
                ps.printf(Locale.ROOT, "%-36s %-9s %8s %7s %8s %7s %7s %7s %8s %8s%n", "design", "class", "requests",
                        "missed", "miss", "p50 ms", "p95 ms", "p99 ms", "fairness", "wall ms");
            }
            printDeadlineRow(ps, row);
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

    // ---------------------------------------------------------------- seed 004's theorems

    /** Theorems 1-3 of seed 004 evaluated for one run with counters. */
    record Theorems(Run run, double tr, double taMillis, int m, double n, double pConflict, long takes,
                    long searchConflicts, long insertConflicts, double meanInsertProbes, double meanSearchProbes,
                    double meanLoad, double insertBound, double searchBound) {

        static Theorems of(Run r) {
            Map<String, String> s = r.outcome().server();
            int k = r.entry().workers();
            double tr = r.workload().delayMillis();
            double ta = Double.parseDouble(s.getOrDefault("takeMedianNanos", "NaN")) / 1e6;
            int m = Integer.parseInt(s.getOrDefault("capacity", "0"));
            double n = k * ta / tr; // seed 004 Theorem 3: n = k / (t_r / t_a)
            long takes = Long.parseLong(s.get("takes"));
            long puts = Long.parseLong(s.get("puts"));
            double load = Double.parseDouble(s.getOrDefault("meanSizeAtPut", "NaN")) / m;
            return new Theorems(r, tr, ta, m, n, conflictProbability(m, n), takes,
                    Long.parseLong(s.get("searchConflicts")), Long.parseLong(s.get("insertConflicts")),
                    puts == 0 ? Double.NaN : Double.parseDouble(s.get("insertProbes")) / puts,
                    takes == 0 ? Double.NaN : Double.parseDouble(s.get("searchProbes")) / takes, load,
                    Double.parseDouble(s.getOrDefault("insertProbeBound", "NaN")),
                    Double.parseDouble(s.getOrDefault("searchProbeBound", "NaN")));
        }
    }

    /**
     * Seed 004 Theorem 3: P(x >= 1) for x ~ Binomial(n, 1/m), which is 1 - (1 - 1/m)^n; written
     * in closed form so that it holds for the fractional n the theorem's n = k t_a / t_r gives.
     *
     * @param m slots
     * @param n threads accessing the table during one retrieval
     * @return the probability that a retrieval meets another thread on its slot
     */
    static double conflictProbability(int m, double n) {
        return 1 - Math.pow(1 - 1.0 / m, n);
    }

    private void printTheorems(PrintStream ps, List<Run> runs) {
        ps.println("Parallel hash table: counted by stats() beside seed 004's theorems. t_a = median time of a take() begun with an element inside;"
                + " a = mean size/capacity at put; probe bounds = Theorem 1 (1/(1-a)) and 2 (1/a) averaged over the"
                + " load each put and take saw");
        ps.printf(Locale.ROOT, "%-8s %-28s %7s %6s %9s %5s %10s %11s %11s %7s %9s %9s %6s %12s %12s%n",
                "phase", "slots", "workers", "t_r ms", "t_a us", "m", "n", "P(Thm3)", "expected", "takes", "searchCfl",
                "insertCfl", "a", "ins probes", "search prb");
        for (Run r : runs) {
            Theorems t = Theorems.of(r);
            ps.printf(Locale.ROOT, "%-8s %-28s %7d %6.0f %9.1f %5d %10.2e %11.2e %11.3f %7d %9d %9d %6.2f %5.2f<=%-5.2f %5.2f<=%-5.2f%n",
                    tableMedians.contains(r) ? "table" : "sweep", r.entry().design().replace("handoff:", ""),
                    r.entry().workers(), t.tr(), t.taMillis() * 1000,
                    t.m(), t.n(), t.pConflict(), t.pConflict() * t.takes(), t.takes(), t.searchConflicts(),
                    t.insertConflicts(), t.meanLoad(), t.meanInsertProbes(), t.insertBound(), t.meanSearchProbes(),
                    t.searchBound());
        }
        ps.printf(Locale.ROOT, "seed 004's own case (k=50, t_a=2 ms, t_r=500 ms, m=101): n=0.2, P(Thm3)=%.3e"
                + " (the paper prints 0.0019703951)%n", conflictProbability(101, 0.2));
    }

    // ---------------------------------------------------------------- files

    void write() throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve("runs.csv"), csv(allRuns()));
        if (!tableMedians.isEmpty()) {
            Files.writeString(out.resolve("table.csv"), csv(tableMedians));
        }
        if (!deadlineRuns.isEmpty()) {
            Files.writeString(out.resolve("deadlines.csv"), deadlinesCsv());
            Files.writeString(out.resolve("deadlines.md"), deadlinesMarkdown());
            deadlineCharts();
        }
        if (!sweepRuns.isEmpty()) {
            Files.writeString(out.resolve("sweep.csv"), csv(sweepRuns));
        }
        Files.writeString(out.resolve("pht.csv"), theoremsCsv());
        Files.writeString(out.resolve("results.json"), json());
        try (PrintStream txt = new PrintStream(Files.newOutputStream(out.resolve("summary.txt")), true, "UTF-8")) {
            print(txt);
        }
        tableCharts();
        if (!sweepRuns.isEmpty()) {
            sweepChart("sweep-wall.png", "Server wall time vs workers", "wall time (ms)", Run::wallMillis, true);
            sweepChart("sweep-cpu.png", "Server CPU time vs workers", "server process CPU time (ms)", Run::cpuMillis, false);
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
            String name = className(cr.importanceClass());
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

    private static double round(double v) {
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

    private String theoremsCsv() {
        StringBuilder sb = new StringBuilder("phase,design,workers,t_r_ms,t_a_us,m,n,p_conflict_thm3,expected_conflicts,takes,"
                + "search_conflicts,insert_conflicts,mean_load,mean_insert_probes,thm1_bound,mean_search_probes,thm2_bound\n");
        for (Run r : statsRuns()) {
            Theorems t = Theorems.of(r);
            sb.append(String.format(Locale.ROOT, "%s,\"%s\",%d,%.0f,%.3f,%d,%.4e,%.4e,%.4f,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f%n",
                    tableMedians.contains(r) ? "table" : "sweep", r.entry().design(), r.entry().workers(), t.tr(), t.taMillis() * 1000, t.m(),
                    t.n(), t.pConflict(), t.pConflict() * t.takes(), t.takes(), t.searchConflicts(), t.insertConflicts(),
                    t.meanLoad(), t.meanInsertProbes(), t.insertBound(), t.meanSearchProbes(), t.searchBound()));
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
        List<DeadlineRow> rows = deadlineRows();
        for (int i = 0; i < rows.size(); i++) {
            sb.append(i == 0 ? "\n    {" : ",\n    {");
            appendObject(sb, deadlineCells(rows.get(i)));
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

    // ---------------------------------------------------------------- deadlines (seed 002)

    /**
     * One line of the deadline table: one class (or all) of one design under one mixed workload,
     * its runs pooled.
     *
     * @param mixed the workload
     * @param design the design's name
     * @param result the pooled class, or null when the design was unavailable
     * @param unavailable why the design did not run, or null
     * @param runs the runs pooled
     * @param medianWallMillis the median run's server wall time
     * @param first whether this is the first line of its workload
     */
    record DeadlineRow(MixedLoad mixed, String design, ClassResult result, String unavailable, int runs,
                       double medianWallMillis, boolean first) {
    }

    /** The deadline table's lines: per workload and design, its important, ordinary and all lines. */
    List<DeadlineRow> deadlineRows() {
        Map<MixedLoad, Map<String, List<Run>>> byLoad = new LinkedHashMap<>();
        for (Run r : deadlineRuns) {
            byLoad.computeIfAbsent(r.mixed(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(r.entry().design(), k -> new ArrayList<>()).add(r);
        }
        List<DeadlineRow> rows = new ArrayList<>();
        for (Map.Entry<MixedLoad, Map<String, List<Run>>> load : byLoad.entrySet()) {
            boolean first = true;
            for (Map.Entry<String, List<Run>> design : load.getValue().entrySet()) {
                List<Run> runs = design.getValue();
                if (!runs.get(0).outcome().available()) {
                    rows.add(new DeadlineRow(load.getKey(), design.getKey(), null, runs.get(0).outcome().unavailable(),
                            0, Double.NaN, first));
                    first = false;
                    continue;
                }
                double wall = ServerExperiment.medians(runs).get(0).wallMillis();
                List<ClassResult> everyClass = new ArrayList<>();
                for (int cls : new int[] {Job.IMPORTANT, Job.ORDINARY}) {
                    List<ClassResult> ofClass = new ArrayList<>();
                    for (Run r : runs) {
                        for (ClassResult cr : r.outcome().client().classes()) {
                            if (cr.importanceClass() == cls) {
                                ofClass.add(cr);
                            }
                        }
                    }
                    ClassResult pooled = ClassResult.pool(ofClass, cls);
                    everyClass.add(pooled);
                    rows.add(new DeadlineRow(load.getKey(), design.getKey(), pooled, null, runs.size(), wall, first));
                    first = false;
                }
                rows.add(new DeadlineRow(load.getKey(), design.getKey(), ClassResult.pool(everyClass, ClassResult.ALL),
                        null, runs.size(), wall, false));
            }
        }
        return rows;
    }

    private static String className(int importanceClass) {
        return switch (importanceClass) {
            case Job.IMPORTANT -> "important";
            case Job.ORDINARY -> "ordinary";
            default -> "all";
        };
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }

    private static String ratio(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static void printDeadlineRow(PrintStream ps, DeadlineRow row) {
        if (row.result() == null) {
            ps.printf(Locale.ROOT, "%-36s %s%n", row.design(), row.unavailable());
            return;
        }
        ClassResult c = row.result();
        boolean firstOfDesign = c.importanceClass() == Job.IMPORTANT;
        ps.printf(Locale.ROOT, "%-36s %-9s %8d %7d %8s %7s %7s %7s %8s %8s%n", firstOfDesign ? row.design() : "",
                className(c.importanceClass()), c.requests(), c.missed(), ratio(c.missRatio()),
                ms(c.percentileNanos(50)), ms(c.percentileNanos(95)), ms(c.percentileNanos(99)), ratio(c.fairness()),
                c.importanceClass() == ClassResult.ALL ? String.format(Locale.ROOT, "%.0f", row.medianWallMillis()) : "");
    }

    private static Map<String, Object> deadlineCells(DeadlineRow row) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("important_share", row.mixed().importantShare());
        m.put("deadline_ms", row.mixed().deadlineMillis());
        m.put("workers", row.mixed().workers());
        m.put("design", row.design());
        if (row.result() == null) {
            m.put("unavailable", row.unavailable());
            return m;
        }
        ClassResult c = row.result();
        m.put("class", className(c.importanceClass()));
        m.put("runs", row.runs());
        m.put("requests", c.requests());
        m.put("missed", c.missed());
        m.put("miss_ratio", Double.isNaN(c.missRatio()) ? "" : Math.round(c.missRatio() * 10000) / 10000.0);
        m.put("p50_ms", c.percentileNanos(50) < 0 ? "" : round(c.percentileNanos(50) / 1e6));
        m.put("p95_ms", c.percentileNanos(95) < 0 ? "" : round(c.percentileNanos(95) / 1e6));
        m.put("p99_ms", c.percentileNanos(99) < 0 ? "" : round(c.percentileNanos(99) / 1e6));
        m.put("max_ms", c.percentileNanos(100) < 0 ? "" : round(c.percentileNanos(100) / 1e6));
        m.put("fairness", Double.isNaN(c.fairness()) ? "" : Math.round(c.fairness() * 10000) / 10000.0);
        m.put("median_wall_ms", round(row.medianWallMillis()));
        return m;
    }

    private static final List<String> DEADLINE_COLUMNS = List.of("important_share", "deadline_ms", "workers", "design",
            "class", "runs", "requests", "missed", "miss_ratio", "p50_ms", "p95_ms", "p99_ms", "max_ms", "fairness",
            "median_wall_ms", "unavailable");

    private String deadlinesCsv() {
        StringBuilder sb = new StringBuilder(String.join(",", DEADLINE_COLUMNS)).append('\n');
        for (DeadlineRow row : deadlineRows()) {
            Map<String, Object> m = deadlineCells(row);
            List<String> cells = new ArrayList<>();
            for (String col : DEADLINE_COLUMNS) {
                String v = String.valueOf(m.getOrDefault(col, ""));
                cells.add(v.contains(",") || v.contains("\"") ? '"' + v.replace("\"", "\"\"") + '"' : v);
            }
            sb.append(String.join(",", cells)).append('\n');
        }
        return sb.toString();
    }

    /** The deadline table as Markdown, one table per mixed workload, as docs/server-experiment.md shows it. */
    private String deadlinesMarkdown() {
        StringBuilder sb = new StringBuilder();
        for (DeadlineRow row : deadlineRows()) {
            if (row.first()) {
                sb.append(sb.length() == 0 ? "" : "\n").append("Deadlines: ").append(row.mixed()).append("; ")
                        .append(workload).append("; each design's ").append(deadlineRepeat)
                        .append(" run(s) pooled.\n\n")
                        .append("| `--design` | class | requests | missed | miss ratio | p50 / p95 / p99 ms | fairness"
                                + " | wall ms (median) |\n")
                        .append("|---|---|---|---|---|---|---|---|\n");
            }
            if (row.result() == null) {
                sb.append("| `").append(row.design()).append("` | ").append(row.unavailable())
                        .append(" | | | | | | |\n");
                continue;
            }
            ClassResult c = row.result();
            boolean all = c.importanceClass() == ClassResult.ALL;
            sb.append("| ").append(c.importanceClass() == Job.IMPORTANT ? "`" + row.design() + "`" : "")
                    .append(" | ").append(all ? "**all**" : className(c.importanceClass()))
                    .append(" | ").append(c.requests())
                    .append(" | ").append(c.missed())
                    .append(" | ").append(all ? "**" + ratio(c.missRatio()) + "**" : ratio(c.missRatio()))
                    .append(" | ").append(ms(c.percentileNanos(50))).append(" / ").append(ms(c.percentileNanos(95)))
                    .append(" / ").append(ms(c.percentileNanos(99)))
                    .append(" | ").append(ratio(c.fairness()))
                    .append(" | ").append(all ? String.format(Locale.ROOT, "%.0f", row.medianWallMillis()) : "")
                    .append(" |\n");
        }
        return sb.toString();
    }

    /** Per mixed workload, the miss ratio of each class per design: deadlines-TAG.png. */
    private void deadlineCharts() throws IOException {
        Map<MixedLoad, List<DeadlineRow>> byLoad = new LinkedHashMap<>();
        for (DeadlineRow row : deadlineRows()) {
            if (row.result() != null) {
                byLoad.computeIfAbsent(row.mixed(), k -> new ArrayList<>()).add(row);
            }
        }
        for (Map.Entry<MixedLoad, List<DeadlineRow>> load : byLoad.entrySet()) {
            CategoryChart chart = new CategoryChartBuilder().width(1100).height(650)
                    .title("Deadline-miss ratio per design and class (" + load.getKey() + ")")
                    .xAxisTitle("design").yAxisTitle("deadline-miss ratio").build();
            chart.getStyler().setXAxisLabelRotation(35);
            chart.getStyler().setYAxisMin(0.0);
            chart.getStyler().setYAxisMax(1.0);
            for (int cls : new int[] {Job.IMPORTANT, Job.ORDINARY, ClassResult.ALL}) {
                List<String> names = new ArrayList<>();
                List<Double> ratios = new ArrayList<>();
                for (DeadlineRow row : load.getValue()) {
                    if (row.result().importanceClass() == cls && row.result().requests() > 0) {
                        names.add(row.design().replace("handoff:", ""));
                        ratios.add(row.result().missRatio());
                    }
                }
                if (!names.isEmpty()) {
                    chart.addSeries(className(cls), names, ratios);
                }
            }
            if (chart.getSeriesMap().isEmpty()) {
                continue;
            }
            try (OutputStream os = Files.newOutputStream(out.resolve("deadlines-" + load.getKey().tag() + ".png"))) {
                BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
            }
        }
    }

    // ---------------------------------------------------------------- charts

    private void tableCharts() throws IOException {
        List<Run> shown = tableMedians.stream().filter(r -> r.outcome().available()).toList();
        if (shown.isEmpty()) {
            return;
        }
        List<String> names = shown.stream().map(r -> r.entry().label()).toList();
        String load = workload.totalRequests() + " connections, " + workload.delayMillis() + " ms work";
        barChart("table-throughput.png", "Throughput per design (" + load + ")", "requests per second",
                "throughput", names, shown.stream().map(Run::throughput).toList());
        barChart("table-cpu.png", "Server process CPU time per design (" + load + ")", "CPU time (ms)",
                "server CPU time", names, shown.stream().map(Run::cpuMillis).toList());
        // the iterative server's p99 (N x t / 4 and more) would flatten every other bar
        List<Run> concurrent = shown.stream().filter(r -> !r.entry().design().equals("iterative")).toList();
        if (!concurrent.isEmpty()) {
            barChart("table-p99.png", "99th percentile latency per design (" + load + "; iterative left out)",
                    "p99 latency (ms)", "p99 latency", concurrent.stream().map(r -> r.entry().label()).toList(),
                    concurrent.stream().map(r -> r.outcome().client().percentileNanos(99) / 1e6).toList());
        }
    }

    private void barChart(String file, String title, String yTitle, String series, List<String> names,
                          List<Double> values) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(650).title(title)
                .xAxisTitle("design").yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLabelRotation(35);
        chart.getStyler().setLegendVisible(false);
        chart.addSeries(series, names, values);
        try (OutputStream os = Files.newOutputStream(out.resolve(file))) {
            BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private void sweepChart(String file, String title, String yTitle, java.util.function.ToDoubleFunction<Run> metric,
                            boolean withIdeal) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title(title + " (" + workload.totalRequests() + " connections, " + workload.delayMillis() + " ms work, "
                        + workload.concurrency() + " clients at once)")
                .xAxisTitle("worker threads").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setYAxisLogarithmic(withIdeal);
        boolean any = false;
        for (Map.Entry<String, List<Run>> e : sweepByDesign().entrySet()) {
            List<Run> rs = e.getValue().stream().filter(r -> r.outcome().available()).toList();
            if (rs.isEmpty()) {
                continue;
            }
            double[] x = rs.stream().mapToDouble(r -> r.entry().workers()).toArray();
            double[] y = rs.stream().mapToDouble(r -> Math.max(1, metric.applyAsDouble(r))).toArray();
            chart.addSeries(e.getKey(), x, y);
            any = true;
        }
        if (!any) {
            return;
        }
        if (withIdeal) {
            List<Integer> ws = sweepWorkers();
            chart.addSeries("ideal N*t/min(W,clients)", ws.stream().mapToDouble(Integer::doubleValue).toArray(),
                    ws.stream().mapToDouble(this::ideal).toArray());
        }
        try (OutputStream os = Files.newOutputStream(out.resolve(file))) {
            BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
