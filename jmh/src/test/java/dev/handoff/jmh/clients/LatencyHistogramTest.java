/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The histogram's percentiles on inputs whose percentiles are known. */
class LatencyHistogramTest {

    /** Below 64 every value has its own bucket, so the nearest-rank percentile is exact. */
    @Test
    void smallValuesGiveExactPercentiles() {
        LatencyHistogram h = new LatencyHistogram();
        for (int v = 1; v <= 50; v++) { // 1..50, then 51..60 twice
            h.record(v);
        }
        for (int v = 51; v <= 60; v++) {
            h.record(v);
            h.record(v);
        }
        assertEquals(70, h.count());
        assertEquals(35, h.percentile(50)); // the 35th of 70
        assertEquals(60, h.percentile(99)); // the 70th
        assertEquals(1, h.percentile(0));
        assertEquals(51, h.percentile(51.0 / 70 * 100)); // the 51st: the first 51
    }

    /**
     * A tail of 2 in 100 moves p99 from 10 to about a million; 1 in 100 does not. A histogram that
     * lost the tail or misplaced the rank fails one of the two.
     */
    @Test
    void theTailDecidesP99() {
        LatencyHistogram oneSlow = new LatencyHistogram();
        LatencyHistogram twoSlow = new LatencyHistogram();
        for (int i = 0; i < 99; i++) {
            oneSlow.record(10);
        }
        oneSlow.record(1_000_000);
        for (int i = 0; i < 98; i++) {
            twoSlow.record(10);
        }
        twoSlow.record(1_000_000);
        twoSlow.record(1_000_000);
        assertEquals(10, oneSlow.percentile(99));
        assertEquals(10, twoSlow.percentile(98));
        long p99 = twoSlow.percentile(99);
        assertTrue(p99 >= 1_000_000 && p99 <= 1_000_000 * 33 / 32, "p99 " + p99);
    }

    /** Large values: the reported value is the bucket's highest, at most 1/32 above the true one. */
    @Test
    void largeValuesAreWithinOneThirtySecond() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 1; v <= 100_000; v++) {
            h.record(v * 1_000); // 1 us .. 100 ms in ns
        }
        for (double p : new double[] {1, 50, 90, 99, 99.9, 100}) {
            long exact = (long) Math.ceil(p / 100 * 100_000) * 1_000;
            long got = h.percentile(p);
            assertTrue(got >= exact && got <= exact + exact / 32, "p" + p + ": " + got + " for " + exact);
        }
    }

    /** Histograms added together give the percentiles of the union. */
    @Test
    void addedHistogramsCountEveryValue() {
        LatencyHistogram a = new LatencyHistogram();
        LatencyHistogram b = new LatencyHistogram();
        for (int v = 0; v < 40; v++) {
            (v % 2 == 0 ? a : b).record(v);
        }
        a.add(b);
        assertEquals(40, a.count());
        assertEquals(19, a.percentile(50)); // the 20th of 0..39
        assertEquals(Long.MAX_VALUE, LatencyHistogram.highestIn(LatencyHistogram.index(Long.MAX_VALUE)));
    }
}
