/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The papers' server experiment on loopback (Roussev and Wu (2001) section 5, Roussev and Wu (2006) section 6): every server
 * design against the same client, then a worker-count sweep of the pre-threaded designs, then the
 * parallel hash table's counted conflicts and probes beside Roussev and Wu (2006)'s theorems. With
 * {@code --mixed}, a last phase runs the QoSWeaver paper's question: a workload where a share of the clients
 * is important and every request has a deadline, through each handoff with and without importance
 * classes, reporting the deadline-miss ratio per class.
 *
 * <p>Run it with {@code mvn -B -q -P server -pl jmh -am verify -DskipTests} from the top of the
 * repository; {@code -Dserver.args="..."} passes the options below. It prints the tables on standard
 * output, one progress line per run on standard error, and writes CSV, JSON and PNG files to
 * {@code --out}. Every run is bounded in connections and time, and the server JVM is stopped at
 * the end.
 */
public final class ServerExperiment {

    /** The table's designs with the papers' best worker counts (Roussev and Wu (2001) Table 1). */
    static final List<Entry> TABLE = List.of(
            new Entry("iterative", 1),
            new Entry("thread-per-connection", 1),
            new Entry("accept-lock", 50),
            new Entry("handoff:monitor:101", 50),
            new Entry("handoff:circular:101", 50),
            new Entry("handoff:lock-split:101", 70),
            new Entry("handoff:pht:101,stats", 50),
            new Entry("handoff:pht:101,slots=monitor,stats", 50),
            new Entry("handoff:pipe:W", 150),
            new Entry("virtual-thread-per-connection", 1),
            new Entry("pool:lock-split:101", 50),
            new Entry("pool:pht:101", 50),
            new Entry("pool:pipe:W", 150));

    /** The pre-threaded designs of the sweep (Roussev and Wu (2001) Table 2, Roussev and Wu (2006) Fig. 5). */
    static final List<String> SWEEP_DESIGNS = List.of(
            "accept-lock", "handoff:monitor:101", "handoff:circular:101", "handoff:lock-split:101",
            "handoff:pht:101,stats", "handoff:pipe:W");

    static final int[] SWEEP_WORKERS = {10, 30, 50, 70, 100, 150, 200};

    /**
     * The designs of the deadline phase: the papers' shared buffer as the baseline, then every
     * handoff kind without and with importance classes.
     */
    static final List<String> DEADLINE_DESIGNS = List.of(
            "handoff:monitor:101",
            "handoff:circular:101", "handoff:circular:101,classes=2",
            "handoff:lock-split:101", "handoff:lock-split:101,classes=2",
            "handoff:pht:101", "handoff:pht:101,classes=2",
            "handoff:pipe:W", "handoff:pipe:W,classes=2");

    /** Workers of the deadline phase under --quick: fewer than its 8 children, so requests queue. */
    static final int QUICK_MIXED_WORKERS = 2;

    /**
     * One row to run: a design and its worker count.
     *
     * @param design the design's name
     * @param workers workers, for the designs that pre-spawn them
     */
    record Entry(String design, int workers) {
        boolean pooled() {
            return design.equals("accept-lock") || design.startsWith("handoff:") || design.startsWith("pool:");
        }

        String label() {
            return pooled() ? design + " (" + workers + " workers)" : design;
        }
    }

    /**
     * One finished run.
     *
     * @param entry what ran
     * @param workload with what load
     * @param mixed the importance share and deadline of a deadline-phase run, null otherwise
     * @param outcome what was measured (may be unavailable)
     */
    record Run(Entry entry, Workload workload, MixedLoad mixed, RemoteServer.Outcome outcome) {
        double wallMillis() {
            return outcome.serverLong("wallNanos") / 1e6;
        }

        double cpuMillis() {
            return outcome.serverLong("cpuNanos") / 1e6;
        }

