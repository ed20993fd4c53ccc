/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The deadline phase's accounting: which children are important, what counts as a miss, and that
 * the acceptor that reads each request first still serves every connection exactly once. Nothing
 * here asserts a time or a miss ratio; the timeout only stops a hung test.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MixedWorkloadTest {

    // ---------------------------------------------------------------- MixedLoad

    @Test
    void exactlyTheShareOfChildrenIsImportantSpreadEvenly() {
        MixedLoad load = new MixedLoad(0.2, 75, 50);
        int important = 0;
        for (int child = 0; child < 140; child++) {
            if (load.classOf(child, 140) == Job.IMPORTANT) {
                important++;
                assertEquals(4, child % 5, "one important child in every five, the fifth: child " + child);
            }
        }
        assertEquals(28, important);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 1.0})
    void noneOrEveryChildIsImportantAtTheEnds(double share) {
        MixedLoad load = new MixedLoad(share, 75, 50);
        int expected = share == 0 ? Job.ORDINARY : Job.IMPORTANT;
        for (int child = 0; child < 7; child++) {
            assertEquals(expected, load.classOf(child, 7));
        }
    }

    @Test
    void childOutsideTheRunIsRejected() {
        MixedLoad load = new MixedLoad(0.5, 75, 50);
        assertThrows(IndexOutOfBoundsException.class, () -> load.classOf(4, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> load.classOf(-1, 4));
    }

    @Test
    void parseReadsShareDeadlineAndWorkers() {
        assertEquals(new MixedLoad(0.2, 75, 50), MixedLoad.parse("important=0.2,deadline=75", 50));
        assertEquals(new MixedLoad(0.8, 60, 2), MixedLoad.parse("deadline=60, important=0.8", 2));
        assertEquals(new MixedLoad(0.5, 40, 30), MixedLoad.parse("important=0.5,deadline=40,workers=30", 2));
    }

    @ParameterizedTest
    @ValueSource(strings = {"important=0.2", "deadline=75", "important=0.2,deadline=75,speed=3",
            "important=1.5,deadline=75", "important=-0.1,deadline=75", "important=0.2,deadline=0",
            "important=0.2,deadline=75,workers=0", "important=x,deadline=75", "important=0.2,deadline=7.5",
            "important=0.2,important=0.3,deadline=75", "important=0.2,,deadline=75", "important=NaN,deadline=75"})
    void parseRejectsEveryBadValue(String text) {
        assertThrows(IllegalArgumentException.class, () -> MixedLoad.parse(text, 50));
    }

    // ---------------------------------------------------------------- Job

    @Test
    void requestByteZeroIsImportantAnyOtherOrdinary() {
        assertEquals(Job.IMPORTANT, Job.classOf(0));
        for (int b : new int[] {1, 2, 127, 255}) {
            assertEquals(Job.ORDINARY, Job.classOf(b));
        }
    }

    @Test
    void jobRejectsAClassTheClientNeverSends() throws IOException {
        try (java.net.Socket unconnected = new java.net.Socket()) {
            assertThrows(IllegalArgumentException.class, () -> new Job(unconnected, 2));
            assertThrows(IllegalArgumentException.class, () -> new Job(unconnected, -1));
            assertThrows(NullPointerException.class, () -> new Job(null, Job.IMPORTANT));
        }
    }

    // ---------------------------------------------------------------- ClassResult

    private static final long DEADLINE = 75_000_000L;

    @Test
    void aMissIsAFailureOrACompletionAfterTheDeadline() {
        long[] sorted = {10_000_000L, DEADLINE, DEADLINE + 1, 200_000_000L};
        ClassResult r = new ClassResult(Job.IMPORTANT, DEADLINE, sorted, 2, new double[] {1, 1});
        assertEquals(6, r.requests());
        assertEquals(4, r.missed(), "2 failed + 2 later than the deadline; one exactly at it is in time");
        assertEquals(4.0 / 6, r.missRatio());
    }

    @Test
    void nothingMadeHasNoRatioAndNoPercentile() {
        ClassResult r = new ClassResult(Job.IMPORTANT, DEADLINE, new long[0], 0, new double[0]);
        assertEquals(0, r.missed());
        assertTrue(Double.isNaN(r.missRatio()));
        assertEquals(-1, r.percentileNanos(50));
    }

    @Test
    void poolingMergesLatenciesFailuresAndChildren() {
        ClassResult a = new ClassResult(Job.ORDINARY, DEADLINE, new long[] {5, DEADLINE + 5}, 1, new double[] {2});
        ClassResult b = new ClassResult(Job.ORDINARY, DEADLINE, new long[] {3, 4}, 0, new double[] {2, 2});
        ClassResult pooled = ClassResult.pool(List.of(a, b), Job.ORDINARY);
        assertEquals(5, pooled.requests());
        assertEquals(2, pooled.missed());
        assertEquals(List.of(3L, 4L, 5L, DEADLINE + 5), java.util.Arrays.stream(pooled.latencyNanos()).boxed().toList());
        assertEquals(3, pooled.childRates().length);
        assertEquals(1.0, pooled.fairness());
    }

    @Test
    void poolingRefusesMixedDeadlinesAndNothing() {
        ClassResult a = new ClassResult(Job.ORDINARY, DEADLINE, new long[0], 0, new double[0]);
        ClassResult b = new ClassResult(Job.ORDINARY, DEADLINE + 1, new long[0], 0, new double[0]);
        assertThrows(IllegalArgumentException.class, () -> ClassResult.pool(List.of(a, b), Job.ORDINARY));
        assertThrows(IllegalArgumentException.class, () -> ClassResult.pool(List.of(), Job.ORDINARY));
    }

    // ---------------------------------------------------------------- specs with classes

    @Test
    void classesSpecIsAQueue() {
        BlockingQueue<Job> q = ServerDesign.socketQueue("circular:8,classes=2");
        assertTrue(q.isEmpty());
    }

    @Test
    void jobIsTheLibrarysImportance() {
        assertTrue(dev.handoff.Importance.class.isAssignableFrom(Job.class),
                "Job must implement dev.handoff.Importance (delete the server package's stand-in), or a handoff"
                        + " with classes puts every job in the least important class");
    }

    @ParameterizedTest
    @ValueSource(strings = {"circular:8,classes=2", "lock-split:8,classes=2", "pht:8,classes=2"})
    void importantJobLeavesAHandoffWithClassesFirst(String spec) throws Exception {
        BlockingQueue<Job> q = ServerDesign.socketQueue(spec);
        try (java.net.Socket a = new java.net.Socket(); java.net.Socket b = new java.net.Socket()) {
            Job ordinary = new Job(a, Job.ORDINARY);
            Job important = new Job(b, Job.IMPORTANT);
            q.put(ordinary);
            q.put(important);
            assertSame(important, q.take());
            assertSame(ordinary, q.take());
        }
    }

    @Test
    void misspelledOptionIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerDesign.socketQueue("circular:8,clases=2"));
        assertTrue(e.getMessage().contains("clases"), e.getMessage());
    }

    // ---------------------------------------------------------------- a run, in this JVM

    /**
     * Serves the mixed workload through a design whose acceptor reads each request, and checks
     * that every connection was served once and every request is in its class.
     */
    @ParameterizedTest
    @ValueSource(strings = {"handoff:monitor:4", "handoff:circular:4", "handoff:lock-split:4", "handoff:pht:4",
            "handoff:pipe:W", "handoff:circular:4,classes=2", "handoff:lock-split:4,classes=2",
            "handoff:pht:4,classes=2", "handoff:pipe:W,classes=2", "thread-per-connection"})
    void mixedRunServesEveryConnectionOnceInItsClass(String design) throws Exception {
        Workload workload = new Workload(3, 4, 3, 1, 100); // 12 children, 36 connections
        MixedLoad mixed = new MixedLoad(0.25, 10_000, 2);  // 2 workers: requests queue
        LoadResult seen = run(design, workload, mixed);

        assertEquals(workload.totalRequests(), seen.completed());
        assertEquals(0, seen.failed());
        assertEquals(2, seen.classes().size());
        ClassResult important = seen.classes().get(0);
        ClassResult ordinary = seen.classes().get(1);
        assertEquals(Job.IMPORTANT, important.importanceClass());
        assertEquals(3 * workload.requests(), important.requests(), "3 of the 12 children are important");
        assertEquals(9 * workload.requests(), ordinary.requests());
    }

    @Test
    void papersWorkloadHasNoClasses() throws Exception {
        Workload workload = new Workload(2, 2, 2, 1, 100);
        LoadResult seen = run("handoff:circular:4", workload, null);
        assertEquals(workload.totalRequests(), seen.completed());
        assertTrue(seen.classes().isEmpty());
    }

    /** Bound of every socket read, on both sides: a broken run fails in seconds, not at the test's timeout. */
    private static final int IO_MILLIS = 5_000;

    /** One run as ServerProcess does it, server and client in this JVM. */
    private static LoadResult run(String name, Workload workload, MixedLoad mixed) throws Exception {
        ServerDesign design = ServerDesign.parse(name, 2, mixed != null);
        Service service = new Service(workload.delayMillis(), workload.responseBytes(), IO_MILLIS, workload.totalRequests());
        try (ServerSocket listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress())) {
            design.start(listener, service, workload.totalRequests());
            LoadResult seen;
            boolean allCounted;
            int left;
            try {
                LoadClient client = new LoadClient(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                        listener.getLocalPort()), workload, mixed, IO_MILLIS, false);
                client.startThreads();
                client.release();
                seen = client.await(3L * IO_MILLIS);
                allCounted = service.served().await(IO_MILLIS, TimeUnit.MILLISECONDS);
            } finally {
                left = design.stop(listener, 2_000);
            }
            assertTrue(allCounted, "every connection counted");
            assertEquals(0, service.errors());
            assertEquals(0, left, "no thread left behind");
            return seen;
        }
    }

    @Test
    void unknownKindIsAnError() {
        Exception e = assertThrows(IllegalArgumentException.class,
                () -> ServerDesign.parse("handoff:ring:4", 2, true));
        assertTrue(e.getMessage().contains("ring"), e.getMessage());
    }
}
