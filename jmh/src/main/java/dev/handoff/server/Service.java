/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the server does with one connection, the same in every design (the papers'
 * {@code handleRequest()}): read the client's one byte, wait the simulated work, answer with the
 * response bytes, then wait for the client to close first so that TIME_WAIT stays on the client.
 *
 * <p>A connection is served in two halves, {@link #receive} (read the request) and
 * {@link #serve(Job)} (the rest), so that the acceptor can read a request's importance class
 * before it hands the connection over; {@link #serve(Socket)} does both. None of them throws: a
 * failed connection is counted in {@link #errors()}, and every connection, failed or not, counts
 * down {@link #served()} exactly once, in {@code receive} when it fails there and in
 * {@code serve(Job)} otherwise.
 */
final class Service {

    private final int delayMillis;
    private final byte[] response;
    private final int ioTimeoutMillis;
    private final CountDownLatch served;
    private final LongAdder errors = new LongAdder();

    /**
     * @param delayMillis the simulated work per request
     * @param responseBytes the size of each response
     * @param ioTimeoutMillis the most a read may wait for the client
     * @param requests the number of connections the run serves
     */
    Service(int delayMillis, int responseBytes, int ioTimeoutMillis, int requests) {
        this.delayMillis = delayMillis;
        this.response = new byte[responseBytes];
        this.ioTimeoutMillis = ioTimeoutMillis;
        this.served = new CountDownLatch(requests);
    }

    /**
     * Serves one connection and closes it: {@link #receive} and then {@link #serve(Job)}.
     *
     * @param connection a connected socket, owned by this call from now on
     */
    void serve(Socket connection) {
        Job job = receive(connection);
        if (job != null) {
            serve(job);
        }
    }

    /**
     * Reads the client's request byte, which carries its importance class: the first half of a
     * connection, done by the acceptor itself in the mixed workload. A connection that fails here
     * is closed and counted, in {@link #errors()} and in {@link #served()}, and null is returned.
     *
     * @param connection a connected socket, owned by this call from now on
     * @return the job to pass to {@link #serve(Job)}, which then owns the socket; null on failure
     */
    Job receive(Socket connection) {
        try {
            connection.setSoTimeout(ioTimeoutMillis);
            int request = connection.getInputStream().read();
            if (request < 0) {
                throw new IOException("client closed before sending its byte");
            }
            return new Job(connection, Job.classOf(request));
        } catch (IOException e) {
            errors.increment();
            ServerDesign.closeQuietly(connection);
            served.countDown(); // the connection's one count: no job exists to count it later
            return null;
        }
    }

    /**
     * Serves a connection whose request was read: waits the simulated work, answers, waits for
     * the client's close, and closes.
     *
     * @param job what {@link #receive} returned, owned by this call from now on
     */
    void serve(Job job) {
        try (Socket connection = job.socket()) {
            Thread.sleep(delayMillis); // the simulated work, t_r
            OutputStream out = connection.getOutputStream();
            out.write(response);
            out.flush();
            awaitClientClose(connection.getInputStream());
        } catch (IOException e) {
            errors.increment();
        } catch (InterruptedException e) {
            errors.increment(); // only when the run is being stopped
            Thread.currentThread().interrupt();
        } finally {
            served.countDown(); // the connection's one count, as receive() returned a job
        }
    }

    /**
     * Reads until the client's FIN (or its reset, with --linger0): the client closes first, as the
     * papers' client did. The response is already delivered, so a reset here is not an error.
     */
    private static void awaitClientClose(InputStream in) throws IOException {
        byte[] sink = new byte[64];
        try {
            for (int reads = 0; in.read(sink) >= 0; reads++) {
                if (reads > 1000) {
                    throw new IOException("client kept sending after its request");
                }
            }
        } catch (java.net.SocketException reset) {
            // the client closed with SO_LINGER 0: an RST instead of a FIN
        }
    }

    /**
     * Returns the latch that reaches zero when every connection of the run has been served.
     *
     * @return the run's completion latch
     */
    CountDownLatch served() {
        return served;
    }

    /**
     * Returns the number of connections that failed (timeout, reset, interrupted).
     *
     * @return failed connections so far
     */
    long errors() {
        return errors.sum();
    }
}
