/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import dev.handoff.HandoffStats;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event {@code dev.handoff.Stats}: every period (1 s unless the recording says otherwise), one
 * event per live handoff built with counting or sojourn times on, carrying its size, its
 * {@link HandoffStats} counters and its sojourn times as they are at that moment (counters,
 * sojourn count, total and maximum cumulative since construction; sojourn percentiles and window
 * maximum over the last 80 to 120 s; the oldest element's age now; 0 for what it does not
 * record). Emitted by {@link CountedHandoffs} only.
 */
@Name("dev.handoff.Stats")
@Label("Handoff Statistics")
@Description("The size, the stats() counters and the sojourn times of a handoff built with stats or sojourn:"
        + " counters cumulative since it was built, sojourn percentiles over the last 80 to 120 s")
@Period("1 s")
@StackTrace(false)
public final class StatsEvent extends HandoffEvent {

    @Label("Size")
    @Description("Elements inside at that moment; always 0 for the pipe kind")
    public int size;

    @Label("Puts")
    public long puts;

    @Label("Takes")
    public long takes;

    @Label("Producer Waits")
    @Description("Times a producer parked because the handoff was full (or, in a pipe, no worker waited)")
    public long producerWaits;

    @Label("Consumer Waits")
    @Description("Times a consumer parked because the handoff was empty")
    public long consumerWaits;

    @Label("Insert Probes")
    @Description("Slots looked at by inserts (hash table and pipe kinds)")
    public long insertProbes;

    @Label("Search Probes")
    @Description("Slots looked at by removals (hash table kind)")
    public long searchProbes;

    @Label("Insert Conflicts")
    @Description("Empty slots (or waiting workers) lost to another producer")
    public long insertConflicts;

    @Label("Search Conflicts")
    @Description("Occupied slots lost to another consumer")
    public long searchConflicts;

    @Label("Sojourn Count")
    @Description("Elements timed by the sojourn option, those handed to a consumer; 0 without the option")
    public long sojournCount;

    @Label("Sojourn Total")
    @Description("The sum of their times in the handoff, from insert to take")
    @Timespan(Timespan.NANOSECONDS)
    public long sojournTotal;

    @Label("Sojourn Max")
    @Description("The longest time in the handoff since it was built")
    @Timespan(Timespan.NANOSECONDS)
    public long sojournMax;

    @Label("Sojourn Window Max")
    @Description("The longest time in the handoff in the window of the percentiles, the last 80 to 120 s")
    @Timespan(Timespan.NANOSECONDS)
    public long sojournWindowMax;

    @Label("Sojourn p50")
    @Description("Median time in the handoff over the last 80 to 120 s; percentiles are at most 6.25% over"
            + " the true value, never under")
    @Timespan(Timespan.NANOSECONDS)
    public long sojournP50;

    @Label("Sojourn p90")
    @Timespan(Timespan.NANOSECONDS)
    public long sojournP90;

    @Label("Sojourn p99")
    @Timespan(Timespan.NANOSECONDS)
    public long sojournP99;

    @Label("Sojourn p99.9")
    @Timespan(Timespan.NANOSECONDS)
    public long sojournP999;

    @Label("Oldest Age")
    @Description("How long the oldest element still inside has stayed so far; 0 when empty or without the"
            + " sojourn option")
    @Timespan(Timespan.NANOSECONDS)
    public long oldestAge;

    /**
     * Fills this event from a snapshot of the handoff, read by the installed {@link HandoffReader};
     * the caller commits it. Call only with a registered handoff, which the reader reads.
     */
    public void read(Object handoff) {
        describe(handoff);
        HandoffReader reader = HandoffReader.installed();
        size = reader.sizeOf(handoff);
        HandoffStats stats = reader.statsOf(handoff);
        puts = stats.puts();
        takes = stats.takes();
        producerWaits = stats.producerWaits();
        consumerWaits = stats.consumerWaits();
        insertProbes = stats.insertProbes();
        searchProbes = stats.searchProbes();
        insertConflicts = stats.insertConflicts();
        searchConflicts = stats.searchConflicts();
        HandoffStats.SojournTimes sojourn = stats.sojourn();
        sojournCount = sojourn.count();
        sojournTotal = sojourn.totalNanos();
        sojournMax = sojourn.maxNanos();
        sojournWindowMax = sojourn.windowMaxNanos();
        sojournP50 = sojourn.p50Nanos();
        sojournP90 = sojourn.p90Nanos();
        sojournP99 = sojourn.p99Nanos();
        sojournP999 = sojourn.p999Nanos();
        oldestAge = sojourn.oldestAgeNanos();
    }
}
