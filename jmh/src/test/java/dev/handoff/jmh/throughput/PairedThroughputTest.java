/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The shapes PairedThroughput accepts: producers, consumers, and whether the consumers are slow. */
class PairedThroughputTest {

    @Test
    void aShapeNamesProducersAndConsumers() {
        assertArrayEquals(new int[] {1, 4, 0}, PairedThroughput.parseShape("p1c4"));
        assertArrayEquals(new int[] {8, 8, 0}, PairedThroughput.parseShape("p8c8"));
    }

    @Test
    void aShapeEndingInSlowGivesItsConsumersWork() {
        assertArrayEquals(new int[] {4, 1, 1}, PairedThroughput.parseShape("p4c1slow"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "p4", "c1", "p4c1fast", "p4c1 slow", "slow", "4p1c"})
    void anyOtherShapeIsRefused(String shape) {
        assertThrows(IllegalArgumentException.class, () -> PairedThroughput.parseShape(shape));
    }
}
