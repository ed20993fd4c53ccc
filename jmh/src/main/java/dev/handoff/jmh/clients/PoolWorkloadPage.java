/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.reflect.TypeToken;
import dev.handoff.jmh.clients.WorkloadRun.Result;
import dev.handoff.jmh.clients.WorkloadRun.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Renders {@link PoolWorkload}'s JSON as a Markdown page: the machine and command, then one table
 * per (shape, task mean, submitter variant), a row per pool in the order they were run in the
 * first round. Figures are medians over rounds; ratios are medians of each round's ratio to the
 * {@code tpe+abq} run of the same round.
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar dev.handoff.jmh.clients.PoolWorkloadPage RUNS.json PAGE.md
 * </pre>
 */
public final class PoolWorkloadPage {

    private PoolWorkloadPage() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: PoolWorkloadPage RUNS.json PAGE.md");
        }
        write(Path.of(args[0]), Path.of(args[1]));
    }

    /** Reads the runs' JSON and writes the page. */
    static void write(Path json, Path page) throws IOException {
        JsonObject doc = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        List<Result> runs = new Gson().fromJson(doc.get("runs"), new TypeToken<List<Result>>() { }.getType());
        Files.writeString(page, render(doc.getAsJsonObject("meta"), runs, json.getFileName().toString()));
    }

    /** The table's key: one table per shape, task mean and submitter variant. */
    private record Table(Shape shape, long meanTokens, boolean virtual) {
    }

    static String render(JsonObject meta, List<Result> runs, String jsonName) {
        StringBuilder md = new StringBuilder();
        md.append("# Pool workload: does the queue matter for short tasks?\n\n");
        md.append("Written by `dev.handoff.jmh.clients.PoolWorkload`; the runs are in [")
                .append(jsonName).append("](").append(jsonName).append(").\n\n");
        md.append("- commit: ").append(str(meta, "commit")).append(", ").append(str(meta, "date")).append('\n');
        md.append("- machine: ").append(str(meta, "cpus")).append(" CPUs, ").append(str(meta, "cpuModel"))
                .append(", ").append(str(meta, "os")).append(", ").append(str(meta, "java")).append('\n');
        md.append("- command: `").append(str(meta, "command")).append("` (").append(str(meta, "seconds")).append(" s)\n");
        double tokensPerMicro = meta.get("tokensPerMicro").getAsDouble();
        double nsPerToken = meta.get("nsPerToken").getAsDouble();
        md.append(String.format(Locale.ROOT, "- tasks: geometric `Blackhole.consumeCPU` tokens, %.0f tokens per us"
                + " of mean; one thread here spends %.2f ns per token%n", tokensPerMicro, nsPerToken));
        md.append(String.format(Locale.ROOT, "- steady: %s workers (core = max), %s submitters `%s`, at most %s tasks"
                        + " in flight; growth: core %s, max %s, bursts of %s tasks every %s us%n",
                str(meta, "workers"), str(meta, "submitters"), meta.get("useSubmit").getAsBoolean() ? "submit" : "execute",
                str(meta, "inFlight"), str(meta, "growthCore"), str(meta, "growthMax"), str(meta, "burst"),
                str(meta, "burstEveryMicros")));
        md.append(String.format(Locale.ROOT, "- each run a fresh JVM: %s ms warm-up, %s ms window; %s rounds; figures"
                + " are medians over rounds, ratios medians of each round's ratio to `%s`%n%n",
                str(meta, "warmupMillis"), str(meta, "windowMillis"), str(meta, "rounds"), WorkloadPools.YARDSTICK));
        md.append("Queue wait: task start minus submit time. CPU: the process's CPU time in the window over the tasks"
                + " that ended in it (submitters, workers, JIT and GC together). Context switches: all the process's"
                + " threads. Threads: the pool's largest size; EnhancedQueueExecutor keeps none without its statistics, so"
                + " for it the most threads seen, read every millisecond. In the steady shape the in-flight limit is"
                + " reached, so the queue holds nearly that many tasks and the wait is about the limit over tasks/s;"
                + " only the pipe, which holds none, keeps the tasks in its submitters. In the growth shape the load is"
                + " fixed (bursts per period), so tasks/s says only whether the pool kept up; the queue wait and the"
                + " threads tell the pools apart. A run in which no task ended in the window counts in no median.\n");

        Map<Table, List<Result>> tables = new LinkedHashMap<>();
        for (Result r : runs) {
            var s = r.settings();
            tables.computeIfAbsent(new Table(s.shape(), s.meanTokens(), s.virtualSubmitters()), k -> new ArrayList<>()).add(r);
        }
        List<Table> order = new ArrayList<>(tables.keySet());
        order.sort(Comparator.comparing(Table::shape).thenComparingLong(Table::meanTokens).thenComparing(Table::virtual));
        for (Table t : order) {
            md.append(String.format(Locale.ROOT, "%n## %s, tasks of %s us, %s submitters%n%n",
                    t.shape() == Shape.STEADY ? "Steady" : "Growth",
                    fmt(t.meanTokens() / tokensPerMicro), t.virtual() ? "virtual" : "platform"));
            md.append("| pool | tasks/s | ratio to TPE+ABQ | queue wait p50 (us) | p99 (us) | CPU us per task | CPU ratio"
                    + " | ctx switches per task | threads |\n");
            md.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
            List<Result> rows = tables.get(t);
            List<String> pools = rows.stream().map(r -> r.settings().pool()).distinct().toList();
            for (String pool : pools) {
                List<Result> mine = rows.stream().filter(r -> r.settings().pool().equals(pool)).toList();
                md.append("| ").append(pool)
                        .append(" | ").append(fmt(median(mine, Result::tasksPerSecond)))
                        .append(" | ").append(ratio(rows, mine, Result::tasksPerSecond))
                        .append(" | ").append(fmt(median(mine, r -> r.waitP50Nanos() / 1e3)))
                        .append(" | ").append(fmt(median(mine, r -> r.waitP99Nanos() / 1e3)))
                        .append(" | ").append(fmt(median(mine, PoolWorkloadPage::cpuMicrosPerTask)))
                        .append(" | ").append(ratio(rows, mine, PoolWorkloadPage::cpuMicrosPerTask))
                        .append(" | ").append(mine.stream().anyMatch(r -> r.ctxSwitches() < 0) ? "n/a"
                                : fmt(median(mine, r -> r.tasks() == 0 ? Double.NaN : (double) r.ctxSwitches() / r.tasks())))
                        .append(" | ").append(mine.stream().mapToInt(Result::threadsStarted).max().orElse(0))
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    private static double cpuMicrosPerTask(Result r) {
        return r.tasks() == 0 ? Double.NaN : r.cpuNanos() / 1e3 / r.tasks();
    }

    /** A results file, read once: its runs and its {@code meta}. */
    public record Runs(List<Result> runs, JsonObject meta) {

        /** Reads the JSON that {@link PoolWorkload} wrote. */
        public static Runs read(Path json) throws IOException {
            JsonObject doc = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
            List<Result> runs = new Gson().fromJson(doc.get("runs"), new TypeToken<List<Result>>() { }.getType());
            return new Runs(runs, doc.getAsJsonObject("meta"));
        }

        /** The commit the runs were measured on, {@code ?} if not recorded. */
        public String commit() {
            return meta != null && meta.has("commit") ? meta.get("commit").getAsString() : "?";
        }

        /**
         * The steady shape's median ratio to {@code tpe+abq} of one pool, for tasks of the mean
         * given (in microseconds, as {@code --means-us}), with platform or virtual submitters: its
         * tasks per second, or with {@code cpu} its CPU per task; NaN if the runs do not have it.
         */
        public double steadyRatio(String pool, double meanMicros, boolean virtual, boolean cpu) {
            long tokens = Math.max(1, Math.round(meanMicros * meta.get("tokensPerMicro").getAsDouble()));
            List<Result> table = runs.stream().filter(r -> r.settings().shape() == Shape.STEADY
                    && r.settings().meanTokens() == tokens && r.settings().virtualSubmitters() == virtual).toList();
            List<Result> mine = table.stream().filter(r -> r.settings().pool().equals(pool)).toList();
            return ratioValue(table, mine, cpu ? PoolWorkloadPage::cpuMicrosPerTask : Result::tasksPerSecond);
        }
    }

    /** The median over rounds of the pool's figure over the yardstick's in the same round. */
    private static String ratio(List<Result> table, List<Result> mine, ToDoubleFunction<Result> figure) {
        double m = ratioValue(table, mine, figure);
        return Double.isNaN(m) || Double.isInfinite(m) ? "n/a" : String.format(Locale.ROOT, "%.2f", m);
    }

    private static double ratioValue(List<Result> table, List<Result> mine, ToDoubleFunction<Result> figure) {
        List<Double> ratios = new ArrayList<>();
        for (Result r : mine) {
            table.stream()
                    .filter(y -> y.settings().pool().equals(WorkloadPools.YARDSTICK) && y.settings().seed() == r.settings().seed())
                    .findFirst()
                    .ifPresent(y -> ratios.add(figure.applyAsDouble(r) / figure.applyAsDouble(y)));
        }
        return median(ratios);
    }

    private static double median(List<Result> runs, ToDoubleFunction<Result> figure) {
        return median(runs.stream().map(figure::applyAsDouble).toList());
    }

    /** The median of the finite values (a run in which no task ended gives NaN), or NaN if none. */
    static double median(List<Double> values) {
        List<Double> sorted = values.stream().filter(Double::isFinite).sorted().toList();
        int n = sorted.size();
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Three significant figures, thousands grouped: 1,234,000; 12.3; 0.456. */
    static String fmt(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,d", Math.round(v));
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String str(JsonObject meta, String key) {
        return meta.has(key) ? meta.get(key).getAsString() : "?";
    }
}