        double throughput() {
            return outcome.client().completed() / (outcome.serverLong("wallNanos") / 1e9);
        }

        long errors() {
            return outcome.serverLong("errors") + outcome.client().failed();
        }

        boolean timedOut() {
            return "true".equals(outcome.server().get("timedOut"));
        }
    }

    /** Parsed command line. */
    static final class Options {
        final List<Entry> designs = new ArrayList<>();
        final java.util.Set<String> without = new java.util.HashSet<>();
        List<String> sweepDesigns = SWEEP_DESIGNS;
        int[] sweepWorkers = SWEEP_WORKERS;
        boolean table = true;
        boolean sweep = true;
        /** The --mixed values as given; parsed once every option is known (--quick changes the workers). */
        final List<String> mixedTexts = new ArrayList<>();
        final List<MixedLoad> mixed = new ArrayList<>();
        List<String> mixedDesigns = DEADLINE_DESIGNS;
        int mixedWorkers = MixedLoad.DEFAULT_WORKERS;
        Integer workers;
        int clients = Workload.SCALED.clients();
        int children = Workload.SCALED.children();
        int requests = Workload.SCALED.requests();
        int delay = Workload.SCALED.delayMillis();
        int bytes = Workload.SCALED.responseBytes();
        int repeat = 3;
        /** As the table's: the sweep's throughput chart compares designs point by point. */
        int sweepRepeat = 3;
        int timeoutMillis = 60_000;
        boolean linger0;
        boolean warmup = true;
        boolean strict;
        Path out = Path.of("target", "server-experiment");

        Workload workload() {
            return new Workload(clients, children, requests, delay, bytes);
        }
    }

    private ServerExperiment() {
    }

