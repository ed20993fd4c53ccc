/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Observability, shared by every kind: the counters behind {@code Handoff.stats()} ({@link
 * dev.handoff.internal.observe.Counters}) and the JFR events {@code dev.handoff.Wait} and {@code
 * dev.handoff.Stats}, each describing its handoff by {@code Handoff.spec()}. Not exported.
 *
 * <p>{@link dev.handoff.internal.observe.WaitEvent} is one park of a blocked thread that lasted at
 * least its threshold, committed by {@code Parking} only; {@link
 * dev.handoff.internal.observe.StatsEvent} holds, every period, the size, the counters and the
 * sojourn times of one live handoff built with counting or sojourn times on. Both extend {@link
 * dev.handoff.internal.observe.HandoffEvent}, the fields every event carries about its handoff
 * (kind, capacity, an identity hash). {@link dev.handoff.internal.observe.CountedHandoffs} holds
 * those live handoffs weakly, each registered by the spec's {@code build()} that made it, and
 * emits their stats events; nothing there runs on a put or a take. The events and the registry
 * hold a handoff as an {@code Object} and read it through {@link
 * dev.handoff.internal.observe.HandoffReader}, which the public package implements and installs.
 * {@link dev.handoff.internal.observe.SojournHistogram} is the lock-free histogram of durations
 * behind {@code HandoffStats.sojourn()}: count, total and maximum since construction, percentiles
 * over a recent window, each at most 1/16 over the true value.
 */
package dev.handoff.internal.observe;
