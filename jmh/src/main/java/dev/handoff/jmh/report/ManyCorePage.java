/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import static dev.handoff.jmh.report.Figures.fmt;
import static dev.handoff.jmh.report.Figures.scenarioName;

import dev.handoff.jmh.report.SuiteResults.Throughput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * Renders a many-core throughput run (JMH JSON of {@code HandoffThroughput} and
 * {@code WorkThroughput}, from
 * {@code jmh/many-core.sh} on a machine with many cores) into the "Many cores" section of
 * {@code docs/benchmarks.md}, between its own markers, so the 2-CPU suite's page around it is
 * untouched. The machine, the commit and the command come from the results' {@code .properties}
 * file beside it, written by hand from the run's log (the machine it ran on has no git).
 *
 * <p>Figures are medians of every measured iteration of every fork, as in {@link SuitePage}; a
 * shape with no results gets no column (the properties' {@code missing} says why). Round
 * trips ({@code RoundTrip}, average mode) and the machine's limits ({@code MachineLimits}) are
 * rendered below the throughput when the JSON holds them.
 *
 * <p>Given a page ({@code PAGE.md}) instead of the docs directory, it writes that page whole:
 * for a second, shorter run beside the one in benchmarks.md (a check of one change).
 *
 * <pre>java -cp jmh/target/benchmarks.jar dev.handoff.jmh.report.ManyCorePage RESULTS.json DOCS_DIR|PAGE.md</pre>
 */
public final class ManyCorePage {

    static final String BEGIN = "<!-- BEGIN MANY-CORE by dev.handoff.jmh.report.ManyCorePage: do not edit by hand -->";
    static final String END = "<!-- END MANY-CORE -->";

    private ManyCorePage() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: ManyCorePage RESULTS.json DOCS_DIR|PAGE.md");
            System.exit(2);
        }
        Path results = Path.of(args[0]);
        Properties meta = Machine.readMeta(results);
        String table = markdown(SuiteResults.read(results), meta, results.getFileName().toString());
        if (args[1].endsWith(".md")) {
            Path page = Path.of(args[1]);
            Files.writeString(page, "# Many cores: " + meta.getProperty("commit", "?") + "\n\n"
                    + "Written by `ManyCorePage " + results.getFileName() + " " + page.getFileName()
                    + "` (docs/regenerate.md); the full run is in [benchmarks.md](../benchmarks.md#many-cores).\n"
                    + table);
            System.out.println("wrote " + page);
            return;
        }
        Path md = Path.of(args[1]).resolve("benchmarks.md");
        String text = Files.readString(md);
        int b = text.indexOf(BEGIN);
        int e = text.indexOf(END);
        if (b < 0 || e < b) {
            throw new IllegalStateException(md + " has no " + BEGIN + " ... " + END + " block");
        }
        Files.writeString(md, text.substring(0, b + BEGIN.length()) + "\n" + table + text.substring(e));
        System.out.println("wrote the many-core tables of " + md);
    }

    static String markdown(SuiteResults r, Properties meta, String resultsName) {
        StringBuilder md = new StringBuilder();
        md.append("\n- Commit measured: `").append(meta.getProperty("commit", "not recorded")).append("`, on ")
                .append(meta.getProperty("date", "?")).append("; ").append(meta.getProperty("cpus", "?"))
                .append(" CPUs, ").append(meta.getProperty("cpuModel", "?")).append('\n');
        md.append("- JVM: ").append(r.jdk).append("; JMH ").append(r.jmh).append('\n');
        md.append("- Command (per shape): `").append(meta.getProperty("command", "?")).append("`\n");
        md.append("- Results: `docs/data/").append(resultsName).append("`\n");
        if (meta.getProperty("missing") != null) {
            md.append("- Not measured: ").append(meta.getProperty("missing")).append('\n');
        }
        int cpus = cpus(meta);
        if (!r.work.isEmpty()) {
            md.append("\nWith work between operations:\n\n");
            SuitePage.workTables(md, r, cpus);
            md.append("\nNo work between operations:\n");
        }
        List<String> shapes = Suite.SHAPES.stream().filter(s -> r.throughput.containsKey(s)).toList();
        if (!shapes.isEmpty()) {
            md.append("\nElements taken per second (M/s, median), in brackets the ratio to ABQ in the same run; after"
                    + " the semicolon the CPUs the benchmark's threads kept busy and the CPU-seconds they spent per"
                    + " million handoffs:\n\n");
            table(md, r, shapes);
            twins(md, r, shapes);
        }
        roundTrips(md, r);
        machineLimits(md, r);
        return md.toString();
    }

    /** The kinds with a twin other than ABQ against that twin: the ratio of the medians. */
    private static void twins(StringBuilder md, SuiteResults r, List<String> shapes) {
        StringBuilder rows = new StringBuilder();
        for (String[] pair : SuitePage.TWINS) {
            if (r.kinds().contains(pair[0]) && r.kinds().contains(pair[1])) {
                rows.append("| ").append(pair[0]).append(" / ").append(pair[1]).append(" |");
                for (String s : shapes) {
                    Estimate ratio = r.ratio(s, pair[0], pair[1]);
                    rows.append(' ').append(ratio == null ? "-" : fmt(ratio.median(), 2) + "x").append(" |");
                }
                rows.append('\n');
            }
        }
        if (rows.length() > 0) {
            md.append("\nAgainst the twin they replace, in the same run:\n\n");
            header(md, shapes);
            md.append(rows);
        }
    }

    /** The round trips, when the run measured them (many-core.sh with ROUND_TRIP_KINDS). */
    private static void roundTrips(StringBuilder md, SuiteResults r) {
        if (r.latency.isEmpty()) {
            return;
        }
        md.append("\nRound trip (`RoundTrip`: one element into a queue, an echo thread takes it and puts it into"
                + " a second, taken back), the median of the iterations' averages:\n\n");
        SuitePage.roundTripTable(md, r.latency);
    }

    /** The machine's own cache-line and wake-up round trips, when the run measured them. */
    private static void machineLimits(StringBuilder md, SuiteResults r) {
        if (r.limits.isEmpty()) {
            return;
        }
        md.append("\nWhat this machine allows (`MachineLimits`: two threads, no queue):\n\n");
        SuitePage.machineLimitsTable(md, r);
    }

    /**
     * One table, a row per kind and a column per measured shape: each cell the kind's rate, its
     * ratio to ABQ's in brackets (but in ABQ's own row), and the CPUs its threads kept busy.
     */
    private static void table(StringBuilder md, SuiteResults r, List<String> shapes) {
        header(md, shapes);
        for (String kind : r.kinds()) {
            md.append("| ").append(kind).append(" |");
            for (String s : shapes) {
                Throughput t = r.tp(s, kind);
                Throughput abq = r.tp(s, "abq");
                if (t == null) {
                    md.append(" - |");
                    continue;
                }
                double rate = Estimate.of(t.handoffs()).median();
                md.append(' ').append(fmt(rate / 1e6, 2));
                if (abq != null && !kind.equals("abq")) {
                    md.append(" (").append(fmt(rate / Estimate.of(abq.handoffs()).median(), 2)).append("x)");
                }
                md.append("; ").append(fmt(Estimate.of(t.cores()).median(), 1)).append("; ")
                        .append(fmt(t.cpuSecondsPerMillion(), 2)).append(" s/M |");
            }
            md.append('\n');
        }
    }

    /** The machine's CPUs from the properties' {@code cpus}, 0 if absent. */
    private static int cpus(Properties meta) {
        try {
            return Integer.parseInt(meta.getProperty("cpus", "0").trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void header(StringBuilder md, List<String> shapes) {
        md.append("| kind |");
        for (String s : shapes) {
            md.append(' ').append(scenarioName(s)).append(" |");
        }
        md.append("\n|---|").append("---|".repeat(shapes.size())).append('\n');
    }
}
