/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import dev.handoff.server.ServerExperiment.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * The deadline phase (the QoSWeaver paper): per mixed workload and design, each importance class's runs
 * pooled into one row, printed, as {@code deadlines.csv}, as {@code deadlines.md} and as one
 * miss-ratio chart per workload.
 */
final class DeadlineTable {

    private final List<Run> deadlineRuns;
    private final Workload workload;
    private final int repeat;

    /**
     * @param deadlineRuns every run of the deadline phase, in the order run
     * @param workload the papers' workload the mixed ones are built on
     * @param repeat runs per design and workload
     */
    DeadlineTable(List<Run> deadlineRuns, Workload workload, int repeat) {
        this.deadlineRuns = deadlineRuns;
        this.workload = workload;
        this.repeat = repeat;
    }

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
    List<DeadlineRow> rows() {
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

    /** "important", "ordinary" or "all". */
    static String className(int importanceClass) {
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

    /** Prints one row, as the experiment's summary shows it. */
    static void printRow(PrintStream ps, DeadlineRow row) {
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

    /** The cells of one row, by column name; an empty string is a cell left out. */
    static Map<String, Object> cells(DeadlineRow row) {
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
        m.put("p50_ms", c.percentileNanos(50) < 0 ? "" : ExperimentReport.round(c.percentileNanos(50) / 1e6));
        m.put("p95_ms", c.percentileNanos(95) < 0 ? "" : ExperimentReport.round(c.percentileNanos(95) / 1e6));
        m.put("p99_ms", c.percentileNanos(99) < 0 ? "" : ExperimentReport.round(c.percentileNanos(99) / 1e6));
        m.put("max_ms", c.percentileNanos(100) < 0 ? "" : ExperimentReport.round(c.percentileNanos(100) / 1e6));
        m.put("fairness", Double.isNaN(c.fairness()) ? "" : Math.round(c.fairness() * 10000) / 10000.0);
        m.put("median_wall_ms", ExperimentReport.round(row.medianWallMillis()));
        return m;
    }

    private static final List<String> DEADLINE_COLUMNS = List.of("important_share", "deadline_ms", "workers", "design",
            "class", "runs", "requests", "missed", "miss_ratio", "p50_ms", "p95_ms", "p99_ms", "max_ms", "fairness",
            "median_wall_ms", "unavailable");

    /** deadlines.csv. */
    String csv() {
        StringBuilder sb = new StringBuilder(String.join(",", DEADLINE_COLUMNS)).append('\n');
        for (DeadlineRow row : rows()) {
            Map<String, Object> m = cells(row);
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
    String markdown() {
        StringBuilder sb = new StringBuilder();
        for (DeadlineRow row : rows()) {
            if (row.first()) {
                sb.append(sb.length() == 0 ? "" : "\n").append("Deadlines: ").append(row.mixed()).append("; ")
                        .append(workload).append("; each design's ").append(repeat)
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
    void charts(Path out) throws IOException {
        Map<MixedLoad, List<DeadlineRow>> byLoad = new LinkedHashMap<>();
        for (DeadlineRow row : rows()) {
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
}
