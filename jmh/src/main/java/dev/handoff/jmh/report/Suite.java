/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import dev.handoff.jmh.Queues;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the benchmark suite, writes the JMH JSON and renders {@code docs/benchmarks.md}.
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar dev.handoff.jmh.report.Suite MODE RESULTS.json [DOCS_DIR]
 * </pre>
 * MODE is {@code smoke} (every benchmark once, 100 ms: proves they start and finish; no report),
 * {@code short} (2 forks, a warm-up iteration of 1 s and 3 measured iterations of 500 ms per
 * throughput benchmark: the work shapes for the {@link #WORK_KINDS} at {@link #SHORT_WORK}, the
 * no-work shapes for every kind but the options' cost variants, which {@code jmh/option-cost.sh}
 * measures, and but {@link #FULL_ONLY}; about 30 minutes on 2 CPUs) or {@code full} (3 forks, 1 + 3
 * iterations of 1 s, every kind and variant in every shape and work setting: about 600
 * benchmarks, some 2.5 hours on 2 CPUs); docs/regenerate.md says how long each takes. The Maven
 * profiles {@code benchmarks} and {@code benchmarks-full} of jmh/pom.xml run it on the toolchain JDK.
 */
public final class Suite {

    /** The throughput shapes that the twins compare (PairedThroughput's), in report order. */
    static final List<String> SCENARIOS = List.of("p1c1", "p1c4", "p4c4", "p8c8", "p1c50");

    /**
     * Every throughput shape of {@code HandoffThroughput}, in report order: the
     * {@link #SCENARIOS}, then the slow consumer; every suite measures them all.
     */
    static final List<String> SHAPES = List.of("p1c1", "p1c4", "p4c4", "p8c8", "p1c50", "p4c1slow");

    /** The kinds the short suite runs in the work shapes: the JDK's, jox, and every FIFO core. */
    static final List<String> WORK_KINDS = List.of("abq", "lbq", "jox", "circular", "circular+core=ring",
            "circular+core=cells", "lock-split", "pht+slots=cas+search=cursor");

    /** The work settings of the short suite, as {tokens, capacity}; the full suite adds {1000, 16}. */
    static final List<int[]> SHORT_WORK = List.of(new int[] {100, 1024}, new int[] {1000, 1024}, new int[] {100, 16});

    /** Peers only the full suite runs: the short one keeps SQ, the pipe's twin, of the rendezvous queues. */
    static final List<String> FULL_ONLY = List.of("ltq-transfer", "jox-rendezvous");

    /** Every work setting: mean tokens 100 and 1,000 at capacity 1,024 and 16. */
    static final List<int[]> FULL_WORK = List.of(new int[] {100, 1024}, new int[] {1000, 1024},
            new int[] {100, 16}, new int[] {1000, 16});

    private Suite() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        if (args.length < 2) {
            System.err.println("usage: Suite smoke|short|full RESULTS.json [DOCS_DIR]");
            System.exit(2);
        }
        Mode mode = Mode.valueOf(args[0].toUpperCase(java.util.Locale.ROOT));
        if (mode == Mode.SMOKE) {
            // the smoke run measures nothing, so it may overlap another JMH run (a developer's
            // benchmark while the build runs); a measuring run still refuses to
            System.setProperty("jmh.ignoreLock", "true");
        }
        Path results = Path.of(args[1]);
        Properties meta = Machine.describe();
        meta.setProperty("mode", mode.name().toLowerCase(java.util.Locale.ROOT));
        meta.setProperty("started", Instant.now().toString());
        meta.setProperty("loadBefore", Machine.loadAverage());

        List<RunResult> all = new ArrayList<>();
        for (int[] setting : mode == Mode.FULL ? FULL_WORK : mode == Mode.SMOKE ? List.of(SHORT_WORK.get(0)) : SHORT_WORK) {
            all.addAll(run(work(mode, setting[0], setting[1])));
        }
        for (String scenario : SHAPES) {
            all.addAll(run(throughput(mode, scenario)));
        }
        all.addAll(run(latency(mode)));
        if (mode != Mode.SMOKE) {
            all.addAll(run(machineLimits(mode)));
        }
        if (mode == Mode.SMOKE) {
            // every other benchmark in the jar, with its own parameters
            all.addAll(run(base(mode).include(".*").exclude("HandoffThroughput|WorkThroughput|RoundTrip")));
        }

        meta.setProperty("finished", Instant.now().toString());
        meta.setProperty("loadAfter", Machine.loadAverage());
        writeJson(all, results, meta);
        if (mode != Mode.SMOKE && args.length > 2) {
            SuitePage.render(results, Path.of(args[2]));
        }
    }

    enum Mode { SMOKE, SHORT, FULL }

    /**
     * The shapes a page of these results shows: the {@link #SCENARIOS} whether measured or not
     * (an unmeasured one is a column of "-"), then each other shape that was measured.
     */
    static List<String> shapesOf(SuiteResults results) {
        List<String> shapes = new ArrayList<>(SCENARIOS);
        SHAPES.stream().filter(s -> !SCENARIOS.contains(s) && results.throughput.containsKey(s)).forEach(shapes::add);
        return shapes;
    }

    private static Collection<RunResult> run(ChainedOptionsBuilder options) throws RunnerException {
        return new Runner(options.build()).run();
    }

    private static ChainedOptionsBuilder base(Mode mode) {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .jvmArgsAppend("-Xms1g", "-Xmx4g")
                .timeout(TimeValue.seconds(60)) // a hung iteration is interrupted, not waited on forever
                .shouldFailOnError(mode == Mode.SMOKE);
        return switch (mode) {
            case SMOKE -> b.forks(1).warmupIterations(0).measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(100));
            case SHORT -> b.forks(2).warmupIterations(1).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(3).measurementTime(TimeValue.milliseconds(500));
            case FULL -> b.forks(3).warmupIterations(1).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(3).measurementTime(TimeValue.seconds(1));
        };
    }

    /** Every work shape of one setting: the {@link #WORK_KINDS}, or in the full suite every kind. */
    private static ChainedOptionsBuilder work(Mode mode, int tokens, int capacity) {
        List<String> kinds = new ArrayList<>(switch (mode) {
            case SMOKE -> List.of("abq", "circular+core=cells"); // each shape starts and ends; the kinds run below
            case SHORT -> WORK_KINDS;
            case FULL -> Queues.all();
        });
        kinds.removeIf(Queues::isCostVariant);
        ChainedOptionsBuilder b = base(mode)
                .include("throughput\\.WorkThroughput\\.")
                .param("kind", kinds.toArray(String[]::new))
                .param("work", Integer.toString(tokens))
                .param("capacity", Integer.toString(capacity));
        return mode == Mode.SMOKE ? b : b.addProfiler(GCProfiler.class);
    }

    /** One no-work throughput shape, every kind; the stats and sojourn variants in the full suite only. */
    private static ChainedOptionsBuilder throughput(Mode mode, String scenario) {
        List<String> kinds = new ArrayList<>(Queues.all());
        if (mode != Mode.FULL) {
            kinds.removeIf(Queues::isCostVariant);
            kinds.removeAll(FULL_ONLY);
        }
        ChainedOptionsBuilder b = base(mode)
                .include("throughput\\.HandoffThroughput\\." + scenario + "$")
                .param("kind", kinds.toArray(String[]::new));
        return mode == Mode.SMOKE ? b : b.addProfiler(GCProfiler.class);
    }

    /** Round trips, every kind, average and sampled. */
    private static ChainedOptionsBuilder latency(Mode mode) {
        List<String> kinds = new ArrayList<>(Queues.all());
        if (mode == Mode.SHORT) {
            kinds.removeIf(Queues::isCostVariant); // the options' cost is read from throughput
        }
        ChainedOptionsBuilder b = base(mode)
                .include("latency\\.RoundTrip\\.")
                .param("kind", kinds.toArray(String[]::new))
                .timeUnit(TimeUnit.NANOSECONDS);
        return mode == Mode.SMOKE ? b : b.forks(mode == Mode.FULL ? 2 : 1)
                .measurementIterations(mode == Mode.FULL ? 5 : 2);
    }

    /** The cache-line and wake-up round trips of this machine, against which the goals are read. */
    private static ChainedOptionsBuilder machineLimits(Mode mode) {
        return base(mode)
                .include("latency\\.MachineLimits\\.")
                .timeUnit(TimeUnit.NANOSECONDS)
                .forks(mode == Mode.FULL ? 3 : 2)
                .measurementIterations(mode == Mode.FULL ? 5 : 3);
    }

    /** JMH's own JSON, and the machine's description beside it ({@code .properties}). */
    private static void writeJson(List<RunResult> all, Path results, Properties meta) throws IOException {
        Path dir = results.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        try (PrintStream out = new PrintStream(Files.newOutputStream(results), true, "UTF-8")) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, out).writeOut(all);
        }
        try (var out = Files.newOutputStream(Machine.metaFile(results))) {
            meta.store(out, "machine and load of " + results.getFileName());
        }
        System.out.println("JMH results: " + results + " (" + all.size() + " benchmarks)");
    }
}
