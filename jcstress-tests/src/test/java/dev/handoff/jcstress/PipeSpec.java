/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

/**
 * The sequential specification of a pipe handoff as its non-blocking operations see it. A pipe
 * holds nothing: an offer succeeds only when a worker is waiting in {@code take()} or a timed
 * {@code poll}, and no non-blocking operation ever makes a worker wait. So, seen through
 * {@code offer}, {@code poll()}, {@code peek}, {@code size}, {@code remainingCapacity} and
 * {@code close}, a pipe must behave as a queue that is always empty and always full: offers
 * refused (before and after close), polls and peeks find nothing, size 0, no room. The
 * interesting race of a pipe, a worker's timed poll expiring just as a producer hands it an
 * element, needs a waiting worker; jcstress lesson Handoff_09 covers it.
 */
public class PipeSpec {
    public boolean offer(int e) {
        return false;
    }

    public Integer poll() {
        return null;
    }

    public Integer peek() {
        return null;
    }

    public int size() {
        return 0;
    }

    public int remainingCapacity() {
        return 0;
    }

    public void close() {
        // offers were refused already; after close they stay refused
    }
}
