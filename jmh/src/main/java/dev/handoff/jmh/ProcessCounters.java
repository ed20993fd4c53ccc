/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this JVM has spent so far: process CPU time (every thread's, the JIT's and the GC's
 * included, and those of threads that have ended) and context switches.
 *
 * <p>Context switches are the sum of {@code voluntary_ctxt_switches} and
 * {@code nonvoluntary_ctxt_switches} over {@code /proc/self/task/*}{@code /status}: the threads
 * alive at the moment of the reading. Linux drops a thread's counts from there when it ends, so
 * a difference of two readings counts only threads alive at both; -1 where there is no
 * {@code /proc} (not Linux).
 *
 * @param cpuNanos process CPU time in nanoseconds, or -1 where the JVM cannot tell
 * @param contextSwitches context switches of the live threads, or -1 where unknown
 */
public record ProcessCounters(long cpuNanos, long contextSwitches) {

    private static final Path TASKS = Path.of("/proc/self/task");

    /** Reads both counters now. */
    public static ProcessCounters now() {
        return new ProcessCounters(readCpuNanos(), readContextSwitches());
    }

    /** Process CPU time in nanoseconds, or -1. */
    public static long readCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** Context switches summed over the live threads, or -1 without {@code /proc/self/task}. */
    public static long readContextSwitches() {
        String[] tasks = TASKS.toFile().list(); // a plain listing: a stream's iterator throws when a thread ends
        if (tasks == null) {
            return -1;
        }
        long sum = 0;
        for (String task : tasks) {
            sum += switchesOf(TASKS.resolve(task).resolve("status"));
        }
        return sum;
    }

    /** One thread's voluntary plus involuntary switches; 0 if it ended while being read. */
    private static long switchesOf(Path status) {
        long sum = 0;
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0; // the thread ended between listing and reading
        }
        return sum;
    }
}
