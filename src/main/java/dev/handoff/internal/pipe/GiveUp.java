/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pipe;

/** Why a waiting worker or producer stops waiting without its handoff done. */
enum GiveUp {
    /** The pipe closed. */
    CLOSED,
    /** The thread was interrupted. */
    INTERRUPTED,
    /** The timeout passed. */
    TIMED_OUT,
    /** A worker left WAITING to serve the producers in line. */
    SERVE_LINE
}
