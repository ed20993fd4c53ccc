/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import dev.handoff.HandoffStats;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind {@link Handoff#stats()}, shared by every kind.
 *
 * <p>Each counter is a {@link LongAdder}, so that producers and consumers counting at once do not
 * contend on one cache line. A handoff built without counting holds {@link #DISABLED}, whose
 * methods test one final field and return: the cost of counting when it is off is one predictable
 * branch per operation. What counting costs when it is on is measured by the JMH suite
 * ({@code docs/benchmarks.md}).
 */
public final class Counters {

    /** The counters of a handoff that does not count. */
    public static final Counters DISABLED = new Counters(false);

    private final boolean enabled;
    private final LongAdder puts;
    private final LongAdder takes;
    private final LongAdder producerWaits;
    private final LongAdder consumerWaits;
    private final LongAdder insertProbes;
    private final LongAdder searchProbes;
    private final LongAdder insertConflicts;
    private final LongAdder searchConflicts;
    /**
     * The part of insertProbes made by scans of the pipe's status array, without the probe of a
     * hand-off first tried at the first spinner nor the pass for a worker that still spins:
     * what PipeTheoremProperties checks against Roussev and Wu (2001)'s Theorem 3. Package-private: not in
     * {@link HandoffStats}.
     */
    private final LongAdder scanProbes;

    private Counters(boolean enabled) {
        this.enabled = enabled;
        this.puts = enabled ? new LongAdder() : null;
        this.takes = enabled ? new LongAdder() : null;
        this.producerWaits = enabled ? new LongAdder() : null;
        this.consumerWaits = enabled ? new LongAdder() : null;
        this.insertProbes = enabled ? new LongAdder() : null;
        this.searchProbes = enabled ? new LongAdder() : null;
        this.insertConflicts = enabled ? new LongAdder() : null;
        this.searchConflicts = enabled ? new LongAdder() : null;
        this.scanProbes = enabled ? new LongAdder() : null;
    }

    /**
     * Returns fresh counters, or {@link #DISABLED}.
     *
     * @param enabled whether to count
     */
    public static Counters of(boolean enabled) {
        return enabled ? new Counters(true) : DISABLED;
    }

    public boolean enabled() {
        return enabled;
    }

    /** Counts one element that entered the handoff. */
    public void countInsert() {
        if (enabled) puts.increment();
    }

    /** Counts n elements that entered the handoff. */
    public void countInserts(long n) {
        if (enabled) puts.add(n);
    }

    /** Counts one element that left the handoff (taken, polled, drained or removed). */
    public void countRemoval() {
        if (enabled) takes.increment();
    }

    /** Counts n elements that left the handoff. */
    public void countRemovals(long n) {
        if (enabled) takes.add(n);
    }

    public void producerWait() {
        if (enabled) producerWaits.increment();
    }

    public void consumerWait() {
        if (enabled) consumerWaits.increment();
    }

    public void insertProbes(long n) {
        if (enabled) insertProbes.add(n);
    }

    public void searchProbes(long n) {
        if (enabled) searchProbes.add(n);
    }

    /** Insert probes made by one scan of the pipe's status array: counted in both totals. */
    public void scanProbes(long n) {
        if (enabled) {
            insertProbes.add(n);
            scanProbes.add(n);
        }
    }

    /** The scan probes so far (see the field); 0 when not counting. */
    public long scanProbesSoFar() {
        return enabled ? scanProbes.sum() : 0L;
    }

    public void insertConflict() {
        if (enabled) insertConflicts.increment();
    }

    public void searchConflict() {
        if (enabled) searchConflicts.increment();
    }

    public HandoffStats snapshot() {
        if (!enabled) {
            return HandoffStats.disabled();
        }
        return new HandoffStats(true,
                puts.sum(), takes.sum(), producerWaits.sum(), consumerWaits.sum(),
                insertProbes.sum(), searchProbes.sum(), insertConflicts.sum(), searchConflicts.sum());
    }
}
