/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * Thrown by a {@link Handoff} that has been {@linkplain Handoff#close() closed}: by {@code put},
 * {@code add} and {@code addAll}, whose element was therefore not inserted ({@code offer} returns
 * {@code false} instead), and by {@link Handoff#take()} once the handoff is closed and empty.
 */
public class HandoffClosedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with the given detail message.
     *
     * @param message what was refused
     */
    public HandoffClosedException(String message) {
        super(message);
    }
}
