/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Guards, shared by the kinds that need them: refusing a caller's code that calls back into a
 * handoff while it runs under the handoff's lock ({@link dev.handoff.internal.guard.ReentryGuard}),
 * and counting the operations under way that close must wait for
 * ({@link dev.handoff.internal.guard.UnderWay}) in per-thread cells on lines of their own
 * ({@link dev.handoff.internal.guard.ThreadCells}). Not exported.
 */
package dev.handoff.internal.guard;
