/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.ImportanceClasses;
import dev.handoff.internal.waiting.Spin;
import dev.handoff.internal.waiting.Parking;

import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The producers of a pipe that found no waiting worker, each in a node holding its element, in
 * one line per importance class: the other half of the pipe's dual structure (see PipeHandoff's
 * notes). A worker that arrives while a line is not empty takes the first node of the class
 * {@link ImportanceClasses} picks (the only line without classes) and its element, and wakes that
 * producer; a producer that gives up (timeout, interrupt, close) takes its node out again.
 * Whoever removes a node under the lock owns it, so a node is taken or cancelled exactly once.
 */
final class WaitingProducers {

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

    private final PipeHandoff<?> pipe;

    /** Lets one producer in line spin at a time (see Spin). */
    private final Spin.Gate spinGate = new Spin.Gate();

    /** One line per class, most important first; one line without classes. Guarded by lock. */
    private final ArrayDeque<Node>[] lines;

    /** The importance classes, or null without them (or with one class). */
    private final ImportanceClasses<?> importance;

    /** Nodes taken so far, numbered for the fairness rule of ImportanceClasses. Guarded by lock. */
    private long served;

    /**
     * The number of nodes in all lines. Written under lock, read without it: a worker reads it
     * after its CAS BUSY -> WAITING (Dekker pair with add(), see PipeHandoff's notes).
     */
    private volatile int size;

    @SuppressWarnings("unchecked")
    WaitingProducers(ImportanceClasses<?> importance, PipeHandoff<?> pipe) {
        this.importance = importance;
        this.pipe = pipe;
        this.lines = new ArrayDeque[importance == null ? 1 : importance.count()];
        for (int c = 0; c < lines.length; c++) {
            lines[c] = new ArrayDeque<>();
        }
    }

    /** Whether no producer waits; a volatile read, for the Dekker pairs. */
    boolean isEmpty() {
        return size == 0;
    }

    /**
     * The slow path of put and the timed offer: waits in the line of class c until a worker
     * takes e, the timeout passes, or the pipe closes.
     *
     * @return whether e was taken; false only when timed, and the time ran out or the pipe closed
     * @throws HandoffClosedException if untimed (put) and the pipe closes first
     */
    boolean await(Object e, int c, boolean timed, long nanos) throws InterruptedException {
        Node node = new Node(e);
        add(node, c);
        // After the volatile write of size: the Dekker pair with a worker that became WAITING
        // before it could see our node (PipeHandoff's "No lost wake-up").
        pipe.slots.unparkWaiting();
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        spinUntilTaken(node);
        node.parked = Thread.currentThread(); // volatile: pairs with the read in take()
        for (;;) {
            if (node.taken) {
                pipe.counters.countInsert();
                return true;
            }
            if (pipe.isClosed()) {
                return leave(node, c, timed ? PipeHandoff.GiveUp.TIMED_OUT : PipeHandoff.GiveUp.CLOSED);
            }
            if (Thread.interrupted()) {
                return leave(node, c, PipeHandoff.GiveUp.INTERRUPTED);
            }
            if (timed) {
                nanos = deadline - System.nanoTime();
                if (nanos <= 0L) {
                    return leave(node, c, PipeHandoff.GiveUp.TIMED_OUT);
                }
                pipe.counters.producerWait();
                Parking.PUT.parkNanos(pipe, nanos);
            } else {
                pipe.counters.producerWait();
                Parking.PUT.park(pipe);
            }
        }
    }

    /**
     * The wait before parking, until the node is taken or the pipe closes: all Spin.ROUNDS if no
     * other producer in line spins, else only the yield rounds, as Spin.yieldUntil does. Written
     * out rather than Spin.until(lambda), which would allocate a capturing lambda per wait.
     */
    private void spinUntilTaken(Node node) {
        boolean spinner = spinGate.tryEnter();
        // Not the spinner: the yield rounds only, and none on a virtual thread (see Spin.yieldUntil).
        int round = spinner ? 0 : Thread.currentThread().isVirtual() ? Spin.ROUNDS : Spin.SPINS;
        try {
            for (; round < Spin.ROUNDS && !(node.taken || pipe.isClosed()); round++) {
                Spin.pause(round);
            }
        } finally {
            if (spinner) {
                spinGate.exit();
            }
        }
    }

    /**
     * Ends a producer's wait without its node taken: either it takes the node out of the line and
     * keeps its element, or a worker has taken the node already and the element is delivered (an
     * interrupt is then kept, not thrown).
     */
    private boolean leave(Node node, int c, PipeHandoff.GiveUp reason) throws InterruptedException {
        if (cancel(node, c)) {
            switch (reason) {
                case INTERRUPTED -> throw new InterruptedException();
                case CLOSED -> throw pipe.closedToInserts();
                default -> {
                    return false;
                }
            }
        }
        if (reason == PipeHandoff.GiveUp.INTERRUPTED) {
            Thread.currentThread().interrupt();
        }
        pipe.counters.countInsert();
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
    Object take() {
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
        if (importance == null) {
            return lines[0].pollFirst();
        }
        int first = importance.firstToServe(served);
        int c = first;
        do {
            Node node = lines[c].pollFirst();
            if (node != null) {
                served++;
                return node;
            }
            c = importance.next(c);
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
    void wakeAll() {
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
    int waitingInClass(int c) {
        lock.lock();
        try {
            return lines[c].size();
        } finally {
            lock.unlock();
        }
    }
}
