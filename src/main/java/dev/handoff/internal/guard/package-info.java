/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Guards, shared by the kinds that need them: refusing a caller's code that calls back into a
 * handoff while it runs under the handoff's lock ({@link dev.handoff.internal.guard.ReentryGuard}),
 * or while its thread holds something in the handoff that only it can give back, where there is
 * no lock to ask ({@link dev.handoff.internal.guard.HolderGuard}: the reservations that the
 * importance classes' {@code drainTo} and {@code remove(Object)} hold while they run a target's
 * {@code add} or an {@code equals}), and counting the operations under way that close must
 * wait for ({@link dev.handoff.internal.guard.UnderWay}) in per-thread cells on lines of their own
 * ({@link dev.handoff.internal.guard.ThreadCells}, whose layout the hash table's fill hints use
 * too). Not exported.
 */
package dev.handoff.internal.guard;
