/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Producer/consumer handoffs: four kinds behind the {@link dev.handoff.Handoff} contract, each a
 * {@link java.util.concurrent.BlockingQueue}, built from a spec by {@link dev.handoff.Handoffs}
 * or the typed {@link dev.handoff.HandoffSpec}.
 *
 * <p>Memory consistency effects, for every kind: actions in a thread prior to placing an element
 * into a handoff happen-before actions subsequent to the access or removal of that element from
 * the handoff in another thread, as {@link java.util.concurrent.BlockingQueue} states.
 *
 * <p>Every kind is serializable through one serialization proxy, whose form is the only one a
 * stream holds (see "Serialization" in {@link dev.handoff.Handoff}); no kind's fields are part of
 * a serialized form.
 *
 * @serial exclude
 */
/*
 * Conventions of this package's implementations (read once here; each access names its partner
 * beside it).
 *
 * Access modes, weakest first, and when each is used:
 *  - plain: fields written before the object is published (final or effectively final), and
 *    fields only ever touched under one lock; the lock's release/acquire orders them.
 *  - opaque (getOpaque/setOpaque): a hint that a later strong operation re-checks, such as a
 *    scan's look at a slot before its compare-and-set, or a spin gate's flag. Opaque, never plain,
 *    so that a loop re-reads memory instead of a value the compiler hoisted; it orders nothing
 *    else, so a comment says which strong access decides.
 *  - release/acquire (setRelease, getAcquire, compareAndExchangeRelease/-Acquire): publication of
 *    an element. The writer's release (the producer storing the element) pairs with the reader's
 *    acquire (the consumer reading or claiming it), which is what gives the happens-before edge
 *    the public contract states. Each such access names its partner: "pairs with getAcquire in
 *    read".
 *  - volatile (plain volatile fields, compareAndSet, getAndAdd, getAndBitwiseOr): wherever two
 *    threads each write one variable and then read the other's, the Dekker handshake that keeps a
 *    wake-up from being lost (a waiter counts itself, then re-checks the state; a releaser changes
 *    the state, then reads the waiter count). That needs sequential consistency, which
 *    release/acquire does not give; the comment names both halves of the pair.
 *
 * Compare-and-set is strong (compareAndSet, compareAndExchange) wherever a failure is counted or
 * means "someone else won" (the hash table's conflict counts, Theorem 3); the weak forms are
 * used only inside retry loops that count nothing.
 *
 * Waiting: no thread polls with a timeout to recover from a missed signal. A thread that must
 * wait may first spin briefly, as dev.handoff.internal.waiting.Spinner allows (never on a virtual
 * thread, one spinner per side, no more spinners than CPUs, and only while spinning has been
 * paying), then counts itself as a waiter, re-checks and parks on a lock's condition
 * (dev.handoff.internal.waiting.Waiters); the side that changes the state signals when the count
 * says someone may be parked, except under one lock, where the circular buffer's lock core
 * signals always, as ArrayBlockingQueue does. Every park goes through
 * dev.handoff.internal.waiting.Parking, which records a JFR event for long waits.
 *
 * Layout: this package holds the contract, the factory and spec types, and each kind's public
 * class; each mechanism lives in a package of dev.handoff.internal, which the module does not
 * export (docs/developing.md has the map, and ArchitectureTest the rules).
 */
package dev.handoff;
