/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A handoff with importance classes is not empty while an element is inside, and remove(o) finds
 * o while it is inside, even while another removal holds every reservation: a ThreadPoolExecutor
 * worker that saw it empty at shutdown would end, and a submitter told that its task had left
 * would not refuse it, and either would leave the task in a terminated pool
 * ({@link ElasticPoolTest}'s shutdown races found both).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClassedHandoffIsEmptyTest {

    /**
     * The kinds whose isEmpty() takes no lock that their removal holds while it asks its match (a
     * circular buffer's would wait for the removal: the test would prove nothing).
     */
    @ParameterizedTest
    @ValueSource(strings = {"lock-split:4,classes=2", "pht:4,classes=2"})
    void aHandoffWithClassesIsNotEmptyWhileARemovalLooksAtItsOnlyElement(String spec) throws Exception {
        Handoff<Object> h = Handoffs.create(spec);
        Object inside = "inside";
        h.add(inside);
        CountDownLatch looking = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Object probe = blockingProbe(looking, release); // remove(probe) asks it about each element
        Thread remover = Thread.ofPlatform().start(() -> h.remove(probe));
        assertTrue(looking.await(20, TimeUnit.SECONDS));
        try {
            assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(10), h::isEmpty),
                    "an element is inside, reserved by a removal that will not take it");
        } finally {
            release.countDown();
            remover.join();
        }
        assertTrue(h.contains(inside));
        assertFalse(h.isEmpty());
    }

    /**
     * The only reservation is held by a removal that looks for something else; a removal of the
     * element inside must wait for it and remove the element, not report it gone.
     */
    @ParameterizedTest
    @ValueSource(strings = {"lock-split:4,classes=2", "pht:4,classes=2"})
    void aRemovalFindsItsElementWhileAnotherRemovalHoldsEveryReservation(String spec) throws Exception {
        Handoff<Object> h = Handoffs.create(spec);
        CountDownLatch asked = new CountDownLatch(1);
        Object task = new Object() {
            @Override
            public boolean equals(Object other) { // remove(task) asks it about each element
                asked.countDown();
                return other == this;
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        h.add(task);
        CountDownLatch looking = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = Thread.ofPlatform().start(() -> h.remove(blockingProbe(looking, release)));
        assertTrue(looking.await(20, TimeUnit.SECONDS));
        boolean[] removed = new boolean[1];
        Thread remover = Thread.ofPlatform().start(() -> removed[0] = h.remove(task));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (remover.isAlive() && asked.getCount() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(1); // until the remover has looked at the element, or given up
            }
        } finally {
            release.countDown();
            holder.join();
            remover.join();
        }
        assertTrue(removed[0], "remove(task) reported the task gone while it was inside");
        assertFalse(h.contains(task));
        assertTrue(h.isEmpty());
    }

    /** An object whose equals, asked about an element, signals looking and waits for release. */
    private static Object blockingProbe(CountDownLatch looking, CountDownLatch release) {
        return new Object() {
            @Override
            public boolean equals(Object other) {
                looking.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return false;
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
    }
}
