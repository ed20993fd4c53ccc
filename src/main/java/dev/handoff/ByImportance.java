/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.io.Serializable;

/**
 * The default classifier, {@link Classifier#byImportance(int)}: an element that implements
 * {@link Importance} is of the class it names, every other of {@code leastImportant}. A record, so
 * that a handoff's serialized form can tell the default of its K classes (which the spec string
 * rebuilds) from a custom classifier (which the form must carry), and serializable, so that a
 * default of another K given as a custom classifier can be carried.
 *
 * @param leastImportant K - 1, the class of an element that does not name its own
 */
record ByImportance(int leastImportant) implements Classifier<Object>, Serializable {

    @Override
    public int classOf(Object e) {
        return e instanceof Importance i ? i.importanceClass() : leastImportant;
    }

    /** Whether c is the default classifier of a handoff of {@code classes} classes. */
    static boolean isDefault(Classifier<?> c, int classes) {
        return c instanceof ByImportance b && b.leastImportant == classes - 1;
    }
}
