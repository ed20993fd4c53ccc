/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.handoff.CircularBuffer.Waiting;
import dev.handoff.ParallelHashTable.KeySource;
import dev.handoff.ParallelHashTable.SlotForm;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The typed spec: the Java form and the string form give equal specs and build the same kind
 * with the same configuration; toString is canonical and parses back; bad input is refused at
 * the call.
 */
class HandoffSpecTest {

    /** Every kind with every combination of its options, with and without stats, and with sojourn but the pipe. */
    static List<HandoffSpec> everySpec() {
        List<HandoffSpec> all = new ArrayList<>();
        for (boolean stats : new boolean[] {false, true}) {
            for (Waiting w : Waiting.values()) {
                for (CircularBuffer.Core core : CircularBuffer.Core.values()) {
                    all.add(new HandoffSpec.Circular(5, w, core, stats));
                }
            }
            all.add(new HandoffSpec.LockSplit(6, stats));
            for (SlotForm form : SlotForm.values()) {
                for (KeySource keys : KeySource.values()) {
                    for (ParallelHashTable.Search search : ParallelHashTable.Search.values()) {
                        all.add(new HandoffSpec.HashTable(7, form, keys, search, stats));
                    }
                }
            }
            all.add(new HandoffSpec.Pipe(8, stats));
        }
        for (HandoffSpec spec : List.copyOf(all)) {
            if (!(spec instanceof HandoffSpec.Pipe)) {
                all.add(spec.withSojourn());
            }
        }
        return all;
    }

    @Test
    void everySpecParsesBackFromItsStringToAnEqualSpec() {
        for (HandoffSpec spec : everySpec()) {
            HandoffSpec back = HandoffSpec.parse(spec.toString());
            assertEquals(spec, back, spec.toString());
            assertEquals(spec.hashCode(), back.hashCode(), spec.toString());
            assertEquals(spec.toString(), back.toString());
            assertTrue(Handoffs.kinds().contains(spec.kind()), spec.kind());
            assertTrue(spec.toString().startsWith(spec.kind() + ":" + spec.capacity()), spec.toString());
        }
        assertEquals(everySpec().size(), everySpec().stream().map(HandoffSpec::toString).distinct().count(),
                "two different specs share a string");
    }

    @Test
    void theCanonicalStringWritesEveryOptionOutAndStatsLast() {
        assertEquals("circular:1024,wait=park,core=lock", Handoffs.circular(1024).toString());
        assertEquals("circular:1024,wait=spin,core=lock,stats", Handoffs.circular(1024).withStats().spinning().toString());
        assertEquals("circular:1024,wait=park,core=ring", Handoffs.circular(1024).ring().toString());
        assertEquals("circular:1024,wait=park,core=cells", Handoffs.circular(1024).cells().toString());
        assertEquals(Handoffs.circular(64).cells().spinning(), HandoffSpec.parse("circular:64,core=cells,wait=spin"));
        assertEquals("lock-split:1024,stats", Handoffs.lockSplit(1024).withStats().toString());
        assertEquals("pht:1031,slots=cas,key=random,search=summary", Handoffs.hashTable(1031).toString());
        assertEquals("pht:1031,slots=monitor,key=hash,search=summary,stats",
                Handoffs.hashTable(1031).keys(KeySource.ELEMENT_HASH).withStats().slots(SlotForm.MONITOR).toString());
        assertEquals("pipe:64", Handoffs.pipe(64).toString());
        assertEquals("pht:11,slots=cas,key=random,search=summary,stats", HandoffSpec.parse(" PHT : 11 , Stats ").toString());
    }

