/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import dev.handoff.server.ServerExperiment.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The PNG charts of the table and the worker sweep, written into the experiment's output folder.
 * Throughput is always compared at equal worker counts: the worker count sets a pre-threaded
 * server's wall time (about N x t / W), so bars of different counts would rank the counts, not the
 * designs.
 */
final class ExperimentCharts {

    private final Workload workload;
    private final Path out;

    ExperimentCharts(Workload workload, Path out) {
        this.workload = workload;
        this.out = out;
    }

    /**
     * table-throughput.png, table-cpu.png and table-p99.png of the table's medians. The throughput
     * chart groups the pooled designs by worker count, so that only designs with as many workers
     * stand side by side; the per-connection designs have no worker count and are in the table and
     * the other two charts.
     */
    void table(List<Run> tableMedians) throws IOException {
        List<Run> shown = tableMedians.stream().filter(r -> r.outcome().available()).toList();
        if (shown.isEmpty()) {
            return;
        }
        List<String> names = shown.stream().map(r -> r.entry().label()).toList();
        String load = workload.totalRequests() + " connections, " + workload.delayMillis() + " ms work";
        List<Run> pooled = shown.stream().filter(r -> r.entry().pooled()).toList();
        if (!pooled.isEmpty()) {
            throughputByWorkers("table-throughput.png", "Throughput of the table's pre-threaded designs, grouped by"
                    + " worker count (" + load + ")", pooled);
        }
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

    /** sweep-throughput.png: every sweep design's throughput at every worker count of the sweep, side by side. */
    void sweepThroughput(List<Run> sweepMedians) throws IOException {
        List<Run> shown = sweepMedians.stream().filter(r -> r.outcome().available()).toList();
        if (!shown.isEmpty()) {
            throughputByWorkers("sweep-throughput.png", "Throughput by worker count (" + workload.totalRequests()
                    + " connections, " + workload.delayMillis() + " ms work, " + workload.concurrency()
                    + " clients at once)", shown);
        }
    }

    /**
     * Grouped bars: a group per worker count, in each a bar per design run with that many workers
     * (a design not run with that count leaves its place empty).
     */
    private void throughputByWorkers(String file, String title, List<Run> runs) throws IOException {
        List<Integer> workers = runs.stream().map(r -> r.entry().workers()).distinct().sorted().toList();
        Map<String, Map<Integer, Double>> byDesign = new LinkedHashMap<>();
        for (Run r : runs) {
            byDesign.computeIfAbsent(r.entry().design(), k -> new LinkedHashMap<>())
                    .put(r.entry().workers(), r.throughput());
        }
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(650).title(title)
                .xAxisTitle("worker threads").yAxisTitle("requests per second").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        List<String> groups = workers.stream().map(String::valueOf).toList();
        for (Map.Entry<String, Map<Integer, Double>> e : byDesign.entrySet()) {
            List<Double> values = new ArrayList<>();
            for (int w : workers) {
                values.add(e.getValue().get(w)); // null: no bar
            }
            chart.addSeries(e.getKey(), groups, values);
        }
        try (OutputStream os = Files.newOutputStream(out.resolve(file))) {
            BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
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

    /** One line per design over the sweep's worker counts, and the ideal when asked for. */
    void sweep(Map<String, List<Run>> byDesign, List<Integer> workers, String file, String title, String yTitle,
               ToDoubleFunction<Run> metric,
               boolean withIdeal) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title(title + " (" + workload.totalRequests() + " connections, " + workload.delayMillis() + " ms work, "
                        + workload.concurrency() + " clients at once)")
                .xAxisTitle("worker threads").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setYAxisLogarithmic(withIdeal);
        boolean any = false;
        for (Map.Entry<String, List<Run>> e : byDesign.entrySet()) {
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
            chart.addSeries("ideal N*t/min(W,clients)", workers.stream().mapToDouble(Integer::doubleValue).toArray(),
                    workers.stream().mapToDouble(w -> ExperimentReport.ideal(workload, w)).toArray());
        }
        try (OutputStream os = Files.newOutputStream(out.resolve(file))) {
            BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
