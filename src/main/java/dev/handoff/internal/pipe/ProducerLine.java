/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pipe;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;

import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongToIntFunction;

/**
 * The producers of a pipe that found no waiting worker, each in a node holding its element, in
 * one line per importance class: the other half of the pipe's dual structure (see the package
 * notes). A worker that arrives while a line is not empty takes the first node of the class the
 * serving order picks (the only line without classes) and its element, and wakes that producer;
 * a producer that gives up (timeout, interrupt, close) takes its node out again. Whoever removes
 * a node under the lock owns it, so a node is taken or cancelled exactly once.
 */
public final class ProducerLine {
    /*
     * A producer in line waits for its node's taken flag: a Dekker pair of its own, between the
     * producer (volatile write of parked, then volatile read of taken) and the worker that took
     * the node (volatile write of taken, then volatile read of parked), so either the producer
     * sees taken or the worker sees it parked and unparks it. Its element is published by the
     * lock: added under it, taken under it.
     *
     * Producers in line spin one at a time (putSpinner), so that a worker arriving at take()
     * finds one of them awake; the others park at once.
     */

    /** A producer waiting in a line with its element. */
    static final class Node {
        /** The element; never null. Written before the node enters a line, under the lock. */
        final Object item;
        /** Set once, by the worker that took the node; read by the waiting producer. */
        volatile boolean taken;
        /** The producer once it is about to park, else null; Dekker pair with taken (see take()). */
        volatile Thread parked;

