/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.handoff.jmh.Queues;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The figures of one {@link Suite} run, read from its JMH JSON result file: throughput by shape
 * and kind, round trips by kind, and the machine's own limits. Kinds come in the factory's
 * order ({@link Queues#all()}), unknown names last.
 */
final class SuiteResults {

    /**
     * One throughput benchmark's iterations: elements taken per second; the CPUs the benchmark
     * threads and the whole JVM kept busy; the JVM's context switches per element; bytes allocated
     * per element. A figure the run did not record is an empty array.
     */
    record Throughput(double[] handoffs, double[] cores, double[] processCores, double[] switches,
            double[] bytesPerHandoff) {

        /** CPU-seconds per million handoffs, the benchmark threads' (median over iterations). */
        double cpuSecondsPerMillion() {
            return perMillion(cores);
        }

        /** CPU-seconds per million handoffs, the whole JVM's (median over iterations). */
        double processCpuSecondsPerMillion() {
            return perMillion(processCores);
        }

        /** Context switches per handoff (median over iterations), NaN if not recorded. */
        double switchesPerHandoff() {
            return switches.length == 0 ? Double.NaN : Estimate.of(switches).median();
        }

        private double perMillion(double[] busy) {
            if (busy.length == 0) {
                return Double.NaN;
            }
            double[] secondsPerHandoff = perIteration(busy, handoffs);
            return secondsPerHandoff.length == 0 ? Double.NaN : Estimate.of(secondsPerHandoff).median() * 1e6;
        }

        /** a[i] / b[i] over the iterations both have; NaN where b[i] is not positive. */
        private static double[] perIteration(double[] a, double[] b) {
            double[] r = new double[Math.min(a.length, b.length)];
            for (int i = 0; i < r.length; i++) {
                r[i] = b[i] > 0 ? a[i] / b[i] : Double.NaN;
            }
            return r;
        }
    }

    /** A work setting of {@code WorkThroughput}: mean tokens between operations, and capacity. */
    record Work(int tokens, int capacity) implements Comparable<Work> {
        @Override
        public int compareTo(Work o) {
            return tokens != o.tokens ? Integer.compare(tokens, o.tokens) : Integer.compare(o.capacity, capacity);
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "work %,d tokens, capacity %,d", tokens, capacity);
        }
    }

    /**
     * One kind's round trip: average and percentiles, in ns, and the CPUs its two threads kept
     * busy meanwhile (NaN when the run did not count them).
     */
    record Latency(double avg, double avgError, Map<String, Double> percentiles, double cpus) {
        /** CPU time one round trip costs, in ns: the CPUs kept busy times the round trip. */
        double cpuPerRoundTrip() {
            return cpus * avg;
        }
    }

    /** Throughput without work between operations (HandoffThroughput), by shape ("p1c4"), then by kind. */
    final Map<String, Map<String, Throughput>> throughput = new LinkedHashMap<>();
    /** Throughput with work between operations (WorkThroughput), by setting, shape, then kind. */
    final Map<Work, Map<String, Map<String, Throughput>>> work = new TreeMap<>();
    /** Round trip by kind. */
    final Map<String, Latency> latency = new LinkedHashMap<>();
    /** MachineLimits results by benchmark method (lineRoundTrip, wakeRoundTrip), in ns. */
    final Map<String, Estimate> limits = new LinkedHashMap<>();
    String jdk = "?";
    String jmh = "?";

    private SuiteResults() {
    }

    /** Reads a JMH JSON result file. */
    static SuiteResults read(Path results) throws IOException {
        SuiteResults r = new SuiteResults();
        r.readAll(JsonParser.parseString(Files.readString(results)).getAsJsonArray());
        return r;
    }

    private void readAll(JsonArray benchmarks) {
        Map<String, Latency> avg = new LinkedHashMap<>();
        Map<String, Map<String, Double>> sampled = new LinkedHashMap<>();
        for (JsonElement element : benchmarks) {
            JsonObject b = element.getAsJsonObject();
            jdk = text(b, "vmName") + " " + text(b, "vmVersion") + " (JDK " + text(b, "jdkVersion") + ")";
            jmh = text(b, "jmhVersion");
            String name = text(b, "benchmark");
            JsonObject params = b.has("params") ? b.getAsJsonObject("params") : new JsonObject();
            String kind = text(params, "kind"); // "null" for MachineLimits, which has none
            JsonObject primary = b.getAsJsonObject("primaryMetric");
            JsonObject secondary = b.getAsJsonObject("secondaryMetrics");
            if (name.contains(".throughput.HandoffThroughput.")) {
                String scenario = name.substring(name.lastIndexOf('.') + 1);
                throughput.computeIfAbsent(scenario, s -> new LinkedHashMap<>())
                        .put(kind, throughput(primary, secondary));
            } else if (name.contains(".throughput.WorkThroughput.")) {
                String shape = name.substring(name.lastIndexOf('.') + 1);
                Work setting = new Work(Integer.parseInt(text(params, "work")), Integer.parseInt(text(params, "capacity")));
                work.computeIfAbsent(setting, w -> new LinkedHashMap<>())
                        .computeIfAbsent(shape, x -> new LinkedHashMap<>())
                        .put(kind, throughput(primary, secondary));
            } else if (name.contains(".latency.MachineLimits.")) {
                limits.put(name.substring(name.lastIndexOf('.') + 1), Estimate.of(raw(primary)));
            } else if (name.contains(".latency.RoundTrip.")) {
                String mode = text(b, "mode");
                if (mode.equals("avgt")) {
                    Estimate e = Estimate.of(raw(primary));
                    JsonObject cpu = metric(secondary, "cpuCores");
                    double cpus = cpu == null ? Double.NaN : Estimate.of(raw(cpu)).median();
                    avg.put(kind, new Latency(e.median(), e.halfIqr(), Map.of(), cpus));
                } else if (mode.equals("sample")) {
                    Map<String, Double> pct = new TreeMap<>();
                    primary.getAsJsonObject("scorePercentiles").entrySet()
                            .forEach(p -> pct.put(p.getKey(), number(p.getValue())));
                    sampled.put(kind, pct);
                }
            }
        }
        Set<String> kinds = new LinkedHashSet<>(avg.keySet());
        kinds.addAll(sampled.keySet());
        for (String kind : order(kinds)) {
            Latency a = avg.get(kind);
            latency.put(kind, new Latency(a == null ? Double.NaN : a.avg(), a == null ? Double.NaN : a.avgError(),
                    sampled.getOrDefault(kind, Map.of()), a == null ? Double.NaN : a.cpus()));
        }
    }

    private static Throughput throughput(JsonObject primary, JsonObject secondary) {
        double[] handoffs = raw(metric(secondary, "handoffs"));
        double[] cores = raw(metric(secondary, "cpuCores"));
        double[] processCores = raw(metric(secondary, "processCores"));
        double[] switches = raw(metric(secondary, "switchesPerHandoff"));
        double[] bytes = new double[0];
        JsonObject allocation = metric(secondary, "gc.alloc.rate.norm");
        if (allocation != null) {
            double[] norm = raw(allocation);
            double[] ops = raw(primary);
            bytes = new double[Math.min(norm.length, handoffs.length)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = norm[i] * ops[i] / handoffs[i]; // B per JMH op -> B per handoff
            }
        }
        return new Throughput(handoffs, cores, processCores, switches, bytes);
    }

    private static JsonObject metric(JsonObject metrics, String name) {
        return metrics != null && metrics.has(name) ? metrics.getAsJsonObject(name) : null;
    }

    /** A field as text, "null" when absent (as String.valueOf writes a missing value). */
    private static String text(JsonObject o, String field) {
        JsonElement e = o.get(field);
        return e == null || e.isJsonNull() ? "null" : e.isJsonPrimitive() ? e.getAsString() : e.toString();
    }

    /** A number that JMH may have written as a number or as the string "NaN". */
    private static double number(JsonElement e) {
        return Double.parseDouble(e.getAsString());
    }

    /** Every measured iteration of every fork. */
    private static double[] raw(JsonObject metric) {
        if (metric == null) {
            return new double[0];
        }
        List<Double> all = new ArrayList<>();
        for (JsonElement fork : metric.getAsJsonArray("rawData")) {
            fork.getAsJsonArray().forEach(x -> all.add(number(x)));
        }
        return all.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The kinds in the factory's order, unknown names last. */
    static List<String> order(Collection<String> kinds) {
        List<String> ordered = new ArrayList<>();
        for (String k : Queues.all()) {
            if (kinds.contains(k)) {
                ordered.add(k);
            }
        }
        for (String k : kinds) {
            if (!ordered.contains(k)) {
                ordered.add(k);
            }
        }
        return ordered;
    }

    /** Every kind with a throughput figure without work, in order. */
    List<String> kinds() {
        Set<String> all = new LinkedHashSet<>();
        throughput.values().forEach(m -> all.addAll(m.keySet()));
        return order(all);
    }

    /** Every kind with a figure in the work setting, in order. */
    List<String> kinds(Work setting) {
        Set<String> all = new LinkedHashSet<>();
        work.getOrDefault(setting, Map.of()).values().forEach(m -> all.addAll(m.keySet()));
        return order(all);
    }

    /** The throughput of kind in the work setting and shape, or null if it did not run. */
    Throughput tp(Work setting, String shape, String kind) {
        return work.getOrDefault(setting, Map.of()).getOrDefault(shape, Map.of()).get(kind);
    }

    /** The throughput of kind in scenario, or null if it did not run. */
    Throughput tp(String scenario, String kind) {
        return throughput.getOrDefault(scenario, Map.of()).get(kind);
    }

    /** The kind's throughput over ABQ's in scenario, or null if either did not run. */
    Estimate ratio(String scenario, String kind) {
        return ratio(scenario, kind, "abq");
    }

    /** The kind's throughput over the yardstick's in scenario, or null if either did not run. */
    Estimate ratio(String scenario, String kind, String yardstick) {
        Throughput t = tp(scenario, kind);
        Throughput base = tp(scenario, yardstick);
        if (t == null || base == null) {
            return null;
        }
        return Estimate.of(t.handoffs()).over(Estimate.of(base.handoffs()));
    }
}
