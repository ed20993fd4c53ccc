/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.ParallelHashTable.SlotForm;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Regenerates the measured numbers and the chart of {@code docs/parallel-hash-table.md}. Not part
 * of the normal build (its name matches none of surefire's includes); run it by name from the
 * top of the repository:
 *
 * <pre>
 * mvn -B -q -pl src test -Dtest='ParallelHashTableMeasurements#measureAndDraw' -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * It writes {@code docs/parallel-hash-table-probes.png} and prints the tables (also written to
 * {@code src/target/parallel-hash-table-measurements.md}). The probe numbers are counts, so they
 * do not depend on the machine; the age and conflict numbers do, and come from a short run with
 * real threads.
 */
class ParallelHashTableMeasurements {

    private static final Path DOCS = Path.of(System.getProperty("pht.docs", "../docs"));
    private static final Path REPORT = Path.of("target", "parallel-hash-table-measurements.md");
    private final StringBuilder report = new StringBuilder();

    @Test
    void measureAndDraw() throws Exception {
        System.setProperty("java.awt.headless", "true");
        line("# Parallel hash table measurements");
        line("");
        line("JDK " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs, "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        line("");
        probeTable(101, 20_000);
        probeTable(1000, 4_000);
        steadyStateTable();
        drawProbeChart(101, 4_000);
        conflictTable();
        heldSearchTable();
        ageUnderLoad();
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, report);
    }

    /**
     * The steady-state table alone, a few seconds:
     * {@code mvn -B -q -pl src test -Dtest='ParallelHashTableMeasurements#steadyState' -Dsurefire.failIfNoSpecifiedTests=false}.
     */
    @Test
    void steadyState() throws IOException {
        steadyStateTable();
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT.resolveSibling("parallel-hash-table-steady-state.md"), report);
    }

    // ---- Theorems 1 and 2: probes against load ----

    /** Mean insert probes at fill n (fresh table, fresh random keys, one measured insert). */
    static double[] insertProbes(int m, int n, int samples, SplittableRandom random) {
        double sum = 0;
        double sumSq = 0;
        for (int s = 0; s < samples; s++) {
            ParallelHashTable<Integer> t = Handoffs.hashTable(m).withStats().build();
            for (int i = 0; i < n; i++) {
                t.offer(random.nextInt());
            }
            long before = t.stats().insertProbes();
            t.offer(random.nextInt());
            double x = t.stats().insertProbes() - before;
            sum += x;
            sumSq += x * x;
        }
        return meanAndSe(sum, sumSq, samples);
    }

    /** Mean search probes at fill n (fresh table, fresh random keys, one measured removal). */
    static double[] searchProbes(int m, int n, int samples, SplittableRandom random) {
        double sum = 0;
        double sumSq = 0;
        for (int s = 0; s < samples; s++) {
            ParallelHashTable<Integer> t = Handoffs.hashTable(m).search(ParallelHashTable.Search.PROBE).withStats()
                    .build();
            for (int i = 0; i < n; i++) {
                t.offer(random.nextInt());
            }
            long before = t.stats().searchProbes();
            t.poll();
            double x = t.stats().searchProbes() - before;
            sum += x;
            sumSq += x * x;
        }
        return meanAndSe(sum, sumSq, samples);
    }

    private static double[] meanAndSe(double sum, double sumSq, int samples) {
        double mean = sum / samples;
        double var = (sumSq - samples * mean * mean) / (samples - 1);
        return new double[] {mean, Math.sqrt(Math.max(0, var) / samples)};
    }

    private void probeTable(int m, int samples) {
        SplittableRandom random = new SplittableRandom(m);
        line("## Mean probes, m = " + m + ", " + samples + " fresh tables per row");
        line("");
        line("| load a = n/m | n | insert: measured ± se | exact (m+1)/(m-n+1) | bound 1/(1-a) "
                + "| search: measured ± se | exact (m+1)/(n+1) | bound 1/a |");
        line("|---|---|---|---|---|---|---|---|");
        for (double a : new double[] {0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 1.0}) {
            int n = (int) Math.round(a * m);
            double load = (double) n / m;
            String insert = "n/a";
            String insertExact = "n/a";
            String insertBound = "n/a";
            if (n < m) {
                double[] ins = insertProbes(m, n, samples, random);
                insert = String.format(Locale.ROOT, "%.3f ± %.3f", ins[0], ins[1]);
                insertExact = String.format(Locale.ROOT, "%.3f", (m + 1.0) / (m - n + 1.0));
                insertBound = String.format(Locale.ROOT, "%.3f", 1 / (1 - load));
            }
            double[] srch = searchProbes(m, n, samples, random);
            line(String.format(Locale.ROOT, "| %.3f | %d | %s | %s | %s | %.3f ± %.3f | %.3f | %.3f |",
                    load, n, insert, insertExact, insertBound, srch[0], srch[1], (m + 1.0) / (n + 1.0), 1 / load));
        }
        line("");
    }

    /** Steady-state rounds per row of the table. */
    static final int STEADY_ROUNDS = 200_000;

    /**
     * Theorems 1 and 2 in the steady state (fill n, then alternate one removal and one insert;
     * ParallelHashTableTheoremProperties.steadyState), for a prime m and for composite m with many
     * and with few strides coprime to them.
     */
    private void steadyStateTable() {
        line("## Steady state: fill n, then alternate one removal and one insert, " + STEADY_ROUNDS
                + " measured rounds per row after 20 m of warm-up (± se from 50 batch means)");
        line("");
        line("| m | strides coprime to m | load a = n/m | n | search at n: measured ± se | exact (m+1)/(n+1) | ratio "
                + "| insert at n-1: measured ± se | exact (m+1)/(m-n+2) | ratio |");
        line("|---|---|---|---|---|---|---|---|---|---|");
        for (int m : new int[] {101, 100, 30, 10}) {
            int strides = 0;
            for (int d = 1; d < m; d++) {
                strides += java.math.BigInteger.valueOf(d).gcd(java.math.BigInteger.valueOf(m)).intValue() == 1 ? 1 : 0;
            }
            for (double a : new double[] {0.1, 0.25, 0.5, 0.75, 0.9}) {
                int n = (int) Math.round(a * m);
                ParallelHashTableTheoremProperties.SteadyState run = ParallelHashTableTheoremProperties.steadyState(
                        m, n, SlotForm.CAS, m * 1000L + n, 20 * m, STEADY_ROUNDS);
                double search = ParallelHashTableTheoremProperties.exactSearchProbes(m, n);
                double insert = ParallelHashTableTheoremProperties.exactInsertProbes(m, n - 1);
                line(String.format(Locale.ROOT, "| %d | %d | %.3f | %d | %.3f ± %.3f | %.3f | %.3f | %.3f ± %.3f | %.3f | %.3f |",
                        m, strides, (double) n / m, n, run.search().mean(), run.search().se(), search,
                        run.search().mean() / search, run.insert().mean(), run.insert().se(), insert,
                        run.insert().mean() / insert));
            }
        }
        line("");
    }

    private void drawProbeChart(int m, int samples) throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        List<Double> loadsInsert = new ArrayList<>();
        List<Double> measuredInsert = new ArrayList<>();
        List<Double> loadsSearch = new ArrayList<>();
        List<Double> measuredSearch = new ArrayList<>();
        for (int n = 0; n <= m; n += 4) {
            if (n < m) {
                loadsInsert.add((double) n / m);
                measuredInsert.add(insertProbes(m, n, samples, random)[0]);
            }
            if (n > 0) {
                loadsSearch.add((double) n / m);
                measuredSearch.add(searchProbes(m, n, samples, random)[0]);
            }
        }
        List<Double> x = new ArrayList<>();
        List<Double> exactInsert = new ArrayList<>();
        List<Double> boundInsert = new ArrayList<>();
        List<Double> exactSearch = new ArrayList<>();
        List<Double> boundSearch = new ArrayList<>();
        for (int n = 1; n < m; n++) {
            double a = (double) n / m;
            x.add(a);
            exactInsert.add((m + 1.0) / (m - n + 1.0));
            boundInsert.add(1 / (1 - a));
            exactSearch.add((m + 1.0) / (n + 1.0));
            boundSearch.add(1 / a);
        }
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title("Parallel hash table, m = " + m + ": mean probes against load (" + samples + " fresh tables per point)")
                .xAxisTitle("load a = n / m").yAxisTitle("mean probes (log scale)").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.9);
        chart.getStyler().setYAxisMax(120.0);
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(1.0);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideN);
        chart.getStyler().setXAxisDecimalPattern("0.0");
        chart.getStyler().setYAxisDecimalPattern("0.#");
        BasicStroke dashed = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
        line(chart.addSeries("Th. 1 bound 1/(1-a)", x, boundInsert), new Color(0xE6, 0x9F, 0x00), dashed);
        line(chart.addSeries("insert exact (m+1)/(m-n+1)", x, exactInsert), new Color(0xE6, 0x9F, 0x00), new BasicStroke(1.5f));
        points(chart.addSeries("insert measured", loadsInsert, measuredInsert), new Color(0xD5, 0x5E, 0x00));
        line(chart.addSeries("Th. 2 bound 1/a", x, boundSearch), new Color(0x00, 0x72, 0xB2), dashed);
        line(chart.addSeries("search exact (m+1)/(n+1)", x, exactSearch), new Color(0x00, 0x72, 0xB2), new BasicStroke(1.5f));
        points(chart.addSeries("search measured", loadsSearch, measuredSearch), new Color(0x00, 0x4B, 0x80));
        Files.createDirectories(DOCS);
        Path png = DOCS.resolve("parallel-hash-table-probes.png");
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        line("Chart written to " + png.toAbsolutePath().normalize());
        line("");
    }

    private static void line(XYSeries s, Color color, BasicStroke stroke) {
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(stroke);
    }

    private static void points(XYSeries s, Color color) {
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setMarkerColor(color);
    }

    // ---- Theorem 3: conflict probability ----

    private void conflictTable() {
        double[] ns = {0.2, 1, 5, 10, 50};
        line("## Theorem 3: P(another thread on the same slot) = 1 - (1 - 1/m)^n");
        line("");
        StringBuilder head = new StringBuilder("| m |");
        StringBuilder rule = new StringBuilder("|---|");
        for (double n : ns) {
            head.append(String.format(Locale.ROOT, " n = %s |", n == Math.rint(n) ? String.valueOf((int) n) : String.valueOf(n)));
            rule.append("---|");
        }
        line(head.toString());
        line(rule.toString());
        for (int m : new int[] {11, 31, 51, 101, 201, 501, 1009}) {
            StringBuilder row = new StringBuilder("| " + m + " |");
            for (double n : ns) {
                row.append(String.format(Locale.ROOT, " %.6f |",
                        ParallelHashTableTheoremProperties.conflictProbability(n, m)));
            }
            line(row.toString());
        }
        line("");
        line(String.format(Locale.ROOT, "Paper's example (m = 101, k = 50, t_r = 500 ms, t_a = 2 ms, n = 0.2): %.10f (printed: 0.0019703951)",
                ParallelHashTableTheoremProperties.conflictProbability(0.2, 101)));
        line("");
    }

    /**
     * The held-search table alone (docs/parallel-hash-table.md, Theorem 3), about half a minute:
     * {@code mvn -B -q -pl src test -Dtest='ParallelHashTableMeasurements#heldSearches' -Dsurefire.failIfNoSpecifiedTests=false}.
     */
    @Test
    void heldSearches() throws Exception {
        heldSearchTable();
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT.resolveSibling("parallel-hash-table-held-searches.md"), report);
    }

    /** Held searches per row of the held-search table. */
    static final int HELD_SEARCHES = 2_000;

    /**
     * Theorem 3 on the table's own conflict counter: ParallelHashTableTheoremProperties
     * .heldSearchConflicts, one row per table size and number k of removals within one search.
     */
    private void heldSearchTable() throws InterruptedException {
        line("## Theorem 3 on the table: " + HELD_SEARCHES + " held searches per row, k other removals within each");
        line("");
        line("| m | k | searches that met a conflict (searchConflicts) | measured rate | 1 - (1 - 1/m)^k | binomial p-value |");
        line("|---|---|---|---|---|---|");
        for (int m : new int[] {11, 101}) {
            for (int k : new int[] {1, 5, 20, 50}) {
                long conflicts = ParallelHashTableTheoremProperties.heldSearchConflicts(m, k, SlotForm.CAS, 31L * m + k,
                        HELD_SEARCHES);
                double p = ParallelHashTableTheoremProperties.conflictProbability(k, m);
                line(String.format(Locale.ROOT, "| %d | %d | %d | %.4f | %.4f | %.2f |", m, k, conflicts,
                        (double) conflicts / HELD_SEARCHES, p,
                        ParallelHashTableTheoremProperties.binomialTwoSidedPValue((int) conflicts, HELD_SEARCHES, p)));
            }
        }
        line("");
    }

    // ---- age at removal under load ----

    /**
     * An element that remembers when it went in: time, and how many removals had happened. Its
     * fields are written before the offer that inserts it (happens-before the take that sees them).
     * Identity hash code, as a socket or a task would have.
     */
    static final class Stamped {
        long putNanos;
        long removalsAtPut;
    }

    private void ageUnderLoad() throws InterruptedException {
        int m = 101;
        int bound = (int) Math.ceil(Math.log(0.001) / Math.log(1 - 1.0 / m));
        line("## Age at removal, m = " + m);
        line("");
        line("Age in removals: how many removals happened between an element's insert and its own "
                + "removal. Bound from the class Javadoc: P(age > k) <= (1 - 1/m)^k, so "
                + "p99.9 <= " + bound + " removals at m = " + m + ", at any fill. At a steady fill of n "
                + "each removal picks about uniformly among n elements, so the age is about geometric "
                + "with mean n - 1 and p99.9 about n ln 1000. A FIFO handoff at fill n gives every "
                + "element age n - 1 exactly.");
        line("");
        line("### Exact, one thread: steady fill n (one put, then one take), 1,000,000 removals");
        line("");
        line("| fill n | age mean | geometric mean n - 1 | p50 | p99 | p99.9 | geometric p99.9 | max |");
        line("|---|---|---|---|---|---|---|---|");
        for (int n : new int[] {10, 50, 100, 101}) {
            ageSteadyFill(m, n, 1_000_000);
        }
        line("");
        line("### Under load: real threads, 2 s per row (shared 2-CPU machine, busy)");
        line("");
        line("Producers stamp an element just before a non-blocking offer (retried after a yield), "
                + "consumers right after take; a thread descheduled between its stamp and its "
                + "operation inflates that element's age, so the maxima here include scheduler noise.");
        line("");
        line("| handoff | producers x consumers | consumer work | removals | mean size | age removals: mean / p99.9 / max "
                + "| age µs: p50 / p99.9 / max | insert / search conflicts per op |");
        line("|---|---|---|---|---|---|---|---|");
        age("pht:101,stats", 1, 1, 0);
        age("pht:101,stats", 2, 2, 0);
        age("pht:101,stats", 2, 2, 20_000);
        age("pht:101,slots=monitor,stats", 2, 2, 20_000);
        age("circular:101,stats", 2, 2, 20_000);
        line("");
    }

    /** One thread keeps the table at fill n - 1 between a put and a take; exact ages. */
    private void ageSteadyFill(int m, int n, int removals) throws InterruptedException {
        ParallelHashTable<long[]> t = new ParallelHashTable<>(m);
        long taken = 0;
        for (int i = 0; i < n - 1; i++) {
            t.put(new long[] {0});
        }
        long[] ages = new long[removals];
        for (int r = 0; r < removals; r++) {
            t.put(new long[] {taken});
            long[] e = t.take(); // at fill n
            ages[r] = taken - e[0];
            taken++;
        }
        Arrays.sort(ages);
        double q = 1 - 1.0 / n;
        line(String.format(Locale.ROOT, "| %d | %.1f | %d | %d | %d | %d | %.0f | %d |", n, mean(ages), n - 1,
                quantile(ages, 0.5), quantile(ages, 0.99), quantile(ages, 0.999),
                n == 1 ? 0 : Math.ceil(Math.log(0.001) / Math.log(q)) - 1, ages[ages.length - 1]));
    }

    private void age(String spec, int producers, int consumers, long workNanos) throws InterruptedException {
        Handoff<Stamped> h = Handoffs.create(spec);
        AtomicLong removals = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        long[][] ageRemovals = new long[consumers][];
        long[][] ageNanos = new long[consumers][];
        int[] counts = new int[consumers];
        long[] sizeSum = new long[1];
        long[] sizeSamples = new long[1];
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    while (!stop.get()) {
                        Stamped e = new Stamped();
                        do {
                            e.removalsAtPut = removals.get();
                            e.putNanos = System.nanoTime();
                        } while (!h.offer(e) && yieldUnlessStopped(stop));
                    }
                } catch (HandoffClosedException done) {
                    // end of run
                }
            }));
        }
        for (int c = 0; c < consumers; c++) {
            int me = c;
            ageRemovals[me] = new long[1 << 16];
            ageNanos[me] = new long[1 << 16];
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    while (true) {
                        Stamped e = h.take();
                        long r = removals.incrementAndGet();
                        long now = System.nanoTime();
                        if (counts[me] == ageRemovals[me].length) {
                            ageRemovals[me] = Arrays.copyOf(ageRemovals[me], 2 * counts[me]);
                            ageNanos[me] = Arrays.copyOf(ageNanos[me], 2 * counts[me]);
                        }
                        ageRemovals[me][counts[me]] = r - 1 - e.removalsAtPut;
                        ageNanos[me][counts[me]] = now - e.putNanos;
                        counts[me]++;
                        spin(workNanos);
                    }
                } catch (HandoffClosedException | InterruptedException done) {
                    // closed and empty: end of run
                }
            }));
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < end) {
            Thread.sleep(1);
            sizeSum[0] += h.size();
            sizeSamples[0]++;
        }
        stop.set(true);
        h.close();
        for (Thread t : threads) {
            t.join(10_000);
        }
        long[] byRemovals = concat(ageRemovals, counts);
        long[] byNanos = concat(ageNanos, counts);
        Arrays.sort(byRemovals);
        Arrays.sort(byNanos);
        HandoffStats s = h.stats();
        line(String.format(Locale.ROOT, "| `%s` | %d x %d | %s | %d | %.1f | %.1f / %d / %d | %.1f / %.1f / %.1f | %.5f / %.5f |",
                spec, producers, consumers, workNanos == 0 ? "none" : (workNanos / 1000) + " µs spin",
                byRemovals.length, (double) sizeSum[0] / sizeSamples[0],
                mean(byRemovals), quantile(byRemovals, 0.999), byRemovals[byRemovals.length - 1],
                quantile(byNanos, 0.5) / 1e3, quantile(byNanos, 0.999) / 1e3, byNanos[byNanos.length - 1] / 1e3,
                (double) s.insertConflicts() / Math.max(1, s.puts()), (double) s.searchConflicts() / Math.max(1, s.takes())));
    }

    private static boolean yieldUnlessStopped(AtomicBoolean stop) {
        Thread.yield();
        return !stop.get();
    }

    private static void spin(long nanos) {
        if (nanos > 0) {
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
    }

    private static long[] concat(long[][] parts, int[] counts) {
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        long[] all = new long[total];
        int k = 0;
        for (int i = 0; i < parts.length; i++) {
            System.arraycopy(parts[i], 0, all, k, counts[i]);
            k += counts[i];
        }
        return all;
    }

    private static double mean(long[] sorted) {
        double sum = 0;
        for (long v : sorted) {
            sum += v;
        }
        return sum / sorted.length;
    }

    private static long quantile(long[] sorted, double q) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    }

    private void line(String s) {
        System.out.println(s);
        report.append(s).append('\n');
    }
}
