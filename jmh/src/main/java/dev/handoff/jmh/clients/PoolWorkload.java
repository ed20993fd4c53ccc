/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import dev.handoff.jmh.report.Machine;
import java.util.Properties;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import dev.handoff.jmh.clients.WorkloadRun.Result;
import dev.handoff.jmh.clients.WorkloadRun.Settings;
import dev.handoff.jmh.clients.WorkloadRun.Shape;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The pool workload: does the queue under a thread pool matter for tasks of 1 to 100 us? A real
 * client's call pattern (many submitters, {@code execute} or {@code submit}, CPU-bound tasks of
 * geometric length) through plain {@code ThreadPoolExecutor}s on each queue, the library's own
 * pools and JBoss Threads' {@code EnhancedQueueExecutor} ({@link WorkloadPools} names them).
 *
 * <p>Run (JDK 21+, about 7 minutes on 2 CPUs; {@code --full}: about 10):
 * <pre>
 * java -cp jmh/target/benchmarks.jar dev.handoff.jmh.clients.PoolWorkload docs/data/pool-workload-COMMIT.md
 * </pre>
 * writes that page and the runs' JSON beside it ({@code .json}); {@link PoolWorkloadPage} renders
 * the page again from the JSON.
 *
 * <p>Shapes. Steady: {@code --submitters} S (4) threads submit as fast as {@code --in-flight}
 * (4096) permits allow to pools of core = max = {@code --workers} W (4), tasks of a geometric
 * number of {@link Blackhole#consumeCPU} tokens with means {@code --means-us} (1, 10, 100 us at
 * {@code --tokens-per-us} 500, measured on the 2-CPU build machine; the page gives this machine's
 * figure). Growth: core 1, max 16, each submitter hands over its share of {@code --burst} 64 tasks
 * of 100 us every {@code --burst-every-us} 10,000 us. Each shape with platform and with virtual
 * submitter threads. Back-pressure and measurement: {@link WorkloadRun}.
 *
 * <p>Fairness: every (pool, shape, task mean, submitter variant, round) runs in a fresh JVM (this
 * one's {@code java}, flags and class path) with {@code --warmup-ms} 700 then a window of
 * {@code --window-ms} 800; {@code --rounds} 3 rounds, the pools in opposite order in alternate
 * rounds; each figure is divided by the {@code tpe+abq} run of the same round, and the page shows
 * the median of those ratios.
 */
public final class PoolWorkload {

    private PoolWorkload() {
    }

    private static final String RESULT = "RESULT ";
    private static final Gson GSON = new GsonBuilder().serializeSpecialFloatingPointValues().create();

    /** The options, with their defaults. */
    static final class Options {
        Path out;
        boolean full;
        int rounds = 3;
        /**
         * Covers the first waits' one-time start-up: a handoff's first park loads its JFR wait
         * event, and JFR's metadata, while its waiters queue behind it (a pool stalls for up to a
         * few hundred milliseconds on 2 busy CPUs).
         */
        long warmupMillis = 700;
        long windowMillis = 800;
        double[] meansMicros = {1, 10, 100};
        double tokensPerMicro = 500;
        int workers = 4;
        int submitters = 4;
        int inFlight = 4096;
        boolean useSubmit;
        List<String> variants = List.of("platform", "virtual");
        List<String> shapes = List.of("steady", "growth");
        List<String> pools;
        List<String> growthPools = WorkloadPools.GROWTH;
        int burst = 64;
        long burstEveryMicros = 10_000;
        double growthMeanMicros = 100;
        int growthCore = 1;
        int growthMax = 16;

        List<String> steadyPools() {
            if (pools != null) {
                return pools;
            }
            List<String> list = new ArrayList<>(WorkloadPools.DEFAULT_STEADY);
            if (full) {
                list.addAll(WorkloadPools.FULL_EXTRA);
            }
            return list;
        }

        long tokens(double micros) {
            return Math.max(1, Math.round(micros * tokensPerMicro));
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("--child")) {
            Settings s = GSON.fromJson(args[1], Settings.class);
            Result r = WorkloadRun.run(s, null);
            System.out.println(RESULT + GSON.toJson(r));
            return;
        }
        Options o = parse(args);
        long began = System.nanoTime();
        double nsPerToken = nanosPerToken();
        List<Result> runs = new ArrayList<>();
        for (int round = 0; round < o.rounds; round++) {
            for (String shape : o.shapes) {
                boolean growth = shape.equals("growth");
                double[] means = growth ? new double[] {o.growthMeanMicros} : o.meansMicros;
                List<String> pools = new ArrayList<>(growth ? o.growthPools : o.steadyPools());
                if (round % 2 == 1) {
                    Collections.reverse(pools);
                }
                for (double mean : means) {
                    for (String variant : o.variants) {
                        for (String pool : pools) {
                            Settings s = new Settings(pool, growth ? Shape.GROWTH : Shape.STEADY, o.tokens(mean),
                                    variant.equals("virtual"), o.useSubmit,
                                    growth ? o.growthCore : o.workers, growth ? o.growthMax : o.workers,
                                    o.submitters, o.inFlight, o.inFlight, o.warmupMillis, o.windowMillis, 0,
                                    o.burst, o.burstEveryMicros, 1_000_003L * (round + 1)); // the same tasks for every pool of a round
                            Result r = fork(s);
                            runs.add(r);
                            System.err.printf("round %d %s %s %.0fus %s: %.0f tasks/s, wait p99 %d us%n", round, shape,
                                    pool, mean, variant, r.tasksPerSecond(), r.waitP99Nanos() / 1000);
                        }
                    }
                }
            }
        }
        JsonObject meta = meta(o, args, nsPerToken, (System.nanoTime() - began) / 1e9);
        Path json = jsonBeside(o.out);
        JsonObject doc = new JsonObject();
        doc.add("meta", meta);
        doc.add("runs", GSON.toJsonTree(runs));
        Files.createDirectories(o.out.toAbsolutePath().getParent());
        Files.writeString(json, new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(doc));
        PoolWorkloadPage.write(json, o.out);
        System.err.printf("wrote %s and %s in %.0f s%n", o.out, json, (System.nanoTime() - began) / 1e9);
    }

    /** The JSON file beside a page: {@code x.md} to {@code x.json}. */
    static Path jsonBeside(Path page) {
        String name = page.getFileName().toString();
        String base = name.endsWith(".md") ? name.substring(0, name.length() - 3) : name;
        return page.resolveSibling(base + ".json");
    }

    /** Runs one setting in a fresh JVM: this one's java, its flags and class path. */
    private static Result fork(Settings s) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                PoolWorkload.class.getName(), "--child", GSON.toJson(s)));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Result result = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith(RESULT)) {
                    result = GSON.fromJson(line.substring(RESULT.length()), Result.class);
                } else {
                    System.err.println(line);
                }
            }
        }
        int rc = p.waitFor();
        if (rc != 0 || result == null) {
            throw new IllegalStateException(s.pool() + ": the child JVM exited with " + rc + (result == null ? " and no result" : ""));
        }
        return result;
    }

    /** This machine's {@link Blackhole#consumeCPU} cost per token, on one thread, after a warm-up. */
    static double nanosPerToken() {
        long tokens = 50_000;
        for (int i = 0; i < 200; i++) {
            Blackhole.consumeCPU(tokens);
        }
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 200; i++) {
            long t = System.nanoTime();
            Blackhole.consumeCPU(tokens);
            best = Math.min(best, System.nanoTime() - t);
        }
        return (double) best / tokens;
    }

    private static JsonObject meta(Options o, String[] args, double nsPerToken, double seconds) {
        Map<String, Object> m = new LinkedHashMap<>();
        Properties machine = Machine.describe();
        m.put("commit", machine.getProperty("commit"));
        m.put("date", Instant.now().toString());
        m.put("cpus", Integer.parseInt(machine.getProperty("cpus")));
        m.put("cpuModel", machine.getProperty("cpuModel"));
        m.put("os", machine.getProperty("os"));
        m.put("java", machine.getProperty("java"));
        m.put("command", "java -cp jmh/target/benchmarks.jar " + PoolWorkload.class.getName() + " " + String.join(" ", args));
        m.put("nsPerToken", nsPerToken);
        m.put("tokensPerMicro", o.tokensPerMicro);
        m.put("rounds", o.rounds);
        m.put("warmupMillis", o.warmupMillis);
        m.put("windowMillis", o.windowMillis);
        m.put("workers", o.workers);
        m.put("submitters", o.submitters);
        m.put("inFlight", o.inFlight);
        m.put("useSubmit", o.useSubmit);
        m.put("burst", o.burst);
        m.put("burstEveryMicros", o.burstEveryMicros);
        m.put("growthCore", o.growthCore);
        m.put("growthMax", o.growthMax);
        m.put("seconds", Math.round(seconds));
        return GSON.toJsonTree(m).getAsJsonObject();
    }

    static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                if (o.out != null) {
                    throw usage("two output pages: " + o.out + ", " + a);
                }
                o.out = Path.of(a);
                continue;
            }
            switch (a) {
                case "--full" -> o.full = true;
                case "--submit" -> o.useSubmit = true;
                case "--rounds" -> o.rounds = Integer.parseInt(value(args, ++i, a));
                case "--warmup-ms" -> o.warmupMillis = Long.parseLong(value(args, ++i, a));
                case "--window-ms" -> o.windowMillis = Long.parseLong(value(args, ++i, a));
                case "--means-us" -> o.meansMicros = Arrays.stream(value(args, ++i, a).split(",")).mapToDouble(Double::parseDouble).toArray();
                case "--tokens-per-us" -> o.tokensPerMicro = Double.parseDouble(value(args, ++i, a));
                case "--workers" -> o.workers = Integer.parseInt(value(args, ++i, a));
                case "--submitters" -> o.submitters = Integer.parseInt(value(args, ++i, a));
                case "--in-flight" -> o.inFlight = Integer.parseInt(value(args, ++i, a));
                case "--variants" -> o.variants = List.of(value(args, ++i, a).split(","));
                case "--shapes" -> o.shapes = List.of(value(args, ++i, a).split(","));
                case "--pools" -> o.pools = List.of(value(args, ++i, a).split(","));
                case "--growth-pools" -> o.growthPools = List.of(value(args, ++i, a).split(","));
                case "--burst" -> o.burst = Integer.parseInt(value(args, ++i, a));
                case "--burst-every-us" -> o.burstEveryMicros = Long.parseLong(value(args, ++i, a));
                case "--growth-mean-us" -> o.growthMeanMicros = Double.parseDouble(value(args, ++i, a));
                case "--growth-core" -> o.growthCore = Integer.parseInt(value(args, ++i, a));
                case "--growth-max" -> o.growthMax = Integer.parseInt(value(args, ++i, a));
                default -> throw usage("unknown option " + a);
            }
        }
        if (o.out == null) {
            throw usage("no output page");
        }
        for (String v : o.variants) {
            if (!v.equals("platform") && !v.equals("virtual")) {
                throw usage("variant " + v + ": platform or virtual");
            }
        }
        for (String sh : o.shapes) {
            if (!sh.equals("steady") && !sh.equals("growth")) {
                throw usage("shape " + sh + ": steady or growth");
            }
        }
        return o;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw usage(option + " wants a value");
        }
        return args[i];
    }

    private static IllegalArgumentException usage(String why) {
        return new IllegalArgumentException(why + "\nusage: PoolWorkload OUT.md [--full] [--submit] [--rounds 3]"
                + " [--warmup-ms 700] [--window-ms 800] [--means-us 1,10,100] [--tokens-per-us 500]"
                + " [--workers 4] [--submitters 4] [--in-flight 4096] [--variants platform,virtual]"
                + " [--shapes steady,growth] [--pools P,...] [--growth-pools P,...] [--burst 64]"
                + " [--burst-every-us 10000] [--growth-mean-us 100] [--growth-core 1] [--growth-max 16]");
    }
}
