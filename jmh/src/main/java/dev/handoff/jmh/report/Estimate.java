/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.report;

import java.util.Arrays;

/**
 * A median and half the interquartile range: how the report summarises a benchmark's measured
 * iterations, all forks pooled. A ratio's error is both sides' relative half-IQRs in quadrature.
 */
record Estimate(double median, double halfIqr) {

    /** The estimate of the given samples, NaNs left out; NaN and NaN if none is left. */
    static Estimate of(double[] xs) {
        double[] s = Arrays.stream(xs).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (s.length == 0) {
            return new Estimate(Double.NaN, Double.NaN);
        }
        return new Estimate(quantile(s, 0.5), (quantile(s, 0.75) - quantile(s, 0.25)) / 2);
    }

    /** This estimate over {@code base}: the ratio of the medians, relative errors in quadrature. */
    Estimate over(Estimate base) {
        double r = median / base.median;
        double rel = Math.hypot(halfIqr / median, base.halfIqr / base.median);
        return new Estimate(r, r * rel);
    }

    /** The q-quantile of sorted samples, linear between the two nearest. */
    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    }
}
