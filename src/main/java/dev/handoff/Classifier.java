/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * Tells a handoff with importance classes which class an element belongs to: class {@code 0} is the
 * most important. Give one to {@link Handoffs#create(String, Classifier)}; without one a handoff
 * uses {@link #byImportance(int)}.
 *
 * <p>A handoff calls the classifier once per inserting call, before it inserts anything and in the
 * inserting thread, so it should be cheap and must not block or touch the handoff. If it throws,
 * the exception propagates from the inserting call and nothing is inserted; if it returns a class
 * outside {@code [0, K)}, the inserting call throws {@link IllegalArgumentException} and nothing is
 * inserted.
 *
 * @param <E> the type of elements classified
 */
@FunctionalInterface
public interface Classifier<E> {

    /**
     * Returns the importance class of an element.
     *
     * @param element the element being inserted, never {@code null}
     * @return its class, in {@code [0, K)} for a handoff of {@code K} classes
     */
    int classOf(E element);

    /**
     * Returns the default classifier for {@code classes} classes: an element that implements
     * {@link Importance} is of the class it names; every other element is of class
     * {@code classes - 1}, the least important.
     *
     * @param classes the number of classes, {@code K >= 1}
     * @return {@code e -> e instanceof Importance i ? i.importanceClass() : classes - 1}
     * @throws IllegalArgumentException if {@code classes < 1}
     */
    static Classifier<Object> byImportance(int classes) {
        if (classes < 1) {
            throw new IllegalArgumentException("importance classes must be >= 1, was " + classes);
        }
        return new ByImportance(classes - 1);
    }
}
