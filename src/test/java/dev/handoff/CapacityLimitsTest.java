/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.CircularBuffer.Waiting;
import dev.handoff.ParallelHashTable.KeySource;
import dev.handoff.ParallelHashTable.SlotForm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each kind's capacity limit: a capacity beyond it is an {@link IllegalArgumentException} that
 * names the limit, at once and before anything is allocated, whether it comes through a
 * constructor, a spec string or the typed API. Only limits that are cheap to build are built here.
 */
class CapacityLimitsTest {

    @Test
    void eachKindStatesItsLimit() {
        assertEquals(Integer.MAX_VALUE - 8, CircularBuffer.MAX_CAPACITY);
        assertEquals(Integer.MAX_VALUE, LockSplitQueue.MAX_CAPACITY);
        assertEquals(Integer.MAX_VALUE - 8, ParallelHashTable.MAX_CAPACITY);
        assertEquals(1 << 24, ParallelHashTable.MAX_MONITOR_CAPACITY);
        assertEquals(1 << 16, PipeHandoff.MAX_CAPACITY);
    }

    @Test
    void constructorsRefuseACapacityBeyondTheLimitNamingIt() {
        assertNamesLimit("CircularBuffer.MAX_CAPACITY", CircularBuffer.MAX_CAPACITY,
                () -> new CircularBuffer<>(CircularBuffer.MAX_CAPACITY + 1));
        assertNamesLimit("CircularBuffer.MAX_CAPACITY", CircularBuffer.MAX_CAPACITY,
                () -> Handoffs.circular(Integer.MAX_VALUE).spinning().withStats().build());
        assertNamesLimit("ParallelHashTable.MAX_CAPACITY", ParallelHashTable.MAX_CAPACITY,
                () -> new ParallelHashTable<>(Integer.MAX_VALUE));
        assertNamesLimit("ParallelHashTable.MAX_CAPACITY", ParallelHashTable.MAX_CAPACITY,
                () -> Handoffs.hashTable(ParallelHashTable.MAX_CAPACITY + 1).keys(KeySource.ELEMENT_HASH).withStats()
                        .build());
        assertNamesLimit("ParallelHashTable.MAX_MONITOR_CAPACITY", ParallelHashTable.MAX_MONITOR_CAPACITY,
                () -> Handoffs.hashTable(ParallelHashTable.MAX_MONITOR_CAPACITY + 1).slots(SlotForm.MONITOR).build());
        assertNamesLimit("PipeHandoff.MAX_CAPACITY", PipeHandoff.MAX_CAPACITY,
                () -> new PipeHandoff<>(PipeHandoff.MAX_CAPACITY + 1));
        assertNamesLimit("PipeHandoff.MAX_CAPACITY", PipeHandoff.MAX_CAPACITY,
                () -> Handoffs.pipe(Integer.MAX_VALUE).withStats().build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"circular:2147483647", "circular:2147483640", "pht:2147483647", "pht:2147483640,key=hash",
            "pht:16777217,slots=monitor", "pipe:2147483647", "pipe:1000000000", "pipe:65537,stats"})
    void specStringsBeyondTheLimitAreRefusedNamingItAndTheSpec(String spec) {
        for (Executable parse : new Executable[] {() -> Handoffs.create(spec), () -> HandoffSpec.parse(spec),
                () -> Handoffs.newThreadPool(spec, 1)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, parse, spec);
            assertTrue(e.getMessage().contains("MAX_") && e.getMessage().contains("'" + spec + "'"), e.getMessage());
        }
    }

    @Test
    void theTypedApiRefusesACapacityBeyondTheLimitWhereItIsGiven() {
        assertNamesLimit("CircularBuffer.MAX_CAPACITY", CircularBuffer.MAX_CAPACITY,
                () -> Handoffs.circular(CircularBuffer.MAX_CAPACITY + 1));
        assertNamesLimit("ParallelHashTable.MAX_CAPACITY", ParallelHashTable.MAX_CAPACITY,
                () -> Handoffs.hashTable(Integer.MAX_VALUE));
        HandoffSpec.HashTable big = Handoffs.hashTable(ParallelHashTable.MAX_MONITOR_CAPACITY + 1); // a spec, not a table
        assertNamesLimit("ParallelHashTable.MAX_MONITOR_CAPACITY", ParallelHashTable.MAX_MONITOR_CAPACITY,
                () -> big.slots(SlotForm.MONITOR));
        assertNamesLimit("PipeHandoff.MAX_CAPACITY", PipeHandoff.MAX_CAPACITY,
                () -> Handoffs.pipe(PipeHandoff.MAX_CAPACITY + 1));
        assertNamesLimit("PipeHandoff.MAX_CAPACITY", PipeHandoff.MAX_CAPACITY,
                () -> new HandoffSpec.Pipe(Integer.MAX_VALUE, false));
        for (int bad : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertThrows(IllegalArgumentException.class, () -> Handoffs.circular(bad));
            assertThrows(IllegalArgumentException.class, () -> Handoffs.lockSplit(bad));
            assertThrows(IllegalArgumentException.class, () -> Handoffs.hashTable(bad));
            assertThrows(IllegalArgumentException.class, () -> Handoffs.pipe(bad));
        }
    }

    @Test
    void theLinkedKindAcceptsItsLimitWithoutAllocatingIt() throws InterruptedException {
        for (Handoff<String> q : java.util.List.<Handoff<String>>of(new LockSplitQueue<>(LockSplitQueue.MAX_CAPACITY),
                Handoffs.create("lock-split:2147483647"), Handoffs.lockSplit(Integer.MAX_VALUE).build())) {
            assertEquals(Integer.MAX_VALUE, q.capacity());
            assertEquals(Integer.MAX_VALUE, q.remainingCapacity());
            q.put("x");
            assertEquals("x", q.take());
        }
    }

    @Test
    void aPipeAtItsLimitIsBuilt() {
        assertEquals(PipeHandoff.MAX_CAPACITY, Handoffs.create("pipe:65536").capacity());
        assertEquals(PipeHandoff.MAX_CAPACITY, Handoffs.pipe(PipeHandoff.MAX_CAPACITY).build().capacity());
    }

    private static void assertNamesLimit(String constant, int limit, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(constant) && e.getMessage().contains(Integer.toString(limit)), e.getMessage());
    }
}
