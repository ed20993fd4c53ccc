/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import com.google.gson.Gson;
import dev.handoff.jmh.clients.AsyncLoggerTrial.Variant;
import dev.handoff.jmh.report.Machine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Log4j2's {@code AsyncAppender} with each queue, as a user's async logger runs it: every
 * (kind, variant, round) is one {@link AsyncLoggerTrial} in a fresh JVM, and the runs go to a
 * Markdown page and its JSON ({@link AsyncLoggerPage}).
 *
 * <p>Each run's JVM is this one's {@code java}, with this JVM's options and class path, so that
 * the JIT's profile of one queue's classes never slows another's. Rounds alternate the kinds in
 * the order given ({@code abq, k1, k2, ..., abq, k1, ...}), each round running every variant, so
 * that a drift of the machine hits every kind alike; a kind's ratio to ABQ is taken within each
 * round. A run whose check finds a line lost, repeated or out of order, or whose JVM fails or
 * hangs for {@value #RUN_TIMEOUT_MINUTES} minutes, ends the whole series with exit status 1 and
 * no page.
 *
 * <p>Run (JDK 21+, from the repository root): {@code java -cp jmh/target/benchmarks.jar
 * dev.handoff.jmh.clients.AsyncLoggerRun docs/data/async-logger-COMMIT.md [--lines 1000000]
 * [--rounds 5] [--kinds abq,circular,...] [--variants file,count] [--capacity 1024]
 * [--commit COMMIT]}. The kinds are {@link dev.handoff.jmh.Queues} names; the ratios need
 * {@code abq} among them.
 */
public final class AsyncLoggerRun {

    /** Every FIFO kind against the yardstick. */
    static final List<String> DEFAULT_KINDS = List.of("abq", "circular", "circular+core=ring", "circular+core=cells",
            "circular+wait=spin", "lock-split", "circular+classes=4");

    /** How a child's result line begins; the driver passes its other lines through. */
    private static final String TAG = "async-logger-run: ";

    private static final int RUN_TIMEOUT_MINUTES = 10;

    private static final Gson GSON = new Gson();

    private AsyncLoggerRun() {
    }

    /** What to run, from the command line. */
    record Options(Path page, long lines, int rounds, List<String> kinds, List<Variant> variants, int capacity,
            String commit, String child) {

        static Options parse(String... args) {
            Path page = null;
            long lines = 1_000_000;
            int rounds = 5;
            List<String> kinds = DEFAULT_KINDS;
            List<Variant> variants = List.of(Variant.FILE, Variant.COUNT);
            int capacity = 1024;
            String commit = null;
            String child = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--lines" -> lines = Long.parseLong(args[++i]);
                    case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                    case "--kinds" -> kinds = List.of(args[++i].split(","));
                    case "--variants" -> variants = Arrays.stream(args[++i].split(",")).map(Variant::of).toList();
                    case "--capacity" -> capacity = Integer.parseInt(args[++i]);
                    case "--commit" -> commit = args[++i];
                    case "--child" -> child = args[++i];
                    default -> {
                        if (args[i].startsWith("--") || page != null) {
                            throw new IllegalArgumentException("unknown argument " + args[i]);
                        }
                        page = Path.of(args[i]);
                    }
                }
            }
            if (page == null && child == null) {
                throw new IllegalArgumentException("usage: AsyncLoggerRun PAGE.md [--lines N] [--rounds R] "
                        + "[--kinds k1,k2] [--variants file,count] [--capacity C] [--commit COMMIT]");
            }
            return new Options(page, lines, rounds, kinds, variants, capacity, commit, child);
        }
    }

    /**
     * Runs the series and writes the page and its JSON, or, with {@code --child KIND --variants
     * VARIANT}, runs one trial and prints its result.
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        Options options = Options.parse(args);
        if (options.child() != null) {
            System.exit(child(options) ? 0 : 1);
        }
        Instant started = Instant.now();
        List<TrialResult> runs = series(options);
        if (runs == null) {
            System.exit(1);
        }
        AsyncLoggerPage.Series series = new AsyncLoggerPage.Series(commit(options), Machine.describe(), command(args),
                started.toString(), Instant.now().toString(), options.lines(), options.capacity(), options.rounds(),
                options.kinds(), options.variants().stream().map(Variant::label).toList(), runs);
        AsyncLoggerPage.write(series, options.page());
        System.out.println("wrote " + options.page() + " and " + AsyncLoggerPage.jsonOf(options.page()));
    }

    /** Every run, round by round; null when one failed (its reason already printed). */
    static List<TrialResult> series(Options options) throws IOException, InterruptedException {
        List<TrialResult> runs = new ArrayList<>();
        for (int round = 0; round < options.rounds(); round++) {
            for (Variant variant : options.variants()) {
                for (String kind : options.kinds()) {
                    TrialResult run = fork(options, kind, variant);
                    if (run == null) {
                        return null;
                    }
                    runs.add(run.inRound(round));
                    System.out.println(progress(round, options.rounds(), run));
                }
            }
        }
        return runs;
    }

    private static String progress(int round, int rounds, TrialResult run) {
        return String.format(Locale.ROOT, "round %d/%d %-5s %-22s %8.3f s wall %8.3f CPU-s %s switches/line",
                round + 1, rounds, run.variant(), run.kind(), run.wallNanos() / 1e9, run.cpuNanos() / 1e9,
                run.contextSwitches() < 0 ? "n/a" : String.format(Locale.ROOT, "%.4f", (double) run.contextSwitches() / run.lines()));
    }

    /** One trial in a fresh JVM; null, with the reason printed, if it failed. */
    private static TrialResult fork(Options options, String kind, Variant variant) throws IOException, InterruptedException {
        List<String> command = childCommand(options, kind, variant);
        Path output = Files.createTempFile("async-logger-run-", ".out");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectOutput(output.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            if (!process.waitFor(RUN_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                System.err.println(variant.label() + " " + kind + ": the run did not end in " + RUN_TIMEOUT_MINUTES + " minutes");
                return null;
            }
            return resultOf(kind, variant, process.exitValue(), Files.readAllLines(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** This JVM's java, options and class path, running one trial of {@code kind}. */
    private static List<String> childCommand(Options options, String kind, Variant variant) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), AsyncLoggerRun.class.getName(),
                "--child", kind, "--variants", variant.label(),
                "--lines", Long.toString(options.lines()), "--capacity", Integer.toString(options.capacity())));
        return command;
    }

    /** The child's result from its output, or null, with the reason printed, if it failed. */
    private static TrialResult resultOf(String kind, Variant variant, int exitStatus, List<String> output) {
        TrialResult result = null;
        for (String line : output) {
            if (line.startsWith(TAG)) {
                result = GSON.fromJson(line.substring(TAG.length()), TrialResult.class);
            } else {
                System.out.println(line); // the JVM's own, such as a diagnostic option's
            }
        }
        if (exitStatus != 0 || result == null || !result.passed()) {
            System.err.println(variant.label() + " " + kind + ": the run failed (exit status " + exitStatus + ")"
                    + (result == null ? "" : ": " + result.problems()));
            return null;
        }
        return result;
    }

    /** The child's one trial: prints its result line, and its problems to standard error. */
    private static boolean child(Options options) throws IOException, InterruptedException {
        if (options.variants().size() != 1) {
            throw new IllegalArgumentException("--child runs one variant");
        }
        TrialResult result = AsyncLoggerTrial.run(options.child(), options.variants().get(0), options.lines(), options.capacity());
        System.out.println(TAG + GSON.toJson(result));
        for (String problem : result.problems()) {
            System.err.println(options.child() + " " + result.variant() + ": " + problem);
        }
        return result.passed();
    }

    private static String commit(Options options) {
        return options.commit() != null ? options.commit() : Machine.describe().getProperty("commit");
    }

    private static String command(String[] args) {
        List<String> words = new ArrayList<>(List.of("java"));
        words.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        words.addAll(List.of("-cp", System.getProperty("java.class.path"), AsyncLoggerRun.class.getName()));
        words.addAll(List.of(args));
        return String.join(" ", words);
    }
}
