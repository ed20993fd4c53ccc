/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import java.util.Locale;
import java.util.Map;

/** How the generated pages write numbers and shape names; NaN is always written "-". */
final class Figures {

    private static final Map<String, String> SCENARIO_NAMES = Map.of(
            "p1c1", "1P/1C", "p1c4", "1P/4C", "p4c4", "4P/4C", "p8c8", "8P/8C", "p1c50", "1P/50C",
            "p4c1", "4P/1C", "p4c1slow", "4P/1C slow");

    private Figures() {
    }

    /** "1P/4C" for "p1c4". */
    static String scenarioName(String scenario) {
        return SCENARIO_NAMES.get(scenario);
    }

    /** The threads of a shape: 16 for "p8c8", 5 for "p4c1slow". */
    static int threadsOf(String scenario) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("p(\\d+)c(\\d+).*").matcher(scenario);
        return m.matches() ? Integer.parseInt(m.group(1)) + Integer.parseInt(m.group(2)) : 0;
    }

    /**
     * A throughput figure's cost: "0.81 (0.90) s/M, 0.02 cs": CPU-seconds per million handoffs of
     * the benchmark threads (of the whole JVM in brackets), context switches per handoff.
     */
    static String cost(double cpuPerMillion, double processPerMillion, double switches) {
        if (Double.isNaN(cpuPerMillion)) {
            return "-";
        }
        return fmt(cpuPerMillion, cpuPerMillion < 0.1 ? 3 : 2) + " (" + fmt(processPerMillion, processPerMillion < 0.1 ? 3 : 2)
                + ") s/M, " + fmt(switches, switches < 0.1 ? 3 : 2) + " cs";
    }

    static String fmt(double x, int decimals) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", x);
    }

    /** A ratio: "1.23x ± 0.04", or "-" for none. */
    static String times(Estimate r) {
        return r == null ? "-" : fmt(r.median(), 2) + "x ± " + fmt(r.halfIqr(), 2);
    }

    /** A rate with its error, in SI units. */
    static String rate(Estimate e) {
        return si(e.median()) + " ± " + si(e.halfIqr());
    }

    static String si(double x) {
        if (Double.isNaN(x)) {
            return "-";
        }
        if (x >= 1e6) {
            return fmt(x / 1e6, 2) + " M";
        }
        if (x >= 1e3) {
            return fmt(x / 1e3, 1) + " k";
        }
        return fmt(x, 0);
    }

    static String nanos(double ns) {
        if (Double.isNaN(ns)) {
            return "-";
        }
        return ns >= 1000 ? fmt(ns / 1000, 1) + " us" : fmt(ns, 0) + " ns";
    }
}
