/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.classes;

import dev.handoff.Classifier;

import java.util.Objects;

/**
 * The importance classes of one handoff: how many there are ({@code K}), how often a take is a
 * fair one ({@code N}), the classifier, and the rule that says which class a take serves. Shared
 * by the buffered kinds' importance classes (which class a consumer takes from, ClassHandoffs)
 * and the pipe (which class of waiting producers a worker wakes). Immutable.
 */
public final class ImportanceClasses<E> {
    /*
     * The rule is stated in Importance: take n (one counter for all consumers) is fair when
     * n % N == N - 1 and then looks at the classes from class (n / N) % K round; every other take
     * looks from class 0. firstToServe and next compute it.
     *
     * The bound. Any K*N consecutive numbers hold exactly K fair ones, and their values of n / N are
     * K consecutive integers, so their starting classes are all K classes, each once. A fair take
     * that starts at class c serves c if c is non-empty when it looks. Hence: a class that is
     * non-empty whenever a take looks at it is served at least once in every K*N consecutive takes,
     * and, for a FIFO kind, the element at position p of its class (0 = the head) leaves within
     * (p + 1)*K*N takes. A cursor moved past the class served would give the same bound; the
     * rule keeps no state beyond the counter so that concurrent fair takes need not agree on one.
     */

    /** The most classes a handoff accepts. */
    public static final int MAX_CLASSES = 64;

    /** Every how many takes one is fair when {@code fair=} is not given. */
    public static final int DEFAULT_FAIR = 16;

    private final int count;
    private final int fair;
    private final Classifier<? super E> classifier;

    /**
     * @param count K, the number of classes, in {@code [1, MAX_CLASSES]}
     * @param fair N, every N-th take is a fair one, {@code >= 1}
     * @param classifier the class of each element
     * @throws IllegalArgumentException if count or fair is out of range
     * @throws NullPointerException if classifier is null
     */
    public ImportanceClasses(int count, int fair, Classifier<? super E> classifier) {
        if (count < 1 || count > MAX_CLASSES) {
            throw new IllegalArgumentException("classes must be in [1, " + MAX_CLASSES + "], was " + count);
        }
        if (fair < 1) {
            throw new IllegalArgumentException("fair must be >= 1, was " + fair);
        }
        this.count = count;
        this.fair = fair;
        this.classifier = Objects.requireNonNull(classifier, "classifier");
    }

    /** K, the number of classes. */
    public int count() {
        return count;
    }

    /** N: every N-th take is a fair one. */
    public int fair() {
        return fair;
    }

    /** The classifier, as given; a handoff's serialized form keeps it. */
    public Classifier<? super E> classifier() {
        return classifier;
    }

    /**
     * Returns the class of an element, checked: the classifier's exceptions propagate.
     *
     * @throws NullPointerException if e is null (before the classifier sees it)
     * @throws IllegalArgumentException if the classifier returns a class outside [0, K)
     */
    public int classOf(E e) {
        int c = classifier.classOf(Objects.requireNonNull(e, "a handoff does not accept null elements"));
        if (c < 0 || c >= count) {
            throw new IllegalArgumentException("the classifier put an element of " + e.getClass().getName()
                    + " into class " + c + "; this handoff has classes 0 to " + (count - 1));
        }
        return c;
    }

    /**
     * The class that take number n looks at first (see the notes): {@code (n / N) % K} for a fair
     * take, 0 for every other.
     */
    public int firstToServe(long n) {
        return n % fair == fair - 1 ? (int) ((n / fair) % count) : 0;
    }

    /** The class after c, going round: 0 after K - 1. */
    public int next(int c) {
        return c == count - 1 ? 0 : c + 1;
    }

    @Override
    public String toString() {
        return "classes=" + count + ",fair=" + fair;
    }
}
