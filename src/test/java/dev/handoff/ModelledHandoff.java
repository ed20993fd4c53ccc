/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.ActionChainArbitrary;
import net.jqwik.api.state.Transformer;

/**
 * The state of the stateful property in {@link HandoffContractTest}: a handoff, its
 * {@link SequentialModel}, and whether it was closed. Every action calls one method on the handoff
 * from one thread, checks the result against the model, and updates the model;
 * {@link #matchesModel()} then compares everything observable.
 *
 * <p>Actions that would block (put on a full handoff, take on an empty open one) are never
 * chosen: their precondition excludes them. An unbuffered handoff (a pipe) is modelled with
 * capacity 0: with no consumer waiting it accepts nothing, so offer fails and poll finds nothing,
 * while close and its exceptions still behave as for every kind.
 */
final class ModelledHandoff {

    /** Small values, so that duplicates (legal in a queue) are common. */
    private static final Arbitrary<Integer> ELEMENTS = Arbitraries.integers().between(0, 5);

    private final Handoff<Integer> handoff;
    private final SequentialModel model;
    private final int capacity;
    private final boolean buffered;
    /** How many elements the model accepts: the capacity, or 0 for an unbuffered kind. */
    private final int modelCapacity;
    private boolean closed;

    ModelledHandoff(Handoff<Integer> handoff, int capacity, boolean buffered) {
        this.handoff = handoff;
        this.model = SequentialModel.of(handoff.ordering());
        this.capacity = capacity;
        this.buffered = buffered;
        this.modelCapacity = buffered ? capacity : 0;
    }

    /** Chains of calls on fresh handoffs made by {@code start}. */
    static ActionChainArbitrary<ModelledHandoff> chains(Supplier<ModelledHandoff> start) {
        return ActionChain.<ModelledHandoff>startWith(start)
                .withAction(4, withElement("offer", ModelledHandoff::offer, s -> true))
                .withAction(2, withElement("add", ModelledHandoff::add, s -> true))
                .withAction(2, withElement("put", ModelledHandoff::put, s -> s.closed || !s.full()))
                .withAction(2, withElement("offer0ns", ModelledHandoff::offerNoWait, s -> true))
                .withAction(4, plain("poll()", ModelledHandoff::poll, s -> true))
                .withAction(2, plain("take()", ModelledHandoff::take, s -> s.closed || !s.empty()))
                .withAction(2, plain("poll(0, ns)", ModelledHandoff::pollNoWait, s -> true))
                .withAction(1, plain("peek()", ModelledHandoff::peek, s -> true))
                .withAction(2, drainTo())
                .withAction(1, withElement("remove", ModelledHandoff::remove, s -> true))
                .withAction(1, withElement("removeIfEqual", ModelledHandoff::removeIfEqual, s -> true))
                .withAction(1, withElement("contains", ModelledHandoff::contains, s -> true))
                .withAction(1, plain("clear()", ModelledHandoff::clear, s -> true))
                .withAction(1, plain("close()", ModelledHandoff::close, s -> true))
                .withMaxTransformations(40);
    }

    // ---- the actions ----

    void offer(int e) {
        if (closed) {
            assertFalse(handoff.offer(e), "offer after close");
            return;
        }
        boolean expected = !full();
        assertEquals(expected, handoff.offer(e), "offer() accepts exactly when there is room");
        if (expected) {
            model.add(e);
        }
    }