        Node(Object item) {
            this.item = item;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();

    /** One line per class, most important first; one line without classes. Guarded by lock. */
    private final ArrayDeque<Node>[] lines;

    /**
     * The class a worker serves first, given how many nodes were taken before: the importance
     * classes' rule (Importance), or null without classes.
     */
    private final LongToIntFunction firstToServe;

    /** Nodes taken so far, numbered for the serving order. Guarded by lock. */
    private long served;

    /**
     * The number of nodes in all lines. Written under lock, read without it: a worker reads it
     * after its CAS BUSY -> WAITING (the Dekker pair with add(), see the package notes).
     */
    private volatile int size;

    /** The workers to wake when a producer joins (the package notes, "No lost wake-up"). */
    private final WorkerSlots slots;

    /** The producers' side spin: one producer in line, or before joining it, at a time. */
    private final Spinner putSpinner;

    private final Counters counters;

    /** Whether the pipe is closed: a volatile read. */
    private final BooleanSupplier closed;

    /** The pipe: the blocker of a parked producer, named in its JFR event. */
    private final Object owner;

    /**
     * @param classes the number of importance classes, one line each ({@code 1} without them)
     * @param firstToServe given the number of nodes taken before, the class a worker looks at
     *        first (it then goes round the classes in order); null with one class
     * @param slots the worker slots, whose waiting workers a joining producer wakes
     * @param putSpinner the producers' side spin policy
     * @param counters the pipe's counters
     * @param closed whether the pipe is closed, read with a volatile (or stronger) access
     * @param owner the pipe, the blocker of parked producers
     */
    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type: created raw, used typed
    public ProducerLine(int classes, LongToIntFunction firstToServe, WorkerSlots slots, Spinner putSpinner,
            Counters counters, BooleanSupplier closed, Object owner) {
        this.lines = new ArrayDeque[classes];
        for (int c = 0; c < classes; c++) {
            lines[c] = new ArrayDeque<>();
        }
        this.firstToServe = classes == 1 ? null : firstToServe;
        this.slots = slots;
        this.putSpinner = putSpinner;
        this.counters = counters;
        this.closed = closed;
        this.owner = owner;
    }

    /** Whether no producer waits; a volatile read, for the Dekker pairs. */
    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * The slow path of put and the timed offer: waits in the line of class c until a worker
     * takes e, the timeout passes, or the pipe closes.
     *
     * @return whether e was taken: false when the pipe closed first, or when timed and the time
     *         ran out; the element then stays with the caller, and the pipe raises the contract's
     *         exception for a put
     */
    public boolean await(Object e, int c, boolean timed, long nanos) throws InterruptedException {
        Node node = new Node(e);
        add(node, c);
        // After the volatile write of size: the Dekker pair with a worker that became WAITING
        // before it could see our node (the package notes, "No lost wake-up").
        slots.unparkWaiting();
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        spinUntilTaken(node);
        node.parked = Thread.currentThread(); // volatile: pairs with the read in take()
        for (;;) {
            if (node.taken) {
                counters.countInsert();
                return true;
            }
            if (closed.getAsBoolean()) {
                return leave(node, c, GiveUp.CLOSED);
            }
            if (Thread.interrupted()) {
                return leave(node, c, GiveUp.INTERRUPTED);
            }
            if (timed) {
                nanos = deadline - System.nanoTime();
                if (nanos <= 0L) {
                    return leave(node, c, GiveUp.TIMED_OUT);
                }
                counters.producerWait();
                Parking.PUT.parkNanos(owner, nanos);
            } else {
                counters.producerWait();
                Parking.PUT.park(owner);
            }
        }
    }

    /**
     * The wait before parking, until the node is taken (see the notes). A close during the spin
     * is seen by the loop after it, within a spin's rounds.
     */
    private void spinUntilTaken(Node node) {
        putSpinner.spinUntil(node, 0L, (n, unused) -> n.taken);
    }

    /**
     * Ends a producer's wait without its node taken: either it takes the node out of the line and
     * keeps its element, or a worker has taken the node already and the element is delivered (an
     * interrupt is then kept, not thrown).
     */
    private boolean leave(Node node, int c, GiveUp reason) throws InterruptedException {
        if (cancel(node, c)) {
            if (reason == GiveUp.INTERRUPTED) {
                throw new InterruptedException();
            }
            return false; // closed or timed out: the element stays with the caller
        }
        if (reason == GiveUp.INTERRUPTED) {
            Thread.currentThread().interrupt();
        }
        counters.countInsert();
        return true;
    }

    /** Puts a producer's node at the end of the line of class c. */
    private void add(Node node, int c) {
        lock.lock();
        try {
            lines[c].addLast(node);
            size++; // volatile write: the first half of the Dekker pair with a worker becoming WAITING
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes the node a worker should serve now, marks it taken and wakes its producer.
     *
     * @return the element of that node, or null if no producer waits
     */
    public Object take() {
        if (size == 0) {
            return null;
        }
        Node node;
        lock.lock();
        try {
            node = pollNext();
            if (node == null) {
                return null;
            }
            size--;
        } finally {
            lock.unlock();
        }
        // Volatile write, then volatile read of parked: the producer writes parked and then
        // reads taken before it parks, so either it sees taken or we see it and unpark it.
        node.taken = true;
        Thread producer = node.parked;
        if (producer != null) {
            LockSupport.unpark(producer);
        }
        return node.item;
    }

    /** The first node of the class to serve now; call only holding lock. */
    private Node pollNext() {
        if (firstToServe == null) {
            return lines[0].pollFirst();
        }
        int first = firstToServe.applyAsInt(served);
        int c = first;
        do {
            Node node = lines[c].pollFirst();
            if (node != null) {
                served++;
                return node;
            }
            c = c == lines.length - 1 ? 0 : c + 1;
        } while (c != first);
        return null;
    }

    /**
     * Takes a giving-up producer's node out of its line.
     *
     * @return true if removed (nobody has the element); false if a worker took it already
     */
    private boolean cancel(Node node, int c) {
        lock.lock();
        try {
            if (lines[c].removeFirstOccurrence(node)) {
                size--;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Unparks every waiting producer; called by close after it wrote closed. */
    public void wakeAll() {
        lock.lock();
        try {
            for (ArrayDeque<Node> line : lines) {
                for (Node node : line) {
                    LockSupport.unpark(node.parked);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** For tests: the producers of class c waiting in its line. */
    public int waitingInClass(int c) {
        lock.lock();
        try {
            return lines[c].size();
        } finally {
            lock.unlock();
        }
    }
}
