/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

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
 * @param enabled whether the handoff counts at all; when {@code false} every counter is 0
 * @param puts elements inserted
 * @param takes elements removed
 * @param producerWaits times a producer parked because the handoff was full
 * @param consumerWaits times a consumer parked because the handoff was empty
 * @param insertProbes slots looked at by inserts
 * @param searchProbes slots looked at by removals
 * @param insertConflicts empty slots lost to another producer
 * @param searchConflicts occupied slots lost to another consumer
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
        long searchConflicts) {

    private static final HandoffStats DISABLED = new HandoffStats(false, 0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * Returns the snapshot of a handoff that does not count.
     *
     * @return a snapshot with {@code enabled == false} and every counter 0
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
}
