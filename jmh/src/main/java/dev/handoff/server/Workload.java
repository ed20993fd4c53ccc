/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

/**
 * What the client asks of a server in one run, after the papers' {@code TCPClient}
 * (Roussev and Wu (2001) section 3, Roussev and Wu (2006) section 3): {@code clients} client hosts each spawn
 * {@code children} child clients, and every child makes {@code requests} requests one after the
 * other. A request opens a connection, sends one byte, and reads the {@code responseBytes} the
 * server sends back after waiting {@code delayMillis} (the simulated work, t_r in Roussev and Wu (2006)); the
 * client then closes the connection, so TCP's TIME_WAIT falls on the client as in the papers.
 *
 * @param clients client hosts (the papers used 35)
 * @param children child clients per host, each one connection at a time (the papers used 4)
 * @param requests requests per child (the papers used 20)
 * @param delayMillis the server's simulated work per request (the papers used 250 and 500 ms)
 * @param responseBytes bytes of each response (the papers used 4000)
 */
public record Workload(int clients, int children, int requests, int delayMillis, int responseBytes) {

    /**
     * The papers' workload scaled for a 2-core machine and a run of about a minute: the same
     * 35 x 4 = 140 simultaneous connections, so the ratio of clients to workers (and so the
     * shape of the worker sweep) is kept; 4 requests per child instead of 20 and 25 ms of work
     * instead of 250 ms, so a run is 50 times shorter (2800 x 250 ms of work becomes 560 x 25 ms).
     */
    public static final Workload SCALED = new Workload(35, 4, 4, 25, 4000);

    /** A workload small enough for a smoke run of a few seconds. */
    public static final Workload SMOKE = new Workload(4, 2, 3, 2, 4000);

    /**
     * Checks every field.
     *
     * @throws IllegalArgumentException if a count is not positive or the delay is negative
     */
    public Workload {
        positive("clients", clients);
        positive("children", children);
        positive("requests", requests);
        positive("responseBytes", responseBytes);
        if (delayMillis < 0) {
            throw new IllegalArgumentException("delayMillis must be >= 0, was " + delayMillis);
        }
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, was " + value);
        }
    }

    /**
     * Returns the number of simultaneous connections the client keeps open at most.
     *
     * @return {@code clients * children}
     */
    public int concurrency() {
        return clients * children;
    }

    /**
     * Returns the number of connections, and so of requests, in one run.
     *
     * @return {@code clients * children * requests}
     */
    public int totalRequests() {
        return clients * children * requests;
    }

    /**
     * Returns this workload with another delay.
     *
     * @param millis the simulated work per request
     * @return a copy with {@code delayMillis == millis}
     */
    public Workload withDelay(int millis) {
        return new Workload(clients, children, requests, millis, responseBytes);
    }

    @Override
    public String toString() {
        return clients + " clients x " + children + " children x " + requests + " requests, "
                + delayMillis + " ms work, " + responseBytes + "-byte responses";
    }
}
