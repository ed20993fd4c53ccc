/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The operations the benchmarks call on the jox peers, and those the adapter refuses. */
class JoxBlockingQueueTest {

    @Test
    void aBufferedChannelTakesUpToItsCapacityInOrder() throws InterruptedException {
        BlockingQueue<Integer> q = Queues.create("jox", 3);
        assertTrue(q.offer(1));
        q.put(2);
        assertTrue(q.offer(3, 1, TimeUnit.MILLISECONDS));
        assertFalse(q.offer(4), "full");
        assertFalse(q.offer(4, 2, TimeUnit.MILLISECONDS), "full for the whole timeout");
        assertEquals(1, q.take());
        assertEquals(2, q.poll());
        assertEquals(3, q.poll(1, TimeUnit.SECONDS));
        assertNull(q.poll(), "empty");
        assertNull(q.poll(2, TimeUnit.MILLISECONDS), "empty for the whole timeout");
        assertNull(q.poll(20, TimeUnit.MICROSECONDS), "a timeout under a millisecond");
    }

    @Test
    void aRendezvousChannelHandsOverOnlyToAWaitingTaker() throws InterruptedException {
        BlockingQueue<Integer> q = Queues.create("jox-rendezvous", 1024);
        assertFalse(q.offer(1), "nobody takes");
        assertFalse(q.offer(1, 2, TimeUnit.MILLISECONDS), "nobody takes within the timeout");
        List<Integer> taken = new ArrayList<>();
        Thread taker = Thread.ofPlatform().start(() -> {
            try {
                taken.add(q.take());
                taken.add(q.poll(10, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        q.put(1);
        assertTrue(q.offer(2, 10, TimeUnit.SECONDS));
        taker.join();
        assertEquals(List.of(1, 2), taken);
    }

    @Test
    void whatAChannelCannotTellIsRefused() {
        BlockingQueue<Integer> q = Queues.create("jox", 8);
        assertThrows(UnsupportedOperationException.class, q::size);
        assertThrows(UnsupportedOperationException.class, q::isEmpty);
        assertThrows(UnsupportedOperationException.class, q::iterator);
        assertThrows(UnsupportedOperationException.class, q::peek);
        assertThrows(UnsupportedOperationException.class, q::remainingCapacity);
        assertEquals("jox buffered channel of 8", q.toString());
    }

    @Test
    void drainToTakesWhatIsBuffered() throws InterruptedException {
        BlockingQueue<Integer> q = Queues.create("jox", 8);
        for (int i = 0; i < 5; i++) {
            q.put(i);
        }
        List<Integer> into = new ArrayList<>();
        assertEquals(3, q.drainTo(into, 3));
        assertEquals(2, q.drainTo(into));
        assertEquals(List.of(0, 1, 2, 3, 4), into);
    }
}
