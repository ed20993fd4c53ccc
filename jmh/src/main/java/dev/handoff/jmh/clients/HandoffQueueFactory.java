/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import dev.handoff.jmh.Queues;
import java.util.concurrent.BlockingQueue;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.async.BlockingQueueFactory;

/**
 * Plugs a queue named in the {@link Queues} grammar into Log4j's {@code AsyncAppender}: its
 * {@link #create(int)} returns {@code Queues.create(kind, capacity)} with the appender's buffer
 * size as the capacity. Remembers the class of the queue it made, so a run can show which queue
 * the appender actually used.
 */
final class HandoffQueueFactory implements BlockingQueueFactory<LogEvent> {

    /** {@link #createdClass()} before the first queue. */
    static final String NONE = "none";

    private final String kind;
    private volatile String createdClass = NONE;

    HandoffQueueFactory(String kind) {
        this.kind = kind;
    }

    @Override
    public BlockingQueue<LogEvent> create(int capacity) {
        BlockingQueue<LogEvent> queue = Queues.create(kind, capacity);
        createdClass = queue.getClass().getName();
        return queue;
    }

    /** The class of the last queue made, or "none". */
    String createdClass() {
        return createdClass;
    }
}
