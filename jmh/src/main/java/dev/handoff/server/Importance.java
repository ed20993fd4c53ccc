/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

/**
 * An element that names its importance class, 0 being the most important; a handoff built with
 * the {@code classes=K} option serves the more important classes first.
 *
 * <p>A stand-in, replaced by {@code dev.handoff.Importance}: the server's {@link Job} is the only
 * implementation, so switching is this file's deletion and one import in {@code Job.java}.
 */
interface Importance {

    /**
     * Returns this element's importance class.
     *
     * @return the class, 0 = most important
     */
    int importanceClass();
}
