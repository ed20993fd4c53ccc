/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.HandoffStats.SojournTimes;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SojournHistogram}: its buckets tile every non-negative long with the stated width; its
 * percentiles keep the stated bound (never below the true value, at most 1/16 above, exact
 * below 32) on known and on random inputs; concurrent recording counts every value; and the
 * percentiles cover the window the class comment states, on a clock the test moves.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SojournHistogramTest {

    private static final double[] QUANTILES = {0.50, 0.90, 0.99, 0.999};

    private static long[] percentiles(SojournTimes t) {
        return new long[] {t.p50Nanos(), t.p90Nanos(), t.p99Nanos(), t.p999Nanos()};
    }

    /** The class comment's bound: truth <= reported, and reported - truth < truth / 16 (0 below 32). */
    private static void assertWithinBound(long truth, long reported, String what) {
        assertTrue(reported >= truth, what + ": reported " + reported + " is below the true " + truth);
        long slack = truth < SojournHistogram.EXACT_BELOW ? 0 : truth / SojournHistogram.SUB_BUCKETS;
        assertTrue(reported - truth <= slack, what + ": reported " + reported + " is more than 1/16 over " + truth);
    }

    /** Records values and checks each percentile against the sorted values' own. */
    private static void assertPercentilesOf(long[] values) {
        SojournHistogram h = new SojournHistogram(() -> 0L);
        for (long v : values) {
            h.record(v, 0L);
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        SojournTimes t = h.snapshot(0L);
        assertEquals(values.length, t.count());
        assertEquals(Arrays.stream(values).sum(), t.totalNanos());
        assertEquals(sorted[sorted.length - 1], t.maxNanos());
        long[] reported = percentiles(t);
        for (int q = 0; q < QUANTILES.length; q++) {
            long rank = Math.max(1, (long) Math.ceil(QUANTILES[q] * values.length));
            assertWithinBound(sorted[(int) rank - 1], reported[q], "p" + QUANTILES[q] * 100);
        }
    }

    @Test
    void theBucketsTileEveryNonNegativeLongWithWidthAtMostASixteenthOfTheirLowest() {
        assertEquals(0, SojournHistogram.lowestIn(0));
        assertEquals(Long.MAX_VALUE, SojournHistogram.highestIn(SojournHistogram.BUCKETS - 1));
        for (int i = 0; i < SojournHistogram.BUCKETS - 1; i++) {
            long lowest = SojournHistogram.lowestIn(i);
            long highest = SojournHistogram.highestIn(i);
            assertEquals(highest + 1, SojournHistogram.lowestIn(i + 1), "bucket " + i + " meets the next");
            assertEquals(i, SojournHistogram.bucketOf(lowest));
            assertEquals(i, SojournHistogram.bucketOf(highest));
            long width = highest - lowest + 1;
            assertTrue(i < SojournHistogram.EXACT_BELOW ? width == 1 : width <= lowest / SojournHistogram.SUB_BUCKETS,
                    "bucket " + i + ": " + lowest + ".." + highest);
        }
        assertEquals(SojournHistogram.BUCKETS - 1, SojournHistogram.bucketOf(Long.MAX_VALUE));
    }

    @Test
    void knownInputsGivePercentilesWithinTheBound() {
        long[] oneToTenThousand = new long[10_000];
        Arrays.setAll(oneToTenThousand, i -> i + 1);
        assertPercentilesOf(oneToTenThousand);

        SojournHistogram h = new SojournHistogram(() -> 0L);
        for (long v = 1; v <= 10_000; v++) {
            h.record(v, 0L);
        }
        SojournTimes t = h.snapshot(0L);
        assertEquals(5_000.5, t.meanNanos());
        assertWithinBound(5_000, t.p50Nanos(), "p50");
        assertWithinBound(9_000, t.p90Nanos(), "p90");
        assertWithinBound(9_900, t.p99Nanos(), "p99");
        assertWithinBound(9_990, t.p999Nanos(), "p99.9");
    }

    @Test
    void valuesBelowThirtyTwoAreExact() {
        SojournHistogram h = new SojournHistogram(() -> 0L);
        for (int i = 0; i < 1000; i++) {
            h.record(i < 990 ? 7 : 31, 0L);
        }
        assertEquals(7, h.snapshot(0L).p50Nanos());
        assertEquals(7, h.snapshot(0L).p99Nanos());
        assertEquals(31, h.snapshot(0L).p999Nanos());
    }

    @Test
    void randomInputsOverManyDecadesGivePercentilesWithinTheBound() {
        SplittableRandom random = new SplittableRandom(32);
        for (int run = 0; run < 20; run++) {
            long[] values = new long[1 + random.nextInt(50_000)];
            // log-uniform from 1 ns to about 2^50 ns (13 days): every scale a queue wait may have
            Arrays.setAll(values, i -> (long) Math.pow(2, random.nextDouble(50)));
            assertPercentilesOf(values);
        }
    }

    @Test
    void anEmptyHistogramReadsZeroAndNoMean() {
        SojournTimes t = new SojournHistogram(() -> 0L).snapshot(0L);
        assertTrue(t.enabled());
        assertEquals(0, t.count());
        assertEquals(0, t.maxNanos());
        assertEquals(0, t.p999Nanos());
        assertTrue(Double.isNaN(t.meanNanos()));
    }

    @Test
    void aNegativeDurationIsRecordedAsZero() {
        SojournHistogram h = new SojournHistogram(() -> 0L);
        h.record(-5, 0L);
        assertEquals(1, h.snapshot(0L).count());
        assertEquals(0, h.snapshot(0L).maxNanos());
    }

    @Test
    void concurrentRecordingCountsEveryValue() throws InterruptedException {
        SojournHistogram h = new SojournHistogram(() -> 0L);
        int threads = 4;
        int each = 250_000;
        AtomicLong total = new AtomicLong();
        AtomicLong max = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] recorders = new Thread[threads];
        for (int r = 0; r < threads; r++) {
            int seed = r;
            recorders[r] = Thread.ofPlatform().start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                long sum = 0;
                long highest = 0;
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    long v = i % 2 == 0 ? 1_000 : random.nextLong(1L << 40); // half in one bucket: contended
                    h.record(v, 0L);
                    sum += v;
                    highest = Math.max(highest, v);
                }
                total.addAndGet(sum);
                max.accumulateAndGet(highest, Math::max);
            });
        }
        start.countDown();
        for (Thread t : recorders) {
            t.join();
        }
        SojournTimes t = h.snapshot(0L);
        assertEquals((long) threads * each, t.count());
        assertEquals(total.get(), t.totalNanos());
        assertEquals(max.get(), t.maxNanos());
        assertWithinBound(1_000, t.p50Nanos(), "p50, the contended bucket");
    }

    // ---- the window, on a clock the test sets ----

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aValueStaysInTheWindowForTwoPeriodsAndLeavesItWithinThree() {
        AtomicLong clock = new AtomicLong();
        SojournHistogram h = new SojournHistogram(clock::get);
        h.record(5_000, clock.get());
        for (long at = 1; at < 80; at++) { // two periods, read every second
            clock.set(at * SECOND);
            assertEquals(1, h.snapshot(0L).windowCount(), "read at " + at + " s");
        }
        clock.set(121 * SECOND);
        SojournTimes t = h.snapshot(0L);
        assertEquals(0, t.windowCount(), "three periods later");
        assertEquals(0, t.p999Nanos());
        assertEquals(0, t.windowMaxNanos());
        assertEquals(1, t.count(), "the cumulative count keeps it");
        assertEquals(5_000, t.maxNanos(), "and so does the cumulative maximum");
    }

    @Test
    void theWindowStartsAtTheThirdNewestBaselineWhateverTakesIt() {
        AtomicLong clock = new AtomicLong();
        SojournHistogram h = new SojournHistogram(clock::get);
        h.record(1_000, 10 * SECOND);            // before the baseline due at 40 s
        clock.set(41 * SECOND);
        h.snapshot(0L);                          // a reader takes that baseline
        h.record(2_000_000, 45 * SECOND);        // after it
        h.record(3_000, 50 * SECOND);
        clock.set(81 * SECOND);
        h.snapshot(0L);                          // takes the baseline at 80 s
        clock.set(121 * SECOND);
        SojournTimes t = h.snapshot(0L);         // takes the one at 120 s: the window starts at 40 s
        assertEquals(3, t.count());
        assertEquals(2, t.windowCount(), "the values recorded after the baseline at 40 s");
        assertWithinBound(2_000_000, t.windowMaxNanos(), "the window's maximum");
        assertWithinBound(3_000, t.p50Nanos(), "p50 of 3,000 and 2,000,000");
    }

    @Test
    void periodsWithNothingRecordedOrReadAreBaselinesAllTheSame() {
        AtomicLong clock = new AtomicLong();
        SojournHistogram h = new SojournHistogram(clock::get);
        h.record(1_000, SECOND);
        clock.set(1_000 * SECOND);               // 25 periods later, nothing in between
        assertEquals(0, h.snapshot(0L).windowCount(), "a value 999 s old is out of a 120 s window");
        h.record(4_000, 1_001 * SECOND);
        SojournTimes t = h.snapshot(0L);
        assertEquals(1, t.windowCount());
        assertWithinBound(4_000, t.p50Nanos(), "p50");
    }

    @Test
    void theOldestAgeIsReportedAsGivenAndNeverNegative() {
        SojournHistogram h = new SojournHistogram(() -> 0L);
        assertEquals(7_000, h.snapshot(7_000).oldestAgeNanos());
        assertEquals(0, h.snapshot(-3).oldestAgeNanos());
    }
}