    @Test
    void theTypedFormAndTheStringAreEqualSpecs() {
        assertEquals(Handoffs.circular(1024).spinning().withStats(), HandoffSpec.parse("circular:1024,stats,wait=spin"));
        assertEquals(Handoffs.circular(1024), HandoffSpec.parse("circular:1024"));
        assertEquals(Handoffs.circular(1024).waiting(Waiting.PARK), HandoffSpec.parse("circular:1024,wait=park"));
        assertEquals(Handoffs.circular(1024).ring().spinning(), HandoffSpec.parse("circular:1024,core=ring,wait=spin"));
        assertEquals(Handoffs.lockSplit(9), HandoffSpec.parse("lock-split:9"));
        assertEquals(Handoffs.hashTable(1031).slots(SlotForm.MONITOR).keys(KeySource.ELEMENT_HASH),
                HandoffSpec.parse("pht:1031,key=hash,slots=monitor"));
        assertEquals(Handoffs.hashTable(11), HandoffSpec.parse("pht:11,slots=cas,key=random"));
        assertEquals(Handoffs.pipe(3).withStats(), HandoffSpec.parse("pipe:3,stats"));
        assertNotEquals(Handoffs.pipe(3), Handoffs.lockSplit(3));
        assertNotEquals(Handoffs.circular(3), Handoffs.circular(3).withStats());
    }

    @Test
    void theTypedFormAndTheStringBuildTheSameKindWithTheSameConfiguration() {
        for (HandoffSpec spec : everySpec()) {
            Handoff<Object> typed = spec.build();
            Handoff<Object> parsed = Handoffs.create(spec.toString());
            assertEquals(configuration(typed), configuration(parsed), spec.toString());
            assertEquals(spec.capacity(), typed.capacity());
            assertEquals(spec.stats(), typed.stats().enabled());
            assertEquals(spec.sojourn(), typed.stats().sojourn().enabled());
            switch (spec) {
                case HandoffSpec.Circular c -> assertEquals(c.waiting(), ((CircularBuffer<?>) typed).waiting());
                case HandoffSpec.HashTable t -> {
                    assertEquals(t.slots(), ((ParallelHashTable<?>) typed).slotForm());
                    assertEquals(t.keys(), ((ParallelHashTable<?>) typed).keySource());
                }
                case HandoffSpec.LockSplit l -> assertSame(LockSplitQueue.class, typed.getClass());
                case HandoffSpec.Pipe p -> assertSame(PipeHandoff.class, typed.getClass());
                case HandoffSpec.Classed k -> fail("everySpec() has no classed spec: " + k);
                case SojournSpec t -> assertSame(SojournHandoff.class, typed.getClass());
            }
        }
    }

    /** What a built handoff says about its configuration. */
    private static String configuration(Handoff<?> h) {
        String options = switch (h) {
            case CircularBuffer<?> c -> " " + c.waiting();
            case ParallelHashTable<?> t -> " " + t.slotForm() + " " + t.keySource();
            default -> "";
        };
        return h.getClass().getSimpleName() + ":" + h.capacity() + " stats=" + h.stats().enabled() + options;
    }

