/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;


import static org.junit.jupiter.api.Assumptions.assumeTrue;

import net.jqwik.api.Disabled;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.state.ActionChain;
import org.junit.jupiter.api.Test;

/**
 * The whole {@link HandoffContractTest} on a buffered kind with importance classes
 * ({@link ClassedHandoff}): {@value #CLASSES} classes, a fair take every {@value #FAIR}, and a
 * classifier that spreads the tests' elements over the classes by hash code (the Integers 0, 1, 2,
 * ... go round the classes), so that every concurrent test moves elements of every class and
 * half the takes are fair ones. One subclass per kind.
 *
 * <p>Capabilities: the ordering is {@code UNORDERED}, so the FIFO checks are off. {@link #kind()}
 * is null: a classed spec is {@code kind:capacity,classes=K}, which the factory tests cannot
 * spell; {@link ClassedHandoffTest} tests the factory and the counters.
 *
 * <p>Skipped, each with its reason, and checked in their per-class form by
 * {@link ClassedHandoffTest} and {@link ClassedHandoffProperties}:
 * <ul>
 *   <li>the tests that take {@code capacity()} to be the capacity asked for: here it is
 *       {@value #CLASSES} times that, since the capacity is per class.</li>
 * </ul>
 */
abstract class ClassedContractTest extends HandoffContractTest {

    /** K. */
    static final int CLASSES = 3;

    /** N: every second take is fair. */
    static final int FAIR = 2;

    /** Spreads elements over the classes: consecutive Integers go round them. */
    static final Classifier<Object> SPREAD = e -> Math.floorMod(e.hashCode(), CLASSES);

    private static final String PER_CLASS = "capacity is per class: capacity() is K times the capacity asked for"
            + " (ClassedHandoffTest checks the per-class form)";

    /** The spec of one class, of the given capacity. */
    abstract HandoffSpec specOfCapacity(int capacity);

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return specOfCapacity(capacity).withClasses(CLASSES).fair(FAIR).build(SPREAD);
    }

    @Override
    @Test
    public void capacityIsExactlyAsRequested() {
        assumeTrue(false, PER_CLASS);
    }

    @Override
    @Test
    public void sizePlusRemainingCapacityIsCapacityAtEveryStep() {
        assumeTrue(false, PER_CLASS);
    }

    @Override
    @Test
    public void sizeAndRemainingCapacityStayWithinBoundsWhileHammered() {
        assumeTrue(false, PER_CLASS);
    }

    @Override
    @Test
    public void roomMadeByADrainWhoseTargetThrowsWakesABlockedProducer() {
        assumeTrue(false, "the drain makes room in the class it serves first, which need not be the"
                + " blocked producer's; each class's own kind passes this test in its own suite");
    }

    @Override
    @Test
    public void drainToMovesEveryElementOnce() {
        assumeTrue(false, PER_CLASS);
    }

    @Override
    @Test
    public void drainToLosesNothingWhenTheTargetThrows() {
        assumeTrue(false, PER_CLASS);
    }

    @Override
    @Test
    public void bulkRemovalRemovesExactlyWhatItsTestAccepts() {
        assumeTrue(false, PER_CLASS + "; the test refills until remainingCapacity() is 0, but an element"
                + " finds room only in its own class");
    }

    @Override
    @Test
    public void streamsNeverThrowWhileOthersWork() {
        assumeTrue(false, PER_CLASS + "; the test bounds a stream's length by the capacity asked for");
    }

    @Override
    @Property(tries = 1000)
    @Disabled("capacity is per class: ClassedHandoffProperties checks the classed handoff against"
            + " its own model")
    void behavesAsItsSequentialModel(@ForAll @IntRange(min = 1, max = 5) int capacity,
            @ForAll("modelledHandoffs") ActionChain<ModelledHandoff> chain) {
    }
}
