/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.observe.CountedHandoffs;
import dev.handoff.internal.observe.HandoffEvent;
import dev.handoff.internal.observe.StatsEvent;
import dev.handoff.internal.observe.WaitEvent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jfr.EventSettings;
import jdk.jfr.EventType;
import jdk.jfr.Recording;
import jdk.jfr.SettingDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JFR events of every kind, read back from a recording: {@code dev.handoff.Wait} for each park
 * of a blocked put, take, timed offer and timed poll (threshold 0 here, so that every park counts),
 * none for a put or take that does not block, and the periodic {@code dev.handoff.Stats} with the
 * size, the counters and the sojourn times of each live handoff built with counting or sojourn on. The stats event's period is
 * set to {@code endChunk} here, so that it is emitted exactly when the recording stops.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlightRecorderEventsTest {

    static final String WAIT = "dev.handoff.Wait";
    static final String STATS = "dev.handoff.Stats";

    static Stream<String> kinds() {
        return Handoffs.kinds().stream();
    }

    interface Workload {
        void run() throws Exception;
    }

    /** Runs workload under a recording of one event type and returns that type's events. */
    static List<RecordedEvent> record(String event, Consumer<EventSettings> settings, Workload workload)
            throws Exception {
        Path file = Files.createTempFile("handoff-events", ".jfr");
        try (Recording recording = new Recording()) {
            settings.accept(recording.enable(event));
            recording.start();
            workload.run();
            recording.stop();
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(event))
                    .toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    static List<RecordedEvent> waitsDuring(Workload workload) throws Exception {
        return record(WAIT, s -> s.withThreshold(Duration.ZERO), workload);
    }

    /** The events about this handoff. */
    static List<RecordedEvent> of(Handoff<?> handoff, List<RecordedEvent> events) {
        return events.stream().filter(e -> e.getInt("identity") == System.identityHashCode(handoff)).toList();
    }

    static String describe(List<RecordedEvent> events) {
        return events.stream().map(RecordedEvent::toString).collect(Collectors.joining("\n"));
    }

    /** Waits until t is parked after its waits counter moved, or fails. */
    static void awaitParked(Thread t, LongSupplier waits) {
        long deadline = Workers.deadlineIn(10);
        while (waits.getAsLong() == 0
                || (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING)) {
            if (!t.isAlive()) {
                fail(t.getName() + " ended instead of waiting");
            }
            if (System.nanoTime() > deadline) {
                fail(t.getName() + " did not wait");
            }
            Thread.onSpinWait();
        }
    }

    /** Asserts that events holds a wait of this handoff's operation by thread, with every field right. */
    static void assertWaited(Handoff<?> handoff, String kind, String operation, Thread thread,
                             List<RecordedEvent> events) {
        List<RecordedEvent> mine = of(handoff, events).stream()
                .filter(e -> e.getThread() != null && thread.getName().equals(e.getThread().getJavaName()))
                .toList();
        assertFalse(mine.isEmpty(), () -> "no " + WAIT + " of " + thread.getName() + " among:\n" + describe(events));
        for (RecordedEvent e : mine) {
            assertEquals(kind, e.getString("kind"));
            assertEquals(operation, e.getString("operation"));
            assertEquals(handoff.capacity(), e.getInt("capacity"));
            assertTrue(e.getDuration().compareTo(Duration.ZERO) > 0, () -> "a park takes time: " + e);
            assertNull(e.getStackTrace(), "no stack trace unless the recording asks for one");
        }
    }

    // ---- dev.handoff.Wait ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aTakeThatParksIsRecorded(String kind) throws Exception {
        Handoff<String> handoff = Handoffs.create(kind + ":1,stats");
        List<Thread> consumer = new ArrayList<>();
        List<RecordedEvent> waits = waitsDuring(() -> {
            try (Workers workers = new Workers()) {
                consumer.add(workers.start(kind + "-consumer", () -> assertEquals("x", handoff.take())));
                awaitParked(consumer.get(0), () -> handoff.stats().consumerWaits());
                handoff.put("x");
                workers.awaitAll(consumer, Workers.deadlineIn(10));
                workers.assertNoFailures();
            }
        });
        assertWaited(handoff, kind, "take", consumer.get(0), waits);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aPutThatParksIsRecorded(String kind) throws Exception {
        Handoff<String> handoff = Handoffs.create(kind + ":1,stats");
        boolean buffered = !kind.equals("pipe");
        if (buffered) {
            assertTrue(handoff.offer("first")); // full
        }
        List<Thread> producer = new ArrayList<>();
        List<RecordedEvent> waits = waitsDuring(() -> {
            try (Workers workers = new Workers()) {
                producer.add(workers.start(kind + "-producer", () -> handoff.put("second")));
                awaitParked(producer.get(0), () -> handoff.stats().producerWaits());
                // a buffered kind makes room; a pipe gets the worker its producer waits for
                Thread consumer = workers.start(kind + "-consumer", handoff::take);
                workers.awaitAll(List.of(producer.get(0), consumer), Workers.deadlineIn(10));
                workers.assertNoFailures();
            }
        });
        assertWaited(handoff, kind, "put", producer.get(0), waits);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aTimedOfferAndATimedPollThatRunOutAreRecorded(String kind) throws Exception {
        Handoff<String> full = Handoffs.create(kind + ":1");
        Handoff<String> empty = Handoffs.create(kind + ":1");
        if (!kind.equals("pipe")) {
            assertTrue(full.offer("first")); // a pipe with no worker waiting is full already
        }
        List<Thread> threads = new ArrayList<>();
        List<RecordedEvent> waits = waitsDuring(() -> {
            try (Workers workers = new Workers()) {
                threads.add(workers.start(kind + "-timed-offer",
                        () -> assertFalse(full.offer("second", 20, TimeUnit.MILLISECONDS))));
                threads.add(workers.start(kind + "-timed-poll",
                        () -> assertNull(empty.poll(20, TimeUnit.MILLISECONDS))));
                workers.awaitAll(threads, Workers.deadlineIn(10));
                workers.assertNoFailures();
            }
        });
        assertWaited(full, kind, "put", threads.get(0), waits);
        assertWaited(empty, kind, "take", threads.get(1), waits);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aPutAndATakeThatDoNotBlockRecordNothing(String kind) throws Exception {
        assumeTrue(!kind.equals("pipe"), "a pipe's take always waits for a producer");
        Handoff<String> handoff = Handoffs.create(kind + ":2,stats");
        List<RecordedEvent> waits = waitsDuring(() -> {
            handoff.put("x");
            assertEquals("x", handoff.take());
            assertTrue(handoff.offer("y", 1, TimeUnit.SECONDS));
            assertEquals("y", handoff.poll(1, TimeUnit.SECONDS));
        });
        assertEquals(0, handoff.stats().consumerWaits() + handoff.stats().producerWaits());
        assertEquals(List.of(), of(handoff, waits));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aHandoffWithImportanceClassesIsNamedByItsKind(String kind) {
        assertEquals(kind, Handoffs.create(kind + ":4,classes=2").spec().kind());
    }

    // ---- dev.handoff.Stats ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void theStatsEventCarriesTheSizeAndTheCounters(String kind) throws Exception {
        List<Handoff<String>> built = new ArrayList<>();
        List<RecordedEvent> stats = record(STATS, s -> s.with("period", "endChunk"), () -> {
            Handoff<String> handoff = Handoffs.create(kind + ":4,stats"); // built while recording
            built.add(handoff);
            if (!kind.equals("pipe")) {
                handoff.put("a");
                handoff.put("b");
                handoff.put("c");
                assertTrue(handoff.poll() != null);
            }
        });
        Handoff<String> handoff = built.get(0);
        List<RecordedEvent> mine = of(handoff, stats);
        assertFalse(mine.isEmpty(), () -> "no " + STATS + " of this handoff among:\n" + describe(stats));
        HandoffStats now = handoff.stats();
        for (RecordedEvent e : mine) {
            assertEquals(kind, e.getString("kind"));
            assertEquals(4, e.getInt("capacity"));
            assertEquals(handoff.size(), e.getInt("size"));
            assertEquals(now.puts(), e.getLong("puts"));
            assertEquals(now.takes(), e.getLong("takes"));
            assertEquals(now.producerWaits(), e.getLong("producerWaits"));
            assertEquals(now.consumerWaits(), e.getLong("consumerWaits"));
            assertEquals(now.insertProbes(), e.getLong("insertProbes"));
            assertEquals(now.searchProbes(), e.getLong("searchProbes"));
            assertEquals(now.insertConflicts(), e.getLong("insertConflicts"));
            assertEquals(now.searchConflicts(), e.getLong("searchConflicts"));
        }
        if (!kind.equals("pipe")) {
            assertEquals(Map.of("size", 2L, "puts", 3L, "takes", 1L), Map.of(
                    "size", (long) mine.get(0).getInt("size"),
                    "puts", mine.get(0).getLong("puts"),
                    "takes", mine.get(0).getLong("takes")));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"circular:13,sojourn", "lock-split:13,stats,sojourn", "pht:13,classes=2,stats,sojourn"})
    void theStatsEventCarriesTheSojournTimesOfTheHandoffTheCallerHolds(String spec) throws Exception {
        List<Handoff<String>> built = new ArrayList<>();
        List<RecordedEvent> stats = record(STATS, s -> s.with("period", "endChunk"), () -> {
            Handoff<String> handoff = Handoffs.create(spec);
            built.add(handoff);
            handoff.put("a");
            handoff.put("b");
            handoff.take();
            TimeUnit.MILLISECONDS.sleep(50); // b stays, as behind a stuck consumer
        });
        Handoff<String> handoff = built.get(0);
        List<RecordedEvent> mine = of(handoff, stats);
        assertFalse(mine.isEmpty(), () -> "no " + STATS + " of this handoff among:\n" + describe(stats));
        assertEquals(mine, stats.stream().filter(e -> e.getString("kind").equals(handoff.spec().kind())
                && e.getInt("capacity") == handoff.capacity()).toList(), "the handoff inside has no event of its own");
        HandoffStats.SojournTimes now = handoff.stats().sojourn();
        assertEquals(1, now.count());
        for (RecordedEvent e : mine) {
            assertEquals(1, e.getInt("size"));
            assertEquals(handoff.stats().puts(), e.getLong("puts"));
            assertEquals(now.count(), e.getLong("sojournCount"));
            assertEquals(Duration.ofNanos(now.totalNanos()), e.getDuration("sojournTotal"));
            assertEquals(Duration.ofNanos(now.maxNanos()), e.getDuration("sojournMax"));
            assertEquals(Duration.ofNanos(now.p50Nanos()), e.getDuration("sojournP50"));
            assertEquals(Duration.ofNanos(now.p90Nanos()), e.getDuration("sojournP90"));
            assertEquals(Duration.ofNanos(now.p99Nanos()), e.getDuration("sojournP99"));
            assertEquals(Duration.ofNanos(now.p999Nanos()), e.getDuration("sojournP999"));
            assertEquals(Duration.ofNanos(now.windowMaxNanos()), e.getDuration("sojournWindowMax"));
            assertTrue(e.getDuration("oldestAge").toMillis() >= 50, () -> "b stayed 50 ms: " + e);
            assertTrue(e.getDuration("oldestAge").toNanos() <= now.oldestAgeNanos(), "read before now");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aHandoffThatDoesNotCountHasNoStatsEvent(String kind) throws Exception {
        Handoff<String> counting = Handoffs.create(kind + ":4,stats");
        Handoff<String> notCounting = Handoffs.create(kind + ":4");
        List<RecordedEvent> stats = record(STATS, s -> s.with("period", "endChunk"), () -> { });
        assertFalse(of(counting, stats).isEmpty(), () -> "the counting twin is there:\n" + describe(stats));
        assertEquals(List.of(), of(notCounting, stats));
    }

    @Test
    void droppedHandoffsAreForgotten() throws InterruptedException {
        int n = 100;
        List<Handoff<String>> handoffs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            handoffs.add(Handoffs.create(Handoffs.kinds().get(i % Handoffs.kinds().size()) + ":4,stats"));
        }
        int withThem = CountedHandoffs.registered();
        List<WeakReference<Handoff<String>>> refs = handoffs.stream().map(WeakReference::new).toList();
        handoffs.clear();
        long deadline = Workers.deadlineIn(20);
        while (refs.stream().anyMatch(r -> r.get() != null) || CountedHandoffs.registered() > withThem - n) {
            if (System.nanoTime() > deadline) {
                fail("still held: " + refs.stream().filter(r -> r.get() != null).count() + " of " + n
                        + " handoffs; registered " + CountedHandoffs.registered() + ", was " + withThem);
            }
            System.gc();
            Thread.sleep(10);
        }
    }

    // ---- the events' defaults ----

    static Map<String, String> defaults(Class<? extends jdk.jfr.Event> event) {
        return EventType.getEventType(event).getSettingDescriptors().stream()
                .collect(Collectors.toMap(SettingDescriptor::getName, SettingDescriptor::getDefaultValue));
    }

    @Test
    void theWaitEventIsOnWithATenMillisecondThresholdAndNoStackTrace() {
        assertEquals(WAIT, EventType.getEventType(WaitEvent.class).getName());
        Map<String, String> settings = defaults(WaitEvent.class);
        assertEquals("true", settings.get("enabled"));
        assertEquals("10 ms", settings.get("threshold"));
        assertEquals("false", settings.get("stackTrace"));
    }

    @Test
    void theStatsEventIsOnEverySecond() throws Exception {
        // JFR registers the event as periodic when the hook is installed: by the first
        // recording after the first handoff that counts.
        Handoffs.create("circular:1,stats");
        record(STATS, s -> { }, () -> { });
        assertEquals(STATS, EventType.getEventType(StatsEvent.class).getName());
        Map<String, String> settings = defaults(StatsEvent.class);
        assertEquals("true", settings.get("enabled"));
        assertEquals("1 s", settings.get("period"), settings::toString);
    }
}
