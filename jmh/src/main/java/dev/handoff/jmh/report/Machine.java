/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import java.io.InputStream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What the numbers came from: CPU count ({@code cpus}), CPU model ({@code cpuModel}), OS
 * ({@code os}), JVM ({@code java}) and commit ({@code commit}), and the load around the run.
 */
public final class Machine {

    private Machine() {
    }

    public static Properties describe() {
        Properties p = new Properties();
        p.setProperty("cpus", String.valueOf(Runtime.getRuntime().availableProcessors()));
        p.setProperty("cpuModel", cpuModel());
        p.setProperty("os", System.getProperty("os.name") + " " + System.getProperty("os.version")
                + " " + System.getProperty("os.arch"));
        p.setProperty("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        p.setProperty("commit", commit());
        return p;
    }

    /**
     * The commit the run measured: {@code git rev-parse --short HEAD} in the working directory,
     * with "+changes" when the tree differs from it, or "unknown" without git (a device machine:
     * write the commit beside the JSON by hand there).
     */
    static String commit() {
        String head = git("rev-parse", "--short", "HEAD");
        if (head.isEmpty()) {
            return "unknown";
        }
        return git("status", "--porcelain", "--untracked-files=no").isEmpty() ? head : head + "+changes";
    }

    private static String git(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "git";
        System.arraycopy(args, 0, command, 1, args.length);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them. */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return System.getProperty("os.arch");
    }

    static Path metaFile(Path results) {
        return results.resolveSibling(results.getFileName() + ".properties");
    }

    /**
     * The machine's description kept beside a results file ({@link #metaFile}), as {@link Suite}
     * wrote it; empty if there is none.
     */
    static Properties readMeta(Path results) throws IOException {
        Properties meta = new Properties();
        Path file = metaFile(results);
        if (Files.exists(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                meta.load(in);
            }
        }
        return meta;
    }
}
