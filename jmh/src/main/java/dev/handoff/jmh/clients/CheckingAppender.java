/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * The {@code count} variant's target: an appender that writes nothing, and only counts and checks
 * each event's formatted message with a {@link SequenceCheck}, so that the async appender's
 * thread does as little as possible besides taking from the queue.
 *
 * <p>Called by the async appender's one thread only, as the check requires; read the check's
 * findings after that thread has stopped.
 */
final class CheckingAppender extends AbstractAppender {

    private final SequenceCheck check;

    CheckingAppender(String name, SequenceCheck check) {
        super(name, null, null, false, Property.EMPTY_ARRAY);
        this.check = check;
    }

    @Override
    public void append(LogEvent event) {
        check.acceptLine(event.getMessage().getFormattedMessage());
    }
}
