/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What an option costs in the shapes with work between operations: from a {@code WorkThroughput}
 * results file holding each kind plain and with the option ({@code KIND} and
 * {@code KIND+OPTION}, one JMH run, so that each ratio is within one run), a table of elements
 * per second and CPU-seconds per million elements (the benchmark threads'), each with the
 * option's ratio to the plain kind. Figures are medians over every measured iteration of every
 * fork, as the suite's ({@link SuiteResults}); a ratio's error is both sides' half-IQRs in
 * quadrature.
 *
 * <p>Run: {@code java -cp jmh/target/benchmarks.jar dev.handoff.jmh.report.OptionCostPage
 * RESULTS.json PAGE.md ID OPTION}: writes the table between PAGE's
 * {@code <!-- BEGIN OPTION-COST ID -->} and {@code <!-- END OPTION-COST ID -->}.
 */
public final class OptionCostPage {

    private OptionCostPage() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: OptionCostPage RESULTS.json PAGE.md ID OPTION");
            System.exit(2);
        }
        Path page = Path.of(args[1]);
        String begin = "<!-- BEGIN OPTION-COST " + args[2] + " by dev.handoff.jmh.report.OptionCostPage: do not edit by hand -->";
        String end = "<!-- END OPTION-COST " + args[2] + " -->";
        String text = Files.readString(page);
        int b = text.indexOf(begin);
        int e = text.indexOf(end, Math.max(b, 0));
        if (b < 0 || e < b) {
            throw new IllegalStateException(page + " has no " + begin + " ... " + end + " block");
        }
        String table = markdown(SuiteResults.read(Path.of(args[0])), args[3], Path.of(args[0]).getFileName().toString());
        Files.writeString(page, text.substring(0, b + begin.length()) + "\n" + table + text.substring(e));
        System.out.println("wrote the " + args[2] + " table of " + page);
    }

    static String markdown(SuiteResults results, String option, String resultsName) {
        StringBuilder md = new StringBuilder("\nResults: `docs/data/").append(resultsName).append("`.\n\n")
                .append("| work, capacity | shape | kind | elements/s | with `").append(option)
                .append("` | ratio | CPU s/M | with `").append(option).append("` | CPU ratio |\n")
                .append("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<SuiteResults.Work, Map<String, Map<String, SuiteResults.Throughput>>> setting
                : results.work.entrySet()) {
            for (Map.Entry<String, Map<String, SuiteResults.Throughput>> shape : setting.getValue().entrySet()) {
                for (String kind : List.copyOf(shape.getValue().keySet())) {
                    SuiteResults.Throughput plain = shape.getValue().get(kind);
                    SuiteResults.Throughput with = shape.getValue().get(kind + "+" + option);
                    if (kind.endsWith("+" + option) || with == null) {
                        continue;
                    }
                    md.append("| ").append(String.format(java.util.Locale.ROOT, "%,d, %,d", setting.getKey().tokens(),
                                    setting.getKey().capacity()))
                            .append(" | ").append(shape.getKey()).append(" | `").append(kind).append("` | ")
                            .append(Figures.si(Estimate.of(plain.handoffs()).median())).append(" | ")
                            .append(Figures.si(Estimate.of(with.handoffs()).median())).append(" | ")
                            .append(Figures.times(Estimate.of(with.handoffs()).over(Estimate.of(plain.handoffs()))))
                            .append(" | ").append(Figures.fmt(plain.cpuSecondsPerMillion(), 2)).append(" | ")
                            .append(Figures.fmt(with.cpuSecondsPerMillion(), 2)).append(" | ")
                            .append(Figures.fmt(with.cpuSecondsPerMillion() / plain.cpuSecondsPerMillion(), 2))
                            .append("x |\n");
                }
            }
        }
        return md.append('\n').toString();
    }
}
