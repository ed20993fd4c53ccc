/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import java.util.NoSuchElementException;

/**
 * {@link FifoSpec} with the waiting operations of a {@code BlockingQueue}, for Lincheck. A timed
 * offer or poll that returned took effect at one instant as {@code offer} or {@code poll} would
 * (it may have waited first, which a linearization does not see). A {@code put} or {@code take}
 * that returned took effect at an instant when there was room or an element: here they throw
 * where they would wait, so that no linearization may place them there.
 */
public class BlockingFifoSpec extends FifoSpec {

    public boolean offerTimed(int e) {
        return offer(e);
    }

    public Integer pollTimed() {
        return poll();
    }

    public void put(int e) {
        if (!offer(e)) {
            throw new IllegalStateException("full: put would wait here");
        }
    }

    public Integer take() {
        Integer e = poll();
        if (e == null) {
            throw new NoSuchElementException("empty: take would wait here");
        }
        return e;
    }
}
