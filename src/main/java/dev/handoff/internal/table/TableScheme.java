/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.probe.ProbeRandom;

import java.util.function.Function;

/**
 * Which occupancy, fill and search a table runs: chosen once, when the table is built, from its
 * options (ParallelHashTable maps its search and its key source onto one of the factories
 * below). A fill or search that reads the summary is only ever built with that summary.
 *
 * @param occupancy what records the occupied slots besides the slots themselves
 * @param fill builds the producers' fill over the table
 * @param search builds the consumers' search over the table
 */
public record TableScheme(Occupancy occupancy, Function<SlotTable, TableFill> fill,
                          Function<SlotTable, TableSearch> search) {

    /**
     * The papers' insert and search, with no summary.
     *
     * @param random draws the search keys
     * @return the scheme
     */
    public static TableScheme probe(ProbeRandom random) {
        return new TableScheme(new NoSummary(), ProbeFill::new, t -> new ProbeSearch(t, random));
    }

    /**
     * Walks from each consumer thread's cursor and probes, in turn, with no summary.
     *
     * @param followOn whether a producer fills on from its own last fill (pseudo-random keys),
     *        rather than along its key's probe sequence (hashed keys)
     * @param random draws the search keys
     * @return the scheme
     */
    public static TableScheme cursor(boolean followOn, ProbeRandom random) {
        return new TableScheme(new NoSummary(), followOn ? WalkFill::new : ProbeFill::new,
                t -> new CursorSearch(t, random));
    }

    /**
     * Reads a summary of the m slots, from a pseudo-random word or the sweep in turn, and fills
     * through it.
     *
     * @param m the number of slots
     * @param followOn whether a producer fills on from its own last fill (pseudo-random keys),
     *        rather than from its key's start slot (hashed keys)
     * @param random draws the search keys
     * @return the scheme
     */
    public static TableScheme summary(int m, boolean followOn, ProbeRandom random) {
        OccupancySummary summary = new OccupancySummary(m);
        return new TableScheme(summary,
                t -> followOn ? SummaryFill.followingOn(t, summary) : SummaryFill.fromTheKey(t, summary),
                t -> new SummarySearch(t, summary, random));
    }
}
