/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.HashMap;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The page of an {@link AsyncLoggerRun} series: per variant, each kind's wall time, CPU time and
 * context switches, and its ratios to ABQ. Writes the runs as JSON beside the page (same
 * basename, {@code .json}), so that a later page can read them; {@link #main} renders a page
 * again from such a JSON file.
 *
 * <p>Medians over rounds, with the minimum and maximum; a ratio is the median over rounds of the
 * kind's figure over ABQ's figure in the same round and variant.
 */
public final class AsyncLoggerPage {

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().create();

    /** The yardstick of the ratios. */
    static final String YARDSTICK = "abq";

    private AsyncLoggerPage() {
    }

    /**
     * A series as the JSON keeps it.
     *
     * @param machine {@link dev.handoff.jmh.report.Machine#describe()}'s properties
     * @param command the command that ran the series
     */
    public record Series(String commit, Properties machine, String command, String started, String finished,
            long lines, int capacity, int rounds, List<String> kinds, List<String> variants, List<TrialResult> runs) {
    }

    /**
     * Renders a page from a series' JSON.
     *
     * @param args {@code SERIES.json PAGE.md}
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: AsyncLoggerPage SERIES.json PAGE.md");
        }
        Series series = GSON.fromJson(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8), Series.class);
        Files.writeString(Path.of(args[1]), markdown(series), StandardCharsets.UTF_8);
    }

    /** Writes the page and, beside it, the series' JSON. */
    static void write(Series series, Path page) throws IOException {
        Path parent = page.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(jsonOf(page), GSON.toJson(series), StandardCharsets.UTF_8);
        Files.writeString(page, markdown(series), StandardCharsets.UTF_8);
    }

    /** The JSON file beside a page: {@code x.md} to {@code x.json}. */
    static Path jsonOf(Path page) {
        String name = page.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return page.resolveSibling((dot < 0 ? name : name.substring(0, dot)) + ".json");
    }

    /** The whole page. */
    static String markdown(Series series) {
        StringBuilder md = new StringBuilder();
        md.append("# Log4j2 AsyncAppender: every FIFO kind against ArrayBlockingQueue\n\n");
        md.append(header(series));
        for (String variant : series.variants()) {
            md.append("\n## Variant `").append(variant).append("`\n\n").append(table(series, variant));
        }
        return md.toString();
    }

    private static String header(Series series) {
        Properties m = series.machine();
        return String.format(Locale.ROOT, """
                - Commit measured: `%s`; from %s to %s
                - Machine: %s CPUs, %s, %s; JVM: %s
                - Command: `%s`
                - Each run: %d producer threads log %,d lines in all through a Logger whose only appender is \
                Log4j's `AsyncAppender` (blocking, queue capacity %d, the queue from `Queues.create(kind, %d)`), \
                in a fresh JVM; %d rounds, each running every kind in turn (`%s`). Every line was checked to \
                arrive exactly once and in order per producer.
                - Wall: from the first log call until `AsyncAppender.stop()` has returned (its thread has \
                appended every queued line) and the target's buffer is flushed; CPU-seconds: the process's \
                CPU time over the same span, all threads (JIT and GC included); context switches: all live \
                threads', from the first log call until the last one returned, per line logged. Times are \
                medians over rounds, with min-max; a ratio is the median of per-round ratios to that \
                round's ABQ run (below 1: faster or cheaper than ABQ).
                """, series.commit(), series.started(), series.finished(), m.getProperty("cpus"), m.getProperty("cpuModel"),
                m.getProperty("os"), m.getProperty("java"), series.command(), AsyncLoggerTrial.PRODUCERS, series.lines(),
                series.capacity(), series.capacity(), series.rounds(), String.join(", ", series.kinds()));
    }

    /** One variant's table: a row per kind, in the series' order. */
    static String table(Series series, String variant) {
        StringBuilder t = new StringBuilder();
        t.append("| kind | wall s, median (min-max) | wall / ABQ | CPU-s, median (min-max) | CPU / ABQ | context switches per line |\n");
        t.append("|---|---|---|---|---|---|\n");
        for (String kind : series.kinds()) {
            List<TrialResult> runs = runsOf(series, variant, kind);
            if (runs.isEmpty()) {
                continue;
            }
            t.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s | %s | %s |\n", kind,
                    spread(runs, r -> r.wallNanos() / 1e9),
                    ratio(series, variant, kind, TrialResult::wallNanos),
                    known(runs, TrialResult::cpuNanos) ? spread(runs, r -> r.cpuNanos() / 1e9) : "n/a",
                    known(runs, TrialResult::cpuNanos) ? ratio(series, variant, kind, TrialResult::cpuNanos) : "n/a",
                    known(runs, TrialResult::contextSwitches)
                            ? String.format(Locale.ROOT, "%.4f", median(values(runs, r -> (double) r.contextSwitches() / r.lines())))
                            : "n/a"));
        }
        return t.toString();
    }

    private static List<TrialResult> runsOf(Series series, String variant, String kind) {
        return series.runs().stream().filter(r -> r.variant().equals(variant) && r.kind().equals(kind)).toList();
    }

    /** "median (min-max)" of a figure over runs, three decimals. */
    private static String spread(List<TrialResult> runs, ToDoubleFunction<TrialResult> figure) {
        List<Double> v = values(runs, figure);
        return String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", median(v), v.get(0), v.get(v.size() - 1));
    }

    /** The median over rounds of the kind's figure over ABQ's in the same round; "n/a" without ABQ. */
    private static String ratio(Series series, String variant, String kind, ToLongFunction<TrialResult> figure) {
        double r = ratioValue(series, variant, kind, figure);
        return Double.isNaN(r) ? "n/a" : String.format(Locale.ROOT, "%.2fx", r);
    }

    /** Reads a series from the JSON beside its page. */
    public static Series read(Path json) throws IOException {
        return GSON.fromJson(Files.readString(json, StandardCharsets.UTF_8), Series.class);
    }

    /**
     * The median over rounds of the kind's wall time (or, with {@code cpu}, CPU time) over ABQ's
     * in the same round; NaN without ABQ runs or figures.
     */
    public static double ratio(Series series, String variant, String kind, boolean cpu) {
        return ratioValue(series, variant, kind, cpu ? TrialResult::cpuNanos : TrialResult::wallNanos);
    }

    private static double ratioValue(Series series, String variant, String kind, ToLongFunction<TrialResult> figure) {
        Map<Integer, TrialResult> yardstick = new HashMap<>();
        runsOf(series, variant, YARDSTICK).forEach(r -> yardstick.put(r.round(), r));
        List<Double> ratios = new ArrayList<>();
        for (TrialResult r : runsOf(series, variant, kind)) {
            TrialResult abq = yardstick.get(r.round());
            if (abq != null && figure.applyAsLong(abq) > 0) {
                ratios.add((double) figure.applyAsLong(r) / figure.applyAsLong(abq));
            }
        }
        return ratios.isEmpty() ? Double.NaN : median(ratios);
    }

    private static boolean known(List<TrialResult> runs, ToLongFunction<TrialResult> figure) {
        return runs.stream().allMatch(r -> figure.applyAsLong(r) >= 0);
    }

    /** The figure of each run, sorted. */
    private static List<Double> values(List<TrialResult> runs, ToDoubleFunction<TrialResult> figure) {
        return runs.stream().mapToDouble(figure).sorted().boxed().toList();
    }

    /** The median of sorted or unsorted values: the middle one, or the mean of the middle two. */
    static double median(List<Double> values) {
        List<Double> v = values.stream().sorted().toList();
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}
