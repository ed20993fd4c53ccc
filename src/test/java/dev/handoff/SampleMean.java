/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.Locale;

/**
 * The mean of a sample of probe counts and its standard error, and the two-sided check the theorem
 * properties make with it: {@code |mean - exact| <= z * se + tolerance * exact}.
 *
 * <p>{@code z} is the half-width of the interval in standard errors, chosen by each property from
 * the false-alarm probability it allows; {@code tolerance} is how far the structure may lie from
 * the uniform-hashing value by design (double hashing is an approximation of uniform hashing),
 * measured and stated where it is not 0.
 *
 * @param mean the sample mean
 * @param se its standard error
 * @param n the number of values
 */
record SampleMean(double mean, double se, int n) {

    /** The mean of independent values, with the sample standard deviation over sqrt(n). */
    static SampleMean ofIndependent(double[] x) {
        double mean = mean(x, 0, x.length);
        double squares = 0;
        for (double v : x) {
            squares += (v - mean) * (v - mean);
        }
        return new SampleMean(mean, Math.sqrt(squares / (x.length - 1) / x.length), x.length);
    }

    /**
     * The mean of a series whose consecutive values depend on each other (a steady state), with
     * the standard error from {@code batches} means of consecutive batches: batches much longer
     * than the series' memory are nearly independent, and their means nearly normal, so
     * {@code (mean - exact) / se} follows Student's t with {@code batches - 1} degrees of freedom.
     */
    static SampleMean ofBatches(double[] x, int batches) {
        int size = x.length / batches;
        double[] means = new double[batches];
        for (int b = 0; b < batches; b++) {
            means[b] = mean(x, b * size, (b + 1) * size);
        }
        SampleMean ofMeans = ofIndependent(means);
        return new SampleMean(ofMeans.mean(), ofMeans.se(), size * batches);
    }

    private static double mean(double[] x, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += x[i];
        }
        return sum / (to - from);
    }

    /** How many standard errors the mean lies from exact (0 when se is 0 and they agree). */
    double z(double exact) {
        double d = mean - exact;
        return se == 0 ? (Math.abs(d) < 1e-12 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, d)) : d / se;
    }

    /** Whether the mean lies within z standard errors plus tolerance * exact of exact. */
    boolean agreesWith(double exact, double z, double tolerance) {
        return Math.abs(mean - exact) <= z * se + tolerance * exact + 1e-12;
    }

    /** Mean, exact value and the distance between them, for an assertion message. */
    String against(double exact) {
        return String.format(Locale.ROOT, "mean %.4f vs exact %.4f (%+.2f%%), se %.4f, z %.2f, %d values",
                mean, exact, 100 * (mean / exact - 1), se, z(exact), n);
    }
}
