/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** What the numbers came from: CPU model and count, OS, and the load around the run. */
final class Machine {

    private Machine() {
    }

    static Properties describe() {
        Properties p = new Properties();
        p.setProperty("cpus", String.valueOf(Runtime.getRuntime().availableProcessors()));
        p.setProperty("cpuModel", cpuModel());
        p.setProperty("os", System.getProperty("os.name") + " " + System.getProperty("os.version")
                + " " + System.getProperty("os.arch"));
        p.setProperty("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        return p;
    }

    /** The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them. */
    static String loadAverage() {
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
}
