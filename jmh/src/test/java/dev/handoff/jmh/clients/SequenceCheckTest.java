/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The async logger's check: it passes exactly-once, in-order lines and reports every other stream. */
class SequenceCheckTest {

    /** Two producers of three lines each, interleaved as an appender might see them. */
    private static SequenceCheck twoByThree() {
        return new SequenceCheck(new long[] {3, 3});
    }

    private static void feed(SequenceCheck check, int... producerThenSeq) {
        for (int i = 0; i < producerThenSeq.length; i += 2) {
            check.acceptLine("12:00:00.000 [producer-" + producerThenSeq[i] + "] INFO  x - producer="
                    + producerThenSeq[i] + " seq=" + producerThenSeq[i + 1]);
        }
    }

    @Test
    void interleavedLinesInOrderPerProducerPass() {
        SequenceCheck check = twoByThree();
        feed(check, 0, 0, 1, 0, 1, 1, 0, 1, 0, 2, 1, 2);
        assertEquals(List.of(), check.problems());
        assertEquals(6, check.lines());
    }

    @Test
    void aDuplicatedLineIsReported() {
        SequenceCheck check = twoByThree();
        feed(check, 0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 2, 1, 2);
        List<String> problems = check.problems();
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).contains("producer 0 sent seq 1, expected 2 (repeated or late)"), problems::toString);
    }

    @Test
    void aReorderedPairIsReported() {
        SequenceCheck check = twoByThree();
        feed(check, 0, 0, 0, 2, 0, 1, 1, 0, 1, 1, 1, 2);
        List<String> problems = check.problems();
        assertEquals(2, problems.size(), problems::toString);
        assertTrue(problems.get(0).contains("producer 0 sent seq 2, expected 1 (skipped or early)"), problems::toString);
        assertTrue(problems.get(1).contains("producer 0 sent seq 1, expected 3 (repeated or late)"), problems::toString);
    }

    @Test
    void aLostLastLineIsReported() {
        SequenceCheck check = twoByThree();
        feed(check, 0, 0, 0, 1, 0, 2, 1, 0, 1, 1);
        assertEquals(List.of("producer 1: last seq seen 1, expected 3 lines"), check.problems());
    }

    @Test
    void aMalformedLineOrUnknownProducerIsReported() {
        SequenceCheck check = new SequenceCheck(new long[] {1});
        check.acceptLine("producer=0 seq=zero");
        check.acceptLine("nothing here");
        check.accept(5, 0);
        check.accept(0, 0);
        List<String> problems = check.problems();
        assertEquals(3, problems.size(), problems::toString);
        assertTrue(problems.get(2).contains("unknown producer 5"), problems::toString);
    }

    @Test
    void linesAreSharedAsEvenlyAsPossible() {
        assertArrayEquals(new long[] {3, 3, 2, 2}, SequenceCheck.share(10, 4));
        assertArrayEquals(new long[] {250_000, 250_000, 250_000, 250_000}, SequenceCheck.share(1_000_000, 4));
    }
}
