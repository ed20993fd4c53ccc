/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import java.util.Locale;

/**
 * The mixed workload of the deadline experiment (the QoSWeaver paper's importance classes and deadline-miss
 * ratio): a share of the client's children are important, and every request has a deadline.
 *
 * <p>An important child sends {@link Job#IMPORTANT} as its request byte, every other child
 * {@link Job#ORDINARY}. A request misses its deadline when its response is not complete within
 * {@code deadlineMillis} of the start of its connect, or when it fails.
 *
 * @param importantShare the share of children that are important, 0 to 1
 * @param deadlineMillis each request's deadline, from connect to last response byte, {@code > 0}
 * @param workers workers of every design in the deadline phase, {@code > 0}
 */
record MixedLoad(double importantShare, int deadlineMillis, int workers) {

    /** Workers when {@code workers=} is not given: the papers' count, fewer than the 140 children. */
    static final int DEFAULT_WORKERS = 50;

    /**
     * Checks every field.
     *
     * @throws IllegalArgumentException if the share is outside [0, 1] or a count is not positive
     */
    MixedLoad {
        if (!(importantShare >= 0 && importantShare <= 1)) {
            throw new IllegalArgumentException("important share must be in [0, 1], was " + importantShare);
        }
        if (deadlineMillis <= 0) {
            throw new IllegalArgumentException("deadline must be > 0 ms, was " + deadlineMillis);
        }
        if (workers <= 0) {
            throw new IllegalArgumentException("workers must be > 0, was " + workers);
        }
    }

    /**
     * Parses {@code important=P,deadline=MS[,workers=W]}, e.g. {@code important=0.2,deadline=75}.
     *
     * @param text the option's value
     * @param defaultWorkers workers when the text names none
     * @return the workload
     * @throws IllegalArgumentException if a key is unknown, missing or repeated, or a value is bad
     */
    static MixedLoad parse(String text, int defaultWorkers) {
        Double share = null;
        Integer deadline = null;
        Integer workers = null;
        for (String part : text.split(",", -1)) {
            int eq = part.indexOf('=');
            String key = eq < 0 ? part.trim() : part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = eq < 0 ? "" : part.substring(eq + 1).trim();
            switch (key) {
                case "important" -> share = once(share, key, text, parseShare(value, text));
                case "deadline" -> deadline = once(deadline, key, text, parseInt(key, value, text));
                case "workers" -> workers = once(workers, key, text, parseInt(key, value, text));
                default -> throw new IllegalArgumentException("--mixed '" + text + "': unknown key '" + key
                        + "'; valid: important=P (0 to 1), deadline=MS, workers=W");
            }
        }
        if (share == null || deadline == null) {
            throw new IllegalArgumentException("--mixed '" + text + "' needs important=P and deadline=MS");
        }
        return new MixedLoad(share, deadline, workers == null ? defaultWorkers : workers);
    }

    private static <T> T once(T previous, String key, String text, T value) {
        if (previous != null) {
            throw new IllegalArgumentException("--mixed '" + text + "' gives " + key + " twice");
        }
        return value;
    }

    private static double parseShare(String value, String text) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--mixed '" + text + "': important wants a number from 0 to 1, got '"
                    + value + "'");
        }
    }

    private static int parseInt(String key, String value, String text) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--mixed '" + text + "': " + key + " wants an integer, got '" + value + "'");
        }
    }

    /**
     * Returns the class of child {@code child} of {@code children}: exactly
     * {@code round(children * importantShare)} children are important, spread evenly over the
     * start order so that no client host holds all of them.
     *
     * @param child the child's index, 0 to children - 1
     * @param children the number of children in the run
     * @return {@link Job#IMPORTANT} or {@link Job#ORDINARY}
     * @throws IndexOutOfBoundsException if child is outside [0, children)
     */
    int classOf(int child, int children) {
        java.util.Objects.checkIndex(child, children);
        long important = Math.round(children * importantShare);
        // child is important when the running count floor(i * important / children) steps up at it
        return (child + 1) * important / children > child * important / children ? Job.IMPORTANT : Job.ORDINARY;
    }

    /**
     * Returns the deadline in nanoseconds.
     *
     * @return {@code deadlineMillis} in ns
     */
    long deadlineNanos() {
        return deadlineMillis * 1_000_000L;
    }

    /**
     * Returns a short name for file names, e.g. {@code important20-deadline75ms}.
     *
     * @return the tag
     */
    String tag() {
        return String.format(Locale.ROOT, "important%d-deadline%dms", Math.round(importantShare * 100), deadlineMillis);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d%% of the children important, %d ms deadline, %d workers",
                Math.round(importantShare * 100), deadlineMillis, workers);
    }
}
