/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import java.util.ArrayDeque;

/**
 * The sequential specification of a bounded FIFO handoff of capacity 2, for Lincheck: what one
 * thread alone would see. Its methods mirror the operations of {@link FifoLincheckTest}.
 */
public class FifoSpec {
    static final int CAPACITY = 2;

    private final ArrayDeque<Integer> elements = new ArrayDeque<>();
    private boolean closed;

    public boolean offer(int e) {
        if (closed || elements.size() == CAPACITY) {
            return false; // closed: refused, as BlockingQueue.offer reports it
        }
        elements.addLast(e);
        return true;
    }

    public Integer poll() {
        return elements.pollFirst();
    }

    public Integer peek() {
        return elements.peekFirst();
    }

    public int size() {
        return elements.size();
    }

    public int remainingCapacity() {
        return CAPACITY - elements.size();
    }

    public void close() {
        closed = true;
    }
}
