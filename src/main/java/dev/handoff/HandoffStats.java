/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.Objects;

/**
 * A snapshot of a handoff's counters, returned by {@link Handoff#stats()}.
 *
 * <p>{@code puts} and {@code takes} count elements that went in and came out, whichever method
 * moved them. A <em>wait</em> is one park of a blocked thread (a producer on a full handoff, a
 * consumer on an empty one). The probe counters belong to the kinds that search for a slot (the
 * parallel hash table and the pipe handoff) and stay 0 for the others: an insert probe is one slot
 * a producer looked at, a search probe one slot a consumer looked at; an insert conflict is a
 * producer that lost an empty slot to another producer, a search conflict a consumer that lost an
 * occupied slot to another consumer (in the hash table, also one it found held by a drain).
 *
 * <p>{@link #sojourn()} holds how long elements stayed inside, for a handoff built with the
 * {@code sojourn} option ({@link HandoffSpec#withSojourn()}), whether or not it counts; see
 * {@link SojournTimes}.
 *
 * @param enabled whether the handoff counts at all; when {@code false} every counter is 0
 * @param puts elements inserted
 * @param takes elements removed
 * @param producerWaits times a producer parked because the handoff was full
 * @param consumerWaits times a consumer parked because the handoff was empty
 * @param insertProbes slots looked at by inserts
 * @param searchProbes slots looked at by removals
 * @param insertConflicts empty slots lost to another producer
 * @param searchConflicts occupied slots lost to another consumer
 * @param sojourn the sojourn times, or {@link SojournTimes#disabled()} without the option; never null
 */
public record HandoffStats(
        boolean enabled,
        long puts,
        long takes,
        long producerWaits,
        long consumerWaits,
        long insertProbes,
        long searchProbes,
        long insertConflicts,
        long searchConflicts,
        SojournTimes sojourn) {

    private static final HandoffStats DISABLED = new HandoffStats(false, 0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * Checks that sojourn is given.
     *
     * @throws NullPointerException if sojourn is null
     */
    public HandoffStats {
        Objects.requireNonNull(sojourn, "sojourn times");
    }

    /**
     * A snapshot of counters without sojourn times ({@link SojournTimes#disabled()}).
     *
     * @param enabled whether the handoff counts at all
     * @param puts elements inserted
     * @param takes elements removed
     * @param producerWaits times a producer parked because the handoff was full
     * @param consumerWaits times a consumer parked because the handoff was empty
     * @param insertProbes slots looked at by inserts
     * @param searchProbes slots looked at by removals
     * @param insertConflicts empty slots lost to another producer
     * @param searchConflicts occupied slots lost to another consumer
     */
    public HandoffStats(boolean enabled, long puts, long takes, long producerWaits, long consumerWaits,
                        long insertProbes, long searchProbes, long insertConflicts, long searchConflicts) {
        this(enabled, puts, takes, producerWaits, consumerWaits, insertProbes, searchProbes, insertConflicts,
                searchConflicts, SojournTimes.disabled());
    }

    /**
     * Returns the snapshot of a handoff that does not count and records no sojourn times.
     *
     * @return a snapshot with {@code enabled == false}, every counter 0 and
     *         {@link SojournTimes#disabled()}
     */
    public static HandoffStats disabled() {
        return DISABLED;
    }

    /**
     * Returns all conflicts, producers' and consumers' together.
     *
     * @return {@code insertConflicts + searchConflicts}
     */
    public long conflicts() {
        return insertConflicts + searchConflicts;
    }

    /**
     * Returns the mean number of slots an insert looked at.
     *
     * @return {@code insertProbes / puts}, or {@code NaN} before the first put
     */
    public double meanInsertProbes() {
        return puts == 0 ? Double.NaN : (double) insertProbes / puts;
    }

    /**
     * Returns the mean number of slots a removal looked at.
     *
     * @return {@code searchProbes / takes}, or {@code NaN} before the first take
     */
    public double meanSearchProbes() {
        return takes == 0 ? Double.NaN : (double) searchProbes / takes;
    }

    /** This snapshot with the given sojourn times: how a handoff that times its elements reports. */
    HandoffStats withSojourn(SojournTimes times) {
        return new HandoffStats(enabled, puts, takes, producerWaits, consumerWaits, insertProbes, searchProbes,
                insertConflicts, searchConflicts, times);
    }

    /**
     * How long elements stayed inside a handoff built with the {@code sojourn} option, and how
     * long the oldest element still inside has stayed so far; every time is in nanoseconds. The
     * time of an element runs from the start of the call that inserted it ({@code put},
     * {@code offer}, {@code add}: a put that waits for room counts its wait) to its removal by the
     * call that hands it to a consumer ({@code take}, {@code poll}, a batch take or
     * {@code drainTo}). An element removed by {@code remove}, {@code removeIf}, {@code clear} or
     * an iterator was handed to nobody and is not timed, so {@code count} may be below
     * {@link HandoffStats#takes()}.
     *
     * <p>{@code count}, {@code totalNanos} and {@code maxNanos} are cumulative since the handoff
     * was built: for times over an interval, subtract two snapshots' {@code count} and
     * {@code totalNanos} (their mean). The percentiles, {@code windowCount} and
     * {@code windowMaxNanos} cover a recent window, as a Micrometer timer's do: the elements
     * handed out in the last 80 to 120 seconds (a baseline of the counts is taken every 40
     * seconds, and the window starts at the third newest). They come from a histogram with 16
     * linear buckets per power of two: each is never below the true value and at most 6.25%
     * above it (exact below 32 ns). As with the counters, the snapshot is not atomic.
     *
     * <p>{@code oldestAgeNanos} is the time the oldest element still inside has stayed so far, 0
     * when it is empty: what a stuck consumer makes grow while {@code count} stands still. It
     * is read without the handoff's locks, from its head for a FIFO kind (a few reads), from
     * every slot for the hash table (one read per slot of its capacity) and from each class's
     * head with importance classes; weakly consistent, it may be that of an element taken as it
     * was read.
     *
     * <p>A handoff built without the option returns {@link #disabled()}: {@code enabled} false and
     * every field 0, never null.
     *
     * @param enabled whether the handoff records sojourn times
     * @param count elements timed, since the handoff was built
     * @param totalNanos the sum of their times
     * @param maxNanos the longest time, since the handoff was built
     * @param windowCount elements timed in the window
     * @param windowMaxNanos the longest time in the window
     * @param p50Nanos the median time in the window
     * @param p90Nanos the 90th percentile in the window
     * @param p99Nanos the 99th percentile in the window
     * @param p999Nanos the 99.9th percentile in the window
     * @param oldestAgeNanos how long the oldest element inside has stayed so far; 0 when empty
     */
    public record SojournTimes(boolean enabled, long count, long totalNanos, long maxNanos,
                               long windowCount, long windowMaxNanos,
                               long p50Nanos, long p90Nanos, long p99Nanos, long p999Nanos,
                               long oldestAgeNanos) {

        private static final SojournTimes DISABLED = new SojournTimes(false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

        /**
         * Returns the times of a handoff built without the {@code sojourn} option.
         *
         * @return {@code enabled == false} and every field 0
         */
        public static SojournTimes disabled() {
            return DISABLED;
        }

        /**
         * Returns the mean time.
         *
         * @return {@code totalNanos / count}, or {@code NaN} before the first element is timed
         */
        public double meanNanos() {
            return count == 0 ? Double.NaN : (double) totalNanos / count;
        }
    }
}
