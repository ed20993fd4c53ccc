/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.ImportanceClasses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.handoff.ClassedHandoffTest.Job;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Any sequence of single-threaded calls on a handoff with importance classes behaves as a model of
 * {@code K} bounded classes and the take rule of {@link ImportanceClasses} says: which class each
 * take and drain serves, exactly (and, for a FIFO kind, which element), capacity per class, size
 * and room, the views, and close (offer refused with {@code false}, put with
 * {@link HandoffClosedException}, every class still taken). The per-class form of the contract
 * suite's sequential-model property, which {@link ClassedContractTest} skips.
 */
class ClassedHandoffProperties {

    @Provide
    Arbitrary<String> kinds() {
        return Arbitraries.of("circular", "lock-split", "pht");
    }

    /**
     * Each call is one number in [0, 100): below 40 an offer (of class call % K), then poll, the
     * timed poll, drainTo, remove(Object), put, take, clear, and close.
     */
    @Property(tries = 500)
    void behavesAsItsModel(@ForAll("kinds") String kind, @ForAll @IntRange(min = 2, max = 4) int classes,
            @ForAll @IntRange(min = 1, max = 3) int fair, @ForAll @IntRange(min = 1, max = 3) int capacity,
            @ForAll @Size(max = 80) List<@IntRange(min = 0, max = 99) Integer> calls) throws InterruptedException {
        Handoff<Job> h = Handoffs.create(kind + ":" + capacity + ",classes=" + classes + ",fair=" + fair);
        Model model = new Model(classes, fair, capacity, !kind.equals("pht"));
        int nextId = 0;
        for (int call : calls) {
            if (call < 40) {
                Job j = new Job(call % classes, nextId++);
                boolean expected = model.fits(j);
                assertEquals(expected, h.offer(j), "offer " + j);
                if (expected) {
                    model.add(j);
                }
            } else if (call < 55) {
                Job taken = h.poll();
                if (model.size() == 0) {
                    assertNull(taken, "poll() of an empty handoff");
                } else {
                    model.taken(List.of(taken), 1);
                }
            } else if (call < 60) {
                Job taken = h.poll(0, TimeUnit.NANOSECONDS);
                if (model.size() == 0) {
                    assertNull(taken, "poll(0) of an empty handoff");
                } else {
                    model.taken(List.of(taken), 1);
                }
            } else if (call < 70) {
                int max = call - 62; // -2 .. 7
                List<Job> sink = new ArrayList<>();
                int moved = h.drainTo(sink, max);
                assertEquals(Math.max(0, Math.min(max, model.size())), moved, "drainTo(" + max + ")");
                assertEquals(moved, sink.size());
                if (moved > 0) {
                    model.taken(sink, max);
                }
            } else if (call < 78) {
                Job target = model.any(call);
                if (target != null) {
                    assertTrue(h.remove(target), "remove " + target);
                    model.remove(target);
                }
                assertFalse(h.remove(new Job(0, -1)), "remove of an element never inserted");
            } else if (call < 88) {
                Job j = new Job(call % classes, nextId++);
                if (model.closed) {
                    assertThrows(HandoffClosedException.class, () -> h.put(j), "put after close");
                } else if (model.fits(j)) {
                    h.put(j); // does not block: its class has room
                    model.add(j);
                }
            } else if (call < 94) {
                if (model.size() > 0) {
                    model.taken(List.of(h.take()), 1);
                } else if (model.closed) {
                    assertThrows(HandoffClosedException.class, h::take, "take() when closed and empty");
                }
            } else if (call < 96) {
                h.clear();
                model.cleared();
            } else {
                h.close();
                model.closed = true;
            }
            model.matches(h);
        }
    }

    /** K bounded classes, the take counter, closed. */
    private static final class Model {
        private final ArrayDeque<Job>[] classes;
        private final ImportanceClasses<Job> rule;
        private final int capacity;
        private final boolean fifo;
        private long takes;
        boolean closed;

