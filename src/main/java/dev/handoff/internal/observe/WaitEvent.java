/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import dev.handoff.internal.waiting.Parking;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * JFR event {@code dev.handoff.Wait}: one park of a thread blocked in a handoff, from the park to
 * the wake-up, recorded when it lasted at least the threshold (10 ms unless the recording says
 * otherwise). One event per wait as {@link dev.handoff.HandoffStats} counts waits; the brief spin some kinds
 * do before parking is not part of it. Committed by {@link Parking} only.
 */
@Name("dev.handoff.Wait")
@Label("Handoff Wait")
@Description("A thread blocked in a handoff's put, take, timed offer or timed poll: one park, from its start to its wake-up")
@Threshold("10 ms")
@StackTrace(false)
public final class WaitEvent extends HandoffEvent {

    @Label("Operation")
    @Description("put (put or the timed offer, waiting for room or a worker) or take (take or the timed poll, waiting for an element or a worker slot)")
    public String operation;
}
