/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.ObjectStreamException;
import java.io.Serial;
import java.io.Serializable;

/**
 * The serialized form of every handoff kind (see "Serialization" in {@link Handoff}): what
 * {@link AbstractHandoff#writeReplace()} writes in place of the handoff, and what
 * {@link #readResolve()} builds a new handoff from.
 *
 * @serial include
 */
final class SerializationProxy implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * The handoff's spec string ({@link HandoffSpec#toString()}), which {@link HandoffSpec#parse}
     * reads back.
     *
     * @serial
     */
    private final String spec;

    /**
     * The elements, in the order they would leave ({@link Handoff#toArray()}); empty for a pipe.
     *
     * @serial
     */
    private final Object[] elements;

    /**
     * Whether the handoff was closed.
     *
     * @serial
     */
    private final boolean closed;

    /**
     * The classifier of a handoff with importance classes, or null when the spec's own default
     * ({@link Classifier#byImportance(int)}) is the one, or the handoff has no classes.
     *
     * @serial
     */
    private final Classifier<?> classifier;

    private SerializationProxy(String spec, Object[] elements, boolean closed, Classifier<?> classifier) {
        this.spec = spec;
        this.elements = elements;
        this.closed = closed;
        this.classifier = classifier;
    }

    /**
     * The form of h. Closed is read before the elements: a handoff closed while it is being
     * written is recorded open, as it was when the write began, with the elements it kept.
     *
     * @throws NotSerializableException if h has a classifier that is neither the default nor
     *         serializable: the message names its class
     */
    static SerializationProxy of(AbstractHandoff<?> h) throws NotSerializableException {
        HandoffSpec spec = h.spec();
        Classifier<?> classifier = h.classifier();
        if (classifier != null && ByImportance.isDefault(classifier, spec.classes())) {
            classifier = null; // the spec string rebuilds it
        }
        if (classifier != null && !(classifier instanceof Serializable)) {
            throw new NotSerializableException("handoff '" + spec + "': its classifier, "
                    + classifier.getClass().getName() + ", is not Serializable; a handoff with importance"
                    + " classes is serializable only if its classifier is");
        }
        boolean closed = h.isClosed();
        return new SerializationProxy(spec.toString(), h.toArray(), closed, classifier);
    }

    /**
     * Builds the handoff this form stands for: a new one from the spec (and classifier), with the
     * elements put back in their order, then closed if the original was.
     *
     * @return the new handoff
     * @throws InvalidObjectException if the spec does not parse, a classifier comes with a spec
     *         without classes, an element is null, or the new handoff refuses an element
     */
    @Serial
    private Object readResolve() throws ObjectStreamException {
        Handoff<Object> h = build();
        for (Object e : elements) {
            if (e == null || !offer(h, e)) {
                throw new InvalidObjectException("handoff '" + spec + "': element " + e
                        + " cannot be put back (null, or more elements than the handoff holds)");
            }
        }
        if (closed) {
            h.close();
        }
        return h;
    }

    private Handoff<Object> build() throws InvalidObjectException {
        if (spec == null || elements == null) {
            throw new InvalidObjectException("a handoff's form needs its spec and its elements");
        }
        HandoffSpec parsed;
        try {
            parsed = HandoffSpec.parse(spec);
        } catch (IllegalArgumentException badSpec) {
            throw invalid("handoff spec '" + spec + "' does not parse", badSpec);
        }
        if (classifier == null) {
            return parsed.build();
        }
        @SuppressWarnings("unchecked") // the classifier classified these elements before they were written
        Classifier<Object> elementClasses = (Classifier<Object>) classifier;
        try {
            return parsed.build(elementClasses);
        } catch (IllegalArgumentException withoutClasses) { // a spec without importance classes refuses a classifier
            throw invalid("handoff '" + spec + "': a classifier without importance classes", withoutClasses);
        }
    }

    private boolean offer(Handoff<Object> h, Object e) throws InvalidObjectException {
        try {
            return h.offer(e);
        } catch (RuntimeException refused) { // the classifier threw, or put it out of range
            throw invalid("handoff '" + spec + "': element " + e + " refused", refused);
        }
    }

    private static InvalidObjectException invalid(String message, Exception cause) {
        InvalidObjectException e = new InvalidObjectException(message);
        e.initCause(cause);
        return e;
    }
}
