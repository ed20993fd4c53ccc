/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@code main} class of the test sources in a JVM of its own, with the virtual-thread
 * scheduler given {@code carriers} carrier threads: the java of this JVM, its class path, and
 * {@code -Djdk.virtualThreadScheduler.parallelism=carriers -Djdk.virtualThreadScheduler.maxPoolSize=carriers}
 * (no carrier added while one is pinned, so one carrier means one). The scheduler's size is fixed
 * when the first virtual thread starts, hence the fork. The child's stdout and stderr come back
 * as lines, together.
 */
final class ForkedJvm {

    /** What a forked JVM printed and how it ended. */
    record Result(int exitCode, boolean timedOut, List<String> lines) {

        /** The lines that start with {@code prefix}, the prefix cut off. */
        List<String> linesAfter(String prefix) {
            return lines.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList();
        }

        /** The output, for a failure message: the last {@code most} lines. */
        String tail(int most) {
            return String.join("\n", lines.subList(Math.max(0, lines.size() - most), lines.size()));
        }
    }

    private ForkedJvm() {
    }

    /**
     * Runs {@code main} with {@code carriers} carriers and waits for it, at most {@code timeoutSeconds}
     * (then it is destroyed and the result says so).
     *
     * @param jvmOptions more options for the child, before the class name (system properties)
     */
    static Result run(Class<?> main, int carriers, long timeoutSeconds, List<String> jvmOptions, List<String> args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Xmx1g");
        command.add("-Djdk.virtualThreadScheduler.parallelism=" + carriers);
        command.add("-Djdk.virtualThreadScheduler.maxPoolSize=" + carriers);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(args);
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            } catch (IOException ended) {
                // the child was destroyed: what was read is the output
            }
        });
        boolean ended = child.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        synchronized (lines) {
            return new Result(ended ? child.exitValue() : -1, !ended, List.copyOf(lines));
        }
    }
}