        @SuppressWarnings("unchecked")
        Model(int k, int fair, int capacity, boolean fifo) {
            this.classes = (ArrayDeque<Job>[]) new ArrayDeque<?>[k];
            for (int c = 0; c < k; c++) {
                classes[c] = new ArrayDeque<>();
            }
            this.rule = new ImportanceClasses<>(k, fair, Job::importanceClass);
            this.capacity = capacity;
            this.fifo = fifo;
        }

        boolean fits(Job j) {
            return !closed && classes[j.importanceClass()].size() < capacity;
        }

        void add(Job j) {
            classes[j.importanceClass()].addLast(j);
        }

        int size() {
            return Arrays.stream(classes).mapToInt(ArrayDeque::size).sum();
        }

        /** An element inside chosen by seed, or null when empty. */
        Job any(int seed) {
            List<Job> all = new ArrayList<>();
            for (ArrayDeque<Job> c : classes) {
                all.addAll(c);
            }
            return all.isEmpty() ? null : all.get(seed % all.size());
        }

        void remove(Job j) {
            assertTrue(classes[j.importanceClass()].remove(j));
        }

        /**
         * Checks what one take (max 1) or one drain of at most max took: a take serves the class
         * its number gives; a drain moves whole classes in the order that number gives. For a
         * FIFO kind each element is its class's head; otherwise any element of that class.
         */
        void taken(List<Job> got, int max) {
            int first = rule.firstToServe(takes++);
            List<Job> expectedClasses = new ArrayList<>();
            int c = first;
            int left = max;
            do {
                for (int i = 0; i < classes[c].size() && left > 0; i++, left--) {
                    expectedClasses.add(new Job(c, 0));
                }
                c = rule.next(c);
            } while (c != first && left > 0);
            List<Integer> want = expectedClasses.stream().map(Job::importanceClass).toList();
            assertEquals(want, got.stream().map(Job::importanceClass).toList(),
                    "classes served by take number " + (takes - 1));
            for (Job j : got) {
                ArrayDeque<Job> own = classes[j.importanceClass()];
                if (fifo) {
                    assertEquals(own.peekFirst(), j, "FIFO within class " + j.importanceClass());
                }
                assertTrue(own.remove(j), j + " was inside");
            }
        }

        void cleared() {
            takes += size(); // clear() is a poll per element
            for (ArrayDeque<Job> c : classes) {
                c.clear();
            }
        }

        void matches(Handoff<Job> h) {
            int size = size();
            assertEquals(size, h.size(), "size()");
            assertEquals(size == 0, h.isEmpty(), "isEmpty()");
            assertEquals(closed, h.isClosed(), "isClosed()");
            assertEquals(classes.length * capacity, h.capacity(), "capacity()");
            assertEquals(classes.length * capacity - size, h.remainingCapacity(), "remainingCapacity()");
            List<Job> inOrder = new ArrayList<>();
            for (ArrayDeque<Job> c : classes) {
                inOrder.addAll(c);
            }
            List<Job> listed = Arrays.stream(h.toArray()).map(Job.class::cast).toList();
            if (fifo) {
                assertEquals(inOrder, listed, "toArray(): the classes in turn, each FIFO");
            } else {
                assertEquals(inOrder.stream().map(Job::importanceClass).toList(),
                        listed.stream().map(Job::importanceClass).toList(), "toArray(): the classes in turn");
                assertEquals(new HashSet<>(inOrder), new HashSet<>(listed), "toArray(): every element");
            }
            Job head = null;
            for (ArrayDeque<Job> c : classes) {
                if (!c.isEmpty()) {
                    head = c.peekFirst();
                    break;
                }
            }
            Job peeked = h.peek();
            if (head == null) {
                assertNull(peeked, "peek() of an empty handoff");
            } else if (fifo) {
                assertEquals(head, peeked, "peek(): the head of the most important non-empty class");
            } else {
                assertEquals(head.importanceClass(), peeked.importanceClass(), "peek(): the most important class");
            }
        }
    }
}
