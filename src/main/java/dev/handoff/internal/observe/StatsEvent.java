/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import dev.handoff.Handoff;
import dev.handoff.HandoffStats;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code dev.handoff.Stats}: every period (1 s unless the recording says otherwise), one
 * event per live handoff built with counting on, carrying its size and its {@link HandoffStats}
 * counters as they are at that moment (cumulative since construction). Emitted by
 * {@link CountedHandoffs} only.
 */
@Name("dev.handoff.Stats")
@Label("Handoff Statistics")
@Description("The size and the stats() counters of a handoff built with counting on, cumulative since it was built")
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

    /** Fills this event from a snapshot of the handoff; the caller commits it. */
    public void read(Handoff<?> handoff) {
        describe(handoff);
        size = handoff.size();
        HandoffStats stats = handoff.stats();
        puts = stats.puts();
        takes = stats.takes();
        producerWaits = stats.producerWaits();
        consumerWaits = stats.consumerWaits();
        insertProbes = stats.insertProbes();
        searchProbes = stats.searchProbes();
        insertConflicts = stats.insertConflicts();
        searchConflicts = stats.searchConflicts();
    }
}
