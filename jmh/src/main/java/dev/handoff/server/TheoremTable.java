/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import dev.handoff.server.ServerExperiment.Run;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Roussev and Wu (2006)'s theorems beside what the parallel hash table's counters saw, for each run of a
 * {@code pht} design with {@code stats}: printed, and as {@code pht.csv}. A run counts as a table
 * run when it is one of the table's medians, else as a sweep run.
 */
final class TheoremTable {

    private TheoremTable() {
    }

    /** Theorems 1-3 of Roussev and Wu (2006) evaluated for one run with counters. */
    record Theorems(Run run, double tr, double taMillis, int m, double n, double pConflict, long takes,
                    long searchConflicts, long insertConflicts, double meanInsertProbes, double meanSearchProbes,
                    double meanLoad, double insertBound, double searchBound) {

        static Theorems of(Run r) {
            Map<String, String> s = r.outcome().server();
            int k = r.entry().workers();
            double tr = r.workload().delayMillis();
            double ta = Double.parseDouble(s.getOrDefault("takeMedianNanos", "NaN")) / 1e6;
            int m = Integer.parseInt(s.getOrDefault("capacity", "0"));
            double n = k * ta / tr; // Roussev and Wu (2006) Theorem 3: n = k / (t_r / t_a)
            long takes = Long.parseLong(s.get("takes"));
            long puts = Long.parseLong(s.get("puts"));
            double load = Double.parseDouble(s.getOrDefault("meanSizeAtPut", "NaN")) / m;
            return new Theorems(r, tr, ta, m, n, conflictProbability(m, n), takes,
                    Long.parseLong(s.get("searchConflicts")), Long.parseLong(s.get("insertConflicts")),
                    puts == 0 ? Double.NaN : Double.parseDouble(s.get("insertProbes")) / puts,
                    takes == 0 ? Double.NaN : Double.parseDouble(s.get("searchProbes")) / takes, load,
                    Double.parseDouble(s.getOrDefault("insertProbeBound", "NaN")),
                    Double.parseDouble(s.getOrDefault("searchProbeBound", "NaN")));
        }
    }

    /**
     * Roussev and Wu (2006) Theorem 3: P(x >= 1) for x ~ Binomial(n, 1/m), which is 1 - (1 - 1/m)^n; written
     * in closed form so that it holds for the fractional n the theorem's n = k t_a / t_r gives.
     *
     * @param m slots
     * @param n threads accessing the table during one retrieval
     * @return the probability that a retrieval meets another thread on its slot
     */
    static double conflictProbability(int m, double n) {
        return 1 - Math.pow(1 - 1.0 / m, n);
    }

    /** Prints one line per run with counters, then the paper's own case. */
    static void print(PrintStream ps, List<Run> runs, List<Run> tableMedians) {
        ps.println("Parallel hash table: counted by stats() beside Roussev and Wu (2006)'s theorems. t_a = median time of a take() begun with an element inside;"
                + " a = mean size/capacity at put; probe bounds = Theorem 1 (1/(1-a)) and 2 (1/a) averaged over the"
                + " load each put and take saw");
        ps.printf(Locale.ROOT, "%-8s %-28s %7s %6s %9s %5s %10s %11s %11s %7s %9s %9s %6s %12s %12s%n",
                "phase", "slots", "workers", "t_r ms", "t_a us", "m", "n", "P(Thm3)", "expected", "takes", "searchCfl",
                "insertCfl", "a", "ins probes", "search prb");
        for (Run r : runs) {
            Theorems t = Theorems.of(r);
            ps.printf(Locale.ROOT, "%-8s %-28s %7d %6.0f %9.1f %5d %10.2e %11.2e %11.3f %7d %9d %9d %6.2f %5.2f<=%-5.2f %5.2f<=%-5.2f%n",
                    tableMedians.contains(r) ? "table" : "sweep", r.entry().design().replace("handoff:", ""),
                    r.entry().workers(), t.tr(), t.taMillis() * 1000,
                    t.m(), t.n(), t.pConflict(), t.pConflict() * t.takes(), t.takes(), t.searchConflicts(),
                    t.insertConflicts(), t.meanLoad(), t.meanInsertProbes(), t.insertBound(), t.meanSearchProbes(),
                    t.searchBound());
        }
        ps.printf(Locale.ROOT, "Roussev and Wu (2006)'s own case (k=50, t_a=2 ms, t_r=500 ms, m=101): n=0.2, P(Thm3)=%.3e"
                + " (the paper prints 0.0019703951)%n", conflictProbability(101, 0.2));
    }

    /** The same lines as CSV (pht.csv). */
    static String csv(List<Run> runs, List<Run> tableMedians) {
        StringBuilder sb = new StringBuilder("phase,design,workers,t_r_ms,t_a_us,m,n,p_conflict_thm3,expected_conflicts,takes,"
                + "search_conflicts,insert_conflicts,mean_load,mean_insert_probes,thm1_bound,mean_search_probes,thm2_bound\n");
        for (Run r : runs) {
            Theorems t = Theorems.of(r);
            sb.append(String.format(Locale.ROOT, "%s,\"%s\",%d,%.0f,%.3f,%d,%.4e,%.4e,%.4f,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f%n",
                    tableMedians.contains(r) ? "table" : "sweep", r.entry().design(), r.entry().workers(), t.tr(), t.taMillis() * 1000, t.m(),
                    t.n(), t.pConflict(), t.pConflict() * t.takes(), t.takes(), t.searchConflicts(), t.insertConflicts(),
                    t.meanLoad(), t.meanInsertProbes(), t.insertBound(), t.meanSearchProbes(), t.searchBound()));
        }
        return sb.toString();
    }
}
