/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the contract suite cannot ask of the lock core of {@link CircularBuffer}: code the buffer
 * calls under its lock (a drainTo target's add, an equals) that uses the buffer, which the lock,
 * being reentrant, would let in; and a take that finds the lock held while a producer waits for
 * room, which spins for the lock before it waits for it (a drainTo target's add holds it here).
 */
class CircularBufferTest {

    @Test
    void aDrainTargetThatPollsTheBufferIsRefusedAndNothingIsLostOrDoubled() {
        CircularBuffer<Integer> h = bufferOf(0, 1, 2, 3);
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                if (size() == 1) {
                    h.poll();
                }
                return super.add(e);
            }
        };
        assertThrows(IllegalStateException.class, () -> h.drainTo(sink));
        assertEquals(List.of(0), sink);
        assertEquals(List.of(1, 2, 3), List.of(h.toArray()), "the refused element still at the head");
        assertEquals(1, h.remainingCapacity());
    }

    @Test
    void aDrainTargetThatPutsIntoTheBufferIsRefused() {
        CircularBuffer<Integer> h = bufferOf(0, 1);
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                h.offer(e + 10);
                return super.add(e);
            }
        };
        assertThrows(IllegalStateException.class, () -> h.drainTo(sink));
        assertEquals(List.of(), sink);
        assertEquals(List.of(0, 1), List.of(h.toArray()));
    }

    @Test
    void anEqualsThatTakesFromTheBufferIsRefusedAndRemoveChangesNothing() {
        CircularBuffer<Object> h = new CircularBuffer<>(3);
        h.add(1);
        Object pollsWhenAsked = new Object() {
            @Override
            public boolean equals(Object other) {
                return h.poll() != null;
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        h.add(2);
        assertThrows(IllegalStateException.class, () -> h.remove(pollsWhenAsked));
        assertThrows(IllegalStateException.class, () -> h.contains(pollsWhenAsked));
        assertEquals(List.of(1, 2), List.of(h.toArray()));
    }

    @Test
    void aDrainIsUsableAgainAfterItsTargetWasRefused() {
        CircularBuffer<Integer> h = bufferOf(0, 1);
        assertThrows(IllegalStateException.class, () -> h.drainTo(new ArrayList<Integer>() {
            @Override
            public boolean add(Integer e) {
                h.poll();
                return super.add(e);
            }
        }));
        List<Integer> sink = new ArrayList<>();
        assertEquals(2, h.drainTo(sink));
        assertEquals(List.of(0, 1), sink);
        assertEmpty(h);
    }

    @Test
    @Timeout(60)
    void aTakeBehindAHeldLockWhileAProducerWaitsTakesThatProducersElement() throws Exception {
        TakeBehindHeldLock scene = TakeBehindHeldLock.start();
        scene.letGo();
        assertEquals(1, scene.taken.get(10, TimeUnit.SECONDS), "the waiting producer's element");
        scene.producer.join();
        assertEquals(List.of(0), scene.drained);
        assertEmpty(scene.h);
    }

    @Test
    @Timeout(60)
    void aTakeInterruptedBehindAHeldLockThrowsBeforeTheLockIsFreeAndTakesNothing() throws Exception {
        TakeBehindHeldLock scene = TakeBehindHeldLock.start();
        scene.consumer.interrupt();
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> scene.taken.get(10, TimeUnit.SECONDS),
                "the take answers its interrupt while the lock is still held");
        assertInstanceOf(InterruptedException.class, thrown.getCause());
        assertTrue(scene.drainer.isAlive(), "the drain still inside its target's add, holding the lock");
        scene.letGo();
        scene.producer.join();
        assertEquals(List.of(0), scene.drained);
        assertEquals(List.of(1), List.of(scene.h.toArray()), "the producer's element stays for the next take");
    }

    /**
     * A buffer of capacity 1 holding 0; a producer parked putting 1 (counted among the producers
     * waiting for room); a drainTo whose target holds the lock inside add until letGo(); and a
     * consumer whose take, behind that lock, has spun for it and waits for it.
     */
    private static final class TakeBehindHeldLock {
        final CircularBuffer<Integer> h = bufferOf(0);
        final List<Integer> drained = new ArrayList<>();
        final CompletableFuture<Integer> taken = new CompletableFuture<>();
        private final CountDownLatch holding = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        Thread producer;
        Thread drainer;
        Thread consumer;

        static TakeBehindHeldLock start() throws InterruptedException {
            TakeBehindHeldLock scene = new TakeBehindHeldLock();
            scene.producer = Thread.ofPlatform().name("producer").start(() -> putUninterruptibly(scene.h, 1));
            ContractSupport.awaitBlocked(scene.producer);
            List<Integer> target = new ArrayList<>() {
                @Override
                public boolean add(Integer e) {
                    scene.holding.countDown();
                    awaitUninterruptibly(scene.release);
                    return scene.drained.add(e);
                }
            };
            scene.drainer = Thread.ofPlatform().name("drainer").start(() -> scene.h.drainTo(target, 1));
            scene.holding.await();
            scene.consumer = Thread.ofPlatform().name("consumer").start(() -> takeInto(scene.h, scene.taken));
            ContractSupport.awaitBlocked(scene.consumer);
            return scene;
        }

        void letGo() throws InterruptedException {
            release.countDown();
            drainer.join();
        }
    }

    private static void putUninterruptibly(CircularBuffer<Integer> h, Integer e) {
        try {
            h.put(e);
        } catch (InterruptedException unexpected) {
            throw new AssertionError(unexpected);
        }
    }

    private static void takeInto(CircularBuffer<Integer> h, CompletableFuture<Integer> taken) {
        try {
            taken.complete(h.take());
        } catch (Throwable t) {
            taken.completeExceptionally(t);
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException unexpected) {
            throw new AssertionError(unexpected);
        }
    }

    private static CircularBuffer<Integer> bufferOf(Integer... elements) {
        CircularBuffer<Integer> h = new CircularBuffer<>(elements.length);
        for (Integer e : elements) {
            h.add(e);
        }
        return h;
    }

    private static void assertEmpty(CircularBuffer<Integer> h) {
        assertEquals(0, h.size());
        assertEquals(h.capacity(), h.remainingCapacity());
        assertEquals(null, h.poll());
    }
}
