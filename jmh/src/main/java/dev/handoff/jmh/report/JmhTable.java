/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a JMH JSON result file as a table into a page of {@code docs/}, between the markers
 * {@code <!-- BEGIN JMH-TABLE id -->} and {@code <!-- END JMH-TABLE id -->}, so that the prose
 * around it survives and no figure is copied by hand. One row per benchmark and parameter set, in
 * the file's order, showing the parameters that vary; the score is JMH's (the mean of every
 * measured iteration of every fork, with its 99.9% error) of the primary metric, or of the
 * secondary metric named, and the last column its ratio to the first row of the same benchmark
 * that differs from it, among the varying parameters, in the first one only (for a run over
 * {@code -p kind=abq,...}: the ratio to {@code abq}).
 *
 * <pre>java -cp jmh/target/benchmarks.jar dev.handoff.jmh.report.JmhTable RESULTS.json PAGE.md ID [METRIC]</pre>
 */
public final class JmhTable {

    private JmhTable() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: JmhTable RESULTS.json PAGE.md ID [SECONDARY_METRIC]");
            System.exit(2);
        }
        Path results = Path.of(args[0]);
        Path page = Path.of(args[1]);
        String begin = "<!-- BEGIN JMH-TABLE " + args[2] + " by dev.handoff.jmh.report.JmhTable: do not edit by hand -->";
        String end = "<!-- END JMH-TABLE " + args[2] + " -->";
        String text = Files.readString(page);
        int b = text.indexOf(begin);
        int e = text.indexOf(end);
        if (b < 0 || e < b) {
            throw new IllegalStateException(page + " has no " + begin + " ... " + end + " block");
        }
        JsonArray runs = JsonParser.parseString(Files.readString(results)).getAsJsonArray();
        String metric = args.length == 4 ? args[3] : null;
        String table = markdown(rows(runs, metric), results.getFileName().toString(), metric);
        Files.writeString(page, text.substring(0, b + begin.length()) + "\n" + table + text.substring(e));
        System.out.println("wrote table " + args[2] + " of " + page);
    }

    /** One benchmark run: its short name, its parameters, its score. */
    record Row(String benchmark, Map<String, String> params, double score, double error, String unit) {
        /** The parameters other than compared, which rows compared with each other share. */
        Map<String, String> others(String compared) {
            Map<String, String> o = new LinkedHashMap<>(params);
            o.remove(compared);
            return o;
        }
    }

    /** The rows of the primary metric, or of the secondary metric named (runs without it are left out). */
    static List<Row> rows(JsonArray runs, String metric) {
        List<Row> rows = new ArrayList<>();
        for (JsonElement run : runs) {
            JsonObject o = run.getAsJsonObject();
            String name = o.get("benchmark").getAsString();
            String shortName = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            Map<String, String> params = new LinkedHashMap<>();
            if (o.has("params")) {
                o.getAsJsonObject("params").entrySet().forEach(p -> params.put(p.getKey(), p.getValue().getAsString()));
            }
            JsonObject m = metric == null ? o.getAsJsonObject("primaryMetric")
                    : o.getAsJsonObject("secondaryMetrics").getAsJsonObject(metric);
            if (m != null) {
                rows.add(new Row(shortName, params, m.get("score").getAsDouble(), number(m.get("scoreError")),
                        m.get("scoreUnit").getAsString()));
            }
        }
        return rows;
    }

    private static double number(JsonElement e) {
        try {
            return e.getAsDouble();
        } catch (RuntimeException notANumber) { // "NaN" with one iteration
            return Double.NaN;
        }
    }

    static String markdown(List<Row> rows, String resultsName, String metric) {
        List<String> varying = varyingParams(rows);
        StringBuilder md = new StringBuilder("\nResults: `docs/data/").append(resultsName).append("`")
                .append(metric == null ? "" : ", metric `" + metric + "`").append(".\n\n| benchmark |");
        varying.forEach(p -> md.append(' ').append(p).append(" |"));
        md.append(" score | error | unit | ratio |\n|---|");
        varying.forEach(p -> md.append("---|"));
        md.append("---:|---:|---|---:|\n");
        for (Row r : rows) {
            md.append("| ").append(r.benchmark()).append(" |");
            varying.forEach(p -> md.append(' ').append(r.params().getOrDefault(p, "")).append(" |"));
            md.append(' ').append(Figures.si(r.score())).append(" | ").append(Figures.si(r.error())).append(" | ")
                    .append(r.unit()).append(" | ").append(varying.isEmpty() ? "" : ratio(r, rows, varying.get(0)))
                    .append(" |\n");
        }
        return md.append('\n').toString();
    }

    /** The parameters whose value differs between rows: the others say nothing. */
    private static List<String> varyingParams(List<Row> rows) {
        Map<String, String> first = new LinkedHashMap<>();
        List<String> varying = new ArrayList<>();
        for (Row r : rows) {
            r.params().forEach((k, v) -> {
                String seen = first.putIfAbsent(k, v);
                if (seen != null && !seen.equals(v) && !varying.contains(k)) {
                    varying.add(k);
                }
            });
        }
        return varying;
    }

    /** The score over that of the same benchmark's first row with the same other parameters. */
    private static String ratio(Row r, List<Row> rows, String compared) {
        for (Row base : rows) {
            if (base.benchmark().equals(r.benchmark()) && base.others(compared).equals(r.others(compared))) {
                return base.score() > 0 ? Figures.fmt(r.score() / base.score(), 2) + "x" : "";
            }
        }
        return "";
    }
}
