/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static dev.handoff.ContractSupport.DEADLINE_SECONDS;
import static dev.handoff.ContractSupport.ELEMENTS;
import static dev.handoff.ContractSupport.SMALL;
import static dev.handoff.ContractSupport.assertEachTakenOnce;
import static dev.handoff.ContractSupport.awaitBlocked;
import static dev.handoff.ContractSupport.fill;
import static dev.handoff.ContractSupport.startChurn;
import static java.util.concurrent.TimeUnit.SECONDS;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.state.ActionChain;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of {@link Handoff}, run against one kind. Every kind of handoff runs all of it.
 *
 * <h2>How a new handoff joins</h2>
 * Add one subclass in this package, named {@code <Kind>ContractTest} (surefire runs
 * {@code *Test}), that says how to build the kind:
 * <pre>{@code
 * class PipeHandoffContractTest extends HandoffContractTest {
 *     @Override
 *     protected <E> Handoff<E> newHandoff(int capacity) {
 *         return new PipeHandoff<>(capacity);
 *     }
 *
 *     @Override
 *     protected String kind() {          // its name in Handoffs.create; omit if it has none
 *         return "pipe";
 *     }
 *
 *     @Override
 *     protected boolean buffered() {     // only for a kind that holds no elements (see below)
 *         return false;
 *     }
 * }
 * }</pre>
 * Nothing else: the subclass inherits every JUnit test, the guava conformance suite (a
 * {@code @TestFactory}) and the jqwik property (jqwik runs {@code @Property} methods inherited
 * from an abstract class once per concrete subclass).
 *
 * <h2>The contract, by capability</h2>
 * The tests are default methods of one interface per capability, each over
 * {@link ContractSubject} (how to build the kind, and whether it holds elements):
 * {@link SequentialContract} (conformance, nulls, drainTo, timeouts, iterators),
 * {@link CapacityContract}, {@link BlockingContract} (interrupts, no lost wake-ups),
 * {@link ClosingContract}, {@link BulkRemovalContract}, {@link FactoryContract} (factory
 * name, counters), {@link StressContract} (exactly once, interrupt storm, close under load),
 * {@link ThreadPoolContract}, {@link BatchTakeContract} (the batch takes) and
 * {@link SerializationContract}. This class implements them all; a test that needs only some
 * capabilities may implement those interfaces directly. The shared sizes and helpers are in
 * {@link ContractSupport}.
 *
 * <h2>Capabilities</h2>
 * <ul>
 *   <li>Ordering comes from the handoff itself, {@link Handoff#ordering()}: for an
 *       {@link Handoff.Ordering#UNORDERED} kind the guava suite drops
 *       {@code CollectionFeature.KNOWN_ORDER}, the stateful property uses a multiset model instead of
 *       an {@link java.util.ArrayDeque}, and the concurrent tests skip their per-producer order
 *       check.</li>
 *   <li>{@link #buffered()} is {@code true} by default. A kind that holds nothing (a
 *       {@code SynchronousQueue}-like pipe: {@code size()} is always 0 and {@code offer} succeeds only
 *       when a consumer waits) overrides it to return {@code false}. Each test that needs elements
 *       to sit inside starts with {@code assumeTrue(buffered(), ...)} and is then reported as
 *       skipped, not passed: the guava suite, {@code size() + remainingCapacity() == capacity()},
 *       drainTo moving elements, close keeping elements for consumers, producers woken by room,
 *       the bulk removals, the counters. Tests that only need a call not to block (null, interrupt and timeout tests)
 *       prepare the handoff so when buffered and otherwise call it on the empty handoff, where
 *       the contract is the same. The stateful property models an unbuffered kind as one of
 *       capacity 0. Every concurrent test runs for every kind.</li>
 *   <li>{@link #kind()} names the kind in {@link Handoffs#create(String)}; the factory and
 *       statistics tests are skipped when it is {@code null}.</li>
 * </ul>
 *
 * <p>If a kind's own issue defines one inherited test's subject differently, the subclass
 * overrides that test method, {@code public} (it is an interface method) and annotated
 * {@code @Test}, with {@code assumeTrue(false, "why")}, so that it is reported as skipped with the
 * reason (an override without {@code @Test} would silently drop it).
 *
 * <h2>Bounds</h2>
 * Each test has a {@link Timeout}; every concurrent test also waits for its threads with a
 * deadline, raises a stop flag and interrupts what is left, so a bug fails the build instead of
 * hanging it. Concurrent tests assert behaviour (exactly once, nothing lost, nobody hangs), never
 * speed. The sizes in {@link ContractSupport} keep one subclass well under a minute on two busy cores.
 */
@Timeout(value = 60, unit = SECONDS)
abstract class HandoffContractTest implements SequentialContract, CapacityContract, BlockingContract,
        ClosingContract, BulkRemovalContract, FactoryContract, StressContract, ThreadPoolContract,
        BatchTakeContract, SerializationContract {

    /**
     * Creates a new, empty, open handoff of the kind under test.
     *
     * @param capacity the capacity asked for; a buffered kind must hold exactly this many
     * @param <E> the element type
     * @return the handoff
     * @throws IllegalArgumentException if {@code capacity <= 0}
     */
    protected abstract <E> Handoff<E> newHandoff(int capacity);

    /**
     * Returns the name of this kind in {@link Handoffs#create(String)}, or {@code null} if the
     * factory does not build it.
     */
    protected String kind() {
        return null;
    }

    /**
     * Returns whether elements can sit inside the handoff with nobody waiting for them; see
     * "Capabilities" in the class comment.
     */
    protected boolean buffered() {
        return true;
    }

    /**
     * The one-class suite's name for {@link #handoffOf}: with the static imports of
     * {@link ContractSupport}, a test written against that suite still compiles in this class.
     * New tests belong in the capability interface they check.
     */
    Handoff<Integer> handoff(int capacity) {
        return newHandoff(capacity);
    }

    @Override
    public final <E> Handoff<E> handoffOf(int capacity) {
        return newHandoff(capacity);
    }

    @Override
    public final boolean holdsElements() {
        return buffered();
    }

    @Override
    public final String factoryName() {
        return kind();
    }

    // =====================================================================================
    // The sequential model: jqwik stateful property. It stays in this class, not in an
    // interface, because the chain's capacity passes from the property to its @Provide
    // method through a field.
    // =====================================================================================

    /** The capacity of the handoff that the next chain of {@link #behavesAsItsSequentialModel} starts with. */
    private int chainCapacity;

    /**
     * Any sequence of single-threaded calls, close included, behaves as the sequential model
     * (FIFO: an ArrayDeque; unordered: a multiset) says. See {@link ModelledHandoff}.
     */
    @Property(tries = 1000)
    void behavesAsItsSequentialModel(@ForAll @IntRange(min = 1, max = 5) int capacity,
            @ForAll("modelledHandoffs") ActionChain<ModelledHandoff> chain) {
        chainCapacity = capacity; // read by the chain's start, when run() begins
        chain.withInvariant("handoff matches model", ModelledHandoff::matchesModel).run();
    }

    @Provide
    Arbitrary<ActionChain<ModelledHandoff>> modelledHandoffs() {
        return ModelledHandoff.chains(() -> new ModelledHandoff(newHandoff(chainCapacity), chainCapacity, buffered()));
    }
}
