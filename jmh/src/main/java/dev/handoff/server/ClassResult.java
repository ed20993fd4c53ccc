/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import java.util.Arrays;
import java.util.List;

/**
 * What the client saw of one importance class in a run of the mixed workload, or of several runs
 * pooled ({@link #pool}).
 *
 * @param importanceClass {@link Job#IMPORTANT}, {@link Job#ORDINARY}, or {@link #ALL} for every
 *        class together
 * @param deadlineNanos every request's deadline, from the start of its connect to its last
 *        response byte
 * @param latencyNanos the completed requests' latencies, sorted
 * @param failed the requests that failed (each also a miss)
 * @param childRates each child's service rate (requests per second over its own span), one entry
 *        per child and run, for {@link #fairness()}
 */
public record ClassResult(int importanceClass, long deadlineNanos, long[] latencyNanos, int failed, double[] childRates) {

    /** The class of a result that pools every class. */
    public static final int ALL = -1;

    /**
     * Returns the requests made: completed and failed.
     *
     * @return the request count
     */
    public int requests() {
        return latencyNanos.length + failed;
    }

    /**
     * Returns the requests that missed their deadline: the failed ones and those whose response
     * completed more than {@code deadlineNanos} after their connect began.
     *
     * @return the miss count
     */
    public int missed() {
        int late = 0;
        for (int i = latencyNanos.length - 1; i >= 0 && latencyNanos[i] > deadlineNanos; i--) {
            late++; // sorted: the late ones are the tail
        }
        return failed + late;
    }

    /**
     * Returns the QoSWeaver paper's deadline-miss ratio: missed requests over requests made.
     *
     * @return the ratio, or NaN when no request was made
     */
    public double missRatio() {
        return requests() == 0 ? Double.NaN : (double) missed() / requests();
    }

    /**
     * Returns the latency at a percentile, by nearest rank over the completed requests.
     *
     * @param percentile in (0, 100]
     * @return the latency in ns, or -1 when nothing completed
     */
    public long percentileNanos(double percentile) {
        return LoadResult.percentileNanos(latencyNanos, percentile);
    }

    /**
     * Returns the CAL paper's fairness over this class's children (see {@link LoadResult#fairness}).
     *
     * @return (m - d)/m over the children's service rates, NaN when there are none
     */
    public double fairness() {
        return LoadResult.fairness(childRates);
    }

    /**
     * Pools results with one deadline into one: latencies merged, failures and children added.
     *
     * @param results the results to pool, not empty, all with the same deadline
     * @param importanceClass the pooled result's class (ALL when the results are of several classes)
     * @return the pooled result
     * @throws IllegalArgumentException if results is empty or the deadlines differ
     */
    public static ClassResult pool(List<ClassResult> results, int importanceClass) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("nothing to pool");
        }
        long deadline = results.get(0).deadlineNanos();
        int failed = 0;
        long[] latencies = new long[0];
        double[] rates = new double[0];
        for (ClassResult r : results) {
            if (r.deadlineNanos() != deadline) {
                throw new IllegalArgumentException("cannot pool deadlines " + deadline + " and " + r.deadlineNanos() + " ns");
            }
            failed += r.failed();
            latencies = concat(latencies, r.latencyNanos());
            rates = concat(rates, r.childRates());
        }
        Arrays.sort(latencies);
        return new ClassResult(importanceClass, deadline, latencies, failed, rates);
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static double[] concat(double[] a, double[] b) {
        double[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
