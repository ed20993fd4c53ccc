/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.junit.jupiter.api.Test;

/**
 * The limit of model checking, shown: the stranded-element handshake of lesson 2 with
 * <em>plain</em> fields, which jcstress sees failing on this very machine (both sides miss each
 * other, "false, false"), passes Lincheck. Lincheck explores interleavings under sequential
 * consistency, where one of the two writes always comes first and the other side sees it; the
 * store buffer that lets both miss is outside its model. A missing {@code volatile} is jcstress's
 * job.
 *
 * <p>The sequential specification says the two sides never both miss: a sequential run of the
 * producer (write cell, read waiting) and the consumer (write waiting, read cell) always lets the
 * second one see the first one's write. This test documents a limit of the tool, not a property of
 * the library; if a future Lincheck modelled store buffering, it would fail here, and this lesson
 * would need rewriting.
 */
class LincheckCannotSeeMissingVolatileTest {

    /** The racy twin of lesson 2, as Lincheck operations. */
    public static class PlainHandshake {
        private Integer cell;      // plain, as in Handoff_02_StrandedElement.FlawedPlainFields
        private boolean waiting;   // plain

        /** Returns whether the producer saw a waiter. */
        @Operation(nonParallelGroup = "producer")
        public boolean produce() {
            cell = 1;
            return waiting;
        }

        /** Returns whether the consumer saw the element. */
        @Operation(nonParallelGroup = "consumer")
        public boolean consume() {
            waiting = true;
            return cell != null;
        }
    }

    /** Sequentially, whoever runs second sees the first one's write. */
    public static class HandshakeSpec {
        private boolean cellWritten;
        private boolean waitingWritten;

        public boolean produce() {
            cellWritten = true;
            return waitingWritten;
        }

        public boolean consume() {
            waitingWritten = true;
            return cellWritten;
        }
    }

    @Test
    void lincheckPassesWhatJcstressShowsFailing() {
        assertNull(LinCheckerKt.checkImpl(
                LincheckSupport.modelChecking().sequentialSpecification(HandshakeSpec.class), PlainHandshake.class));
    }
}
