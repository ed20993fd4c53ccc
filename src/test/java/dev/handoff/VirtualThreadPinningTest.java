/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No handoff pins a virtual thread's carrier while the virtual thread is blocked in it: JFR
 * records {@code jdk.VirtualThreadPinned} (threshold 0, so every pinned block counts) during a
 * workload in which virtual producers and consumers block on every kind, and the test requires
 * none.
 *
 * <p>Two canaries show that the recording does catch pinning, so that the main test can fail:
 * <ul>
 *   <li>a virtual thread blocked in a handoff's {@code poll} <em>inside a class initializer</em>
 *       is pinned on every JDK from 21 on (a VM frame sits under {@code <clinit>}), and JFR
 *       records it, with the handoff's parking frame on the stack;</li>
 *   <li>the same call inside a {@code synchronized} block pins on JDK 21 to 23 and no longer on
 *       JDK 24 and later (JEP 491 lets a virtual thread unmount while it holds a monitor). The
 *       test asserts the behaviour of the JDK it runs on; the build runs on JDK 25, where the
 *       event is absent. No JDK 21 is installed on the machine this was written on, so the JDK 21
 *       branch has not been run here.</li>
 * </ul>
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VirtualThreadPinningTest {

    static final String PINNED = "jdk.VirtualThreadPinned";

    /** Every kind, and the parallel hash table also in its papers' form, whose slots are monitors. */
    static Stream<Arguments> variants() {
        Stream<Arguments> kinds = Handoffs.kinds().stream().map(kind -> Arguments.of(kind, ""));
        return Handoffs.kinds().contains("pht")
                ? Stream.concat(kinds, Stream.of(Arguments.of("pht", ",slots=monitor")))
                : kinds;
    }

    interface Workload {
        void run() throws Exception;
    }

    /** Runs workload under a JFR recording of every pinned block and returns those events. */
    static List<RecordedEvent> pinnedEventsDuring(Workload workload) throws Exception {
        Path file = Files.createTempFile("pinned", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            workload.run();
            recording.stop();
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(PINNED))
                    .toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    static String describe(List<RecordedEvent> events) {
        return events.stream().map(VirtualThreadPinningTest::describe).collect(Collectors.joining("\n"));
    }

    static String describe(RecordedEvent event) {
        if (event.getStackTrace() == null) {
            return "(no stack)";
        }
        return event.getStackTrace().getFrames().stream().limit(12)
                .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName())
                .collect(Collectors.joining(" <- "));
    }

    static boolean onStack(RecordedEvent event, String className) {
        return event.getStackTrace() != null && event.getStackTrace().getFrames().stream()
                .map(RecordedFrame::getMethod).anyMatch(m -> m.getType().getName().equals(className));
    }

    @ParameterizedTest(name = "{0}{1}")
    @MethodSource("variants")
    void virtualThreadsBlockedInAHandoffDoNotPinTheirCarrier(String kind, String options) throws Exception {
        // Small: producers block on full buffers; the pipe has one slot per consumer and no buffer.
        String spec = kind + ":" + (kind.equals("pipe") ? CONSUMERS : 2) + options + ",stats";
        // Once unrecorded first, so that every class on the blocking paths is loaded: a virtual
        // thread that meets another one loading the same class waits for the class loader's
        // monitor in a VM frame, pinned, which is the JDK's class loading and not the handoff.
        runBlockingWorkload(Handoffs.create(spec));
        Handoff<Integer> handoff = Handoffs.create(spec);
        List<RecordedEvent> pinned = pinnedEventsDuring(() -> runBlockingWorkload(handoff));
        HandoffStats stats = handoff.stats();
        assertTrue(stats.producerWaits() > 0 && stats.consumerWaits() > 0, "both sides blocked: " + stats);
        assertEquals(List.of(), pinned, () -> kind + " pinned a carrier:\n" + describe(pinned));
    }

    static final int PRODUCERS = 64;
    static final int CONSUMERS = 16;
    static final int PER_PRODUCER = 200;

    /**
     * Virtual producers (put and the timed offer) and consumers (take and the timed poll) move
     * PRODUCERS x PER_PRODUCER elements through handoff, then close it; fails unless every
     * element arrived and no thread failed. Both sides are made to block, whatever the schedule:
     * the producers start alone and the consumers only once a producer has waited (a full buffer,
     * or a pipe with no worker), and the handoff is closed only once a consumer has waited on it
     * empty after the last put. Needs a handoff built with {@code stats}.
     */
    static void runBlockingWorkload(Handoff<Integer> handoff) throws InterruptedException {
        AtomicInteger received = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        List<Thread> producerThreads = startProducers(handoff, failures);
        awaitState(() -> handoff.stats().producerWaits() > 0, "a producer blocked with no consumer", handoff);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < CONSUMERS; c++) {
            boolean timed = c % 2 == 0; // take() and the timed poll both block
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        Integer e = timed ? handoff.poll(1, TimeUnit.MILLISECONDS) : handoff.take();
                        if (e != null) {
                            received.incrementAndGet();
                        } else if (handoff.isClosed()) {
                            return;
                        }
                    }
                } catch (HandoffClosedException closed) {
                    // done
                } catch (Throwable t) {
                    failures.incrementAndGet();
                }
            }));
        }
        for (Thread t : producerThreads) {
            t.join();
        }
        long waitsBefore = handoff.stats().consumerWaits();
        awaitState(() -> handoff.stats().consumerWaits() > waitsBefore, "a consumer blocked on the drained handoff",
                handoff);
        handoff.close();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(0, failures.get());
        assertEquals(PRODUCERS * PER_PRODUCER, received.get());
    }

    private static List<Thread> startProducers(Handoff<Integer> handoff, AtomicInteger failures) {
        List<Thread> producerThreads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            boolean timed = p % 2 == 0; // put() and the timed offer both block
            producerThreads.add(Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < PER_PRODUCER; ) {
                        if (!timed) {
                            handoff.put(i++);
                        } else if (handoff.offer(i, 1, TimeUnit.MILLISECONDS)) {
                            i++;
                        }
                    }
                } catch (Throwable t) {
                    failures.incrementAndGet();
                }
            }));
        }
        return producerThreads;
    }

    /**
     * Waits until state holds; fails if it never does within 30 s (the class's timeout is the
     * backstop). The states waited for here follow from the workload's order, not from timing.
     */
    private static void awaitState(BooleanSupplier state, String what, Handoff<?> handoff) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!state.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("never reached: " + what + "; " + handoff.stats());
            }
            Thread.sleep(1);
        }
    }

    // ---- the canaries ----

    /** Filled by the class initializer of BlocksInItsInitializer. */
    static final Handoff<String> CANARY = new LockSplitQueue<>(1);

    /** Blocks in a handoff while it is being initialized: a virtual thread here is pinned. */
    static final class BlocksInItsInitializer {
        static final String FIRST;

        static {
            try {
                FIRST = CANARY.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        static void initialize() {
            // calling this runs the static initializer once
        }
    }

    @Test
    void theRecordingCatchesAVirtualThreadPinnedInAClassInitializer() throws Exception {
        List<RecordedEvent> pinned = pinnedEventsDuring(
                () -> Thread.ofVirtual().start(BlocksInItsInitializer::initialize).join());
        assertFalse(pinned.isEmpty(), "a park inside <clinit> pins on every JDK from 21 on");
        assertTrue(pinned.stream().anyMatch(e -> onStack(e, LockSplitQueue.class.getName())),
                "the pinned park is the handoff's:\n" + describe(pinned));
    }

    @Test
    void aVirtualThreadBlockedInsideSynchronizedIsPinnedOnlyBeforeJdk24() throws Exception {
        Handoff<String> handoff = new LockSplitQueue<>(1);
        Object monitor = new Object();
        List<RecordedEvent> pinned = pinnedEventsDuring(() -> Thread.ofVirtual().start(() -> {
            synchronized (monitor) {
                try {
                    handoff.poll(50, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }).join());
        if (Runtime.version().feature() < 24) {
            assertFalse(pinned.isEmpty(), "JDK " + Runtime.version() + " pins a virtual thread that parks holding a monitor");
        } else {
            assertEquals(List.of(), pinned, () -> "JDK 24+ (JEP 491) unmounts a virtual thread holding a monitor:\n"
                    + describe(pinned));
        }
    }
}
