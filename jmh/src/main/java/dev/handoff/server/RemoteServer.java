/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The experiment's handle on the {@link ServerProcess}: starts it with this JVM's own
 * {@code java} and class path, sends it one run at a time, and drives the {@link LoadClient}
 * between its READY and DONE. Every wait for the server is bounded; a server that stops answering
 * is killed.
 */
final class RemoteServer implements AutoCloseable {

    private static final long ANSWER_MILLIS = 30_000;

    private final Process process;
    private final PrintStream commands;
    private final LinkedBlockingQueue<String> answers = new LinkedBlockingQueue<>();

    private RemoteServer(Process process) {
        this.process = process;
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread.ofPlatform().name("server-answers").daemon(true).start(this::pumpAnswers);
    }

    /**
     * Starts a server JVM: the same java binary (the toolchain's, when Maven runs this) and class
     * path as this one.
     *
     * @param jvmOptions options for the server JVM, e.g. a heap size
     * @return the running server
     * @throws IOException if the process cannot start
     */
    static RemoteServer launch(List<String> jvmOptions) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ServerProcess.class.getName()));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new RemoteServer(p);
    }

    private void pumpAnswers() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                answers.add(line);
            }
        } catch (IOException e) {
            // the process ended; answer() reports the silence
        }
    }

    private String answer(long millis) throws IOException {
        try {
            String line = answers.poll(millis, TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new IOException("server process gave no answer in " + millis + " ms"
                        + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"));
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the server", e);
        }
    }

    /** The outcome of one run: what the server measured and what the client saw. */
    record Outcome(String unavailable, Map<String, String> server, LoadResult client) {
        boolean available() {
            return unavailable == null;
        }

        long serverLong(String key) {
            String v = server.get(key);
            return v == null ? -1 : Long.parseLong(v);
        }
    }

    /**
     * Runs one design against the client.
     *
     * @param design the design's name (see {@link ServerDesign})
     * @param workers workers for the pre-threaded designs
     * @param workload the client's load
     * @param timeoutMillis the bound of the whole run
     * @param linger0 whether the client closes with SO_LINGER 0
     * @return the outcome; {@code unavailable} says why when the server refused the design
     * @throws IOException if the server fails or stops answering
     */
    Outcome run(String design, int workers, Workload workload, int timeoutMillis, boolean linger0) throws IOException {
        return run(design, workers, workload, null, timeoutMillis, linger0);
    }

    /**
     * Runs one design against the client, in the mixed workload when {@code mixed} is given: the
     * children send their importance class, the server's acceptor reads it (see
     * {@link ServerDesign}), and the client reports each class against the deadline.
     *
     * @param design the design's name (see {@link ServerDesign})
     * @param workers workers for the pre-threaded designs
     * @param workload the client's load
     * @param mixed the importance share and deadline, or null for the papers' workload
     * @param timeoutMillis the bound of the whole run
     * @param linger0 whether the client closes with SO_LINGER 0
     * @return the outcome; {@code unavailable} says why when the server refused the design
     * @throws IOException if the server fails or stops answering
     */
    Outcome run(String design, int workers, Workload workload, MixedLoad mixed, int timeoutMillis, boolean linger0)
            throws IOException {
        commands.println("RUN design=" + design + " workers=" + workers + " requests=" + workload.totalRequests()
                + " delay=" + workload.delayMillis() + " bytes=" + workload.responseBytes() + " timeout=" + timeoutMillis
                + (mixed != null ? " classify=true" : ""));
        String ready = answer(ANSWER_MILLIS);
        if (ready.startsWith("ERROR ")) { // a bad design or spec: reported in its row, the others still run
            return new Outcome("error: " + ready.substring("ERROR ".length()), Map.of(), null);
        }
        if (!ready.startsWith("READY ")) {
            throw new IOException("server: " + ready);
        }
        int port = Integer.parseInt(ready.substring("READY ".length()).trim());
        LoadClient client = new LoadClient(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                workload, mixed, timeoutMillis, linger0);
        client.startThreads();
        commands.println("GO");
        String going = answer(ANSWER_MILLIS);
        if (!going.equals("GOING")) {
            throw new IOException("server: " + going);
        }
        client.release();
        LoadResult seen = client.await(timeoutMillis + 5_000L);
        String done = answer(timeoutMillis + ANSWER_MILLIS);
        if (!done.startsWith("DONE ")) {
            throw new IOException("server: " + done);
        }
        Map<String, String> measured = new LinkedHashMap<>();
        for (String pair : done.substring(5).trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            measured.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return new Outcome(null, measured, seen);
    }

    /** Asks the server to quit, and kills it if it has not after a few seconds. */
    @Override
    public void close() {
        commands.println("QUIT");
        commands.close();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
