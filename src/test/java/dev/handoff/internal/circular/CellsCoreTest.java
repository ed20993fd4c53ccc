/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Waiters;
import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The cells core's ring size and layout, and its capacity bound across the laps of a ring larger than the capacity. */
class CellsCoreTest {

    @Test
    void theRingHasTwiceTheCapacityInCellsUpToTheSlack() {
        assertEquals(2, CellsCore.cellsFor(1));
        assertEquals(2 * CellRing.ROWS - 2, CellsCore.cellsFor(CellRing.ROWS - 1), "below two columns: 2N");
        assertEquals(3 * CellRing.ROWS, CellsCore.cellsFor(CellRing.ROWS + 1), "from two columns: whole columns");
        assertEquals(2048, CellsCore.cellsFor(1024));
        assertEquals(2016, CellsCore.cellsFor(1000), "2000, rounded up to whole columns");
        assertEquals(2 * CellsCore.MAX_SLACK, CellsCore.cellsFor(CellsCore.MAX_SLACK));
        assertEquals((1 << 20) + CellsCore.MAX_SLACK, CellsCore.cellsFor(1 << 20));
        int largest = Integer.MAX_VALUE - 8;
        assertEquals(largest, CellsCore.cellsFor(largest), "no cell beyond the longest array");
        assertEquals(largest, CellsCore.cellsFor(largest - 5));
    }

    /** index() is a bijection of a lap's positions onto the cells, whatever the ring's size. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 31, 32, 33, 63, 64, 100, 2048, 2050, 3 * CellRing.ROWS * 7 + 5, 3 << 20, (1 << 22) + 31})
    void everyPositionOfALapHasACellOfItsOwn(int cells) {
        CellRing ring = new CellRing(cells);
        boolean[] used = new boolean[cells];
        long lap = 5L * cells; // a later lap: the index depends on p % cells only
        for (long p = lap; p < lap + cells; p++) {
            int i = ring.index(p);
            assertTrue(i >= 0 && i < cells, "index " + i + " of position " + p);
            assertFalse(used[i], "two positions in cell " + i);
            used[i] = true;
            assertEquals(i, ring.index(p - lap), "the same cell one lap apart");
            assertEquals(CellRing.word(p - lap, CellRing.EMPTY), ring.word(i), "a new cell waits for its first put");
        }
    }

    /** The remainder by multiplication is p % cells for positions up to the 2^62 the counters stay below. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 62, 64, 2016, 2048, (1 << 20) + CellsCore.MAX_SLACK, 1 << 30, Integer.MAX_VALUE - 8})
    void theRemainderIsExactForEveryPosition(int cells) {
        long perCell = CellRing.perCell(cells);
        SplittableRandom random = new SplittableRandom(cells);
        for (int n = 0; n < 200_000; n++) {
            long p = random.nextLong(1L << 62);
            assertEquals(p % cells, CellRing.remainder(p, cells, perCell), "position " + p);
        }
        for (long p : new long[] {0, 1, cells - 1L, cells, 2L * cells - 1, (1L << 62) - 1, (1L << 62) - cells,
                (1L << 62) / cells * cells, (1L << 62) / cells * cells - 1}) {
            assertEquals(p % cells, CellRing.remainder(p, cells, perCell), "position " + p);
        }
    }

    /**
     * Positions claimed together by threads of one side (a few apart) never share a cache line of
     * the items (4-byte references) or of the words: they are at least a line apart, twice over.
     */
    @ParameterizedTest
    @ValueSource(ints = {1024, 2048, 2016, (1 << 20) + CellsCore.MAX_SLACK})
    void positionsInFlightTogetherAreOnDifferentLines(int cells) {
        CellRing ring = new CellRing(cells);
        int inFlight = 16;
        for (long p = 0; p < 3L * cells; p += 7) {
            for (int d = 1; d < inFlight; d++) {
                int apart = Math.abs(ring.index(p) - ring.index(p + d));
                assertTrue(apart >= 32, "positions " + p + " and " + (p + d) + " are " + apart + " slots apart");
            }
        }
    }

