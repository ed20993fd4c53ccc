/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.probe.ProbeSequence;
import dev.handoff.internal.table.TableSlots;

import static dev.handoff.ContractSupport.awaitBlocked;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.ParallelHashTable.SlotForm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the parallel hash table adds to the Handoff contract, in both slot forms: exact capacity
 * for any m, no polling, close with inserts in flight, nothing lost with many producers and
 * consumers. The contract itself is checked by the shared contract suite.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelHashTableTest {

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void holdsExactlyItsCapacityForPrimeAndCompositeSizes(SlotForm form) {
        for (int m : new int[] {1, 2, 3, 4, 6, 8, 12, 30, 64, 100, 101, 210, 1024}) {
            ParallelHashTable<Integer> t = Handoffs.hashTable(m).slots(form).withStats().build();
            for (int i = 0; i < m; i++) {
                assertTrue(t.offer(i), "m=" + m + " refused element " + i);
                assertEquals(m, t.size() + t.remainingCapacity());
            }
            assertFalse(t.offer(-1), "m=" + m + " accepted more than its capacity");
            assertEquals(m, t.size());
            Set<Integer> out = new HashSet<>();
            Integer e;
            while ((e = t.poll()) != null) {
                assertTrue(out.add(e), "delivered twice: " + e);
            }
            assertEquals(m, out.size());
            assertEquals(m, t.remainingCapacity());
            HandoffStats s = t.stats();
            assertEquals(m, s.puts());
            assertEquals(m, s.takes());
        }
    }

    @Test
    void isUnorderedAndBuiltByTheFactory() {
        Handoff<String> h = Handoffs.create("pht:101");
        assertInstanceOf(ParallelHashTable.class, h);
        assertEquals(Handoff.Ordering.UNORDERED, h.ordering());
        assertEquals(101, h.capacity());
        assertEquals(ParallelHashTable.DEFAULT_SLOT_FORM, ((ParallelHashTable<String>) h).slotForm());
        assertEquals(SlotForm.MONITOR,
                ((ParallelHashTable<String>) Handoffs.<String>create("pht:7,slots=monitor")).slotForm());
        assertEquals(SlotForm.CAS, ((ParallelHashTable<String>) Handoffs.<String>create("pht:7,slots=cas,stats")).slotForm());
        assertTrue(Handoffs.create("pht:7,stats").stats().enabled());
        assertTrue(Handoffs.kinds().contains("pht"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> Handoffs.create("pht:7,slots=spin"));
        assertTrue(bad.getMessage().contains("slots=monitor"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Handoffs.create("pht:7,fifo"));
        assertThrows(IllegalArgumentException.class, () -> new ParallelHashTable<>(0));
        assertThrows(NullPointerException.class, () -> Handoffs.hashTable(3).slots(null).build());
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void aWaitingConsumerParksInsteadOfSearching(SlotForm form) throws Exception {
        ParallelHashTable<String> t = Handoffs.hashTable(11).slots(form).withStats().build();
        AtomicReference<String> got = new AtomicReference<>();
        Thread consumer = Thread.ofPlatform().start(() -> {
            try {
                got.set(t.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        awaitBlocked(consumer);
        Thread.sleep(50); // a polling consumer would probe (and count probes) during this time
        assertEquals(0, t.stats().searchProbes(), "searched while parked");
        assertEquals(1, t.stats().consumerWaits());
        t.put("x");
        consumer.join();
        assertEquals("x", got.get());
        assertEquals(1, t.stats().consumerWaits(), "woken more than once for one element");
        assertTrue(t.stats().searchProbes() >= 1);
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void aProducerOnAFullTableParksUntilARemoval(SlotForm form) throws Exception {
        ParallelHashTable<Integer> t = Handoffs.hashTable(2).slots(form).withStats().build();
        t.put(1);
        t.put(2);
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                t.put(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        awaitBlocked(producer);
        long probes = t.stats().insertProbes();
        Thread.sleep(50);
        assertEquals(probes, t.stats().insertProbes(), "probed a full table");
        assertEquals(1, t.stats().producerWaits());
        Integer first = t.take();
        producer.join();
        Set<Integer> rest = new HashSet<>(List.of(t.take(), t.take()));
        rest.add(first);
        assertEquals(Set.of(1, 2, 3), rest);
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void closeWakesBlockedConsumersAndProducers(SlotForm form) throws Exception {
        ParallelHashTable<Integer> empty = Handoffs.hashTable(3).slots(form).build();
        AtomicReference<Throwable> consumerSaw = new AtomicReference<>();
        Thread consumer = Thread.ofPlatform().start(() -> {
            try {
                empty.take();
            } catch (Throwable e) {
                consumerSaw.set(e);
            }
        });
        ParallelHashTable<Integer> full = Handoffs.hashTable(1).slots(form).build();
        full.put(7);
        AtomicReference<Throwable> producerSaw = new AtomicReference<>();
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                full.put(8);
            } catch (Throwable e) {
                producerSaw.set(e);
            }
        });
        awaitBlocked(consumer);
        awaitBlocked(producer);
        empty.close();
        full.close();
        consumer.join();
        producer.join();
        assertInstanceOf(HandoffClosedException.class, consumerSaw.get());
        assertInstanceOf(HandoffClosedException.class, producerSaw.get());
        assertEquals(7, full.take(), "an element inside at close must still be taken");
        assertThrows(HandoffClosedException.class, full::take);
        assertNull(full.poll(1, TimeUnit.SECONDS));
        assertFalse(full.offer(9));
        assertThrows(HandoffClosedException.class, () -> empty.put(9));
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void interruptsAndTimeoutsFollowTheContract(SlotForm form) throws Exception {
        ParallelHashTable<Integer> t = Handoffs.hashTable(1).slots(form).build();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> t.put(1));
        assertFalse(Thread.interrupted(), "interrupt status must be cleared");
        t.put(1);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, t::take);
        assertFalse(Thread.interrupted());
        assertFalse(t.offer(2, 0, TimeUnit.SECONDS));
        long start = System.nanoTime();
        assertFalse(t.offer(2, 20, TimeUnit.MILLISECONDS));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(20));
        assertEquals(1, t.poll(0, TimeUnit.SECONDS));
        assertNull(t.poll(20, TimeUnit.MILLISECONDS));
        Thread consumer = Thread.ofPlatform().start(() -> assertThrows(InterruptedException.class, t::take));
        awaitBlocked(consumer);
        consumer.interrupt();
        consumer.join();
        assertTrue(t.offer(3), "the interrupted consumer must leave the one slot free");
        assertEquals(3, t.poll());
    }

    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void removeContainsToArrayAndDrainTo(SlotForm form) {
        ParallelHashTable<String> t = Handoffs.hashTable(10).slots(form).withStats().build();
        for (String s : List.of("a", "b", "c", "d")) {
            t.add(s);
        }
        assertTrue(t.contains("c"));
        assertTrue(t.remove("c"));
        assertFalse(t.remove("c"));
        assertFalse(t.contains("c"));
        assertEquals(3, t.size());
        String[] inside = t.toArray(new String[0]);
        Arrays.sort(inside);
        assertArrayEquals(new String[] {"a", "b", "d"}, inside);
        assertThrows(IllegalArgumentException.class, () -> t.drainTo(t));
        assertEquals(0, t.drainTo(new ArrayList<>(), 0));
        List<String> refusesB = new ArrayList<>() {
            @Override
            public boolean add(String s) {
                if (s.equals("b")) {
                    throw new IllegalStateException("no b");
                }
                return super.add(s);
            }
        };
        assertThrows(IllegalStateException.class, () -> t.drainTo(refusesB));
        assertEquals(3, refusesB.size() + t.size(), "drainTo lost or duplicated an element");
        assertTrue(t.contains("b"));
        assertEquals(10, t.size() + t.remainingCapacity());
        List<String> all = new ArrayList<>(refusesB);
        assertEquals(t.size(), t.drainTo(all));
        all.sort(null);
        assertEquals(List.of("a", "b", "d"), all);
        assertTrue(t.isEmpty());
        assertEquals("[]", t.toString());
    }

    @Test
    void aRemoveThatFindsNothingAfterCloseKeepsTheRestTakeable() throws Exception {
        ParallelHashTable<String> t = new ParallelHashTable<>(4);
        t.put("kept");
        t.close();
        assertFalse(t.remove("other"));
        assertEquals("kept", t.take());
        assertThrows(HandoffClosedException.class, t::take);
    }

    /**
     * clear() while a producer refills the table after every removal, as one that keeps inserting
     * may: clear ends after removing as many elements as were inside when it began. The refill
     * (a hook in the slots: the next claim first puts back the element the last claim took, as a
     * producer may between two takes) stops after a few thousand removals, so a clear that chases
     * new elements fails instead of running forever.
     */
    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void clearEndsWhileAProducerKeepsInserting(SlotForm form) {
        int m = 8;
        AtomicInteger polls = new AtomicInteger();
        AtomicReference<ParallelHashTable<Integer>> table = new AtomicReference<>();
        ParallelHashTable<Integer> t = new ParallelHashTable<>(Handoffs.hashTable(m).slots(form),
                ProbeRandom.THREAD_LOCAL, slots -> new ForwardingSlots(slots) {
                    private Object taken; // by the last claim, not yet put back

                    @Override
                    public boolean tryEmpty(int i, Object e) {
                        Object refill = taken;
                        taken = null;
                        if (refill != null && polls.get() < 10_000) {
                            table.get().offer((Integer) refill); // the refill a concurrent producer might make
                        }
                        boolean emptied = slots.tryEmpty(i, e);
                        if (emptied) {
                            polls.incrementAndGet();
                            taken = e;
                        }
                        return emptied;
                    }
                });
        table.set(t);
        for (int i = 0; i < m; i++) {
            t.add(i);
        }
        t.clear();
        assertTrue(polls.get() <= m, "clear() removed " + polls.get() + " elements, " + m + " were inside");
    }

    /**
     * Many producers and consumers, then a close at an arbitrary moment: every element whose put
     * returned is taken exactly once, and every consumer ends with the closed exception.
     */
    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void nothingIsLostOrDuplicatedAcrossAConcurrentClose(SlotForm form) throws Exception {
        for (int round = 0; round < 20; round++) {
            int capacity = 1 + round % 7;
            ParallelHashTable<Integer> t = Handoffs.hashTable(capacity).slots(form).build();
            Set<Integer> accepted = ConcurrentHashMap.newKeySet();
            Set<Integer> taken = ConcurrentHashMap.newKeySet();
            AtomicInteger failures = new AtomicInteger();
            AtomicInteger next = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < 3; p++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        while (!stop.get()) {
                            int e = next.getAndIncrement();
                            t.put(e);
                            accepted.add(e);
                        }
                    } catch (HandoffClosedException closed) {
                        // expected
                    } catch (Throwable other) {
                        failures.incrementAndGet();
                    }
                }));
            }
            CountDownLatch consumersDone = new CountDownLatch(3);
            for (int c = 0; c < 3; c++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        while (true) {
                            if (!taken.add(t.take())) {
                                failures.incrementAndGet(); // delivered twice
                            }
                        }
                    } catch (HandoffClosedException closedAndEmpty) {
                        consumersDone.countDown();
                    } catch (Throwable other) {
                        failures.incrementAndGet();
                    }
                }));
            }
            Thread.sleep(5 + round % 4);
            t.close();
            stop.set(true);
            assertTrue(consumersDone.await(20, TimeUnit.SECONDS), "a consumer did not see closed-and-empty");
            for (Thread th : threads) {
                th.join(20_000);
                assertFalse(th.isAlive());
            }
            assertEquals(0, failures.get());
            assertEquals(accepted, taken, "accepted and taken differ (capacity " + capacity + ")");
            assertEquals(0, t.size());
        }
    }

    /**
     * The adversary of an unordered handoff: one consumer whose searches all start at slot 0,
     * and a producer that refills slot 0 before every removal, while the victim sits in the last
     * slot. The summary search's sweep takes the victim within the bound its Javadoc states
     * (2 * capacity + 2 removals with one consumer); the papers' probe search passes it over
     * for as long as the schedule goes on.
     */
    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void anElementPassedOverByEverySearchStillLeavesWithinTheBound(SlotForm form) throws InterruptedException {
        int m = 8;
        int bound = 2 * m + 2;
        ParallelHashTable<Integer> summary = startAtSlotZero(m, form, ParallelHashTable.Search.SUMMARY);
        int removals = removalsBeforeVictimLeaves(summary, 1000);
        assertTrue(removals >= 1 && removals <= bound,
                "the victim left after " + removals + " removals (-1: never), more than " + bound);
        ParallelHashTable<Integer> cursor = startAtSlotZero(m, form, ParallelHashTable.Search.CURSOR);
        removals = removalsBeforeVictimLeaves(cursor, 1000);
        assertTrue(removals >= 1 && removals <= bound,
                "search=cursor: the victim left after " + removals + " removals (-1: never), more than " + bound);
        ParallelHashTable<Integer> probe = startAtSlotZero(m, form, ParallelHashTable.Search.PROBE);
        assertEquals(-1, removalsBeforeVictimLeaves(probe, 1000), "the adversary's schedule lost its grip");
    }

    /**
     * The same adversary against a consumer's cursor, from every start: the filler goes back
     * into the slot just behind the victim's before every removal, so a walk that started
     * before it takes the filler and stops there. The walk's cursor moves past the filler's
     * slot, and the next walk reaches the victim: it leaves within the bound whatever slot the
     * consumer's first walk starts at.
     */
    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void aWalkingConsumerReachesEveryElementWithinTheBound(SlotForm form) throws InterruptedException {
        int m = 8;
        for (int start = 0; start < m; start++) {
            FixedDraws draws = new FixedDraws();
            ParallelHashTable<Integer> t = new ParallelHashTable<>(Handoffs.hashTable(m).slots(form)
                    .keys(ParallelHashTable.KeySource.ELEMENT_HASH).search(ParallelHashTable.Search.CURSOR), draws);
            draws.key = keyStartingAt(t, start);
            int victim = elementStartingAt(t, m - 1);
            int filler = elementStartingAt(t, m - 2);
            t.put(victim);
            int removals = -1;
            for (int r = 1; r <= 1000 && removals < 0; r++) {
                t.put(filler); // just behind the victim: a walk that starts before it stops there
                if (t.take() == victim) {
                    removals = r;
                }
            }
            assertTrue(removals >= 1 && removals <= 2 * m + 2,
                    "first walk from slot " + start + ": the victim left after " + removals + " removals (-1: never)");
        }
    }

    /**
     * The same adversary, with the consumer also taking from a second table of the same search
     * before each of its takes from the first: a thread's sweep turns (search=summary) and its
     * cursor (search=cursor) are kept per table, so switching tables neither makes every search
     * of the first table a non-sweep one nor moves the consumer's place in it.
     */
    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void theBoundHoldsForAConsumerThatAlsoTakesFromAnotherTable(SlotForm form) throws InterruptedException {
        int m = 8;
        for (ParallelHashTable.Search search : List.of(ParallelHashTable.Search.SUMMARY, ParallelHashTable.Search.CURSOR)) {
            ParallelHashTable<Integer> table = startAtSlotZero(m, form, search);
            ParallelHashTable<Integer> other = startAtSlotZero(m, form, search);
            int removals = removalsBeforeVictimLeaves(table, 1000, () -> {
                other.put(1);
                other.take();
            });
            assertTrue(removals >= 1 && removals <= 2 * m + 2,
                    "search=" + search.specName() + ": the victim left after " + removals + " removals");
        }
    }

    /**
     * With random keys a producer fills on from the slot after its own last fill, so that its
     * elements lie ahead of the sweep in the order it put them. Here every draw is 0 and two
     * removals free slots 0 and 1 before the next two fills: a fill that started at its key's
     * slot would put 5 and 6 there, just behind the sweep's next start, and 6 would leave first.
     * The same holds for search=cursor, whose producers walk on from their last fill and whose
     * consumer walks on from its cursor (slot 1 here) every second search.
     */
    @ParameterizedTest
    @EnumSource(SlotForm.class)
    void aProducerFillsOnFromItsLastSlotSoItsElementsLeaveInOrder(SlotForm form) throws InterruptedException {
        for (ParallelHashTable.Search search : List.of(ParallelHashTable.Search.SUMMARY, ParallelHashTable.Search.CURSOR)) {
            ParallelHashTable<Integer> t = new ParallelHashTable<>(Handoffs.hashTable(8).slots(form).search(search),
                    zeroDraws());
            for (int i = 1; i <= 4; i++) {
                t.put(i);
            }
            assertEquals(List.of(1, 2), List.of(t.take(), t.take()), search.toString());
            t.put(5);
            t.put(6);
            assertEquals(List.of(3, 4, 5, 6), List.of(t.take(), t.take(), t.take(), t.take()), search.toString());
        }
    }

    /**
     * close() lands between an insert's fill and its second look at closed: the insert takes its
     * element back and is refused, so nothing stays in a table whose consumers may already have
     * seen it closed and empty.
     */
    @ParameterizedTest
    @EnumSource(ParallelHashTable.Search.class)
    void anInsertThatFindsTheTableClosedOnceItsElementIsInTakesItBack(ParallelHashTable.Search search) {
        AtomicReference<ParallelHashTable<Integer>> table = new AtomicReference<>();
        ParallelHashTable<Integer> t = withSlots(search, slots -> new HookedSlots(slots) {
            @Override
            void afterFill(int i, Object e) {
                table.get().close();
            }
        });
        table.set(t);
        assertThrows(HandoffClosedException.class, () -> t.put(1));
        assertEquals(0, t.size());
        assertNull(t.poll());
        assertTrue(t.isEmpty());
    }

    /**
     * The same close, but a consumer takes the element before the insert looks again: the insert
     * cannot take it back, so it succeeds (the element was received, once).
     */
    @ParameterizedTest
    @EnumSource(ParallelHashTable.Search.class)
    void anInsertWhoseElementLeftBeforeItSawTheCloseSucceeds(ParallelHashTable.Search search) throws Exception {
        AtomicReference<ParallelHashTable<Integer>> table = new AtomicReference<>();
        List<Object> received = new ArrayList<>();
        ParallelHashTable<Integer> t = withSlots(search, slots -> new HookedSlots(slots) {
            @Override
            void afterFill(int i, Object e) {
                table.get().close();
                assertTrue(slots.tryEmpty(i, e)); // a consumer's CAS, before the insert looks again
                received.add(e);
            }
        });
        table.set(t);
        t.put(1);
        assertEquals(List.of(1), received);
        assertNull(t.poll());
        assertThrows(HandoffClosedException.class, t::take);
    }

    private static ParallelHashTable<Integer> withSlots(ParallelHashTable.Search search,
                                                        java.util.function.UnaryOperator<TableSlots> seam) {
        return new ParallelHashTable<>(Handoffs.hashTable(4).search(search), ProbeRandom.THREAD_LOCAL, seam);
    }

    /** The table's slots, with a hook run by the filling thread right after each successful fill. */
    private abstract static class HookedSlots extends ForwardingSlots {
        HookedSlots(TableSlots slots) {
            super(slots);
        }

        abstract void afterFill(int i, Object e);

        @Override
        public boolean tryFill(int i, Object e) {
            boolean filled = slots.tryFill(i, e);
            if (filled) {
                afterFill(i, e);
            }
            return filled;
        }
    }

    /** A table whose every random draw is 0: a consumer's probe starts at slot 0, stride 1. */
    private static ParallelHashTable<Integer> startAtSlotZero(int m, SlotForm form, ParallelHashTable.Search search) {
        return new ParallelHashTable<>(Handoffs.hashTable(m).slots(form).keys(ParallelHashTable.KeySource.ELEMENT_HASH)
                .search(search), zeroDraws());
    }

    /** Draws that are all 0: every random start is slot 0, every stride 1. */
    private static ProbeRandom zeroDraws() {
        return new ProbeRandom() {
            @Override
            public long nextLong() {
                return 0L;
            }

            @Override
            public int nextInt(int bound) {
                return 0;
            }
        };
    }

    /** Draws that are all key (settable once the table is built, see keyStartingAt), every int 0. */
    private static final class FixedDraws implements ProbeRandom {
        long key;

        @Override
        public long nextLong() {
            return key;
        }

        @Override
        public int nextInt(int bound) {
            return 0;
        }
    }

    /** A key whose probe sequence in t starts at slot. */
    private static long keyStartingAt(ParallelHashTable<Integer> t, int slot) {
        ProbeSequence probing = t.probingForTest();
        for (int v = 1; ; v++) {
            long k = ProbeSequence.spread(v);
            if (probing.start(k) == slot) {
                return k;
            }
        }
    }

    /**
     * Puts a victim keyed to the last slot, then rounds times refills slot 0 and takes one.
     *
     * @return the number of removals up to and including the victim's, or -1 if it stayed
     */
    private static int removalsBeforeVictimLeaves(ParallelHashTable<Integer> t, int rounds)
            throws InterruptedException {
        return removalsBeforeVictimLeaves(t, rounds, () -> { });
    }

    /** As above, with between run before each take from t. */
    private static int removalsBeforeVictimLeaves(ParallelHashTable<Integer> t, int rounds, Interruptible between)
            throws InterruptedException {
        int m = t.capacity();
        int victim = elementStartingAt(t, m - 1);
        int filler = elementStartingAt(t, 0);
        t.put(victim);
        for (int r = 1; r <= rounds; r++) {
            t.put(filler); // into slot 0: the slot before the victim's on every search from 0
            between.run();
            if (t.take() == victim) {
                return r;
            }
        }
        return -1;
    }

    /** An Integer whose probe sequence in t starts at slot. */
    private static int elementStartingAt(ParallelHashTable<Integer> t, int slot) {
        ProbeSequence probing = t.probingForTest();
        for (int v = 1; ; v++) {
            if (probing.start(ProbeSequence.spread(v)) == slot) {
                return v;
            }
        }
    }

    /** A step that may block. */
    private interface Interruptible {
        void run() throws InterruptedException;
    }
}
