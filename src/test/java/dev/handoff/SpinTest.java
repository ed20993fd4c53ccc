/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.waiting.Spin;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The one-spinner-per-side gate of {@link Spin}: the rule every kind's spin relies on. */
class SpinTest {

    @Test
    void aSecondThreadMayNotSpinWhileTheFirstDoes() throws Exception {
        Spin.Gate gate = new Spin.Gate();
        assertTrue(gate.tryEnter(), "a free gate admits a spinner");
        assertFalse(CompletableFuture.supplyAsync(gate::tryEnter).get(), "a second spinner is refused");
        gate.exit();
        assertTrue(CompletableFuture.supplyAsync(gate::tryEnter).get(), "after exit the next thread may spin");
    }
}
