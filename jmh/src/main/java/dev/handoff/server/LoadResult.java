/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import java.util.List;

/**
 * What the client saw in one run.
 *
 * @param wallNanos from the release of the children to the last child's end
 * @param latencyNanos every completed request's latency (connect to last response byte), sorted
 * @param completed requests that got their whole response
 * @param failed requests that failed (refused, reset, timed out, or never finished)
 * @param fairness the CAL paper's fairness (m - d)/m over the children's service rates, see
 *        {@link #fairness(double[])}
 * @param classes in the mixed workload, what each importance class saw ({@link Job#IMPORTANT}
 *        first); empty otherwise
 */
public record LoadResult(long wallNanos, long[] latencyNanos, int completed, int failed, double fairness,
                         List<ClassResult> classes) {

    /**
     * Returns the latency at a percentile, by nearest rank.
     *
     * @param percentile in (0, 100]
     * @return the latency in nanoseconds, or -1 when nothing completed
     */
    public long percentileNanos(double percentile) {
        return percentileNanos(latencyNanos, percentile);
    }

    /**
     * Returns the value at a percentile of sorted latencies, by nearest rank.
     *
     * @param sorted latencies in ascending order
     * @param percentile in (0, 100]
     * @return the latency in nanoseconds, or -1 when there is none
     */
    static long percentileNanos(long[] sorted, double percentile) {
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /**
     * The CAL paper's fairness: with m the mean and d the (population) standard deviation of what each
     * client got, fairness = (m - d) / m; 1 when every client got the same, lower the more they
     * differ. The CAL paper counts messages per client in a fixed time; here every child makes the same
     * number of requests, so what a child "got" is its service rate: requests completed divided by
     * the child's own span, from its first connect to its last response.
     *
     * @param perClient each client's share
     * @return (m - d)/m, or NaN when there is nothing to compare
     */
    public static double fairness(double[] perClient) {
        if (perClient.length == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (double v : perClient) {
            sum += v;
        }
        double m = sum / perClient.length;
        double squares = 0;
        for (double v : perClient) {
            squares += (v - m) * (v - m);
        }
        double d = Math.sqrt(squares / perClient.length);
        return m == 0 ? Double.NaN : (m - d) / m;
    }
}
