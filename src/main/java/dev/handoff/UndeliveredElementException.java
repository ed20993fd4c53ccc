/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * Carries an element that a batch take ({@link Handoff#take(java.util.Collection, int)},
 * {@link Handoff#poll(java.util.Collection, int, long, java.util.concurrent.TimeUnit)}) had taken
 * out of its handoff when the target collection refused it, and that the handoff did not accept
 * back. It is never thrown itself: it is a {@linkplain Throwable#getSuppressed() suppressed}
 * exception of the exception the target's {@code add} threw, so that the element has one owner,
 * the caller who catches that exception.
 *
 * <pre>{@code
 * try {
 *     handoff.take(batch, 64);
 * } catch (IllegalStateException refused) {      // whatever batch.add throws
 *     for (Throwable t : refused.getSuppressed()) {
 *         if (t instanceof UndeliveredElementException u) {
 *             handle(u.element());
 *         }
 *     }
 * }
 * }</pre>
 */
public final class UndeliveredElementException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The element; not serialized, since an element need not be. */
    private final transient Object element;

    /**
     * @param element the element taken and neither delivered nor given back, never null
     */
    UndeliveredElementException(Object element) {
        super("the batch take's target refused an element and the handoff did not accept it back: it is"
                + " in element()", null, false, false); // no stack trace: the exception it is attached to has one
        this.element = element;
    }

    /**
     * Returns the element that was neither added to the target nor put back into the handoff.
     *
     * @return the element, or null in a deserialized copy of this exception
     */
    public Object element() {
        return element;
    }
}