    /**
     * One thread's puts, takes and inside operations (remove, drainTo, iteration, contains) over
     * spread rings, lap after lap, agree with an ArrayDeque of the same capacity.
     */
    @ParameterizedTest
    @ValueSource(ints = {33, 40, 100})
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // offer spins, deaf to interrupts
    void insideOperationsOnASpreadRingAgreeWithADeque(int capacity) {
        Handoff<Integer> h = Handoffs.create("circular:" + capacity + ",core=cells");
        ArrayDeque<Integer> model = new ArrayDeque<>();
        SplittableRandom random = new SplittableRandom(capacity);
        int next = 0;
        for (int step = 0; step < 30_000; step++) {
            int op = random.nextInt(10);
            if (op < 5) {
                boolean room = model.size() < capacity;
                assertEquals(room, h.offer(next), "offer at step " + step);
                if (room) {
                    model.add(next);
                }
                next++;
            } else if (op < 8) {
                assertEquals(model.poll(), h.poll(), "poll at step " + step);
            } else if (op == 8 && !model.isEmpty()) {
                Integer victim = model.stream().skip(random.nextInt(model.size())).findFirst().orElseThrow();
                assertEquals(model.remove(victim), h.remove(victim), "remove at step " + step);
            } else {
                List<Integer> drained = new ArrayList<>();
                int max = random.nextInt(4);
                h.drainTo(drained, max);
                List<Integer> expected = new ArrayList<>();
                for (int k = 0; k < max && !model.isEmpty(); k++) {
                    expected.add(model.poll());
                }
                assertEquals(expected, drained, "drainTo at step " + step);
            }
            assertEquals(model.size(), h.size(), "size at step " + step);
            if (step % 97 == 0) {
                assertEquals(List.copyOf(model), List.copyOf(h), "iteration at step " + step);
                if (!model.isEmpty()) {
                    assertTrue(h.contains(model.peekLast()), "contains the last at step " + step);
                }
                assertFalse(h.contains(-1), "contains what was never put");
            }
        }
    }

    /**
     * The bound is the gate (take p - capacity done), not p's own cell (take p - 2 * capacity):
     * bounded by its own cell, a buffer would hold twice its capacity.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 33, 100})
    void aFullBufferRefusesInEveryLap(int capacity) throws InterruptedException {
        Handoff<Integer> h = Handoffs.create("circular:" + capacity + ",core=cells");
        int next = 0;
        int taken = 0;
        for (int round = 0; round < 5 * capacity + 3; round++) {
            while (h.remainingCapacity() > 0) {
                assertTrue(h.offer(next++));
            }
            assertFalse(h.offer(-1), "full after " + next + " offers");
            assertFalse(h.offer(-1, 0, TimeUnit.NANOSECONDS));
            assertEquals(capacity, h.size());
            for (int k = 0; k <= round % capacity; k++) {
                assertEquals(taken++, h.take());
            }
        }
    }

    /**
     * A removal that closes up (CellsInside.closeUp) sets the put counter back, then resets the
     * cells it gave back from TAKING to EMPTY. A put that claims a given-back position in between
     * waits for the reset and fills that position (CellsCore.fillOrPass): had it passed the cell,
     * still TAKING, and gone on to the next position, the take at the given-back one would wait for
     * a put that never comes, with the element one place further on. The removal of the last
     * element is done here by hand, as closeUp does it, with the put (or timed offer) between its
     * two steps.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aPutAtAPlaceGivenBackWaitsForTheRemovalToResetIt(boolean timed) throws Exception {
        CellsCore<Integer> core = new CellsCore<>(4, false, Counters.DISABLED, Handoffs.create("circular:4,core=cells"));
        for (int e = 0; e < 3; e++) {
            core.put(e);
        }
        CellRing ring = field(core, "ring");
        CellCounts counts = field(core, "counts");
        int last = ring.index(2);
        assertEquals(2, ring.claim(last, 2), "the removal claims the last element");
        assertTrue(counts.givePutsBack(3, 2), "and gives its position back");

        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread put = Thread.ofPlatform().start(() -> {
            try {
                assertTrue(timed ? core.offer(3, TimeUnit.SECONDS.toNanos(10)) : core.put(3));
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        while (put.isAlive() && put.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait(); // until the put is done (it passed the cell) or waits (it parks after a few spins)
        }
        ring.reset(last, 2); // the removal ends: position 2 is EMPTY again, for the next put
        put.join();
        assertEquals(null, failed.get());

        assertEquals(3, counts.puts(), "the put claimed position 2 and no other");
        assertEquals(CellRing.word(2, CellRing.FULL), ring.word(last), "the put filled position 2");
        assertEquals(List.of(0, 1, 3), List.of(core.take(), core.take(), core.take()));
        assertEquals(0, core.size());
    }

    /**
     * An untimed put of a full buffer parks for a batch of room (a quarter of capacity 16: 4
     * places), but not while room exists for ever: one place freed, and no more, lets it in.
     */
    @Test
    @Timeout(30)
    void aPutParkedForABatchOfRoomGetsInWhenLessThanABatchComesAndNothingMore() throws Exception {
        CellsCore<Integer> core = fullCoreOf16();
        Thread put = parkedPut(core, 16);
        assertEquals(0, core.take());
        put.join(); // no further take: the batch never comes, and the put must not wait for it
        assertEquals(16, core.size());
        for (int i = 1; i <= 16; i++) {
            assertEquals(i, core.poll(), "in order, the late put last");
        }
    }

