/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What only the pipe does: workers and their slots, the capacity-zero queue methods, close, and
 * the race between a worker giving up and a producer handing it an element. The contract every
 * kind shares runs in PipeHandoffContractTest.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PipeHandoffTest {

    /** Waits until condition holds; fails after 10 s instead of hanging. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    static boolean blocked(Thread t) {
        return t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING;
    }

    /** Starts a thread that takes once from pipe and stores what it got (or threw). */
    static Thread takeOnce(PipeHandoff<String> pipe, AtomicReference<Object> got) {
        return Thread.ofPlatform().start(() -> {
            try {
                got.set(pipe.take());
            } catch (Throwable t) {
                got.set(t);
            }
        });
    }

    @Test
    void offerSucceedsOnlyWhenAWorkerWaits() throws InterruptedException {
        PipeHandoff<String> pipe = Handoffs.pipe(4).withStats().build();
        assertFalse(pipe.offer("nobody waits"));
        assertEquals(0, pipe.remainingCapacity());
        // A failed offer reads every slot twice: the pass for a spinning worker, then the scan.
        assertEquals(2 * 4, pipe.stats().insertProbes());
        AtomicReference<Object> got = new AtomicReference<>();
        Thread worker = takeOnce(pipe, got);
        await("the worker waits", () -> pipe.remainingCapacity() == 1);
        assertTrue(pipe.offer("job"));
        worker.join();
        assertEquals("job", got.get());
        assertEquals(0, pipe.remainingCapacity());
        HandoffStats stats = pipe.stats();
        assertEquals(1, stats.puts());
        assertEquals(1, stats.takes());
        // The successful offer: the first spinner's slot, then at most both passes over 4 slots.
        assertTrue(stats.insertProbes() >= 2 * 4 + 1 && stats.insertProbes() <= 2 * 4 + 1 + 2 * 4,
                stats.toString());
    }

    @Test
    void holdsNothing() {
        PipeHandoff<String> pipe = new PipeHandoff<>(3);
        assertEquals(0, pipe.size());
        assertTrue(pipe.isEmpty());
        assertNull(pipe.peek());
        assertNull(pipe.poll());
        assertFalse(pipe.iterator().hasNext());
        assertArrayEquals(new Object[0], pipe.toArray());
        assertEquals("[]", pipe.toString());
        assertEquals(0, pipe.drainTo(new ArrayList<>()));
        assertThrows(IllegalArgumentException.class, () -> pipe.drainTo(pipe));
        assertFalse(pipe.contains("x"));
        assertFalse(pipe.remove("x"));
        assertFalse(pipe.removeIf(e -> true));
        assertFalse(pipe.removeAll(List.of("x")));
        assertFalse(pipe.retainAll(List.of()));
        assertEquals(3, pipe.capacity());
        assertEquals(Handoff.Ordering.UNORDERED, pipe.ordering());
        assertThrows(IllegalStateException.class, () -> pipe.add("no worker"));
        assertThrows(NullPointerException.class, () -> pipe.offer(null));
        assertThrows(IllegalArgumentException.class, () -> new PipeHandoff<>(0));
    }

    @Test
    void putWaitsForAWorkerThenHandsOver() throws Exception {
        PipeHandoff<String> pipe = Handoffs.pipe(2).withStats().build();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                pipe.put("job");
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        await("the producer waits", () -> pipe.stats().producerWaits() > 0);
        assertTrue(producer.isAlive());
        assertEquals("job", pipe.poll(10, TimeUnit.SECONDS));
        producer.join();
        assertNull(failure.get());
    }

    /**
     * The dual structure: a worker that arrives while a producer waits takes the waiting
     * producer's element at once, without becoming WAITING or parking, and the producer returns.
     */
    @Test
    void aWorkerArrivingTakesTheElementOfAWaitingProducerWithoutWaiting() throws Exception {
        PipeHandoff<String> pipe = Handoffs.pipe(2).withStats().build();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                pipe.put("job");
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        await("the producer waits", () -> pipe.stats().producerWaits() > 0);
        try (PipeWorker<String> worker = pipe.register()) {
            assertEquals("job", worker.take());
        }
        producer.join();
        assertNull(failure.get());
        HandoffStats stats = pipe.stats();
        assertEquals(0, stats.consumerWaits(), "the worker never parked: " + stats);
        assertEquals(1, stats.puts());
        assertEquals(1, stats.takes());
    }

    /**
     * Where the pipe differs from SynchronousQueue (see its class comment): the untimed poll() and
     * drainTo do not meet a producer blocked in put; only a waiting worker does.
     */
    @Test
    void pollAndDrainToDoNotTakeFromAProducerBlockedInPut() throws Exception {
        PipeHandoff<String> pipe = Handoffs.pipe(2).withStats().build();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                pipe.put("job");
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        await("the producer waits", () -> pipe.stats().producerWaits() > 0);
        assertNull(pipe.poll(), "SynchronousQueue.poll() would take the blocked producer's element");
        assertEquals(0, pipe.drainTo(new ArrayList<>()));
        assertEquals(0, pipe.remainingCapacity(), "no worker waits");
        assertTrue(producer.isAlive(), "the element is still with its producer");
        assertEquals("job", pipe.take(), "a worker that waits meets the producer");
        producer.join();
        assertNull(failure.get());
    }

    @Test
    void timedOfferGivesUpAfterItsTimeout() throws InterruptedException {
        PipeHandoff<String> pipe = new PipeHandoff<>(2);
        long start = System.nanoTime();
        assertFalse(pipe.offer("x", 50, TimeUnit.MILLISECONDS));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50));
        assertFalse(pipe.offer("x", 0, TimeUnit.SECONDS));
        assertNull(pipe.poll(0, TimeUnit.SECONDS));
        assertNull(pipe.poll(20, TimeUnit.MILLISECONDS));
    }

    @Test
    void interruptedCallersGetInterruptedExceptionEvenWhenAWorkerWaits() throws InterruptedException {
        PipeHandoff<String> pipe = new PipeHandoff<>(2);
        AtomicReference<Object> got = new AtomicReference<>();
        Thread worker = takeOnce(pipe, got);
        await("the worker waits", () -> pipe.remainingCapacity() == 1);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> pipe.put("x"));
        assertFalse(Thread.currentThread().isInterrupted());
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> pipe.offer("x", 1, TimeUnit.SECONDS));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, pipe::take);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> pipe.poll(0, TimeUnit.SECONDS));
        assertFalse(Thread.currentThread().isInterrupted());
        pipe.put("after");
        worker.join();
        assertEquals("after", got.get());
    }

    @Test
    void aHandlesTimedTakeThrowsAtTheCloseWhileItsTimedPollWaitsOutItsTimeout() throws Exception {
        PipeHandoff<String> pipe = new PipeHandoff<>(2);
        try (PipeWorker<String> taker = pipe.register(); PipeWorker<String> poller = pipe.register()) {
            assertNull(taker.take(1, TimeUnit.MILLISECONDS), "open: null when the time runs out");
            AtomicReference<Object> taken = new AtomicReference<>();
            Thread waiting = Thread.ofPlatform().start(() -> {
                try {
                    taken.set(taker.take(1, TimeUnit.HOURS));
                } catch (Throwable t) {
                    taken.set(t);
                }
            });
            await("the handle waits", () -> waiting.getState() == Thread.State.TIMED_WAITING);
            pipe.close();
            waiting.join();
            assertTrue(taken.get() instanceof HandoffClosedException, String.valueOf(taken.get()));
            assertThrows(HandoffClosedException.class, () -> taker.take(0, TimeUnit.SECONDS), "at once");
            long start = System.nanoTime();
            assertNull(poller.poll(50, TimeUnit.MILLISECONDS));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50), "waited out the timeout");
            assertNull(poller.poll(0, TimeUnit.SECONDS), "a timeout <= 0 never waits");
        }
    }

    /** A handle's take and timed poll and take check the interrupt first, even on a closed pipe. */
    @Test
    void aHandleInterruptedOnEntryThrowsInterruptedExceptionEvenOnAClosedPipe() throws InterruptedException {
        PipeHandoff<String> pipe = new PipeHandoff<>(1);
        try (PipeWorker<String> handle = pipe.register()) {
            for (boolean closed : new boolean[] {false, true}) {
                if (closed) {
                    pipe.close();
                }
                Thread.currentThread().interrupt();
                assertThrows(InterruptedException.class, handle::take, "closed: " + closed);
                Thread.currentThread().interrupt();
                assertThrows(InterruptedException.class, () -> handle.poll(0, TimeUnit.SECONDS), "closed: " + closed);
                Thread.currentThread().interrupt();
                assertThrows(InterruptedException.class, () -> handle.take(1, TimeUnit.SECONDS), "closed: " + closed);
                assertFalse(Thread.currentThread().isInterrupted(), "the status is cleared as it throws");
            }
        }
    }

    /**
     * A handle's take throws once the pipe is closed, whether it finds it closed or is waiting
     * when it closes, also when its caller is an executor's own code (a handle is not a pool's work
     * queue, so the rule that parks a pool's idle thread on a closed handoff is not for it).
     */
    @Test
    @Timeout(20)
    void aHandlesTakeThrowsAtTheCloseWhileItWaitsEvenInAnExecutorsOwnCode() throws Exception {
        PipeHandoff<String> pipe = new PipeHandoff<>(1);
        try (PipeWorker<String> handle = pipe.register()) {
            AtomicReference<Object> taken = new AtomicReference<>();
            Thread waiting = Thread.ofPlatform().start(() -> new HandleLoop(handle, taken).execute(() -> { }));
            await("the handle waits", () -> waiting.getState() == Thread.State.WAITING);
            pipe.close();
            waiting.join();
            assertTrue(taken.get() instanceof HandoffClosedException, String.valueOf(taken.get()));
            assertThrows(HandoffClosedException.class, handle::take, "closed on entry");
        }
    }

    /** An executor whose own code takes from a handle: the frame the pool rule looks for. */
    private record HandleLoop(PipeWorker<String> handle, AtomicReference<Object> taken)
            implements java.util.concurrent.Executor {
        @Override
        public void execute(Runnable unused) {
            try {
                taken.set(handle.take());
            } catch (Throwable t) {
                taken.set(t);
            }
        }
    }

    @Test
    void anInterruptedWorkerLeavesItsSlotFree() throws InterruptedException {
        PipeHandoff<String> pipe = new PipeHandoff<>(1);
        AtomicReference<Object> got = new AtomicReference<>();
        Thread worker = takeOnce(pipe, got);
        await("the worker waits", () -> pipe.remainingCapacity() == 1);
        worker.interrupt();
        worker.join();
        assertTrue(got.get() instanceof InterruptedException, String.valueOf(got.get()));
        assertEquals(0, pipe.remainingCapacity());
        assertFalse(pipe.offer("nobody"));
    }

    @Test
    void closeWakesWaitingWorkersAndProducers() throws InterruptedException {
        PipeHandoff<String> pipe = Handoffs.pipe(3).withStats().build();
        AtomicReference<Object> taken = new AtomicReference<>();
        Thread worker = takeOnce(pipe, taken);
        AtomicReference<Object> polled = new AtomicReference<>("unset");
        Thread poller = Thread.ofPlatform().start(() -> {
            try {
                polled.set(pipe.take(1, TimeUnit.HOURS)); // the timed poll would wait out its hour
            } catch (Throwable t) {
                polled.set(t);
            }
        });
        await("both workers wait", () -> pipe.remainingCapacity() == 2);
        // The pipe is full of waiting workers now; a producer of a pipe with every worker busy:
        PipeHandoff<String> busy = Handoffs.pipe(1).withStats().build();
        AtomicReference<Throwable> putFailure = new AtomicReference<>();
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                busy.put("never handed");
            } catch (Throwable t) {
                putFailure.set(t);
            }
        });
        await("the producer waits", () -> busy.stats().producerWaits() > 0);
        pipe.close();
        busy.close();
        worker.join();
        poller.join();
        producer.join();
        assertTrue(taken.get() instanceof HandoffClosedException, String.valueOf(taken.get()));
        assertTrue(polled.get() instanceof HandoffClosedException, String.valueOf(polled.get()));
        assertTrue(putFailure.get() instanceof HandoffClosedException, String.valueOf(putFailure.get()));
        assertTrue(pipe.isClosed());
        assertFalse(pipe.offer("x"));
        assertThrows(HandoffClosedException.class, () -> pipe.put("x"));
        assertFalse(pipe.offer("x", 1, TimeUnit.SECONDS));
        assertThrows(HandoffClosedException.class, pipe::take);
        long start = System.nanoTime();
        assertNull(pipe.poll(50, TimeUnit.MILLISECONDS));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50), "waited out the timeout");
        assertThrows(HandoffClosedException.class, () -> pipe.take(1, TimeUnit.SECONDS));
        assertEquals(0, pipe.remainingCapacity());
        pipe.close(); // idempotent
    }

    @Test
    void aThreadThatFindsEverySlotHeldWaitsForOne() throws InterruptedException {
        PipeHandoff<String> pipe = Handoffs.pipe(1).withStats().build();
        CountDownLatch hold = new CountDownLatch(1);
        Thread holder = Thread.ofPlatform().start(() -> {
            try {
                pipe.poll(1, TimeUnit.MILLISECONDS); // claims the only slot
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        await("the holder has the slot", () -> {
            try {
                pipe.register().close(); // a slot was free: give it straight back
                return false;
            } catch (IllegalStateException taken) {
                return true; // register() does not wait for a slot
            }
        });
        assertNull(pipe.poll(30, TimeUnit.MILLISECONDS), "no slot within the timeout");
        AtomicReference<Object> got = new AtomicReference<>();
        Thread latecomer = takeOnce(pipe, got);
        await("the latecomer waits for a slot", () -> blocked(latecomer));
        assertFalse(pipe.offer("nobody waits in a slot yet"));
        hold.countDown();
        holder.join();
        // The holder is dead: the latecomer notices within 20 ms and takes its slot over.
        await("the latecomer waits in the slot", () -> pipe.remainingCapacity() == 1);
        pipe.put("job");
        latecomer.join();
        assertEquals("job", got.get());
    }

    @Test
    void aSlotGivenBackIsTakenByAWaitingThreadAndCloseWakesTheRest() throws InterruptedException {
        PipeHandoff<String> pipe = new PipeHandoff<>(1);
        PipeWorker<String> handle = pipe.register();
        AtomicReference<Object> first = new AtomicReference<>();
        AtomicReference<Object> second = new AtomicReference<>();
        Thread a = takeOnce(pipe, first);
        Thread b = takeOnce(pipe, second);
        await("both wait for a slot", () -> blocked(a) && blocked(b));
        handle.close();
        await("one of them waits in the slot", () -> pipe.remainingCapacity() == 1);
        pipe.put("job");
        pipe.close();
        a.join();
        b.join();
        List<Object> results = List.of(first.get(), second.get());
        assertTrue(results.contains("job"), results.toString());
        assertTrue(results.stream().anyMatch(r -> r instanceof HandoffClosedException), results.toString());
    }

    @Test
    void leaveGivesTheSlotBack() throws InterruptedException {
        PipeHandoff<String> pipe = new PipeHandoff<>(1);
        assertFalse(pipe.leave());
        assertNull(pipe.poll(1, TimeUnit.MILLISECONDS));
        assertThrows(IllegalStateException.class, pipe::register);
        assertTrue(pipe.leave());
        pipe.register().close();
    }

    @Test
    void explicitWorkersOwnTheirSlotUntilClosed() throws Exception {
        PipeHandoff<Integer> pipe = new PipeHandoff<>(3);
        List<PipeWorker<Integer>> workers = List.of(pipe.register(), pipe.register(), pipe.register());
        assertEquals(List.of(0, 1, 2), workers.stream().map(PipeWorker::slot).sorted().toList());
        assertThrows(IllegalStateException.class, pipe::register);
        ConcurrentLinkedQueue<String> got = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (PipeWorker<Integer> w : workers) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    got.add(w.slot() + ":" + w.take());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        await("three workers wait", () -> pipe.remainingCapacity() == 3);
        PipeWorker<Integer> busyHandle = workers.get(0);
        assertThrows(IllegalStateException.class, () -> busyHandle.poll(1, TimeUnit.MILLISECONDS),
                "a handle waiting in one thread cannot wait in another");
        for (int i = 0; i < 3; i++) {
            pipe.put(i);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(3, got.size());
        assertEquals(List.of(0, 1, 2), got.stream().map(s -> Integer.parseInt(s.split(":")[1])).sorted().toList());
        for (PipeWorker<Integer> w : workers) {
            w.close();
            w.close();
            assertThrows(IllegalStateException.class, w::take);
        }
        try (PipeWorker<Integer> again = pipe.register()) {
            assertNull(again.poll(1, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void closingAHandleWhileItWaitsIsRefused() throws InterruptedException {
        PipeHandoff<Integer> pipe = new PipeHandoff<>(1);
        PipeWorker<Integer> w = pipe.register();
        AtomicReference<Object> got = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                got.set(w.take());
            } catch (Throwable e) {
                got.set(e);
            }
        });
        await("the worker waits", () -> pipe.remainingCapacity() == 1);
        assertThrows(IllegalStateException.class, w::close);
        pipe.put(7);
        t.join();
        assertEquals(7, got.get());
        w.close();
    }

    /**
     * The race that matters: workers whose timed polls expire all the time while producers hand
     * them elements. Every element is received exactly once, or stays with its producer, which
     * offers it again; none is lost, none is received twice. The race is a matter of timing, so
     * rounds repeat, each checked on its own, until one has seen a give-up lose to a producer
     * ({@code searchConflicts}); a test that never saw the race proves nothing and fails.
     */
    @Test
    void workersGivingUpNeverLoseOrDuplicateAnElement() throws InterruptedException {
        int maxRounds = 20;
        long conflicts = 0;
        for (int round = 0; round < maxRounds && conflicts == 0; round++) {
            conflicts = roundOfGivingUpWorkers();
        }
        assertTrue(conflicts > 0, "no round of " + maxRounds + " saw a give-up lose to a producer");
    }

    /** One round of {@link #workersGivingUpNeverLoseOrDuplicateAnElement}; returns its conflicts. */
    private static long roundOfGivingUpWorkers() throws InterruptedException {
        int slots = 4;
        int perProducer = 20_000;
        int producers = 2;
        PipeHandoff<Integer> pipe = Handoffs.pipe(slots).withStats().build();
        AtomicIntegerArray received = new AtomicIntegerArray(producers * perProducer);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger failures = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < slots; w++) {
            workers.add(Thread.ofPlatform().start(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!stop.get()) {
                    try {
                        // Timeouts from 0 to 20 us: most polls expire, many just as a producer picks them.
                        Integer e = pipe.poll(random.nextInt(20_000), TimeUnit.NANOSECONDS);
                        if (e != null && received.getAndIncrement(e) != 0) {
                            failures.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failures.incrementAndGet();
                    }
                }
            }));
        }
        List<Thread> producerThreads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int first = p * perProducer;
            producerThreads.add(Thread.ofPlatform().start(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                for (int e = first; e < first + perProducer && System.nanoTime() < deadline; ) {
                    if (pipe.offer(e)) {
                        e++; // else the element is still ours: offer it again
                    }
                }
            }));
        }
        for (Thread t : producerThreads) {
            t.join();
        }
        await("every element is received", () -> pipe.stats().takes() == (long) producers * perProducer);
        stop.set(true);
        for (Thread t : workers) {
            t.join();
        }
        assertEquals(0, failures.get());
        for (int e = 0; e < received.length(); e++) {
            assertEquals(1, received.get(e), "element " + e);
        }
        HandoffStats stats = pipe.stats();
        assertEquals(stats.puts(), stats.takes());
        return stats.searchConflicts();
    }
}
