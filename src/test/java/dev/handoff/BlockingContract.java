/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.assertEachTakenOnce;
import static dev.handoff.ContractSupport.assertInterruptWakes;
import static dev.handoff.ContractSupport.assertInterruptedAndCleared;
import static dev.handoff.ContractSupport.awaitBlocked;
import static dev.handoff.ContractSupport.fill;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * Blocking calls: an interrupted caller gets {@code InterruptedException}, even when it would
 * not block, and an interrupt wakes a blocked one; blocked threads wake when they can proceed,
 * without help from close (no lost wake-ups).
 */
interface BlockingContract extends ContractSubject {

    // ---- Interruption ----

    /** A handoff with one element and room for more, so put, offer, take and poll would not block. */
    private Handoff<Integer> handoffThatWouldNotBlock() {
        Handoff<Integer> h = handoffOf(4);
        if (holdsElements()) {
            h.add(1);
        }
        return h;
    }

    @Test
    default void interruptedPutThrowsEvenWhenNotFull() {
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.put(2));
    }

    @Test
    default void interruptedTakeThrowsEvenWhenNotEmpty() {
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.take());
    }

    @Test
    default void interruptedTimedOfferThrowsEvenWhenNotFull() {
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.offer(2, 1, HOURS));
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.offer(2, 0, NANOSECONDS));
    }

    @Test
    default void interruptedTimedPollThrowsEvenWhenNotEmpty() {
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.poll(1, HOURS));
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.poll(0, NANOSECONDS));
    }

    @Test
    default void interruptWakesBlockedPutAndItsElementStaysWithTheCaller() throws Exception {
        Handoff<Integer> h = fullHandoff();
        Object[] before = h.toArray();
        assertInterruptWakes(() -> h.put(99));
        assertArrayEquals(before, h.toArray(), "the element was not inserted");
        assertFalse(h.contains(99));
    }

    @Test
    default void interruptedTimedTakeThrowsEvenWhenNotEmpty() {
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.take(1, HOURS));
        assertInterruptedAndCleared(handoffThatWouldNotBlock(), h -> h.take(0, NANOSECONDS));
    }

    @Test
    default void interruptWakesBlockedTimedTake() throws Exception {
        Handoff<Integer> h = handoffOf(2);
        assertInterruptWakes(() -> h.take(1, HOURS));
        assertTrue(h.isEmpty());
    }

    @Test
    default void timedTakeReturnsAnElementOrNullWhenTheTimeRunsOut() throws Exception {
        Handoff<Integer> h = handoffOf(2);
        long start = System.nanoTime();
        assertNull(h.take(50, MILLISECONDS), "none came: null, as the timed poll");
        assertTrue(System.nanoTime() - start >= MILLISECONDS.toNanos(50), "waited the timeout");
        assertNull(h.take(0, NANOSECONDS), "a timeout <= 0 never waits");
        try (Workers workers = new Workers()) {
            Thread producer = workers.start("producer", () -> h.put(7)); // a pipe hands it to the waiting taker
            assertEquals(7, h.take(10, SECONDS));
            workers.awaitAll(List.of(producer), Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
    }

    @Test
    default void interruptWakesBlockedTake() throws Exception {
        Handoff<Integer> h = handoffOf(2);
        assertInterruptWakes(h::take);
        assertTrue(h.isEmpty());
    }

    // ---- No lost wake-ups ----

    /**
     * Four consumers block on an empty handoff; four elements arrive in quick succession, from
     * one thread, with nothing after them. Every consumer must wake and take one: a handoff that
     * signals only on the empty-to-non-empty edge must pass the wake-up on.
     */
    @Test
    default void elementsArrivingWakeEveryBlockedConsumer() throws Exception {
        int consumers = 4;
        Handoff<Integer> h = handoffFor(consumers, consumers);
        AtomicIntegerArray taken = new AtomicIntegerArray(consumers);
        try (Workers workers = new Workers()) {
            List<Thread> blocked = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                blocked.add(workers.start("consumer-" + c, () -> taken.incrementAndGet(h.take())));
            }
            blocked.forEach(ContractSupport::awaitBlocked);
            for (int i = 0; i < consumers; i++) {
                assertTrue(h.offer(i), "room (or, unbuffered, a waiting consumer) for " + i);
            }
            workers.awaitAll(blocked, Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
        assertEachTakenOnce(taken);
    }

    /**
     * Four producers block on a full handoff; one drainTo empties it, with nothing after it.
     * Every producer must wake and put its element: a handoff that signals only on the
     * full-to-not-full edge must pass the wake-up on.
     */
    @Test
    default void roomAppearingWakesEveryBlockedProducer() throws Exception {
        assumeTrue(holdsElements(), "needs elements inside");
        int producers = 4;
        Handoff<Integer> h = handoffOf(producers);
        List<Integer> before = fill(h);
        try (Workers workers = new Workers()) {
            List<Thread> blocked = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int e = 100 + p;
                blocked.add(workers.start("producer-" + p, () -> h.put(e)));
            }
            blocked.forEach(ContractSupport::awaitBlocked);
            List<Integer> drained = new ArrayList<>();
            assertEquals(before.size(), h.drainTo(drained));
            workers.awaitAll(blocked, Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
        assertEquals(List.of(100, 101, 102, 103), Arrays.stream(h.toArray()).map(Integer.class::cast).sorted().toList(),
                "every blocked producer put its element");
    }

    /**
     * A producer blocks on a full handoff; a drainTo moves one element out and then its target
     * throws. The room it made must still wake the producer: the element that left is gone, so
     * the producer's put goes in, whatever the target did next.
     */
    @Test
    default void roomMadeByADrainWhoseTargetThrowsWakesABlockedProducer() throws Exception {
        assumeTrue(holdsElements(), "needs elements inside");
        Handoff<Integer> h = handoffOf(3);
        fill(h);
        try (Workers workers = new Workers()) {
            Thread producer = workers.start("producer", () -> h.put(100));
            awaitBlocked(producer);
            List<Object> accepted = new ArrayList<>();
            Collection<Object> throwsOnSecond = new AbstractCollection<>() {
                @Override
                public boolean add(Object e) {
                    if (!accepted.isEmpty()) {
                        throw new IllegalStateException("target full");
                    }
                    return accepted.add(e);
                }

                @Override
                public Iterator<Object> iterator() {
                    return accepted.iterator();
                }

                @Override
                public int size() {
                    return accepted.size();
                }
            };
            assertThrows(IllegalStateException.class, () -> h.drainTo(throwsOnSecond));
            assertEquals(1, accepted.size(), "one element left before the target threw");
            workers.awaitAll(List.of(producer), Workers.deadlineIn(10));
            workers.assertNoFailures();
        }
        assertTrue(Arrays.asList(h.toArray()).contains(100), "the woken producer put its element");
    }
}