    @Test
    void importanceClassesAreWrittenInJavaAsInTheString() {
        HandoffSpec typed = Handoffs.hashTable(11).slots(SlotForm.MONITOR).withStats().withClasses(3).fair(4);
        assertEquals("pht:11,slots=monitor,key=random,search=summary,classes=3,fair=4,stats", typed.toString());
        assertEquals(typed, HandoffSpec.parse(typed.toString()));
        assertEquals(typed, HandoffSpec.parse("pht:11,stats,fair=4,classes=3,slots=monitor"));
        assertEquals(Handoffs.circular(5).withClasses(2),
                HandoffSpec.parse("circular:5,classes=2"), "fair=16 by default");
        Handoff<Object> built = typed.build();
        assertInstanceOf(ClassedHandoff.class, built);
        assertEquals(33, built.capacity(), "capacity per class");
        assertTrue(built.stats().enabled());
        assertInstanceOf(PipeHandoff.class, Handoffs.pipe(4).withClasses(2).build());
        assertInstanceOf(CircularBuffer.class, Handoffs.circular(4).withClasses(1).build(), "one class: the kind");
        Handoff<String> custom = Handoffs.circular(4).withClasses(2).build((String e) -> e.startsWith("!") ? 0 : 1);
        custom.add("a");
        custom.add("!b");
        assertEquals("!b", custom.poll());
        assertThrows(IllegalArgumentException.class, () -> Handoffs.circular(4).withClasses(0));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.circular(4).withClasses(65));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.circular(4).withClasses(2).fair(0));
        assertThrows(IllegalArgumentException.class,
                () -> new HandoffSpec.Classed(Handoffs.circular(4).withClasses(2), 2, 1));
        assertThrows(IllegalArgumentException.class, () -> Handoffs.lockSplit(1 << 30).withClasses(2));
    }

    @Test
    void sojournIsWrittenInJavaAsInTheStringAndLastInIt() {
        assertEquals("circular:8,wait=park,core=lock,sojourn", Handoffs.circular(8).withSojourn().toString());
        assertEquals("lock-split:8,stats,sojourn", Handoffs.lockSplit(8).withSojourn().withStats().toString());
        assertEquals(Handoffs.lockSplit(8).withStats().withSojourn(), HandoffSpec.parse("lock-split:8, SOJOURN ,stats"));
        assertEquals(Handoffs.hashTable(11).withSojourn(), HandoffSpec.parse("pht:11,sojourn"));
        assertEquals(Handoffs.circular(8).withSojourn(), Handoffs.circular(8).withSojourn().withSojourn(), "idempotent");
        assertTrue(HandoffSpec.parse("circular:8,sojourn").sojourn());
        assertFalse(Handoffs.circular(8).sojourn());
        assertNotEquals(Handoffs.circular(8), Handoffs.circular(8).withSojourn());

        HandoffSpec classed = HandoffSpec.parse("circular:4,sojourn,classes=2,stats");
        assertEquals("circular:4,wait=park,core=lock,classes=2,fair=16,stats,sojourn", classed.toString());
        assertEquals(classed, Handoffs.circular(4).withStats().withSojourn().withClasses(2), "sojourn, then classes");
        assertEquals(classed, Handoffs.circular(4).withClasses(2).withStats().withSojourn(), "classes, then sojourn");
        assertEquals(classed, HandoffSpec.parse(classed.toString()));
        assertTrue(classed.sojourn());
        assertInstanceOf(SojournSpec.class, ((HandoffSpec.Classed) classed).base(), "one form: classes over sojourn");
        assertInstanceOf(SojournHandoff.class, classed.build());
        assertEquals(8, classed.build().capacity());
    }

    @Test
    void sojournIsRefusedForThePipeAndInAnyOtherForm() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HandoffSpec.parse("pipe:4,sojourn"));
        assertTrue(e.getMessage().contains("'pipe:4,sojourn'") && e.getMessage().contains("holds no element"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Handoffs.pipe(4).withSojourn());
        assertThrows(IllegalArgumentException.class, () -> Handoffs.pipe(4).withClasses(2).withSojourn());
        assertThrows(IllegalArgumentException.class, () -> new SojournSpec(Handoffs.circular(4).withClasses(2)));
        assertThrows(IllegalArgumentException.class, () -> new SojournSpec(new SojournSpec(Handoffs.circular(4))));
        assertThrows(NullPointerException.class, () -> new SojournSpec(null));
        e = assertThrows(IllegalArgumentException.class, () -> HandoffSpec.parse("circular:4,sojourn=on"));
        assertTrue(e.getMessage().contains("takes no value"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HandoffSpec.parse("circular:4,sojourn,sojourn"));
    }

    /**
     * What a pool and serialization ask a spec, answered by the spec in every shape, so that no
     * caller looks at which record it is: whether it holds elements, how many classes it has,
     * and whether it takes a classifier.
     */
    @Test
    void aSpecSaysWhetherItHoldsElementsHowManyClassesItHasAndWhetherItTakesAClassifier() {
        assertTrue(Handoffs.circular(4).buffered());
        assertTrue(Handoffs.lockSplit(4).withSojourn().buffered());
        assertTrue(Handoffs.hashTable(4).withClasses(3).buffered());
        assertFalse(Handoffs.pipe(4).buffered());
        assertFalse(Handoffs.pipe(4).withClasses(3).buffered(), "classes do not make a pipe hold elements");
        assertEquals(1, Handoffs.circular(4).classes());
        assertEquals(1, Handoffs.circular(4).withSojourn().classes());
        assertEquals(3, Handoffs.circular(4).withSojourn().withClasses(3).classes());
        assertEquals(3, Handoffs.pipe(4).withClasses(3).classes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Handoffs.circular(4).build(x -> 0));
        assertTrue(e.getMessage().contains("classes=K"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Handoffs.circular(4).withSojourn().build(x -> 0));
        assertThrows(NullPointerException.class, () -> Handoffs.circular(4).build(null));
        assertInstanceOf(SojournHandoff.class, Handoffs.circular(4).withSojourn().withClasses(2).build(x -> 0));
    }

    @Test
    void theTypedBuildReturnsTheKindsOwnClass() {
        CircularBuffer<String> circular = Handoffs.circular(4).spinning().build();
        assertEquals(Waiting.SPIN_THEN_PARK, circular.waiting());
        LockSplitQueue<String> lockSplit = Handoffs.lockSplit(4).build();
        assertEquals(4, lockSplit.capacity());
        ParallelHashTable<String> table = Handoffs.hashTable(11).slots(SlotForm.MONITOR).build();
        assertEquals(SlotForm.MONITOR, table.slotForm());
        assertEquals(ParallelHashTable.DEFAULT_KEY_SOURCE, table.keySource());
        PipeHandoff<String> pipe = Handoffs.pipe(2).withStats().build();
        assertTrue(pipe.stats().enabled());
    }

    @Test
    void specsAreImmutableAndEachOptionReturnsANewOne() {
        HandoffSpec.Circular plain = Handoffs.circular(4);
        HandoffSpec.Circular spinning = plain.spinning();
        assertEquals(Waiting.PARK, plain.waiting());
        assertEquals(Waiting.SPIN_THEN_PARK, spinning.waiting());
        assertFalse(plain.stats());
        assertTrue(plain.withStats().stats());
        assertFalse(plain.stats());
        HandoffSpec.HashTable table = Handoffs.hashTable(11);
        table.slots(SlotForm.MONITOR).keys(KeySource.ELEMENT_HASH);
        assertEquals(ParallelHashTable.DEFAULT_SLOT_FORM, table.slots());
        assertEquals(ParallelHashTable.DEFAULT_KEY_SOURCE, table.keys());
    }

    @Test
    void aNullOptionIsRefusedAtTheCall() {
        assertThrows(NullPointerException.class, () -> Handoffs.circular(4).waiting(null));
        assertThrows(NullPointerException.class, () -> Handoffs.hashTable(4).slots(null));
        assertThrows(NullPointerException.class, () -> Handoffs.hashTable(4).keys(null));
        assertThrows(NullPointerException.class, () -> new HandoffSpec.Circular(4, null, false));
        assertThrows(NullPointerException.class, () -> new HandoffSpec.HashTable(4, SlotForm.CAS, null, ParallelHashTable.DEFAULT_SEARCH, false));
        assertThrows(NullPointerException.class, () -> HandoffSpec.parse(null));
    }

    @Test
    void aPoolIsBuiltFromATypedSpec() throws Exception {
        ThreadPoolExecutor pool = Handoffs.newThreadPool(Handoffs.pipe(2).withStats(), 2);
        try {
            assertTrue(pool.getQueue() instanceof PipeHandoff<?>);
            assertEquals(2, ((Handoff<?>) pool.getQueue()).capacity());
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdown();
        }
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        ThreadPoolExecutor buffered = Handoffs.newThreadPool(Handoffs.circular(3).spinning(), 1,
                Thread.ofVirtual().factory(), new ThreadPoolExecutor.CallerRunsPolicy());
        assertEquals(Waiting.SPIN_THEN_PARK, ((CircularBuffer<?>) buffered.getQueue()).waiting());
        buffered.shutdown();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Handoffs.newThreadPool(Handoffs.pipe(1), 2));
        assertTrue(e.getMessage().contains("'pipe:1'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Handoffs.newThreadPool(Handoffs.lockSplit(1), 0));
        assertThrows(NullPointerException.class, () -> Handoffs.newThreadPool((HandoffSpec) null, 1));
        assertThrows(NullPointerException.class, () -> Handoffs.newThreadPool(Handoffs.lockSplit(1), 1, null,
                new ThreadPoolExecutor.AbortPolicy()));
    }
}
