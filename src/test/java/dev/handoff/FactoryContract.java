/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/** The factory builds the kind by its name, and the counters count puts and takes. */
interface FactoryContract extends ContractSubject {

    @Test
    default void factoryBuildsThisKindWithTheExactCapacity() {
        assumeTrue(factoryName() != null, "no factory name");
        assertTrue(Handoffs.kinds().contains(factoryName()), "Handoffs.kinds() lists " + factoryName());
        Handoff<Integer> made = Handoffs.create(factoryName() + ":7");
        assertSame(handoffOf(7).getClass(), made.getClass());
        assertEquals(7, made.capacity());
        assertFalse(made.stats().enabled(), "counting is off unless asked for");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Handoffs.create(factoryName() + ":0"));
        assertTrue(e.getMessage().contains("capacity"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Handoffs.create(factoryName() + ":7,no-such-option"));
        assertTrue(e.getMessage().contains("no-such-option"), e.getMessage());
    }

    @Test
    default void statsCountPutsAndTakes() throws Exception {
        assumeTrue(factoryName() != null, "no factory name");
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = Handoffs.create(factoryName() + ":4,stats");
        assertTrue(h.stats().enabled());
        h.add(1);
        h.offer(2);
        h.put(3);
        h.offer(4, 1, SECONDS);
        assertFalse(h.offer(5), "full: not counted");
        assertNotNull(h.poll());
        assertNotNull(h.take());
        assertNotNull(h.poll(1, SECONDS));
        assertEquals(1, h.drainTo(new ArrayList<>()));
        assertNull(h.poll(), "empty: not counted");
        HandoffStats stats = h.stats();
        assertEquals(4, stats.puts(), "puts in " + stats);
        assertEquals(4, stats.takes(), "takes in " + stats);
    }
}
