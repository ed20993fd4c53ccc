/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import dev.handoff.Importance;
import java.net.Socket;

/**
 * A connection whose request the acceptor has already read, with the importance class the client
 * sent in it: what the acceptor hands the workers in the mixed workload, so that a handoff built
 * with {@code classes=2} can serve the important connections first. The classification lives
 * here and only here ({@link #importanceClass()}).
 *
 * @param socket the connected socket; whoever holds the job owns it and must close it
 * @param importanceClass {@link #IMPORTANT} or {@link #ORDINARY}
 */
record Job(Socket socket, int importanceClass) implements Importance {

    /** The class of an important client's requests: served first by a handoff with classes. */
    static final int IMPORTANT = 0;

    /** The class of every other request, and of every request outside the mixed workload. */
    static final int ORDINARY = 1;

    /** The number of classes the client uses, for {@code classes=2} specs. */
    static final int CLASSES = 2;

    /**
     * Checks the class.
     *
     * @throws NullPointerException if socket is null
     * @throws IllegalArgumentException if the class is neither IMPORTANT nor ORDINARY
     */
    Job {
        java.util.Objects.requireNonNull(socket, "socket");
        if (importanceClass != IMPORTANT && importanceClass != ORDINARY) {
            throw new IllegalArgumentException("importance class must be 0 or 1, was " + importanceClass);
        }
    }

    /**
     * Returns the class a request byte asks for: the client sends its class as the byte; any byte
     * but 0 is an ordinary request.
     *
     * @param requestByte the byte read, 0 to 255
     * @return {@link #IMPORTANT} for 0, else {@link #ORDINARY}
     */
    static int classOf(int requestByte) {
        return requestByte == IMPORTANT ? IMPORTANT : ORDINARY;
    }
}
