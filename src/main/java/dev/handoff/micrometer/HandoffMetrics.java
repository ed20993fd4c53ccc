/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.micrometer;

import dev.handoff.Handoff;
import dev.handoff.HandoffStats;
import dev.handoff.HandoffStats.SojournTimes;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * Binds a handoff's size, capacity and counters to a Micrometer {@link MeterRegistry}:
 * <pre>{@code
 * Handoff<Job> jobs = Handoffs.create("lock-split:1024,stats");
 * new HandoffMetrics(jobs, "jobs").bindTo(registry);
 * }</pre>
 *
 * <table class="striped">
 *   <caption>The meters, each tagged {@code name} (the name given here) and with the extra tags</caption>
 *   <thead><tr><th>meter</th><th>type</th><th>value</th></tr></thead>
 *   <tbody>
 *     <tr><td>{@code handoff.size}</td><td>gauge</td><td>{@link Handoff#size()}</td></tr>
 *     <tr><td>{@code handoff.remaining.capacity}</td><td>gauge</td>
 *         <td>{@link Handoff#remainingCapacity()}</td></tr>
 *     <tr><td>{@code handoff.capacity}</td><td>gauge</td><td>{@link Handoff#capacity()}</td></tr>
 *     <tr><td>{@code handoff.puts}</td><td>function counter</td>
 *         <td>{@link HandoffStats#puts()}</td></tr>
 *     <tr><td>{@code handoff.takes}</td><td>function counter</td>
 *         <td>{@link HandoffStats#takes()}</td></tr>
 *     <tr><td>{@code handoff.waits}, tag {@code operation=put}</td><td>function counter</td>
 *         <td>{@link HandoffStats#producerWaits()}</td></tr>
 *     <tr><td>{@code handoff.waits}, tag {@code operation=take}</td><td>function counter</td>
 *         <td>{@link HandoffStats#consumerWaits()}</td></tr>
 *     <tr><td>{@code handoff.sojourn}</td><td>function timer</td>
 *         <td>{@link HandoffStats.SojournTimes#count()} and {@link HandoffStats.SojournTimes#totalNanos()}</td></tr>
 *     <tr><td>{@code handoff.sojourn.max}</td><td>time gauge</td>
 *         <td>{@link HandoffStats.SojournTimes#windowMaxNanos()}</td></tr>
 *     <tr><td>{@code handoff.sojourn.percentile}, tag {@code phi=0.5}, {@code 0.9}, {@code 0.99},
 *         {@code 0.999}</td><td>time gauge</td>
 *         <td>{@link HandoffStats.SojournTimes#p50Nanos()} ... {@link HandoffStats.SojournTimes#p999Nanos()}</td></tr>
 *     <tr><td>{@code handoff.oldest.age}</td><td>time gauge</td>
 *         <td>{@link HandoffStats.SojournTimes#oldestAgeNanos()}</td></tr>
 *   </tbody>
 * </table>
 *
 * <p>The counters come from {@link Handoff#stats()}, so they need a handoff built with counting on
 * (the {@code ,stats} option of {@link dev.handoff.Handoffs#create(String)}, or
 * {@link dev.handoff.HandoffSpec#withStats()} on a spec). For a handoff built without it, {@link #bindTo} registers
 * the three gauges only: such a handoff has nothing to count, and a counter that stays at 0 would
 * read as a handoff nobody uses.
 *
 * <p>The {@code handoff.sojourn} meters, how long elements waited inside, come with the
 * {@code ,sojourn} option ({@link dev.handoff.SojournSpec}) whether or not the handoff counts.
 * The timer's count and total give the mean wait over each publishing step, as any timer's do;
 * the maximum and the percentiles, named as Micrometer names a timer's client-side percentiles,
 * cover a recent window, the last 80 to 120 seconds, as a timer's do with Micrometer's default
 * expiry of 2 minutes ({@link HandoffStats.SojournTimes} says how). {@code handoff.oldest.age}
 * is how long the oldest task still inside has waited so far: the gauge that shows a stuck
 * consumer, which grows while the timer's count stands still.
 *
 * <p>The meters hold the handoff weakly, as Micrometer's gauges do: they do not keep it alive;
 * once it has been collected the gauges report {@code NaN} and the counters the last count they
 * read. This binder holds the handoff strongly until the binder itself is dropped. Each reading
 * of a counter takes one {@code stats()} snapshot; the size gauges read {@code size()} and
 * {@code remainingCapacity()}, which for the circular buffer take its lock briefly.
 */
// "exports": Micrometer's types in this API are the caller's own; a module that uses this class
// requires micrometer.core itself. "requires transitive" would make every module that requires
// dev.handoff need Micrometer to compile.
@SuppressWarnings("exports")
public final class HandoffMetrics implements MeterBinder {

    private final Handoff<?> handoff;
    private final Tags tags;

    /**
     * Creates a binder for the handoff, whose meters are tagged {@code name=}{@code name}.
     *
     * @param handoff the handoff to measure
     * @param name the value of every meter's {@code name} tag, telling this handoff's meters from
     *        other handoffs'
     * @throws NullPointerException if an argument is null
     */
    public HandoffMetrics(Handoff<?> handoff, String name) {
        this(handoff, name, Tags.empty());
    }

    /**
     * Creates a binder for the handoff, whose meters are tagged {@code name=}{@code name} and with
     * {@code tags}.
     *
     * @param handoff the handoff to measure
     * @param name the value of every meter's {@code name} tag
     * @param tags more tags for every meter
     * @throws NullPointerException if an argument is null
     */
    public HandoffMetrics(Handoff<?> handoff, String name, Iterable<Tag> tags) {
        this.handoff = Objects.requireNonNull(handoff, "handoff");
        Objects.requireNonNull(name, "name");
        this.tags = Tags.concat(Objects.requireNonNull(tags, "tags"), "name", name);
    }

    /**
     * Registers this handoff's meters (see the class comment) with the registry.
     *
     * @param registry the registry to add the meters to
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("handoff.size", handoff, Handoff::size)
                .tags(tags)
                .description("Elements inside the handoff")
                .register(registry);
        Gauge.builder("handoff.remaining.capacity", handoff, Handoff::remainingCapacity)
                .tags(tags)
                .description("Elements the handoff can take without blocking; for a pipe, workers waiting")
                .register(registry);
        Gauge.builder("handoff.capacity", handoff, Handoff::capacity)
                .tags(tags)
                .description("Elements the handoff holds; for a pipe, its worker slots")
                .register(registry);
        if (handoff.stats().sojourn().enabled()) {
            bindSojourn(registry);
        }
        if (!handoff.stats().enabled()) {
            return; // built without counting: nothing to count (see the class comment)
        }
        counter(registry, "handoff.puts", "Elements put into the handoff", Tags.empty(), HandoffStats::puts);
        counter(registry, "handoff.takes", "Elements taken from the handoff", Tags.empty(), HandoffStats::takes);
        counter(registry, "handoff.waits", "Times a producer parked because the handoff was full",
                Tags.of("operation", "put"), HandoffStats::producerWaits);
        counter(registry, "handoff.waits", "Times a consumer parked because the handoff was empty",
                Tags.of("operation", "take"), HandoffStats::consumerWaits);
    }

    /** The sojourn timer, its maximum and its percentiles: see the class comment. */
    private void bindSojourn(MeterRegistry registry) {
        FunctionTimer.builder("handoff.sojourn", handoff, h -> h.stats().sojourn().count(),
                        h -> h.stats().sojourn().totalNanos(), TimeUnit.NANOSECONDS)
                .tags(tags)
                .description("Time elements waited inside the handoff, from insert to take")
                .register(registry);
        sojournGauge(registry, "handoff.sojourn.max", Tags.empty(), SojournTimes::windowMaxNanos);
        sojournGauge(registry, "handoff.sojourn.percentile", Tags.of("phi", "0.5"), SojournTimes::p50Nanos);
        sojournGauge(registry, "handoff.sojourn.percentile", Tags.of("phi", "0.9"), SojournTimes::p90Nanos);
        sojournGauge(registry, "handoff.sojourn.percentile", Tags.of("phi", "0.99"), SojournTimes::p99Nanos);
        sojournGauge(registry, "handoff.sojourn.percentile", Tags.of("phi", "0.999"), SojournTimes::p999Nanos);
        TimeGauge.builder("handoff.oldest.age", handoff, TimeUnit.NANOSECONDS,
                        h -> h.stats().sojourn().oldestAgeNanos())
                .tags(tags)
                .description("How long the oldest element still inside the handoff has waited so far")
                .register(registry);
    }

    private void sojournGauge(MeterRegistry registry, String name, Tags extra, ToLongFunction<SojournTimes> nanos) {
        TimeGauge.builder(name, handoff, TimeUnit.NANOSECONDS, h -> nanos.applyAsLong(h.stats().sojourn()))
                .tags(tags.and(extra))
                .description("Time elements waited inside the handoff, over the last 80 to 120 seconds")
                .register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description, Tags extra,
                         ToLongFunction<HandoffStats> counter) {
        FunctionCounter.builder(name, handoff, h -> counter.applyAsLong(h.stats()))
                .tags(tags.and(extra))
                .description(description)
                .register(registry);
    }
}
