/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.handoff.Handoff;
import dev.handoff.server.MonitorBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one grammar of queue names that the benchmarks, the twins and the server experiment share. */
class QueuesTest {

    @Test
    void everyNameTheSuiteMeasuresBuildsAnEmptyQueue() {
        for (String name : Queues.all()) {
            BlockingQueue<Object> q = Queues.create(name, 1024);
            assertNull(q.poll(), name); // not isEmpty(): the jox peers have no size
            assertEquals(Queues.isHandoff(name), q instanceof Handoff<?>, name);
        }
    }

    /** The names that docs/, README.md and the server experiment's tables use. */
    @ParameterizedTest
    @ValueSource(strings = {"circular+classes=2", "lock-split+classes=4", "pht+slots=cas+classes=2",
            "circular+wait=spin", "pipe+stats", "handoff:pht:101,stats", "handoff:circular:64+stats"})
    void documentedNamesBuildAHandoff(String name) {
        assertInstanceOf(Handoff.class, Queues.create(name, 1024));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "circular|1024|circular:1024",
            "circular+stats|1024|circular:1024,stats",
            "pht+slots=cas+stats|1024|pht:1024,slots=cas,stats",
            "lock-split+stats+sojourn|1024|lock-split:1024,stats,sojourn",
            "pipe|1024|pipe:64",
            "handoff:pht:101,stats|1024|pht:101,stats",
            "lock-split:101|7|lock-split:101"})
    void aHandoffNameIsItsSpecWithTheCapacityFilledIn(String name, int capacity, String spec) {
        assertEquals(spec, Queues.handoffSpec(name, capacity));
    }

    @Test
    void theServersSpecsGiveTheirCapacity() {
        assertInstanceOf(MonitorBuffer.class, Queues.create("monitor:101"));
        BlockingQueue<Object> abq = Queues.create("abq:101");
        assertInstanceOf(ArrayBlockingQueue.class, abq);
        assertEquals(101, abq.remainingCapacity());
        assertEquals(101, ((Handoff<?>) Queues.create("circular:101,stats")).capacity());
        assertEquals(7, Queues.create("abq:7", 1024).remainingCapacity(), "the name's capacity wins");
    }

    @Test
    void badNamesAreRefusedWithTheirName() {
        for (String bad : new String[] {"ring", "", "abq+stats", "circular:many", "handoff:", "pipe:W"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Queues.create(bad, 8), bad);
            assertFalse(e.getMessage() == null || e.getMessage().isEmpty(), bad);
        } // pipe:W: the server replaces its W with the worker count before the name gets here
        assertThrows(IllegalArgumentException.class, () -> Queues.create("abq"), "no capacity");
        assertThrows(IllegalArgumentException.class, () -> Queues.handoffSpec("abq", 8), "a peer has no spec");
    }
}