    void add(int e) {
        if (closed) {
            assertThrows(HandoffClosedException.class, () -> handoff.add(e), "add after close");
            return;
        }
        if (full()) {
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> handoff.add(e),
                    "add to a full handoff");
            assertFalse(thrown instanceof HandoffClosedException, "a full handoff is not a closed one");
            return;
        }
        assertTrue(handoff.add(e));
        model.add(e);
    }

    void put(int e) throws InterruptedException {
        if (closed) {
            assertThrows(HandoffClosedException.class, () -> handoff.put(e), "put after close");
            return;
        }
        handoff.put(e); // precondition: not full, so it does not block
        model.add(e);
    }

    void offerNoWait(int e) throws InterruptedException {
        if (closed) {
            assertFalse(handoff.offer(e, 0, TimeUnit.NANOSECONDS), "timed offer after close");
            return;
        }
        boolean expected = !full();
        assertEquals(expected, handoff.offer(e, 0, TimeUnit.NANOSECONDS), "offer(e, 0) accepts exactly when there is room");
        if (expected) {
            model.add(e);
        }
    }

    void poll() {
        Integer taken = handoff.poll();
        if (empty()) {
            assertNull(taken, "poll() of an empty handoff");
        } else {
            model.taken(taken);
        }
    }

    void take() throws InterruptedException {
        if (empty()) { // and closed: the precondition
            assertThrows(HandoffClosedException.class, handoff::take, "take() when closed and empty");
        } else {
            model.taken(handoff.take());
        }
    }

    void pollNoWait() throws InterruptedException {
        Integer taken = handoff.poll(0, TimeUnit.NANOSECONDS);
        if (empty()) {
            assertNull(taken, "poll(0) of an empty handoff");
        } else {
            model.taken(taken);
        }
    }

    void peek() {
        model.peeked(handoff.peek());
    }

    void drainTo(int maxElements) {
        List<Integer> sink = new ArrayList<>();
        int moved = maxElements == Integer.MAX_VALUE ? handoff.drainTo(sink) : handoff.drainTo(sink, maxElements);
        assertEquals(Math.max(0, Math.min(maxElements, model.size())), moved, "drainTo count");
        assertEquals(moved, sink.size(), "drainTo moved as many as it says");
        for (Integer e : sink) {
            model.taken(e);
        }
    }

    void remove(int e) {
        assertEquals(model.remove(e), handoff.remove(e), "remove(" + e + ")");
    }

    void removeIfEqual(int e) {
        boolean inModel = false;
        while (model.remove(e)) {
            inModel = true;
        }
        assertEquals(inModel, handoff.removeIf(x -> x == e), "removeIf(equal to " + e + ")");
    }

    void contains(int e) {
        assertEquals(model.contains(e), handoff.contains(e), "contains(" + e + ")");
    }

    void clear() {
        handoff.clear();
        model.clear();
    }

    void close() {
        handoff.close();
        closed = true;
    }

    // ---- the invariant checked after every action ----

    /** Everything observable agrees with the model. */
    void matchesModel() {
        assertEquals(model.size(), handoff.size(), "size()");
        assertEquals(model.size() == 0, handoff.isEmpty(), "isEmpty()");
        assertEquals(closed, handoff.isClosed(), "isClosed()");
        assertEquals(capacity, handoff.capacity(), "capacity()");
        if (buffered) {
            assertEquals(capacity - model.size(), handoff.remainingCapacity(), "remainingCapacity()");
        }
        model.sameElements(handoff.toArray());
        model.sameElements(handoff.toArray(new Integer[0]));
        List<Integer> iterated = new ArrayList<>();
        handoff.iterator().forEachRemaining(iterated::add);
        model.sameElements(iterated.toArray());
        if (model.size() == 0) {
            assertEquals("[]", handoff.toString(), "toString() of an empty handoff");
        }
    }

    private boolean full() {
        return model.size() == modelCapacity;
    }

    private boolean empty() {
        return model.size() == 0;
    }

    @Override
    public String toString() {
        return handoff.getClass().getSimpleName() + "(capacity " + capacity + (closed ? ", closed" : "")
                + ") vs " + model;
    }

    // ---- building actions ----

    @FunctionalInterface
    private interface Step {
        void apply(ModelledHandoff state) throws Exception;
    }

    @FunctionalInterface
    private interface ElementStep {
        void apply(ModelledHandoff state, int e) throws Exception;
    }

    private static void run(Step step, ModelledHandoff state) {
        try {
            step.apply(state);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("unexpected " + e, e);
        }
    }

    /** An action without argument, described by name. */
    private static Action.Independent<ModelledHandoff> plain(String name, Step step,
            Predicate<ModelledHandoff> when) {
        return Action.<ModelledHandoff>when(when).describeAs(name).justMutate(s -> run(step, s));
    }

    /** An action on one element drawn from {@link #ELEMENTS}, described with it. */
    private static Action.Independent<ModelledHandoff> withElement(String name, ElementStep step,
            Predicate<ModelledHandoff> when) {
        return new Action.Independent<>() {
            @Override
            public boolean precondition(ModelledHandoff state) {
                return when.test(state);
            }

            @Override
            public Arbitrary<Transformer<ModelledHandoff>> transformer() {
                return ELEMENTS.map(e -> Transformer.mutate(name + "(" + e + ")", s -> run(t -> step.apply(t, e), s)));
            }
        };
    }

    /** drainTo with a limit of -1, 0, 1, 2 or none (the one-argument drainTo). */
    private static Action.Independent<ModelledHandoff> drainTo() {
        return () -> Arbitraries.of(-1, 0, 1, 2, Integer.MAX_VALUE).map(n -> Transformer.mutate(
                n == Integer.MAX_VALUE ? "drainTo(c)" : "drainTo(c, " + n + ")", s -> s.drainTo(n)));
    }
}
