/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import dev.handoff.HandoffStats.SojournTimes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A histogram of durations in nanoseconds that any number of threads record into at once, without
 * a lock: the sojourn times behind {@code HandoffStats.sojourn()}. It keeps counts per bucket, the
 * total and the maximum, cumulative since construction, and reports its percentiles over a recent
 * window: the values recorded in the last {@value #KEPT} periods of {@value #PERIOD_SECONDS}
 * seconds at most and the last {@value #KEPT_LESS_ONE} at least, as a Micrometer timer reports
 * its percentiles over its distribution-statistic expiry (2 minutes in buffers of 3, by default).
 * {@link #snapshot(long)} reads it into a {@link SojournTimes}.
 *
 * <p>Error bound: a percentile is reported as the highest value of the bucket that holds the true
 * percentile (the recorded value of that rank), capped at the maximum recorded. It is therefore
 * never below the true value, exact below {@value #EXACT_BELOW} ns, and above that at most
 * {@code 1/}{@value #SUB_BUCKETS} (6.25%) over it; the window's maximum is its highest bucket's
 * highest value, capped likewise, within the same bound. The cumulative count, total and maximum
 * are exact.
 *
 * <p>The library has no runtime dependencies, so this histogram is written here rather than taken
 * from HdrHistogram, whose layout it follows in miniature.
 */
public final class SojournHistogram {
    /*
     * Implementation notes.
     *
     * Layout: log-linear, as in HdrHistogram (Tene, github.com/HdrHistogram), with 16 linear
     * sub-buckets per power of two. Values below 32 have a bucket each; each range [2^k, 2^(k+1))
     * for k >= 5 is split into 16 buckets of width 2^(k-4):
     *
     *   bucket:   0 1 ... 31 | 32 33 ... 47   | 48 49 ... 63    | ...  | 959
     *   lowest:   0 1 ... 31 | 32 34 ... 62   | 64 68 ... 124   | ...  | 31 * 2^58
     *   width:    1          | 2              | 4               | ...  | 2^58
     *
     * A value v >= 16 with k = floor(log2 v) lands in bucket 16 (k - 3) + (the 4 bits after v's
     * leading one); for v < 32 that is v itself, so one formula serves from 16 up. A bucket's
     * width is at most 1/16 of its lowest value: the error bound of the class comment. The 960
     * buckets cover every non-negative long.
     *
     * Counting: one LongAdder per bucket, since similar times land in one bucket and every
     * consumer would otherwise increment the same word; a LongAdder stays one field until
     * threads contend on it, then spreads over cells. Total is a LongAdder, maximum a
     * LongAccumulator(max), which writes only when it grows.
     *
     * Visibility: record() raises the maximum before it counts the value, and snapshot() reads
     * the counts before the maximum. Each count increment is a volatile write, and the snapshot's
     * sum() a volatile read of it, so a snapshot that counts a value also sees a maximum at least
     * that value: the cap never pulls a percentile below its true value. The snapshot is
     * otherwise not atomic: a value recorded meanwhile may be in the total and not yet in the
     * counts, or the reverse for a count read late.
     *
     * The window. The counts only grow, so the values recorded since an instant are the counts
     * now less a copy of them taken at that instant (a baseline). Every PERIOD a baseline is
     * taken, and the last KEPT are kept; the window runs from the oldest kept to now, so it
     * spans between (KEPT - 1) and KEPT periods. A recorder has the time at hand (the caller read
     * the clock to measure), so it compares it with rotateAt, a volatile field written once per
     * period, and the one recorder (or reader) that wins the CAS on it takes the baseline: no
     * lock and no extra clock read on the recording path, and a copy of the counts once per
     * period. A snapshot rotates first too, so a handoff with no traffic still moves its window.
     * The baselines missed while nothing was recorded or read are the counts at the time of the
     * rotation (nothing changed them meanwhile, or a recording would have rotated), so one copy
     * fills them all. Baselines are read and written holding the window's monitor, which only
     * the rotating thread and readers take. A value recorded while a baseline is copied may fall
     * in either period: at the window's edge, the window is off by those values.
     */

    /** The length of a period of the window: a baseline is taken once per period. */
    static final int PERIOD_SECONDS = 40;

    /** Baselines kept: the window spans between KEPT - 1 and KEPT periods. */
    static final int KEPT = 3;

    /** KEPT - 1, for the class comment. */
    static final int KEPT_LESS_ONE = KEPT - 1;

    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(PERIOD_SECONDS);

    /** Linear sub-buckets per power of two: the relative error is at most 1/SUB_BUCKETS. */
    static final int SUB_BUCKETS = 16;

    /** log2(SUB_BUCKETS). */
    private static final int SUB_BITS = 4;

    /** Values below this have a bucket each, and are reported exactly. */
    static final int EXACT_BELOW = 2 * SUB_BUCKETS;

    /** Buckets from 0 to Long.MAX_VALUE: 16 per power of two from 2^4 to 2^62, and 0..15. */
    static final int BUCKETS = SUB_BUCKETS * (Long.SIZE - SUB_BITS);

    private final LongAdder[] counts = new LongAdder[BUCKETS];
    private final LongAdder total = new LongAdder();
    private final LongAccumulator max = new LongAccumulator(Math::max, 0L);

    /** The clock of {@link #snapshot(long)}: System.nanoTime, or a test's. */
    private final LongSupplier clock;

    /** When the next baseline is due; advanced by CAS by the thread that takes it. */
    private volatile long rotateAt;

    /** The last KEPT baselines, a ring; oldest is the next to be replaced. Guarded by itself. */
    private final long[][] baselines = new long[KEPT][];
    private int oldest;

    private static final VarHandle ROTATE_AT;

    static {
        try {
            ROTATE_AT = MethodHandles.lookup().findVarHandle(SojournHistogram.class, "rotateAt", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Creates an empty histogram on {@link System#nanoTime()}. */
    public SojournHistogram() {
        this(System::nanoTime);
    }

    /**
     * Creates an empty histogram on a clock: the one its callers read, in nanoseconds.
     *
     * @param clock the time in nanoseconds, as {@link System#nanoTime()} gives it
     */
    public SojournHistogram(LongSupplier clock) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] = new LongAdder();
        }
        Arrays.fill(baselines, new long[BUCKETS]); // nothing recorded before construction
        this.clock = clock;
        this.rotateAt = clock.getAsLong() + PERIOD_NANOS;
    }

    /**
     * Records one duration; a negative one (which a monotonic clock does not give) as 0.
     *
     * @param nanos the duration in nanoseconds
     * @param now the clock's time when it ended, which the caller read to measure it
     */
    public void record(long nanos, long now) {
        long v = Math.max(nanos, 0L);
        max.accumulate(v); // before the count: pairs with snapshot() reading the counts first
        total.add(v);
        counts[bucketOf(v)].increment();
        if (now - rotateAt >= 0) { // volatile read, written once per period: see "The window"
            rotate(now);
        }
    }

    /** Takes the baselines due at now, if this thread wins them. */
    private void rotate(long now) {
        long due = rotateAt;
        long late = now - due;
        if (late < 0) {
            return;
        }
        long periods = 1 + late / PERIOD_NANOS;
        if (!ROTATE_AT.compareAndSet(this, due, due + periods * PERIOD_NANOS)) {
            return; // another thread takes them
        }
        long[] baseline = currentCounts();
        synchronized (baselines) {
            for (long i = 0, n = Math.min(periods, KEPT); i < n; i++) {
                baselines[oldest] = baseline; // never written after: one array serves every slot
                oldest = (oldest + 1) % KEPT;
            }
        }
    }

    private long[] currentCounts() {
        long[] n = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            n[i] = counts[i].sum();
        }
        return n;
    }

    /** The bucket that holds v, {@code v >= 0}. */
    static int bucketOf(long v) {
        if (v < SUB_BUCKETS) {
            return (int) v;
        }
        int k = Long.SIZE - 1 - Long.numberOfLeadingZeros(v); // floor(log2 v), 4..62
        int sub = (int) (v >>> (k - SUB_BITS)) & (SUB_BUCKETS - 1);
        return SUB_BUCKETS * (k - SUB_BITS + 1) + sub;
    }

    /** The lowest value in bucket i. */
    static long lowestIn(int i) {
        if (i < EXACT_BELOW) {
            return i;
        }
        int k = i / SUB_BUCKETS + SUB_BITS - 1;
        long sub = i % SUB_BUCKETS;
        return (SUB_BUCKETS + sub) << (k - SUB_BITS);
    }

    /** The highest value in bucket i: one below the next bucket's lowest, or Long.MAX_VALUE for the last. */
    static long highestIn(int i) {
        return i == BUCKETS - 1 ? Long.MAX_VALUE : lowestIn(i + 1) - 1;
    }

    /**
     * Reads the histogram: the cumulative count, total and maximum, and over the window (see
     * the class comment) the count, the maximum and the percentiles 50, 90, 99 and 99.9.
     *
     * @param oldestAgeNanos the age of the oldest element inside, which the handoff measures
     * @return the times recorded so far, {@code enabled} true
     */
    public SojournTimes snapshot(long oldestAgeNanos) {
        rotate(clock.getAsLong());
        long[] since;
        synchronized (baselines) {
            since = baselines[oldest];
        }
        long[] n = currentCounts(); // after the baseline: never below it, as counts only grow
        long count = 0;
        long[] w = new long[BUCKETS];
        long windowCount = 0;
        int top = -1;
        for (int i = 0; i < BUCKETS; i++) {
            count += n[i];
            w[i] = n[i] - since[i];
            windowCount += w[i];
            if (w[i] > 0) {
                top = i;
            }
        }
        long highest = max.get(); // after the counts: see "Visibility"
        long windowMax = top < 0 ? 0L : Math.min(highestIn(top), highest);
        return new SojournTimes(true, count, total.sum(), highest, windowCount, windowMax,
                valueAt(w, windowCount, windowMax, 0.50), valueAt(w, windowCount, windowMax, 0.90),
                valueAt(w, windowCount, windowMax, 0.99), valueAt(w, windowCount, windowMax, 0.999),
                Math.max(0L, oldestAgeNanos));
    }

    /**
     * The value at quantile q of the counts n (which sum to count): the highest value of the
     * bucket that holds the value of rank {@code ceil(q * count)}, capped at highest; 0 when
     * nothing is counted.
     */
    static long valueAt(long[] n, long count, long highest, double q) {
        if (count == 0) {
            return 0L;
        }
        long rank = Math.max(1L, (long) Math.ceil(q * count));
        long seen = 0;
        for (int i = 0; i < n.length; i++) {
            seen += n[i];
            if (seen >= rank) {
                return Math.min(highestIn(i), highest);
            }
        }
        return highest; // unreachable while n sums to count
    }
}
