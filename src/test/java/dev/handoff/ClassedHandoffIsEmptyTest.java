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
 * A handoff with importance classes is not empty while an element is inside, even while a
 * removal holds that element's reservation: a ThreadPoolExecutor worker that saw it empty at
 * shutdown would end and leave the element in a terminated pool ({@link ElasticPoolTest}'s
 * shutdown race found it).
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
        Object probe = new Object() {
            @Override
            public boolean equals(Object other) { // remove(probe) asks it about each element
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
}
