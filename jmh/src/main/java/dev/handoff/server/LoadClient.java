/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The papers' {@code TCPClient} (Roussev and Wu (2001) Fig. 1): {@code clients x children} child clients, all
 * released at once, each making its requests one after the other on a fresh connection: connect,
 * send one byte, read the whole response, close. Every child is a platform thread; every wait is
 * bounded by the run's timeout, so a broken server costs at most that long.
 *
 * <p>In the mixed workload ({@link MixedLoad}) each child has an importance class and sends it as
 * its request byte; otherwise every child is {@link Job#ORDINARY} and sends that byte.
 *
 * <p>Measured here: the latency of every request (connect to last response byte), when each child
 * finished, and the failures; in the mixed workload, the same per class against the deadline.
 */
final class LoadClient {

    private final InetSocketAddress server;
    private final Workload workload;
    /** The importance share and deadline, or null for the papers' workload. */
    private final MixedLoad mixed;
    private final int timeoutMillis;
    private final boolean linger0;
    private final CountDownLatch start = new CountDownLatch(1);
    private final List<Child> children = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private long startNanos;

    /**
     * @param server the server's loopback address
     * @param workload clients, children, requests, response size
     * @param mixed the importance share and deadline, or null for the papers' workload
     * @param timeoutMillis the most any connect or read may wait
     * @param linger0 close with SO_LINGER 0 (a reset, no TIME_WAIT) instead of a normal close
     */
    LoadClient(InetSocketAddress server, Workload workload, MixedLoad mixed, int timeoutMillis, boolean linger0) {
        this.server = server;
        this.workload = workload;
        this.mixed = mixed;
        this.timeoutMillis = timeoutMillis;
        this.linger0 = linger0;
    }

    /** One child client: its requests, in order, on one platform thread. */
    private final class Child implements Runnable {
        /** The child's importance class, sent as each request's byte. */
        final int importanceClass;
        final long[] latencyNanos = new long[workload.requests()];
        int completed;
        int errors;
        long firstNanos;
        long finishNanos;

        Child(int importanceClass) {
            this.importanceClass = importanceClass;
        }

        @Override
        public void run() {
            try {
                start.await();
            } catch (InterruptedException e) {
                return;
            }
            byte[] buffer = new byte[workload.responseBytes()];
            firstNanos = System.nanoTime();
            for (int r = 0; r < workload.requests(); r++) {
                long t0 = System.nanoTime();
                if (request(buffer)) {
                    latencyNanos[completed++] = System.nanoTime() - t0;
                } else {
                    errors++;
                }
            }
            finishNanos = System.nanoTime();
        }

        private boolean request(byte[] buffer) {
            try (Socket s = new Socket()) {
                if (linger0) {
                    s.setSoLinger(true, 0);
                }
                s.connect(server, timeoutMillis);
                s.setSoTimeout(timeoutMillis);
                s.getOutputStream().write(importanceClass);
                s.getOutputStream().flush();
                return readFully(s.getInputStream(), buffer);
            } catch (IOException e) {
                return false;
            }
        }

        private static boolean readFully(InputStream in, byte[] buffer) throws IOException {
            int got = 0;
            while (got < buffer.length) {
                int n = in.read(buffer, got, buffer.length - got);
                if (n < 0) {
                    return false;
                }
                got += n;
            }
            return true;
        }
    }

    /** Starts every child thread; they wait for {@link #release()}. */
    void startThreads() {
        int all = workload.concurrency();
        for (int c = 0; c < workload.clients(); c++) {
            for (int k = 0; k < workload.children(); k++) {
                int index = children.size();
                Child child = new Child(mixed == null ? Job.ORDINARY : mixed.classOf(index, all));
                children.add(child);
                threads.add(Thread.ofPlatform().name("client-" + c + "-" + k).daemon(true).start(child));
            }
        }
    }

    /** Lets every child go at once. */
    void release() {
        startNanos = System.nanoTime();
        start.countDown();
    }

    /**
     * Waits for every child, at most {@code boundMillis} in all, and summarises the run. A child
     * still running after the bound (possible only if the server is broken) counts all its
     * requests as failed; its daemon thread ends at its own socket timeout.
     *
     * @param boundMillis the most to wait
     * @return what the client saw
     */
    LoadResult await(long boundMillis) {
        long deadline = System.nanoTime() + boundMillis * 1_000_000L;
        List<Child> finished = new ArrayList<>();
        int failed = 0;
        for (int i = 0; i < threads.size(); i++) {
            if (joinUntil(threads.get(i), deadline)) {
                finished.add(children.get(i)); // join: the child's fields are now visible
            } else {
                failed += workload.requests();
            }
        }
        long end = startNanos;
        int completed = 0;
        long[] all = new long[workload.totalRequests()];
        double[] rates = new double[finished.size()];
        for (int i = 0; i < finished.size(); i++) {
            Child c = finished.get(i);
            System.arraycopy(c.latencyNanos, 0, all, completed, c.completed);
            completed += c.completed;
            failed += c.errors;
            end = Math.max(end, c.finishNanos);
            rates[i] = rate(c);
        }
        long[] latencies = Arrays.copyOf(all, completed);
        Arrays.sort(latencies);
        List<ClassResult> classes = mixed == null ? List.of()
                : List.of(classResult(Job.IMPORTANT, finished), classResult(Job.ORDINARY, finished));
        return new LoadResult(end - startNanos, latencies, completed, failed, LoadResult.fairness(rates), classes);
    }

    /**
     * The child's service rate over its own span, so that a child thread the OS started late is
     * not counted as a child the server served slowly.
     */
    private static double rate(Child c) {
        return c.completed * 1e9 / Math.max(1, c.finishNanos - c.firstNanos);
    }

    /**
     * What the children of one class saw; a child that never finished counts all its requests as
     * failed, and so as missed. Call only after the joins of {@link #await}.
     */
    private ClassResult classResult(int importanceClass, List<Child> finished) {
        List<Long> latencies = new ArrayList<>();
        List<Double> rates = new ArrayList<>();
        int failed = 0;
        for (Child c : children) {
            if (c.importanceClass != importanceClass) {
                continue;
            }
            if (!finished.contains(c)) {
                failed += workload.requests();
                continue;
            }
            for (int r = 0; r < c.completed; r++) {
                latencies.add(c.latencyNanos[r]);
            }
            failed += c.errors;
            rates.add(rate(c));
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        return new ClassResult(importanceClass, mixed.deadlineNanos(), sorted, failed,
                rates.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static boolean joinUntil(Thread t, long deadlineNanos) {
        try {
            long left = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000L);
            return t.join(java.time.Duration.ofMillis(left));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
