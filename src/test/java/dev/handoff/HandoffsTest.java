/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Handoffs.create: every kind by name, and a clear IllegalArgumentException for every bad spec. */
class HandoffsTest {

    @Test
    void createsEveryKindByNameWithTheExactCapacity() {
        assertInstanceOf(CircularBuffer.class, Handoffs.create("circular:101"));
        assertInstanceOf(LockSplitQueue.class, Handoffs.create("lock-split:1024"));
        assertInstanceOf(ParallelHashTable.class, Handoffs.create("pht:101"));
        assertInstanceOf(PipeHandoff.class, Handoffs.create("pipe:150"));
        for (String kind : Handoffs.kinds()) {
            assertEquals(7, Handoffs.create(kind + ":7").capacity(), kind);
        }
    }

    @Test
    void statsOptionTurnsCountingOnForEveryKind() {
        for (String kind : Handoffs.kinds()) {
            assertFalse(Handoffs.create(kind + ":3").stats().enabled(), kind);
            assertTrue(Handoffs.create(kind + ":3,stats").stats().enabled(), kind);
        }
    }

    @Test
    void slotFormIsChosenBySpec() {
        ParallelHashTable<Object> monitor = (ParallelHashTable<Object>) Handoffs.create("pht:11,slots=monitor");
        assertEquals(ParallelHashTable.SlotForm.MONITOR, monitor.slotForm());
        ParallelHashTable<Object> cas = (ParallelHashTable<Object>) Handoffs.create("pht:11, slots=cas ,stats");
        assertEquals(ParallelHashTable.SlotForm.CAS, cas.slotForm());
    }

    @Test
    void circularWaitingIsChosenBySpecAndParksByDefault() {
        assertEquals(CircularBuffer.Waiting.PARK, waitingOf("circular:4"));
        assertEquals(CircularBuffer.Waiting.PARK, waitingOf("circular:4,wait=park"));
        assertEquals(CircularBuffer.Waiting.SPIN_THEN_PARK, waitingOf("circular:4,stats,wait=spin"));
        assertThrows(NullPointerException.class, () -> Handoffs.circular(4).waiting(null).build());
    }

    @Test
    void unknownOptionValueNamesTheValidOnes() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Handoffs.create("circular:4,wait=forever"))
                .getMessage().contains("valid: wait=park, wait=spin"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Handoffs.create("pht:11,slots=wood"))
                .getMessage().contains("valid: slots=monitor, slots=cas"));
    }

    private static CircularBuffer.Waiting waitingOf(String spec) {
        return ((CircularBuffer<?>) Handoffs.create(spec)).waiting();
    }

    @Test
    void unknownKindListsTheValidKinds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Handoffs.create("ring:8"));
        for (String kind : Handoffs.kinds()) {
            assertTrue(e.getMessage().contains(kind), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "circular", "circular:", "circular:0", "circular:-1", "circular:x",
            "circular:99999999999", "circular:5,", "circular:5,,stats", "circular:5,fast",
            "pht:11,slots=wood", "lock-split:4,slots=cas", "circular:4,wait=forever", "lock-split:4,wait=spin"})
    void badSpecIsIllegalArgumentWithTheSpecInTheMessage(String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Handoffs.create(spec));
        assertTrue(e.getMessage().contains("'" + spec + "'") || e.getMessage().contains(spec.trim()), e.getMessage());
    }

    /** The option names each kind accepts, as its messages must list them. */
    private static final Map<String, List<String>> OPTIONS = Map.of(
            "circular", List.of("stats", "wait"),
            "lock-split", List.of("stats"),
            "pht", List.of("stats", "slots", "key"),
            "pipe", List.of("stats"));

    @ParameterizedTest
    @ValueSource(strings = {"circular:10,wait", "circular:10,wait=", "circular:10, wait = ", "circular:10,=spin",
            "circular:10,wait=spin,wait=park", "circular:10,wait=spin,WAIT=spin", "circular:10,stats,stats",
            "circular:10,stats=true", "circular:10,stats=", "circular:10,wait=spin=park", "lock-split:4,stats,stats",
            "lock-split:4,stats=yes", "lock-split:4,wait=spin", "pht:11,slots", "pht:11,slots=cas,slots=monitor",
            "pht:11,key", "pht:11,key=random,key=hash", "pht:11,stats,slots=cas,stats", "pht:11,wait=spin",
            "pipe:4,stats,stats", "pipe:4,slots=cas", "pipe:4,stat"})
    void malformedRepeatedOrUnknownOptionIsIllegalArgumentListingTheKindsOptions(String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Handoffs.create(spec));
        String kind = spec.substring(0, spec.indexOf(':'));
        assertTrue(e.getMessage().contains("'" + spec + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("valid options for " + kind), e.getMessage());
        for (String option : OPTIONS.get(kind)) {
            assertTrue(e.getMessage().contains(option), option + " not listed: " + e.getMessage());
        }
    }

    @Test
    void optionsAreCaseInsensitiveAndToleranceOfWhitespaceIsKept() {
        assertEquals(CircularBuffer.Waiting.SPIN_THEN_PARK, waitingOf(" Circular : 4 , WAIT = Spin , Stats "));
        assertTrue(Handoffs.create(" PIPE:3 ,STATS").stats().enabled());
    }

    @Test
    void nullSpecIsNullPointerException() {
        assertThrows(NullPointerException.class, () -> Handoffs.create(null));
    }
}
