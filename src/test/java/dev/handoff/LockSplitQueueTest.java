/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.awaitBlocked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the contract suite cannot ask of {@link LockSplitQueue}: a drainTo target that uses the
 * queue while another thread waits for both locks (a deadlock, before the refusal came first;
 * the test thread runs apart so that a deadlock fails it at the timeout).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LockSplitQueueTest {

    @Test
    void aDrainTargetThatOffersWhileAnotherThreadWaitsForBothLocksIsRefusedNotDeadlocked() throws Exception {
        LockSplitQueue<Integer> q = new LockSplitQueue<>(4);
        q.add(0);
        q.add(1);
        List<Thread> whole = new ArrayList<>();
        List<Integer> sink = new ArrayList<>() {
            @Override
            public boolean add(Integer e) {
                Thread t = Thread.ofPlatform().daemon().start(() -> q.contains(7)); // holds putLock, waits for takeLock
                whole.add(t);
                awaitBlocked(t);
                q.offer(9); // the target's thread holds takeLock: waiting for putLock would deadlock
                return super.add(e);
            }
        };
        assertThrows(IllegalStateException.class, () -> q.drainTo(sink));
        whole.get(0).join();
        assertEquals(List.of(), sink);
        assertEquals(List.of(0, 1), List.of(q.toArray()));
    }
}
