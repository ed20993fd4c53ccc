/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Serialization, as the JSR-166 TCK's {@code testSerialization} checks it for the JDK's queues
 * (serialize, deserialize, compare): the copy has the same class, spec and elements (in the same
 * order for a FIFO kind), is independent of the original, keeps closed, and a stream that names a
 * kind's class without the proxy is refused. A handoff whose custom classifier is not
 * serializable must refuse at {@code writeObject}; {@link HandoffSerializationTest} checks the
 * classifiers that are.
 */
interface SerializationContract extends ContractSubject {

    /** Writes h to bytes. */
    static byte[] serialize(Object h) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(h);
        }
        return bytes.toByteArray();
    }

    /** Reads an object back from bytes. */
    static Object deserialize(byte[] bytes) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        }
    }

    /** Serializes and deserializes h. */
    @SuppressWarnings("unchecked")
    static <E> Handoff<E> serialClone(Handoff<E> h) throws IOException, ClassNotFoundException {
        return (Handoff<E>) deserialize(serialize(h));
    }

    /**
     * Whether h has a custom classifier that cannot be serialized: then writeObject must refuse
     * it, naming the classifier's class, and the caller has nothing more to check.
     */
    static boolean refusedForItsClassifier(Handoff<Integer> h) throws IOException {
        Classifier<?> c = ((AbstractHandoff<?>) h).classifier();
        if (c == null || c instanceof Serializable) {
            return false;
        }
        NotSerializableException refused = assertThrows(NotSerializableException.class, () -> serialize(h));
        assertTrue(refused.getMessage().contains(c.getClass().getName()), refused.getMessage());
        return true;
    }

    private static List<Integer> inside(Handoff<Integer> h) {
        return Arrays.stream(h.toArray()).map(Integer.class::cast).toList();
    }

    private static List<Integer> sorted(List<Integer> list) {
        return list.stream().sorted().toList();
    }

    @Test
    default void aSerializedCopyHasTheSameClassSpecAndElementsAndIsIndependent() throws Exception {
        Handoff<Integer> h = handoffOf(8);
        List<Integer> put = holdsElements() ? List.of(3, 1, 4, 1, 5) : List.of();
        put.forEach(h::add);
        if (refusedForItsClassifier(h)) {
            return;
        }
        Handoff<Integer> copy = serialClone(h);
        assertNotSame(h, copy);
        assertSame(h.getClass(), copy.getClass());
        assertEquals(h.spec(), copy.spec());
        assertEquals(h.capacity(), copy.capacity());
        assertFalse(copy.isClosed());
        if (h.ordering() == Handoff.Ordering.FIFO) {
            assertEquals(put, inside(copy), "same elements, same order");
        } else {
            assertEquals(sorted(put), sorted(inside(copy)), "same elements");
        }
        assertEquals(put.size(), copy.size());
        if (holdsElements()) {
            assertTrue(copy.offer(9));
            assertEquals(sorted(put), sorted(inside(h)), "an offer into the copy leaves the original alone");
            List<Integer> taken = new ArrayList<>();
            copy.drainTo(taken);
            List<Integer> expected = new ArrayList<>(put);
            expected.add(9);
            assertEquals(sorted(expected), sorted(taken));
            assertEquals(sorted(put), sorted(inside(h)), "taking from the copy leaves the original alone");
        }
    }

    @Test
    default void aClosedHandoffIsRestoredClosedWithItsElementsStillTakeable() throws Exception {
        Handoff<Integer> h = handoffOf(4);
        List<Integer> put = holdsElements() ? List.of(7, 8) : List.of();
        put.forEach(h::add);
        h.close();
        if (refusedForItsClassifier(h)) {
            return;
        }
        Handoff<Integer> copy = serialClone(h);
        assertTrue(copy.isClosed(), "restored closed");
        assertFalse(copy.offer(1), "closed to inserts");
        List<Integer> taken = new ArrayList<>();
        for (int i = 0; i < put.size(); i++) {
            taken.add(copy.take());
        }
        assertEquals(sorted(put), sorted(taken), "what was inside is still taken");
        assertThrows(HandoffClosedException.class, copy::take, "then closed and empty");
        assertEquals(put.size(), h.size(), "the original kept its elements");
    }

    @Test
    default void anOpenEmptyHandoffIsRestoredOpenAndEmptyAndWorks() throws Exception {
        Handoff<Integer> h = handoffOf(4);
        if (refusedForItsClassifier(h)) {
            return;
        }
        Handoff<Integer> copy = serialClone(h);
        assertTrue(copy.isEmpty());
        assertFalse(copy.isClosed());
        assertNull(copy.poll());
        if (holdsElements()) {
            copy.put(5);
            assertEquals(5, copy.take());
        }
        assertEquals(h.remainingCapacity(), copy.remainingCapacity());
    }

    /** readObject of the kinds' common base refuses, so a stream must go through the proxy. */
    @Test
    default void aStreamWithoutTheProxyIsRefused() throws Exception {
        Handoff<Integer> h = handoffOf(4);
        Method readObject = AbstractHandoff.class.getDeclaredMethod("readObject", ObjectInputStream.class);
        readObject.setAccessible(true);
        InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
                () -> readObject.invoke(h, (ObjectInputStream) null));
        InvalidObjectException refused = assertInstanceOf(InvalidObjectException.class, thrown.getCause());
        assertEquals("proxy required", refused.getMessage());
    }
}
