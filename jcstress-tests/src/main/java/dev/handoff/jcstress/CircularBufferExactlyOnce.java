/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import dev.handoff.CircularBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two threads each offer one element to a circular buffer and then poll it once; the arbiter
 * drains what is left. r1 and r2 count how often elements 1 and 2 were seen, taken or left inside:
 * each must be seen exactly once. (jcstress runs no more actors than there are CPUs, so on a
 * 2-CPU machine each actor is both a producer and a consumer.)
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each element taken or left exactly once")
@Outcome(expect = FORBIDDEN, desc = "an element was lost or delivered twice")
@State
public class CircularBufferExactlyOnce {

    private final CircularBuffer<Integer> buffer = new CircularBuffer<>(2);
    private Integer taken3;
    private Integer taken4;

    @Actor
    public void actor1() {
        buffer.offer(1);
        taken3 = buffer.poll();
    }

    @Actor
    public void actor2() {
        buffer.offer(2);
        taken4 = buffer.poll();
    }

    @Arbiter
    public void count(II_Result r) {
        int[] seen = new int[3];
        for (Integer e : new Integer[] {taken3, taken4, buffer.poll(), buffer.poll()}) {
            if (e != null) {
                seen[e]++;
            }
        }
        r.r1 = seen[1];
        r.r2 = seen[2];
    }
}
