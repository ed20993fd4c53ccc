/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import static dev.handoff.jmh.report.Figures.scenarioName;

import dev.handoff.jmh.report.SuiteResults.Latency;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** The PNG charts of {@code docs/benchmarks.md}: throughput ratio to ABQ, and round trip. */
final class Charts {

    private Charts() {
    }

    /** Draws {@code throughput-ratio.png} and {@code round-trip.png} into img, each if it has data. */
    static void draw(SuiteResults results, Path img) throws IOException {
        throughputRatio(results, img);
        roundTrip(results.latency, img);
    }

    private static void throughputRatio(SuiteResults results, Path img) throws IOException {
        List<String> kinds = results.kinds().stream().filter(k -> !k.equals("abq")).toList();
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(520)
                .title("Throughput, ratio to ArrayBlockingQueue (median; 1.0 = ABQ)")
                .xAxisTitle("kind").yAxisTitle("handoffs/s / ABQ's").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setXAxisLabelRotation(45);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.001);
        for (String s : Suite.SHAPES) {
            List<Double> y = new ArrayList<>();
            for (String k : kinds) {
                Estimate r = results.ratio(s, k);
                y.add(r == null || !(r.median() > 0) ? 1e-3 : r.median());
            }
            if (results.throughput.containsKey(s) && !kinds.isEmpty()) {
                chart.addSeries(scenarioName(s), kinds, y);
            }
        }
        if (!chart.getSeriesMap().isEmpty()) {
            BitmapEncoder.saveBitmap(chart, img.resolve("throughput-ratio").toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static void roundTrip(Map<String, Latency> latency, Path img) throws IOException {
        if (latency.isEmpty()) {
            return;
        }
        List<String> lk = new ArrayList<>(latency.keySet());
        CategoryChart lat = new CategoryChartBuilder().width(1100).height(520)
                .title("One-element round trip (ns, log scale)").xAxisTitle("kind").yAxisTitle("ns").build();
        lat.getStyler().setXAxisLabelRotation(45);
        lat.getStyler().setYAxisLogarithmic(true);
        lat.getStyler().setYAxisMin(10.0);
        lat.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        lat.addSeries("average", lk, lk.stream().map(k -> positive(latency.get(k).avg())).toList());
        lat.addSeries("p50", lk, lk.stream().map(k -> positive(latency.get(k).percentiles().getOrDefault("50.0", 1.0))).toList());
        lat.addSeries("p99", lk, lk.stream().map(k -> positive(latency.get(k).percentiles().getOrDefault("99.0", 1.0))).toList());
        BitmapEncoder.saveBitmap(lat, img.resolve("round-trip").toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static double positive(double x) {
        return x > 0 ? x : 1.0;
    }
}
