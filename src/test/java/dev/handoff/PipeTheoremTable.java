/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.PipeHandoff.Scan;
import dev.handoff.PipeTheoremProperties.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints the table of docs/pipe-handoff.md (Theorem 3 in the steady state, measured against the
 * exact value and the bound) and writes the plot beside it. Run from the repository root, as
 * docs/pipe-handoff.md says:
 * <pre>
 * mvn -B -q -pl src test-compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java \
 *     -cp src/target/test-classes:src/target/classes:$(cat src/target/test.classpath) \
 *     dev.handoff.PipeTheoremTable docs/pipe-theorem3.svg
 * </pre>
 */
public final class PipeTheoremTable {

    static final int SCANS = 10_000;
    static final int[] WORKERS = {10, 50, 101, 150};
    static final double[] LOADS = {0.1, 0.25, 0.5, 0.75, 0.9};

    private PipeTheoremTable() {
    }

    public static void main(String[] args) throws Exception {
        List<Run> doubleHashing = new ArrayList<>();
        List<Run> slotZero = new ArrayList<>();
        System.out.println("| W | n waiting | a = n/W | bound W/n | exact (W+1)/(n+1) "
                + "| double hashing: mean scan probes ± se (ratio to exact) | scan from slot 0: mean (ratio to exact) |");
        System.out.println("|---|---|---|---|---|---|---|");
        long seed = 1;
        for (int w : WORKERS) {
            for (double load : LOADS) {
                int n = PipeTheoremProperties.waiting(w, (int) Math.round(100 * load));
                Run dh = PipeTheoremProperties.steadyState(Scan.DOUBLE_HASHING, w, n, seed, 10 * w, SCANS);
                Run zero = PipeTheoremProperties.steadyState(Scan.FROM_SLOT_ZERO, w, n, seed, 10 * w, SCANS);
                seed++;
                doubleHashing.add(dh);
                slotZero.add(zero);
                System.out.printf(Locale.ROOT, "| %d | %d | %.3f | %.3f | %.3f | %.3f ± %.3f (%.3f) | %.3f (%.2f) |%n",
                        w, n, (double) n / w, (double) w / n, dh.exact(),
                        dh.scan().mean(), dh.scan().se(), dh.scan().mean() / dh.exact(),
                        zero.scan().mean(), zero.scan().mean() / zero.exact());
            }
        }
        int toSpinner = doubleHashing.stream().mapToInt(Run::handedToSpinner).sum();
        System.out.println();
        System.out.println("Offers handed to a spinning worker without a scan (left out): " + toSpinner);
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), svg(doubleHashing, slotZero));
            System.out.println("wrote " + args[0]);
        }
    }

    /** A log-log scatter plot: measured mean scan probes against the exact value, one point per run. */
    static String svg(List<Run> doubleHashing, List<Run> slotZero) throws IOException {
        int size = 420;
        int margin = 50;
        double max = 100;
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                size + margin + 170, size + margin + 20));
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        for (double tick : new double[] {1, 2, 5, 10, 20, 50, 100}) {
            double p = scale(tick, max, size);
            out.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    margin + p, 10, margin + p, 10 + size, margin + p, size + 25, fmt(tick)));
            out.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    margin, 10 + size - p, margin + size, 10 + size - p, margin - 5, 14 + size - p, fmt(tick)));
        }
        out.append(String.format(Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\" stroke-dasharray=\"4 3\"/>%n",
                margin, 10 + size, margin + size, 10));
        out.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">exact mean under uniform hashing, (W+1)/(n+1)</text>%n",
                margin + size / 2, size + 45));
        out.append(String.format(Locale.ROOT,
                "<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">measured mean scan probes</text>%n",
                10 + size / 2));
        points(out, doubleHashing, "#1f77b4", "circle", max, size, margin);
        points(out, slotZero, "#d62728", "square", max, size, margin);
        int lx = margin + size + 15;
        out.append(String.format(Locale.ROOT,
                "<circle cx=\"%d\" cy=\"30\" r=\"4\" fill=\"#1f77b4\"/><text x=\"%d\" y=\"34\">double hashing</text>%n"
                        + "<rect x=\"%d\" y=\"46\" width=\"8\" height=\"8\" fill=\"#d62728\"/><text x=\"%d\" y=\"54\">scan from slot 0</text>%n"
                        + "<line x1=\"%d\" y1=\"70\" x2=\"%d\" y2=\"70\" stroke=\"black\" stroke-dasharray=\"4 3\"/>"
                        + "<text x=\"%d\" y=\"74\">measured = exact</text>%n",
                lx + 4, lx + 14, lx, lx + 14, lx - 4, lx + 10, lx + 14));
        out.append("</svg>\n");
        return out.toString();
    }

    private static void points(StringBuilder out, List<Run> runs, String colour, String shape, double max, int size, int margin) {
        for (Run r : runs) {
            double x = margin + scale(r.exact(), max, size);
            double y = 10 + size - scale(r.scan().mean(), max, size);
            if (shape.equals("circle")) {
                out.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>%n", x, y, colour));
            } else {
                out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"/>%n",
                        x - 4, y - 4, colour));
            }
        }
    }

    private static double scale(double value, double max, int size) {
        return Math.log(Math.max(1, Math.min(max, value))) / Math.log(max) * size;
    }

    private static String fmt(double tick) {
        return tick == Math.rint(tick) ? Long.toString((long) tick) : Double.toString(tick);
    }
}
