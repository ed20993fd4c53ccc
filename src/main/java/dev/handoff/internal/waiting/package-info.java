/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Waiting, shared by every kind: how a thread that cannot proceed spins briefly or not at all
 * ({@link dev.handoff.internal.waiting.Spinner}), counts itself, re-checks and parks on a lock's
 * condition ({@link dev.handoff.internal.waiting.Waiters}), how every park is recorded for JFR
 * ({@link dev.handoff.internal.waiting.Parking}), and what a closed handoff does for a timed poll, a take
 * and a put, a pool's own threads included ({@link dev.handoff.internal.waiting.AfterClose}).
 * Not exported: the module's API is {@code dev.handoff}.
 */
package dev.handoff.internal.waiting;
