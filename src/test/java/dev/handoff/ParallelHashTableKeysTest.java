/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static java.util.concurrent.TimeUnit.SECONDS;

import dev.handoff.ParallelHashTable.KeySource;
import dev.handoff.ParallelHashTable.Search;
import dev.handoff.ParallelHashTable.SlotForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Where a producer's probe starts ({@link KeySource}): by default no code of the element runs
 * inside the table, so an element whose {@code hashCode()} throws, is constant, or is costly is
 * handed off like any other; the papers' form ({@link KeySource#ELEMENT_HASH}) calls
 * {@code hashCode()} and, when it throws, changes nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelHashTableKeysTest {

    /** An element whose hashCode() throws, as a widely used logging framework's shutdown marker does. */
    static final class HashThrows {
        @Override
        public int hashCode() {
            throw new UnsupportedOperationException("no hash code");
        }
    }

    /** An element whose hashCode() works once, then throws. */
    static final class HashOnce {
        private final AtomicInteger calls = new AtomicInteger();

        @Override
        public int hashCode() {
            if (calls.getAndIncrement() > 0) {
                throw new UnsupportedOperationException("no hash code any more");
            }
            return 17;
        }
    }

    /** An element that counts every call of hashCode, equals and toString. */
    static final class Watched {
        static final AtomicInteger CALLS = new AtomicInteger();

        @Override
        public int hashCode() {
            CALLS.incrementAndGet();
            return 1;
        }

        @Override
        public boolean equals(Object o) {
            CALLS.incrementAndGet();
            return this == o;
        }

        @Override
        public String toString() {
            CALLS.incrementAndGet();
            return "watched";
        }
    }

    /** Distinct elements that all have the same hash code. */
    static final class SameHash {
        @Override
        public int hashCode() {
            return 42;
        }
    }

    private static <E> ParallelHashTable<E> defaultTable(int capacity, SlotForm form) {
        return Handoffs.hashTable(capacity).slots(form).withStats().build();
    }

    private static <E> ParallelHashTable<E> elementHashTable(int capacity, SlotForm form) {
        return Handoffs.hashTable(capacity).slots(form).keys(KeySource.ELEMENT_HASH).withStats().build();
    }

    @Test
    void theDefaultKeySourceIsRandomAndTheOtherIsChosenAtConstruction() {
        assertEquals(KeySource.RANDOM, ParallelHashTable.DEFAULT_KEY_SOURCE);
        assertEquals(KeySource.RANDOM, new ParallelHashTable<>(3).keySource());
        assertEquals(KeySource.RANDOM, Handoffs.hashTable(3).slots(SlotForm.MONITOR).build().keySource());
        assertEquals(KeySource.ELEMENT_HASH, elementHashTable(3, SlotForm.CAS).keySource());
        assertThrows(NullPointerException.class, () -> Handoffs.hashTable(3).keys(null).build());
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void byDefaultAnElementWhoseHashCodeThrowsIsHandedOffByEveryMethod(SlotForm form) throws Exception {
        ParallelHashTable<HashThrows> t = defaultTable(4, form);
        HashThrows a = new HashThrows();
        HashThrows b = new HashThrows();
        HashThrows c = new HashThrows();
        t.put(a);
        assertTrue(t.offer(b));
        assertTrue(t.offer(c, 1, SECONDS));
        assertEquals(3, t.size());
        Set<HashThrows> out = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        out.add(t.take());
        out.add(t.poll());
        out.add(t.poll(1, SECONDS));
        assertEquals(3, out.size());
        assertTrue(out.contains(a) && out.contains(b) && out.contains(c));
        t.put(a);
        t.put(b);
        List<HashThrows> drained = new ArrayList<>();
        assertEquals(2, t.drainTo(drained));
        assertEquals(2, drained.size());
        assertEquals(4, t.remainingCapacity());
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void byDefaultNoInsertOrRemovalCallsTheElementsHashCodeEqualsOrToString(SlotForm form) throws Exception {
        ParallelHashTable<Watched> t = defaultTable(12, form);
        Watched.CALLS.set(0);
        for (int i = 0; i < 4; i++) {
            t.put(new Watched());
            t.offer(new Watched());
        }
        t.offer(new Watched(), 1, SECONDS);
        t.add(new Watched());
        t.take();
        t.poll();
        t.poll(1, SECONDS);
        t.drainTo(new ArrayList<>(), 2);
        t.drainTo(new ArrayList<>());
        assertEquals(0, t.size());
        assertEquals(0, Watched.CALLS.get(), "the table ran the elements' own code");
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void byDefaultElementsWithOneHashCodeSpreadOverTheTable(SlotForm form) {
        // With one probe sequence for all (the papers' insert, kept under Search.PROBE), the k-th
        // insert looks at k slots: 1 + 2 + ... + 100 = 5050. Spread uniformly, 100 inserts into
        // 101 slots look at about 101 * ln(101) = 466 slots.
        assertEquals(5050, insertProbesOfHundredSameHashInserts(
                Handoffs.hashTable(101).slots(form).keys(KeySource.ELEMENT_HASH).search(Search.PROBE).withStats()
                        .build()));
        long spread = insertProbesOfHundredSameHashInserts(defaultTable(101, form));
        assertTrue(spread < 5050 / 2, "the default table piled equal hash codes up: " + spread + " probes");
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void underTheSummaryAnInsertLooksOnlyAtSlotsShownEmpty(SlotForm form) {
        // Equal hash codes start at one slot; the summary shows the run of full slots after it at
        // once, so each insert looks only at the first empty slot: 100 looks for 100 inserts.
        assertEquals(100, insertProbesOfHundredSameHashInserts(elementHashTable(101, form)));
    }

    private static long insertProbesOfHundredSameHashInserts(ParallelHashTable<SameHash> t) {
        for (int i = 0; i < 100; i++) {
            assertTrue(t.offer(new SameHash()));
        }
        return t.stats().insertProbes();
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void withElementHashAThrowingHashCodeLeavesEveryInsertWithNothingChanged(SlotForm form) throws Exception {
        ParallelHashTable<Object> t = elementHashTable(3, form);
        t.put("inside");
        String before = t.stateForTest();
        HashThrows bad = new HashThrows();
        assertThrows(UnsupportedOperationException.class, () -> t.put(bad));
        assertThrows(UnsupportedOperationException.class, () -> t.offer(bad));
        assertThrows(UnsupportedOperationException.class, () -> t.offer(bad, 1, SECONDS));
        assertThrows(UnsupportedOperationException.class, () -> t.add(bad));
        assertEquals(before, t.stateForTest());
        assertEquals(1, t.size());
        assertEquals(2, t.remainingCapacity());
        assertArrayEquals(new Object[] {"inside"}, t.toArray());
        assertEquals(0, t.stats().puts() - 1, "a refused insert was counted");
        t.put("a");
        t.put("b");
        assertEquals(3, t.size(), "a refused insert kept a slot");
        List<Object> all = new ArrayList<>();
        t.drainTo(all);
        assertEquals(Set.of("inside", "a", "b"), Set.copyOf(all));
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void withElementHashADrainThatPutsAnElementBackNeverCallsItsHashCode(SlotForm form) {
        ParallelHashTable<Object> t = elementHashTable(4, form);
        HashOnce e = new HashOnce();
        assertTrue(t.offer(e)); // its one working hashCode()
        List<Object> refuses = new ArrayList<>() {
            @Override
            public boolean add(Object o) {
                throw new IllegalStateException("refused");
            }
        };
        assertThrows(IllegalStateException.class, () -> t.drainTo(refuses));
        assertEquals(1, t.size(), "the element put back must be counted again");
        assertSame(e, t.poll());
        assertEquals(4, t.remainingCapacity());
    }
}
