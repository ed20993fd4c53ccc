/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Observability, shared by every kind: the counters behind {@code Handoff.stats()}
 * ({@link dev.handoff.internal.observe.Counters}) and the JFR events {@code dev.handoff.Wait} and
 * {@code dev.handoff.Stats}, each describing its handoff by {@code Handoff.spec()}. Not exported.
 */
package dev.handoff.internal.observe;
