/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.SerializationContract.deserialize;
import static dev.handoff.SerializationContract.serialClone;
import static dev.handoff.SerializationContract.serialize;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The serialized form beyond what {@link SerializationContract} checks on every kind: specs
 * built by the factory (options, counting, sojourn times), importance classes with the default, a serializable
 * and a non-serializable classifier, elements that are not serializable, and forged forms.
 */
class HandoffSerializationTest {

    /** A serializable classifier: odd numbers are important. */
    record OddFirst() implements Classifier<Integer>, Serializable {
        @Override
        public int classOf(Integer e) {
            return e % 2 == 1 ? 0 : 1;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"circular:5", "circular:5,wait=spin,core=ring,stats", "lock-split:5,stats",
            "pht:5,slots=monitor,key=hash,search=cursor", "pht:5,search=probe", "pipe:3,stats",
            "circular:2,classes=3,fair=4", "lock-split:2,classes=2,stats", "pipe:3,classes=2",
            "circular:5,sojourn", "pht:5,key=hash,stats,sojourn", "lock-split:2,classes=2,sojourn"})
    void everySpecTheFactoryBuildsRoundTrips(String spec) throws Exception {
        Handoff<Integer> h = Handoffs.create(spec);
        if (!(h instanceof PipeHandoff)) {
            h.add(1);
            h.add(2);
        }
        Handoff<Integer> copy = serialClone(h);
        assertEquals(h.spec(), copy.spec());
        assertSame(h.getClass(), copy.getClass());
        assertEquals(h.size(), copy.size());
    }

    @Test
    void theCopyCountsFromItsConstructionWithTheElementsPutBack() throws Exception {
        Handoff<Integer> h = Handoffs.create("circular:4,stats");
        for (int i = 0; i < 4; i++) {
            h.add(i);
        }
        h.poll();
        Handoff<Integer> copy = serialClone(h);
        assertEquals(3, copy.stats().puts(), "the three put back");
        assertEquals(0, copy.stats().takes());
    }

    @Test
    void aCustomSerializableClassifierTravelsWithTheHandoff() throws Exception {
        Handoff<Integer> h = Handoffs.create("circular:4,classes=2,fair=1000", new OddFirst());
        List.of(2, 4, 1, 3).forEach(h::add);
        Handoff<Integer> copy = serialClone(h);
        assertEquals(List.of(1, 3, 2, 4), List.of(copy.toArray()), "the classes kept, important first");
        copy.add(5); // classified by the copy's classifier: important
        List<Integer> taken = new ArrayList<>();
        copy.drainTo(taken);
        assertEquals(List.of(1, 3, 5, 2, 4), taken);
    }

    @Test
    void aSerializableLambdaClassifierTravelsToo() throws Exception {
        Classifier<Integer> byParity = (Classifier<Integer> & Serializable) e -> e % 2;
        Handoff<Integer> h = Handoffs.create("lock-split:4,classes=2", byParity);
        List.of(1, 2).forEach(h::add);
        Handoff<Integer> copy = serialClone(h);
        assertEquals(List.of(2, 1), List.of(copy.toArray()));
    }

    @Test
    void theDefaultClassifierOfAnotherClassCountIsCarriedAsACustomOne() throws Exception {
        // byImportance(2) on three classes puts a plain element in class 1, the default of three
        // in class 2: the form must carry it rather than rebuild the default from the spec.
        Handoff<Object> h = Handoffs.create("circular:4,classes=3", Classifier.byImportance(2));
        h.add("plain"); // class 1 of 3, not the default's class 2
        Handoff<Object> copy = serialClone(h);
        assertArrayEquals(new Object[] {"plain"}, copy.toArray());
        assertTrue(((AbstractHandoff<?>) copy).classifier() instanceof ByImportance b && b.leastImportant() == 1);
    }

    @Test
    void aClassifierThatIsNotSerializableIsRefusedAtWriteObjectNamingIt() {
        Classifier<Integer> lambda = e -> 0;
        for (String spec : List.of("circular:4,classes=2", "pipe:2,classes=2")) {
            Handoff<Integer> h = Handoffs.create(spec, lambda);
            NotSerializableException refused = assertThrows(NotSerializableException.class, () -> serialize(h));
            assertTrue(refused.getMessage().contains(lambda.getClass().getName()), refused.getMessage());
            assertTrue(refused.getMessage().contains("classifier"), refused.getMessage());
        }
    }

    @Test
    void anElementThatIsNotSerializableIsRefusedAsByAnyCollection() {
        Handoff<Object> h = Handoffs.create("circular:2");
        h.add(new Object());
        assertThrows(NotSerializableException.class, () -> serialize(h));
        assertEquals(1, h.size(), "writing took nothing out");
    }

    @Test
    void twoReferencesToOneHandoffStayOneHandoff() throws Exception {
        Handoff<Integer> h = Handoffs.create("lock-split:2");
        h.add(1);
        Object[] pair = (Object[]) deserialize(serialize(new Object[] {h, h}));
        assertSame(pair[0], pair[1]);
    }

    /** A form with more elements than its spec's capacity: the bytes of a valid one, capacity edited. */
    @Test
    void aFormWithMoreElementsThanItsSpecHoldsIsInvalid() throws Exception {
        Handoff<Integer> h = Handoffs.create("circular:8");
        for (int i = 0; i < 5; i++) {
            h.add(i);
        }
        byte[] bytes = serialize(h);
        byte[] forged = replace(bytes, "circular:8,", "circular:2,");
        InvalidObjectException invalid = assertThrows(InvalidObjectException.class, () -> deserialize(forged));
        assertTrue(invalid.getMessage().contains("cannot be put back"), invalid.getMessage());
    }

    @Test
    void aFormWhoseSpecDoesNotParseIsInvalid() throws Exception {
        byte[] forged = replace(serialize(Handoffs.create("circular:8")), "circular:8,", "circulax:8,");
        InvalidObjectException invalid = assertThrows(InvalidObjectException.class, () -> deserialize(forged));
        assertInstanceOf(IllegalArgumentException.class, invalid.getCause());
    }

    /** Replaces one occurrence of a string of the same length in a stream's bytes. */
    private static byte[] replace(byte[] bytes, String from, String to) {
        byte[] f = from.getBytes(StandardCharsets.UTF_8);
        byte[] t = to.getBytes(StandardCharsets.UTF_8);
        assertEquals(f.length, t.length);
        for (int i = 0; i + f.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + f.length, f, 0, f.length)) {
                byte[] copy = bytes.clone();
                System.arraycopy(t, 0, copy, i, t.length);
                return copy;
            }
        }
        throw new AssertionError("'" + from + "' not in the stream");
    }
}
