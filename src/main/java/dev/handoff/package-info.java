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
 * <p>The types of this package, by role:
 * <ul>
 *   <li>The contract. {@link dev.handoff.Handoff} is the {@code BlockingQueue} that every kind
 *       is, which can be closed, knows its capacity and its ordering, and counts what it does;
 *       {@link dev.handoff.HandoffStats} is the snapshot of those counters (and of the sojourn
 *       times) that {@code stats()} returns. {@link dev.handoff.HandoffClosedException} is thrown
 *       by an insert into a closed handoff and by a take from one closed and empty;
 *       {@link dev.handoff.UndeliveredElementException} carries, as a suppressed exception, an
 *       element that a batch take's target refused and the handoff did not take back.</li>
 *   <li>Building. {@link dev.handoff.Handoffs} builds handoffs, and thread pools over them, from
 *       a spec string or a typed spec; {@link dev.handoff.HandoffSpec} is the typed spec, a
 *       record per kind and one for importance classes; {@link dev.handoff.SojournSpec} is the
 *       spec of a buffered kind that records how long each element stays inside.</li>
 *   <li>The kinds. {@link dev.handoff.CircularBuffer}: a bounded FIFO on a fixed array, over
 *       one of its cores. {@link dev.handoff.LockSplitQueue}: a bounded FIFO on a linked list of
 *       array chunks, with a lock for producers and another for consumers.
 *       {@link dev.handoff.ParallelHashTable}: a bounded, unordered handoff on an
 *       open-addressed hash table whose slots are claimed one at a time.
 *       {@link dev.handoff.PipeHandoff}: a direct handoff to a fixed set of worker slots that
 *       buffers nothing, and {@link dev.handoff.PipeWorker}, a worker slot owned by the code that
 *       registered it rather than by a thread.</li>
 *   <li>Importance classes. {@link dev.handoff.Importance} is an element, or a pool's task, that
 *       names its own class, and states what a handoff with classes guarantees;
 *       {@link dev.handoff.Classifier} tells a handoff which class an element belongs to.</li>
 * </ul>
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
 *
 * Classes of this package, package-private, besides the public types named above:
 *  - AbstractHandoff: what every kind keeps the same way (argument checks, the snapshot
 *    iterator over toArray, the bulk removals through removeMatching, the batch takes, the
 *    counters), and writeReplace; every kind extends it.
 *  - ContractReader: how the JFR events of internal.observe, which hold a handoff as an Object,
 *    read its kind, capacity, size and stats through this package's contract; AbstractHandoff
 *    installs it when it initializes.
 *  - ZeroCapacityHandoff: the BlockingQueue answers of a handoff that holds nothing (always
 *    empty; nothing found, removed or drained), as SynchronousQueue gives them; PipeHandoff
 *    extends it.
 *  - ReservingHandoff: a handoff whose consumers first reserve an element in a count
 *    (internal.classes.Reservations) and then take it out; the waiting of poll, take and the
 *    timed poll lives there.
 *  - ClassedHandoff: the buffered handoff with importance classes, K handoffs of one kind
 *    behind one Handoff, built for classes=K (K > 1) on a circular buffer, a lock-split queue
 *    or a hash table; it holds the insert protocol and the close, and its mechanism is in
 *    internal.classes.
 *  - ByImportance: the default Classifier (Classifier.byImportance), a record so that the
 *    serialized form tells it from a custom classifier.
 *  - ClassedFutureTask: the FutureTask that Importance.futureTask makes for a task that names
 *    its class, so that a pool queues a submitted task in the class of the task.
 *  - SojournHandoff: the sojourn option, a decorator over the spec's kind that stamps each
 *    element on insert and records its time inside on removal (internal.observe.SojournHistogram).
 *  - SpecParser: the one parser of spec strings, behind HandoffSpec.parse; each spec record
 *    declares its own options, and the parser reads those every kind shares.
 *  - SerializationProxy: the serialized form of every kind (its spec string, its elements,
 *    whether it was closed, a custom classifier), from which readResolve builds a new handoff.
 */
package dev.handoff;
