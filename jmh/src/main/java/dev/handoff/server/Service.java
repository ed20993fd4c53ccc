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
 * <p>{@link #serve(Socket)} never throws: a failed connection is counted in {@link #errors()}, and
 * every connection, failed or not, counts down {@link #served()} exactly once.
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
     * Serves one connection and closes it.
     *
     * @param connection a connected socket, owned by this call from now on
     */
    void serve(Socket connection) {
        try (connection) {
            connection.setSoTimeout(ioTimeoutMillis);
            InputStream in = connection.getInputStream();
            OutputStream out = connection.getOutputStream();
            if (in.read() < 0) {
                throw new IOException("client closed before sending its byte");
            }
            Thread.sleep(delayMillis); // the simulated work, t_r
            out.write(response);
            out.flush();
            awaitClientClose(in);
        } catch (IOException e) {
            errors.increment();
        } catch (InterruptedException e) {
            errors.increment(); // only when the run is being stopped
            Thread.currentThread().interrupt();
        } finally {
            served.countDown();
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