    /**
     * Runs the experiment.
     *
     * @param args options; {@code --help} lists them
     * @throws Exception if the server process fails
     */
    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("server-experiment: " + e.getMessage());
            System.err.println(usage());
            System.exit(2);
            return;
        }
        if (o == null) {
            System.out.println(usage());
            return;
        }
        ExperimentReport report = new ExperimentReport(o.workload(), o.out);
        report.environmentAtStart();
        List<Run> all = new ArrayList<>();
        try (RemoteServer server = RemoteServer.launch(List.of("-Xmx512m", "-Djava.net.preferIPv4Stack=true"))) {
            if (o.warmup) {
                warmUp(server, o);
            }
            if (o.table) {
                List<Run> table = runTable(server, o);
                report.table(table, o.repeat);
                all.addAll(table);
            }
            if (o.sweep) {
                List<Run> sweep = runSweep(server, o);
                report.sweep(sweep, o.sweepRepeat);
                all.addAll(sweep);
            }
            if (!o.mixed.isEmpty()) {
                List<Run> deadlines = runDeadlines(server, o);
                report.deadlines(deadlines, o.repeat);
                all.addAll(deadlines);
            }
        }
        report.environmentAtEnd();
        report.write();
        report.print(System.out);
        List<String> failures = failures(all);
        if (!failures.isEmpty()) {
            System.err.println("[server-experiment] incomplete runs:\n  " + String.join("\n  ", failures));
            if (o.strict) {
                System.exit(1);
            }
        }
    }

    /** The runs that did not serve every request cleanly, with why. */
    static List<String> failures(List<Run> runs) {
        List<String> out = new ArrayList<>();
        for (Run r : runs) {
            if (!r.outcome().available()) {
                continue;
            }
            long served = r.outcome().serverLong("served");
            long stuck = r.outcome().serverLong("stuckThreads");
            if (r.timedOut() || r.errors() > 0 || served != r.workload().totalRequests() || stuck > 0) {
                out.add(r.entry().label() + ": served " + served + "/" + r.workload().totalRequests() + ", errors "
                        + r.errors() + (r.timedOut() ? ", timed out" : "") + (stuck > 0 ? ", threads left " + stuck : ""));
            }
        }
        return out;
    }

    /** A short discarded run through each family of code path, so the table does not pay for JIT. */
    private static void warmUp(RemoteServer server, Options o) throws IOException {
        Workload w = o.workload().withDelay(1);
        for (String d : List.of("thread-per-connection", "handoff:circular:101", "accept-lock")) {
            server.run(d, 20, w, o.timeoutMillis, o.linger0);
        }
        if (!o.mixed.isEmpty()) { // the acceptor that reads the request, and the client's classes
            server.run("handoff:circular:101", 20, w, o.mixed.get(0), o.timeoutMillis, o.linger0);
        }
        progress("warm-up done (" + (o.mixed.isEmpty() ? 3 : 4) + " discarded runs at 1 ms work)");
    }

    private static List<Run> runTable(RemoteServer server, Options o) throws IOException {
        List<Run> runs = new ArrayList<>();
        Workload w = o.workload();
        List<Entry> entries = (o.designs.isEmpty() ? withWorkers(TABLE, o.workers) : o.designs).stream()
                .filter(e -> !o.without.contains(e.design())).toList();
        int total = 0;
        for (Entry e : entries) {
            total += repeatsOf(e, o);
        }
        int done = 0;
        java.util.Set<String> missing = new java.util.HashSet<>();
        // repeats interleaved (1st of every design, then 2nd ...) so that a change in the
        // machine's load spreads over all designs instead of falling on one
        for (int r = 0; r < o.repeat; r++) {
            for (Entry e : entries) {
                if (r >= repeatsOf(e, o) || missing.contains(e.design())) {
                    continue;
                }
                Run run = new Run(e, w, null, server.run(e.design(), e.workers(), w, o.timeoutMillis, o.linger0));
                runs.add(run);
                progress("table " + (++done) + "/" + total + " " + describe(run));
                if (!run.outcome().available()) {
                    missing.add(e.design());
                    done += repeatsOf(e, o) - 1 - r;
                }
            }
        }
        return runs;
    }

    /** The iterative server's wall time is N x t by construction: once is enough. */
    private static int repeatsOf(Entry e, Options o) {
        return e.design().equals("iterative") ? 1 : o.repeat;
    }

    private static List<Run> runSweep(RemoteServer server, Options o) throws IOException {
        List<Run> runs = new ArrayList<>();
        Workload w = o.workload();
        int total = o.sweepDesigns.size() * o.sweepWorkers.length * o.sweepRepeat;
        int done = 0;
        java.util.Set<String> missing = new java.util.HashSet<>();
        for (int r = 0; r < o.sweepRepeat; r++) {
            for (String d : o.sweepDesigns) {
                for (int workers : o.sweepWorkers) {
                    if (missing.contains(d)) {
                        continue;
                    }
                    Entry e = new Entry(d, workers);
                    Run run = new Run(e, w, null, server.run(d, workers, w, o.timeoutMillis, o.linger0));
                    runs.add(run);
                    progress("sweep " + (++done) + "/" + total + " " + describe(run));
                    if (!run.outcome().available()) {
                        missing.add(d);
                        done += o.sweepWorkers.length * (o.sweepRepeat - r) - 1;
                    }
                }
            }
        }
        return runs;
    }

    /**
     * The QoSWeaver paper's question: each mixed workload through each deadline design, all at the
     * workload's worker count, repeats interleaved as in the table.
     */
    private static List<Run> runDeadlines(RemoteServer server, Options o) throws IOException {
        List<Run> runs = new ArrayList<>();
        Workload w = o.workload();
        int total = o.mixed.size() * o.mixedDesigns.size() * o.repeat;
        int done = 0;
        for (MixedLoad mixed : o.mixed) {
            java.util.Set<String> missing = new java.util.HashSet<>();
            for (int r = 0; r < o.repeat; r++) {
                for (String d : o.mixedDesigns) {
                    if (missing.contains(d)) {
                        continue;
                    }
                    Entry e = new Entry(d, mixed.workers());
                    Run run = new Run(e, w, mixed, server.run(d, mixed.workers(), w, mixed, o.timeoutMillis, o.linger0));
                    runs.add(run);
                    progress("deadlines (" + mixed + ") " + (++done) + "/" + total + " " + describe(run));
                    if (!run.outcome().available()) {
                        missing.add(d);
                        done += o.repeat - 1 - r;
                    }
                }
            }
        }
        return runs;
    }

    static String describe(Run run) {
        if (!run.outcome().available()) {
            return run.entry().design() + ": " + run.outcome().unavailable();
        }
        StringBuilder misses = new StringBuilder();
        for (ClassResult c : run.outcome().client().classes()) {
            misses.append(String.format(Locale.ROOT, ", class %d missed %d/%d", c.importanceClass(), c.missed(),
                    c.requests()));
        }
        return String.format(Locale.ROOT, "%s: wall %.0f ms, cpu %.0f ms, %.0f req/s, p99 %.1f ms, fairness %.3f%s%s%s",
                run.entry().label(), run.wallMillis(), run.cpuMillis(), run.throughput(),
                run.outcome().client().percentileNanos(99) / 1e6, run.outcome().client().fairness(), misses,
                run.errors() > 0 ? ", errors " + run.errors() : "", run.timedOut() ? ", TIMED OUT" : "");
    }

    private static void progress(String line) {
        System.err.println("[server-experiment] " + line);
        System.err.flush();
    }

    static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--design" -> o.designs.add(new Entry(value(args, ++i, a), defaultWorkers(args[i])));
                case "--without" -> o.without.add(value(args, ++i, a));
                case "--workers" -> o.workers = positive(args, ++i, a);
                case "--clients" -> o.clients = positive(args, ++i, a);
                case "--children" -> o.children = positive(args, ++i, a);
                case "--requests" -> o.requests = positive(args, ++i, a);
                case "--delay" -> o.delay = nonNegative(args, ++i, a);
                case "--bytes" -> o.bytes = positive(args, ++i, a);
                case "--repeat" -> o.repeat = positive(args, ++i, a);
                case "--sweep-repeat" -> o.sweepRepeat = positive(args, ++i, a);
                case "--timeout" -> o.timeoutMillis = positive(args, ++i, a);
                case "--out" -> o.out = Path.of(value(args, ++i, a));
                case "--no-table" -> o.table = false;
                case "--no-sweep" -> o.sweep = false;
                case "--mixed" -> o.mixedTexts.add(value(args, ++i, a));
                case "--mixed-designs" -> o.mixedDesigns = Arrays.asList(value(args, ++i, a).split(";"));
                case "--no-warmup" -> o.warmup = false;
                case "--linger0" -> o.linger0 = true;
                case "--strict" -> o.strict = true;
                case "--sweep-designs" -> o.sweepDesigns = Arrays.asList(value(args, ++i, a).split(";"));
                case "--sweep-workers" -> o.sweepWorkers = Arrays.stream(value(args, ++i, a).split(","))
                        .mapToInt(s -> Integer.parseInt(s.trim())).toArray();
                case "--quick" -> {
                    Workload s = Workload.SMOKE;
                    o.clients = s.clients();
                    o.children = s.children();
                    o.requests = s.requests();
                    o.delay = s.delayMillis();
                    o.repeat = 1;
                    o.sweepRepeat = 1;
                    o.sweepWorkers = new int[] {2, 8};
                    o.mixedWorkers = QUICK_MIXED_WORKERS;
                    o.timeoutMillis = 20_000;
                }
                default -> throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        List<Entry> resized = withWorkers(o.designs, o.workers);
        o.designs.clear();
        o.designs.addAll(resized);
        for (String text : o.mixedTexts) {
            o.mixed.add(MixedLoad.parse(text, o.mixedWorkers));
        }
        return o;
    }

    /** The entries with every pre-threaded design at the given worker count (unchanged if null). */
    private static List<Entry> withWorkers(List<Entry> entries, Integer workers) {
        return entries.stream().map(e -> workers != null && e.pooled() ? new Entry(e.design(), workers) : e).toList();
    }

    private static int defaultWorkers(String design) {
        for (Entry e : TABLE) {
            if (e.design().equals(design)) {
                return e.workers();
            }
        }
        return 50;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String[] args, int i, String option) {
        int v = nonNegative(args, i, option);
        if (v == 0) {
            throw new IllegalArgumentException(option + " must be > 0");
        }
        return v;
    }

    private static int nonNegative(String[] args, int i, String option) {
        try {
            int v = Integer.parseInt(value(args, i, option));
            if (v < 0) {
                throw new IllegalArgumentException(option + " must be >= 0, was " + v);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " wants an integer, got '" + args[i] + "'");
        }
    }

    static String usage() {
        return String.join("\n",
                "usage: ServerExperiment [options]   (the papers' TCP server experiment on 127.0.0.1)",
                "  --design D          run only design D (repeatable); designs: " + ServerDesign.NAMES,
                "  --without D         leave design D out of the table (repeatable)",
                "  --workers N         workers of every pre-threaded design (default: the papers' best per design)",
                "  --clients C --children K --requests R --delay MS --bytes B",
                "                      the client's load (default " + Workload.SCALED + ")",
                "  --repeat N          runs per table design, the median is reported (default 3; iterative runs once)",
                "  --sweep-repeat N    runs per sweep point, the median is reported (default 3)",
                "  --no-table          skip the table of every design",
                "  --no-sweep          skip the worker sweep",
                "  --sweep-designs 'D1;D2'  --sweep-workers 10,30,...   (defaults: " + String.join(";", SWEEP_DESIGNS)
                        + " at " + Arrays.toString(SWEEP_WORKERS) + ")",
                "  --mixed important=P,deadline=MS[,workers=W]   (repeatable)",
                "                      add the deadline phase: a share P of the children is important (class 0),",
                "                      every request has a deadline of MS from connect to last response byte; each",
                "                      deadline design runs with W workers (default " + MixedLoad.DEFAULT_WORKERS
                        + ", --quick " + QUICK_MIXED_WORKERS + ") and the",
                "                      miss ratio is reported per class (runs pooled, --repeat runs per design)",
                "  --mixed-designs 'D1;D2'  the deadline phase's designs (default: " + String.join(";", DEADLINE_DESIGNS)
                        + ")",
                "  --timeout MS        bound of each run (default 60000)",
                "  --linger0           client closes with SO_LINGER 0 (reset, no TIME_WAIT)",
                "  --no-warmup         skip the 3 discarded warm-up runs",
                "  --quick             a smoke run: tiny load, 1 repeat, sweep at 2 and 8 workers",
                "  --strict            exit with status 1 if a run failed a request, timed out or left a thread behind",
                "  --out DIR           where CSV, JSON and PNG files go (default target/server-experiment)");
    }

    /** Picks the run with the median wall time of each entry, in the table's order. */
    static List<Run> medians(List<Run> runs) {
        Map<Entry, List<Run>> byEntry = new LinkedHashMap<>();
        for (Run r : runs) {
            byEntry.computeIfAbsent(r.entry(), k -> new ArrayList<>()).add(r);
        }
        List<Run> out = new ArrayList<>();
        for (List<Run> rs : byEntry.values()) {
            if (!rs.get(0).outcome().available()) {
                out.add(rs.get(0));
                continue;
            }
            List<Run> sorted = new ArrayList<>(rs);
            sorted.sort(Comparator.comparingDouble(Run::wallMillis));
            out.add(sorted.get((sorted.size() - 1) / 2));
        }
        return out;
    }
}
