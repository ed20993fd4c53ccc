/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

/**
 * Counts of non-negative values (nanoseconds) in log-spaced buckets, for percentiles with a
 * relative error of at most 1/32 (about 3%). Not thread-safe: each recording thread owns one, and
 * the owners are {@link #add added} together once they have stopped.
 */
/*
 * Layout, as HdrHistogram's with five significant bits: values 0..63 each have a bucket of their
 * own; above, a value v with highest set bit e (e >= 6) falls into one of 32 equal sub-buckets of
 * [2^e, 2^(e+1)), chosen by the five bits below the highest:
 *
 *   index(v) = v                                  for v < 64
 *            = 64 + (e - 6) * 32 + (v >>> (e - 5)) - 32   otherwise
 *
 * A bucket above 63 spans 2^(e-5) values, 1/32 of its lowest value, so the value a percentile
 * reports (the bucket's highest) is at most 1/32 above the true one and never below it.
 */
final class LatencyHistogram {

    private static final int EXACT = 64;
    private static final int SUB_BUCKETS = 32;
    private static final int SUB_BITS = 5;
    /** Highest set bit of a positive long is at most 62: 64 exact, then 57 octaves of 32. */
    private static final int BUCKETS = EXACT + (62 - 6 + 1) * SUB_BUCKETS;

    private final long[] counts = new long[BUCKETS];
    private long total;

    /** Counts one value; a negative value (a clock that stepped back) counts as 0. */
    void record(long value) {
        counts[index(Math.max(0, value))]++;
        total++;
    }

    /** Adds another histogram's counts to this one. */
    void add(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
    }

    /** The number of values recorded. */
    long count() {
        return total;
    }

    /**
     * The value at a percentile by nearest rank: the highest value of the bucket that holds the
     * {@code ceil(p / 100 * count)}-th smallest value (the smallest for p = 0).
     *
     * @param percentile in [0, 100]
     * @return that value, or 0 when nothing was recorded
     */
    long percentile(double percentile) {
        if (percentile < 0 || percentile > 100) {
            throw new IllegalArgumentException("percentile " + percentile + " not in [0, 100]");
        }
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(percentile / 100 * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return highestIn(i);
            }
        }
        throw new AssertionError("rank " + rank + " beyond count " + total);
    }

    static int index(long v) {
        if (v < EXACT) {
            return (int) v;
        }
        int e = 63 - Long.numberOfLeadingZeros(v);
        return EXACT + (e - 6) * SUB_BUCKETS + (int) (v >>> (e - SUB_BITS)) - SUB_BUCKETS;
    }

    static long highestIn(int index) {
        if (index < EXACT) {
            return index;
        }
        int e = 6 + (index - EXACT) / SUB_BUCKETS;
        long top = SUB_BUCKETS + (index - EXACT) % SUB_BUCKETS;
        return ((top + 1) << (e - SUB_BITS)) - 1;
    }
}
