/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.probe.ProbeRandom;

import java.util.SplittableRandom;

/**
 * A {@link ProbeRandom} from a seeded generator, through the kinds' package-private constructors:
 * with it a theorem property draws the same search keys and scan orders in every run, so that CI
 * repeats its verdict. Give it a generator of its own ({@link SplittableRandom#split()} of the
 * workload's): two generators from one seed draw the same numbers, and a scan that starts where
 * the workload just put an element measures nothing. Each draw holds the lock, so several threads
 * may draw; the properties let one thread draw at a time, which also fixes the order of the draws.
 */
final class SeededProbeRandom implements ProbeRandom {
    private final SplittableRandom random;

    SeededProbeRandom(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public synchronized long nextLong() {
        return random.nextLong();
    }

    @Override
    public synchronized int nextInt(int bound) {
        return random.nextInt(bound);
    }
}
