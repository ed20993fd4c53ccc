/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link WorkThroughput}'s gaps of work: geometric, of the mean named. */
class WorkThroughputTest {

    @Test
    void gapsHaveTheMeanNamedAndTheGeometricSpread() {
        SplittableRandom random = new SplittableRandom(1);
        int n = 200_000;
        double sum = 0;
        int zeros = 0;
        for (int i = 0; i < n; i++) {
            long gap = WorkThroughput.geometric(random, 100);
            assertTrue(gap >= 0, "gap " + gap);
            sum += gap;
            if (gap == 0) {
                zeros++;
            }
        }
        assertEquals(100, sum / n, 1.5); // the mean's standard error here is about 0.22
        assertEquals(1.0 / 101, (double) zeros / n, 0.001); // P(0) = p = 1 / (mean + 1)
    }

    @Test
    void noWorkIsNoGap() {
        assertEquals(0, WorkThroughput.geometric(new SplittableRandom(1), 0));
    }
}
