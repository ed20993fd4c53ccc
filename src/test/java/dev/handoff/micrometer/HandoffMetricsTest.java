/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.handoff.Handoff;
import dev.handoff.HandoffStats;
import dev.handoff.Handoffs;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link HandoffMetrics} read back from a {@link SimpleMeterRegistry}: the gauges and counters
 * follow the handoff's puts, takes and waits; a handoff built without counting gets the gauges
 * only; and the meters do not keep the handoff alive (then the gauges read NaN and the counters
 * their last count).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandoffMetricsTest {

    static double gauge(MeterRegistry registry, String meter) {
        return registry.get(meter).tag("name", "jobs").gauge().value();
    }

    static double counter(MeterRegistry registry, String meter, String... tags) {
        return registry.get(meter).tag("name", "jobs").tags(tags).functionCounter().count();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"circular", "lock-split", "pht"})
    void theMetersFollowPutsTakesAndWaits(String kind) throws Exception {
        Handoff<String> handoff = Handoffs.create(kind + ":8,stats");
        MeterRegistry registry = new SimpleMeterRegistry();
        new HandoffMetrics(handoff, "jobs", Tags.of("tier", "web")).bindTo(registry);

        handoff.put("a");
        handoff.put("b");
        handoff.put("c");
        handoff.take();
        assertEquals(2, gauge(registry, "handoff.size"));
        assertEquals(6, gauge(registry, "handoff.remaining.capacity"));
        assertEquals(8, gauge(registry, "handoff.capacity"));
        assertEquals(3, counter(registry, "handoff.puts"));
        assertEquals(1, counter(registry, "handoff.takes"));
        assertEquals(0, counter(registry, "handoff.waits", "operation", "take"));
        assertEquals(0, counter(registry, "handoff.waits", "operation", "put"));

        handoff.take();
        handoff.take();
        assertNull(handoff.poll(1, TimeUnit.MILLISECONDS)); // waits once on the empty handoff
        assertEquals(handoff.stats().consumerWaits(), counter(registry, "handoff.waits", "operation", "take"));
        assertTrue(counter(registry, "handoff.waits", "operation", "take") >= 1);
        assertEquals(0, gauge(registry, "handoff.size"));
        assertEquals(3, counter(registry, "handoff.takes"));
        assertEquals(7, registry.find("handoff.size").tag("tier", "web").meters().size()
                + registry.find("handoff.remaining.capacity").tag("tier", "web").meters().size()
                + registry.find("handoff.capacity").tag("tier", "web").meters().size()
                + registry.find("handoff.puts").tag("tier", "web").meters().size()
                + registry.find("handoff.takes").tag("tier", "web").meters().size()
                + registry.find("handoff.waits").tag("tier", "web").meters().size(),
                "every meter carries the extra tags");
    }

    @Test
    void aPipeReportsItsWaitingWorkersAsRemainingCapacity() throws Exception {
        Handoff<String> pipe = Handoffs.create("pipe:2,stats");
        MeterRegistry registry = new SimpleMeterRegistry();
        new HandoffMetrics(pipe, "jobs").bindTo(registry);
        assertEquals(0, gauge(registry, "handoff.size"));
        assertEquals(0, gauge(registry, "handoff.remaining.capacity"));
        assertEquals(2, gauge(registry, "handoff.capacity"));

        Thread worker = Thread.ofPlatform().start(() -> {
            try {
                pipe.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (gauge(registry, "handoff.remaining.capacity") != 1) {
            if (System.nanoTime() > deadline) {
                fail("the worker never showed as waiting");
            }
            Thread.onSpinWait();
        }
        pipe.put("x");
        worker.join();
        assertEquals(1, counter(registry, "handoff.puts"));
        assertEquals(1, counter(registry, "handoff.takes"));
    }

    @Test
    void aHandoffBuiltWithoutCountingGetsTheGaugesOnly() throws InterruptedException {
        Handoff<String> handoff = Handoffs.create("lock-split:8");
        MeterRegistry registry = new SimpleMeterRegistry();
        new HandoffMetrics(handoff, "jobs").bindTo(registry);
        handoff.put("a");
        assertEquals(1, gauge(registry, "handoff.size"));
        assertEquals(7, gauge(registry, "handoff.remaining.capacity"));
        assertNull(registry.find("handoff.puts").meter());
        assertNull(registry.find("handoff.takes").meter());
        assertNull(registry.find("handoff.waits").meter());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"circular:8,sojourn", "lock-split:8,stats,sojourn", "pht:8,sojourn"})
    void theSojournMetersFollowTheHandoffsSojournTimes(String spec) throws Exception {
        Handoff<String> handoff = Handoffs.create(spec);
        MeterRegistry registry = new SimpleMeterRegistry();
        new HandoffMetrics(handoff, "jobs").bindTo(registry);
        handoff.put("a");
        handoff.put("b");
        handoff.take();
        TimeUnit.MILLISECONDS.sleep(1);
        handoff.take();
        HandoffStats.SojournTimes now = handoff.stats().sojourn();
        FunctionTimer timer = registry.get("handoff.sojourn").tag("name", "jobs").functionTimer();
        assertEquals(2, timer.count());
        // Micrometer converts nanoseconds to its base unit and back: equal within a nanosecond
        assertEquals(now.totalNanos(), timer.totalTime(TimeUnit.NANOSECONDS), 1);
        assertEquals(now.windowMaxNanos(), registry.get("handoff.sojourn.max").tag("name", "jobs").timeGauge()
                .value(TimeUnit.NANOSECONDS), 1);
        assertEquals(0, registry.get("handoff.oldest.age").tag("name", "jobs").timeGauge()
                .value(TimeUnit.NANOSECONDS), "empty: nothing has waited");
        assertEquals(now.p50Nanos(), percentile(registry, "0.5"), 1);
        assertEquals(now.p90Nanos(), percentile(registry, "0.9"), 1);
        assertEquals(now.p99Nanos(), percentile(registry, "0.99"), 1);
        assertEquals(now.p999Nanos(), percentile(registry, "0.999"), 1);
        assertTrue(now.p999Nanos() >= TimeUnit.MILLISECONDS.toNanos(1), "b stayed 1 ms at least");
        assertEquals(handoff.stats().enabled(), registry.find("handoff.puts").meter() != null,
                "the counters come with stats only");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"circular:8,sojourn", "circular:8,core=cells,sojourn", "lock-split:8,sojourn",
            "pht:8,sojourn", "lock-split:8,classes=2,sojourn"})
    void theOldestAgeGaugeGrowsWhileTheConsumerIsStuck(String spec) throws Exception {
        Handoff<String> handoff = Handoffs.create(spec);
        MeterRegistry registry = new SimpleMeterRegistry();
        new HandoffMetrics(handoff, "jobs").bindTo(registry);
        long before = System.nanoTime();
        handoff.put("stuck");
        TimeUnit.MILLISECONDS.sleep(60); // no consumer takes it
        double age = registry.get("handoff.oldest.age").tag("name", "jobs").timeGauge().value(TimeUnit.NANOSECONDS);
        long bound = System.nanoTime() - before;
        assertTrue(age >= TimeUnit.MILLISECONDS.toNanos(50) && age <= bound,
                () -> "stuck 60 ms (at most " + bound + " ns), the gauge reads " + age);
        assertEquals(0, registry.get("handoff.sojourn").tag("name", "jobs").functionTimer().count(),
                "nothing handed out: the timer cannot show it");
    }

    private static double percentile(MeterRegistry registry, String phi) {
        return registry.get("handoff.sojourn.percentile").tag("name", "jobs").tag("phi", phi).timeGauge()
                .value(TimeUnit.NANOSECONDS);
    }

    @Test
    void aHandoffWithoutTheOptionHasNoSojournMeters() {
        MeterRegistry registry = new SimpleMeterRegistry();
        new HandoffMetrics(Handoffs.create("circular:8,stats"), "jobs").bindTo(registry);
        assertNull(registry.find("handoff.sojourn").meter());
        assertNull(registry.find("handoff.sojourn.percentile").meter());
    }

    @Test
    void theMetersDoNotKeepTheHandoffAlive() throws InterruptedException {
        MeterRegistry registry = new SimpleMeterRegistry();
        Handoff<String> handoff = Handoffs.create("circular:8,stats");
        new HandoffMetrics(handoff, "jobs").bindTo(registry);
        handoff.put("a");
        assertEquals(1, gauge(registry, "handoff.size"));
        assertEquals(1, counter(registry, "handoff.puts"));
        WeakReference<Handoff<String>> ref = new WeakReference<>(handoff);
        handoff = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (ref.get() != null) {
            if (System.nanoTime() > deadline) {
                fail("the registry keeps the handoff alive");
            }
            System.gc();
            Thread.sleep(10);
        }
        assertTrue(Double.isNaN(gauge(registry, "handoff.size")));
        assertEquals(1, counter(registry, "handoff.puts"), "a counter keeps the last count it read");
    }

    @Test
    void nullArgumentsAreRefusedAtConstruction() {
        Handoff<String> handoff = Handoffs.create("circular:8");
        assertThrows(NullPointerException.class, () -> new HandoffMetrics(null, "jobs"));
        assertThrows(NullPointerException.class, () -> new HandoffMetrics(handoff, null));
        assertThrows(NullPointerException.class, () -> new HandoffMetrics(handoff, "jobs", null));
    }
}
