/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import dev.handoff.HandoffStats;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The server side of the experiment, run in a JVM of its own so that its process CPU time (the
 * papers' measure) counts the server and nothing of the client.
 *
 * <p>It reads one command per line on standard input and answers on standard output (its log,
 * if any, goes to standard error):
 * <pre>
 *   RUN design=D workers=W requests=N delay=MS bytes=B timeout=MS [classify=true]
 *      -&gt; ERROR message                (a bad command, design or spec)
 *      -&gt; READY port                   (listening on 127.0.0.1:port, threads started)
 *   GO                                   (the client is ready to connect)
 *      -&gt; GOING                        (the clocks have started: the client may connect)
 *      -&gt; DONE key=value ...           (N connections served, or the timeout passed)
 *   QUIT                                 (or end of input: the process exits)
 * </pre>
 * With {@code classify=true} (the mixed workload) a {@code handoff:SPEC} design's acceptor reads
 * each request's importance class before handing the connection over (see {@link ServerDesign}).
 * Every run is bounded: it ends after N connections or after its timeout, whichever comes first,
 * and then every thread of the design is stopped.
 */
public final class ServerProcess {

    private static final long STOP_GRACE_MILLIS = 2_000;

    /** Loaded before the first run, so that no run's clock includes loading the management classes. */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ServerProcess() {
    }

    /**
     * Serves commands from standard input until QUIT or end of input.
     *
     * @param args ignored
     * @throws IOException if standard input fails
     */
    public static void main(String[] args) throws IOException {
        processCpuNanos(); // load the OS bean before the first run too
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err); // nothing but the protocol on the real standard output
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("QUIT")) {
            if (line.startsWith("RUN ")) {
                run(parse(line.substring(4)), in, out);
            } else if (!line.isBlank()) {
                out.println("ERROR unknown command '" + line + "'");
            }
        }
    }

    private static Map<String, String> parse(String text) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : text.trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                map.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return map;
    }

    private static void run(Map<String, String> cmd, BufferedReader in, PrintStream out) throws IOException {
        ServerDesign design;
        int requests;
        int timeoutMillis;
        Service service;
        try {
            requests = Integer.parseInt(cmd.get("requests"));
            timeoutMillis = Integer.parseInt(cmd.get("timeout"));
            design = ServerDesign.parse(cmd.get("design"), Integer.parseInt(cmd.get("workers")),
                    Boolean.parseBoolean(cmd.getOrDefault("classify", "false")));
            service = new Service(Integer.parseInt(cmd.get("delay")), Integer.parseInt(cmd.get("bytes")),
                    timeoutMillis, requests);
        } catch (RuntimeException e) {
            out.println("ERROR " + e);
            return;
        }
        System.gc(); // leave the previous run's garbage out of this run's CPU time
        try (ServerSocket listener = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress())) {
            design.start(listener, service, requests);
            out.println("READY " + listener.getLocalPort());
            if (!"GO".equals(in.readLine())) {
                design.stop(listener, STOP_GRACE_MILLIS);
                out.println("ERROR expected GO");
                return;
            }
            out.println("DONE " + String.join(" ", measure(design, listener, service, requests, timeoutMillis, out)));
        }
    }

    private static List<String> measure(ServerDesign design, ServerSocket listener, Service service,
                                        int requests, int timeoutMillis, PrintStream out) {
        THREADS.resetPeakThreadCount();
        long cpu0 = processCpuNanos();
        long wall0 = System.nanoTime();
        out.println("GOING"); // only now may the client connect: nothing it does escapes the clocks
        boolean finished;
        try {
            finished = service.served().await(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            finished = false;
        }
        long wall = System.nanoTime() - wall0;
        long cpu = processCpuNanos() - cpu0;
        int peakThreads = THREADS.getPeakThreadCount();
        int stuck = design.stop(listener, STOP_GRACE_MILLIS);

        List<String> kv = new ArrayList<>();
        kv.add("served=" + (requests - service.served().getCount()));
        kv.add("errors=" + service.errors());
        kv.add("timedOut=" + !finished);
        kv.add("cpuNanos=" + cpu);
        kv.add("wallNanos=" + wall);
        kv.add("peakThreads=" + peakThreads);
        kv.add("stuckThreads=" + stuck);
        HandoffStats s = design.stats();
        if (s != null) {
            kv.add("puts=" + s.puts());
            kv.add("takes=" + s.takes());
            kv.add("producerWaits=" + s.producerWaits());
            kv.add("consumerWaits=" + s.consumerWaits());
            kv.add("insertProbes=" + s.insertProbes());
            kv.add("searchProbes=" + s.searchProbes());
            kv.add("insertConflicts=" + s.insertConflicts());
            kv.add("searchConflicts=" + s.searchConflicts());
        }
        kv.addAll(design.extras());
        return kv;
    }

    /** The CPU time of this whole JVM: every thread, JIT and GC included, as the papers measured. */
    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