    /** A batch of room wakes every put parked for it that it can serve. */
    @Test
    @Timeout(30)
    void aBatchOfRoomWakesEveryPutParkedForIt() throws Exception {
        CellsCore<Integer> core = fullCoreOf16();
        List<Thread> puts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            puts.add(parkedPut(core, 100 + i));
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(i, core.take());
        }
        for (Thread put : puts) {
            put.join();
        }
        assertEquals(15, core.size());
    }

    /**
     * While an untimed put waits for a batch of room, a timed offer is woken by one place coming
     * free and takes it before its deadline. Fails if a freed place does not wake a timed offer
     * (it would wait out its 20 s); it cannot tell a timed offer that waits for a batch, which
     * the 1 ms bound on a batch wait would let in too.
     */
    @Test
    @Timeout(30)
    void aTimedOfferTakesOnePlaceWhileAPutWaitsForABatch() throws Exception {
        CellsCore<Integer> core = fullCoreOf16();
        Thread put = parkedPut(core, 100);
        AtomicReference<Boolean> offered = new AtomicReference<>();
        Thread offer = Thread.ofPlatform().start(() -> {
            try {
                offered.set(core.offer(200, TimeUnit.SECONDS.toNanos(20)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        awaitParked(offer);
        assertEquals(0, core.take());
        assertEquals(1, core.take()); // two places: one for the offer, one for the put, whichever comes
        offer.join();
        put.join();
        assertEquals(Boolean.TRUE, offered.get());
        assertEquals(16, core.size());
    }

    /**
     * A put of a full buffer parks for a batch of room only while the takes have kept busy: once
     * a take has found the buffer empty within the last BUSY_LAPS laps, the consumers are the
     * faster side, and a put waits for any room. Fails if the rule is lost either way (the put
     * counted in the wrong waiters).
     */
    @Test
    @Timeout(30)
    void aPutParksForABatchOnlyWhileTheTakesKeptBusy() throws Exception {
        assertTrue(batchWaiterSeenInAFreshFullCore(), "no take has found the buffer empty: the put waits for a batch");
        CellsCore<Integer> core = fullCoreOf16();
        Object lobby = field(core, "lobby");
        Waiters batch = field(lobby, "batch");
        Waiters notFull = field(lobby, "notFull");
        for (int i = 0; i < 16; i++) {
            assertEquals(i, core.poll());
        }
        AtomicReference<Integer> taken = new AtomicReference<>();
        Thread take = Thread.ofPlatform().start(() -> {
            try {
                taken.set(core.take());
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        });
        awaitParked(take);
        assertTrue(core.offer(-1));
        take.join();
        assertEquals(-1, taken.get());
        for (int i = 0; i < 16; i++) {
            assertTrue(core.offer(i));
        }
        Thread second = parkedPut(core, 16);
        assertEquals(0, batch.count(), "a take found the buffer empty within the laps: no batch");
        assertEquals(1, notFull.count(), "the put waits for any room");
        assertEquals(0, core.take());
        second.join();
        assertEquals(16, core.size());
    }

    /**
     * Whether a put into a fresh full core is counted among the batch waiters. The batch wait
     * lasts at most BATCH_WAIT_NANOS, so only a count read within that time of the put's start
     * tells; a scene that took longer (a slow or busy machine) is played again, at most 100 times.
     */
    private static boolean batchWaiterSeenInAFreshFullCore() throws Exception {
        for (int scene = 0; scene < 100; scene++) {
            CellsCore<Integer> core = fullCoreOf16();
            Waiters batch = field(field(core, "lobby"), "batch");
            long start = System.nanoTime();
            Thread put = parkedPut(core, 16);
            int counted = batch.count();
            boolean told = System.nanoTime() - start < CellLobby.BATCH_WAIT_NANOS;
            assertEquals(0, core.take());
            put.join();
            if (told) {
                return counted == 1;
            }
        }
        throw new AssertionError("no scene was quick enough to tell (each took over BATCH_WAIT_NANOS)");
    }

    /** A cells core of capacity 16 (a batch of room: 4 places), full of 0 to 15. */
    private static CellsCore<Integer> fullCoreOf16() {
        CellsCore<Integer> core = new CellsCore<>(16, false, Counters.DISABLED, "owner");
        for (int i = 0; i < 16; i++) {
            assertTrue(core.offer(i));
        }
        return core;
    }

    /** A thread that puts e into the full core, once it waits. */
    private static Thread parkedPut(CellsCore<Integer> core, int e) {
        Thread put = Thread.ofPlatform().start(() -> {
            try {
                core.put(e);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        });
        awaitParked(put);
        return put;
    }

    private static void awaitParked(Thread t) {
        while (t.isAlive() && t.getState() != Thread.State.TIMED_WAITING && t.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        assertTrue(t.isAlive(), "the put waits");
    }

    @SuppressWarnings("unchecked")
    private static <T> T field(Object o, String name) throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return (T) f.get(o);
    }
}
