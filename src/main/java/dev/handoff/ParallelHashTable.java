/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A bounded, <em>unordered</em> handoff on an open-addressed hash table whose slots are claimed
 * one at a time: the parallel hash table of Roussev and Wu, safe with many producers and many
 * consumers, and blocking without polling.
 *
 * <p>A producer puts its element into an empty slot on a probe sequence (double hashing) that
 * starts from a key; a consumer takes whichever element it finds first on a probe sequence that
 * starts at a pseudo-random slot. Producers and consumers working on different slots never wait
 * for each other, so many consumers can search at once. In exchange <b>no order is promised</b>:
 * {@link #ordering()} is {@link Handoff.Ordering#UNORDERED}, and an element may stay inside while
 * later ones leave. Each removal takes any given element with probability at least
 * {@code 1/capacity}, so the number of removals an element waits through has a geometric tail;
 * see {@code docs/parallel-hash-table.md} for the measured age distribution.
 *
 * <p>The producer's key comes from {@link KeySource}: by default a pseudo-random draw per insert
 * ({@link KeySource#RANDOM}), so that no code of the element runs inside an insert or a removal
 * (only {@code remove(Object)} and {@code contains} call its {@code equals}, and
 * {@code toString()} its {@code toString()}), and every element, equal to others or not, gets an
 * independent, uniform probe sequence. The papers' form, {@link KeySource#ELEMENT_HASH}, keys on
 * the element's {@code hashCode()}: an exception it throws leaves the insert with nothing
 * changed, and elements with equal hash codes follow the same probe sequence, so a table filled
 * with many equal elements (the same object put again and again) inserts in time proportional
 * to its fill, not in the constant time the probe theorems give for well-spread keys.
 *
 * <p>The slots come in two forms, chosen at construction ({@link SlotForm}): the papers' form, a
 * small object with a monitor per slot, and a lock-free form on one array. Both behave the same;
 * they differ only in speed ({@code docs/parallel-hash-table.md}). Blocked threads wait on
 * {@link java.util.concurrent.locks.Condition}s; the monitors of the papers' form are held only
 * for a single read or compare-and-set, never while waiting.
 *
 * <p>{@code size()} and {@code remainingCapacity()} count the elements a consumer may reserve and
 * the free slots a producer may reserve; they always lie within {@code [0, capacity()]} and add
 * up to {@code capacity()} whenever no operation is in progress. {@code peek()},
 * {@code contains}, {@code toArray()} and iteration read the slots one by one and are weakly
 * consistent; they list elements in slot order, which says nothing about the order of removal.
 *
 * <p>Linearizability. Seen by consumers ({@code offer}, {@code poll} and {@code size()} while
 * the table does not fill up and is not closed) the table behaves as a multiset, each operation
 * taking effect at one instant. Where fullness or closing comes in it does not, because a
 * removal frees its slot only once the element is out, and an insert counts its element only
 * once it is written. A {@code poll} that has claimed an element but not yet taken it out still
 * holds its slot: a thread whose own {@code poll()} already returned {@code null} because of it
 * can then have its second of two {@code offer}s refused by a table of capacity 2. Likewise an
 * {@code offer} under way holds its slot before {@code size()} counts its element: another
 * thread's {@code offer} may be refused and its {@code size()} then count one element less than
 * the capacity. An {@code offer} under way when {@code close()} is called returns {@code true},
 * yet a {@code poll()} called after the close may return {@code null} before that element arrives
 * ({@code take()} waits for it). Lincheck's model checker finds these histories
 * ({@code ParallelHashTableLincheckTest} in jcstress-tests).
 *
 * <p>See {@link Handoff} for closing, interruption, iteration and memory-consistency effects.
 *
 * @param <E> the type of elements held
 */
public class ParallelHashTable<E> extends ReservingHandoff<E> {
    /*
     * Implementation notes.
     *
     * The parallel hash table (PHT) of Roussev and Wu (shared/seeds 004, section 4; seed 001,
     * section 3.5 and its appendix): m slots, open addressing with double hashing
     * h(k, i) = (h1(k) + i * h2(k)) mod m. A producer probes from its insert's key for an empty
     * slot; a consumer probes from a pseudo-random key for an occupied one.
     *
     *              consumer: start r, stride s'           producer: start h1(k), stride h2(k)
     *                   v                                     v
     *   slots  [ e3 | null | e1 | null | null | e7 | null | null | e2 | null ]     m = 10
     *               ^^^^ claimed by CAS null -> e             ^^^^ taken by CAS e -> null
     *
     *   takeable  (closed | pending | available)   consumers reserve an element here
     *   fillable  (closed |    0    | available)   producers reserve an empty slot here
     *
     * What differs from the papers, and why:
     *
     * 1. Inserts claim a slot by compare-and-set, never by check-then-set. The appendix code reads
     *    a slot, sees null, then sets it: two producers can both see null and the second set
     *    overwrites (loses) the first element. Here a producer may look first, but only a CAS from
     *    null to its element makes the slot its own; a failed CAS is counted as an insert conflict
     *    and the probe moves on. Consumers likewise take by CAS from the element they saw to null;
     *    a failed CAS is a search conflict (another consumer won that element).
     *
     * 2. No polling. The appendix code scans the table and, finding nothing, sleeps wait(500).
     *    Here nobody scans unless the scan must succeed. Two counts of reservations, takeable and
     *    fillable (class Reservations), say how many elements consumers may still reserve
     *    and how many empty slots producers may still reserve:
     *
     *      put:  reserve a space (park while none)  ->  announce (pending++ unless closed)
     *            ->  CAS the element into an empty slot  ->  publish (pending--, available++)
     *      take: reserve an item (park while none)  ->  CAS an element out of a slot
     *            ->  release a space
     *
     *    An item is published only after its element is in its slot, and a space is released only
     *    after its slot is empty. Hence, at every moment,
     *
     *      occupied slots >= consumers holding an item they have not yet taken out, and
     *      empty slots    >= producers holding a space they have not yet filled,
     *
     *    so a thread searches only when a matching slot exists. A consumer never waits for a
     *    producer that has reserved a slot but not yet written it: such an element is not yet
     *    counted in takeable, so no consumer can hold a reservation for it. (Counting an element
     *    before it is written, which would wake consumers earlier, would let a consumer scan an
     *    empty table for as long as that producer is descheduled: a spin with no bound.)
     *
     *    The search is lock-free, not wait-free: a consumer's lap over all m slots can fail only
     *    if, during that lap, every element it passed was taken by another consumer, so each
     *    failed lap implies that other removals completed. The same holds for producers. No
     *    thread ever waits inside a scan for another thread.
     *
     * 3. Many producers. Nothing in the scheme assumes a single producer: reservations are
     *    counted atomically and slots are claimed by CAS.
     *
     * 4. Keys. A consumer's key is a fresh ThreadLocalRandom long per search (drawn through
     *    ProbeRandom, a seam the Lincheck model checker needs: see that interface). The
     *    producer's key (KeySource) is by default drawn the same way, once per insert, before
     *    any reservation: no user code runs in the table, and the keys are uniform and
     *    independent, the uniform-hashing assumption of Theorem 1. The papers' form keys on the
     *    element's hashCode(), spread by a 64-bit mixer so that small consecutive Integers do not
     *    land in consecutive slots; it too is computed before any reservation, so a hashCode()
     *    that throws leaves nothing to undo. An element that drainTo puts back gets a drawn key
     *    in either form: no element code may run while the table holds a reservation for it.
     *    From the 64-bit key, h1 = the high half reduced to [0, m) and h2 = 1 + the low half
     *    reduced to [0, m-1), moved up to the next value coprime to m (class ProbeSequence). The
     *    papers take m prime, where every h2 in [1, m) is coprime to m; the coprime step keeps
     *    the permutation property (every probe sequence visits all m slots) for every capacity
     *    the constructor accepts, so the capacity is exactly the one asked for.
     *
     * Close and the pending count. close() sets CLOSED in takeable (the linearization point) and in
     * fillable, and wakes every waiter. A producer announces (pending++) only if takeable is not
     * closed, so every insert either announced before the close and will publish, or is refused
     * (put throws, offer returns false). A consumer reports "closed and empty" only when takeable is
     * closed with available == 0 and pending == 0, all read in one word: no element is inside
     * unreserved, and none can arrive. That state is final. remove(Object), the bulk removals and
     * drainTo, which may hand an element's reservation back (no match found, a consumer won it, or
     * the target collection threw), also hold their reservation as pending until they know, so
     * that no consumer declares the table empty while an element may come back.
     *
     * drainTo reserves up to maxElements available reservations of takeable in one CAS, looks at the slots once to
     * note which elements are inside, and only then takes those by CAS: room it frees may let
     * blocked producers in, and their elements are not drained. So a drain moves only elements
     * present at its start (fewer if consumers take some first) and ends after one scan even
     * while producers keep inserting.
     *
     * Starvation. A consumer's first probe is uniform over the m slots and independent of the
     * table, so each removal takes any given element with probability at least 1/m (it does
     * whenever the search starts at that element's slot). An element therefore survives k
     * removals with probability at most (1 - 1/m)^k <= exp(-k/m): ages have a geometric tail, and
     * the age in removals cannot grow without limit in distribution (P(age > 7m) < 0.001), though
     * no single element has a hard bound. Measured in docs/parallel-hash-table.md.
     *
     * Theorems checked by ParallelHashTableTheoremProperties on this class's own counters:
     * insert probes (seed 004 Th. 1) and random-start search probes (Th. 2), on fresh tables and
     * in the steady state, the permutation property of ProbeSequence, and the conflict probability
     * (Th. 3) with real threads. The mutation check (TheoremMutations, src/test/mutations) shows
     * that each deliberate fault in ProbeSequence, fill() or search() turns one of them red.
     *
     * Visibility between writers and readers is provided as follows: a producer writes its
     * element into a slot with release semantics (a CAS with release, or the slot's monitor),
     * and a consumer takes it with acquire semantics (a CAS with acquire, or the same monitor),
     * so the actions before put() happen-before the actions after the take that returns the
     * element. The reservation counts are volatile words: the publish that follows a slot write
     * happens-before the reservation that a consumer makes from it, so the consumer's probes
     * see that slot written (reads that happen-after a write never see an older value). Each
     * ordered access below names its partner.
     */

    /** How the slots are built. Both forms give the same behaviour; they differ in speed. */
    public enum SlotForm {
        /**
         * The papers' form: one {@code SynchronizedRef}-style object per slot, whose get and
         * compare-and-set each hold its monitor for that one step.
         */
        MONITOR,
        /**
         * The lock-free form: one array, each slot read and claimed by {@link VarHandle}
         * compare-and-set with the weakest ordering that keeps the handoff's guarantees. The
         * default.
         */
        CAS;

        /** The value of this form in a spec's {@code slots=} option: {@code monitor} or {@code cas}. */
        String specName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The form used when none is named: measured faster in docs/parallel-hash-table.md. */
    public static final SlotForm DEFAULT_SLOT_FORM = SlotForm.CAS;

    /** Where a producer's probe sequence starts: the key it is derived from. */
    public enum KeySource {
        /**
         * A fresh pseudo-random key per insert ({@code ThreadLocalRandom}), drawn as the
         * consumers' search keys are. No code of the element runs, and the keys are uniform and
         * independent whatever the elements, so the probe theorems' uniform-hashing assumption
         * holds exactly. The default.
         */
        RANDOM,
        /**
         * The element's {@code hashCode()}, spread to 64 bits: the papers' form. Every insert
         * calls {@code hashCode()}; if it throws, the exception leaves the insert and nothing
         * changed. Elements with equal hash codes share one probe sequence.
         */
        ELEMENT_HASH;

        /** The value of this source in a spec's {@code key=} option: {@code random} or {@code hash}. */
        String specName() {
            return this == RANDOM ? "random" : "hash";
        }
    }

    /** The key source used when none is named: no element code runs in the table. */
    public static final KeySource DEFAULT_KEY_SOURCE = KeySource.RANDOM;

    /**
     * The largest capacity of a table with {@link SlotForm#CAS} slots:
     * {@code Integer.MAX_VALUE - 8}, the longest array the JVM allocates. The array is allocated
     * at construction, one reference per slot, so the heap must still have room for it.
     */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    /**
     * The largest capacity of a table with {@link SlotForm#MONITOR} slots: {@code 1 << 24}
     * (16,777,216). Each slot is an object of its own, allocated at construction (about 20
     * bytes with compressed references, some 320 MiB at the limit), so the papers' form stops
     * far below the array form's limit, at a size a default heap holds.
     */
    public static final int MAX_MONITOR_CAPACITY = 1 << 24;

    /** The slots. Invariant: a slot holds null or one element; only a CAS changes it. */
    private final TableSlots slots;

    /** Probe sequences over the m slots. */
    private final ProbeSequence probing;

    /** The form the slots were built in. */
    private final SlotForm form;

    /** Empty slots producers may reserve (pending stays 0). */
    private final Reservations fillable;

    /** Where producers' keys come from. */
    private final KeySource keys;

    /**
     * Draws the consumers' search keys and the producers' RANDOM keys:
     * {@link ProbeRandom#THREAD_LOCAL} except under Lincheck.
     */
    private final ProbeRandom random;

    /**
     * Creates a table of the given capacity with the default slot form and key source, not
     * counting statistics.
     *
     * @param capacity the number of slots, i.e. of elements it holds
     * @throws IllegalArgumentException if {@code capacity <= 0} or {@code capacity > MAX_CAPACITY}
     */
    public ParallelHashTable(int capacity) {
        this(capacity, DEFAULT_SLOT_FORM, false);
    }

    /**
     * Creates a table of the given capacity with the default slot form and key source.
     *
     * @param capacity the number of slots, i.e. of elements it holds
     * @param countStats whether {@link #stats()} counts puts, takes, waits, probes and conflicts
     * @throws IllegalArgumentException if {@code capacity <= 0} or {@code capacity > MAX_CAPACITY}
     */
    public ParallelHashTable(int capacity, boolean countStats) {
        this(capacity, DEFAULT_SLOT_FORM, countStats);
    }

    /**
     * Creates a table of the given capacity and slot form, with the default key source.
     *
     * @param capacity the number of slots, i.e. of elements it holds; any value {@code > 0} up
     *        to the form's limit
     * @param form how the slots are built
     * @param countStats whether {@link #stats()} counts puts, takes, waits, probes and conflicts
     * @throws IllegalArgumentException if {@code capacity <= 0}, or above {@link #MAX_CAPACITY}
     *         ({@link #MAX_MONITOR_CAPACITY} for monitor slots)
     * @throws NullPointerException if {@code form} is null
     */
    @SuppressWarnings("this-escape") // registers itself with CountedHandoffs, last (see there)
    public ParallelHashTable(int capacity, SlotForm form, boolean countStats) {
        this(capacity, form, DEFAULT_KEY_SOURCE, countStats);
    }

    /**
     * Creates a table of the given capacity, slot form and key source.
     *
     * @param capacity the number of slots, i.e. of elements it holds; any value {@code > 0} up
     *        to the form's limit
     * @param form how the slots are built
     * @param keys where a producer's probe sequence starts
     * @param countStats whether {@link #stats()} counts puts, takes, waits, probes and conflicts
     * @throws IllegalArgumentException if {@code capacity <= 0}, or above {@link #MAX_CAPACITY}
     *         ({@link #MAX_MONITOR_CAPACITY} for monitor slots)
     * @throws NullPointerException if {@code form} or {@code keys} is null
     */
    @SuppressWarnings("this-escape") // registers itself with CountedHandoffs, last (see there)
    public ParallelHashTable(int capacity, SlotForm form, KeySource keys, boolean countStats) {
        this(capacity, form, keys, countStats, ProbeRandom.THREAD_LOCAL);
    }

    /**
     * Creates a table that draws its random keys from {@code random}: the seam through which the
     * Lincheck model-checking tests replace {@code ThreadLocalRandom} (see {@link ProbeRandom}).
     */
    ParallelHashTable(int capacity, SlotForm form, KeySource keys, boolean countStats, ProbeRandom random) {
        this(capacity, form, keys, countStats, random, UnaryOperator.identity());
    }

    /**
     * Creates a table whose slots are wrapped by {@code slotsSeam}: the seam through which the
     * Theorem 3 property holds one consumer between its look at a slot and its claim, so that a
     * known number of other removals happen within one search (ParallelHashTableTheoremProperties).
     */
    ParallelHashTable(int capacity, SlotForm form, KeySource keys, boolean countStats, ProbeRandom random,
                      UnaryOperator<TableSlots> slotsSeam) {
        super(countStats);
        this.form = Objects.requireNonNull(form, "slot form");
        this.keys = Objects.requireNonNull(keys, "key source");
        this.random = Objects.requireNonNull(random, "random");
        checkCapacity(capacity, form);
        this.slots = slotsSeam.apply(form == SlotForm.MONITOR ? new MonitorSlots(capacity) : new ArraySlots(capacity));
        this.probing = new ProbeSequence(capacity);
        this.fillable = new Reservations(capacity, counters::producerWait, this, Wait.PUT);
        CountedHandoffs.register(this); // last: JFR's dev.handoff.Stats reads it from another thread
    }

    /** Rejects a capacity outside [1, the form's limit], naming the limit. */
    static int checkCapacity(int capacity, SlotForm form) {
        return form == SlotForm.MONITOR
                ? checkCapacity(capacity, MAX_MONITOR_CAPACITY, "ParallelHashTable.MAX_MONITOR_CAPACITY",
                        "ParallelHashTable with monitor slots")
                : checkCapacity(capacity, MAX_CAPACITY, "ParallelHashTable.MAX_CAPACITY", "ParallelHashTable");
    }

    /**
     * Returns the form this table's slots were built in.
     *
     * @return {@link SlotForm#MONITOR} or {@link SlotForm#CAS}
     */
    public SlotForm slotForm() {
        return form;
    }

    /**
     * Returns where this table's producers take their keys from.
     *
     * @return {@link KeySource#RANDOM} or {@link KeySource#ELEMENT_HASH}
     */
    public KeySource keySource() {
        return keys;
    }

    // ---- the two scans everything else is built on ----

    /**
     * Writes e into an empty slot on e's probe sequence. Call only holding a space reservation
     * (announced in takeable), so that an empty slot exists for this producer.
     *
     * @return the number of slots looked at
     */
    private int fill(long key, Object e) {
        int pos = probing.start(key);
        int stride = probing.stride(key);
        int probes = 1;
        for (;;) {
            if (slots.hint(pos) == null) {
                if (slots.tryFill(pos, e)) {
                    return probes;
                }
                counters.insertConflict(); // another producer claimed this empty slot first
            }
            pos = probing.next(pos, stride);
            probes++;
        }
    }

    /**
     * Takes an element out of some slot, searching from a pseudo-random start. Call only holding
     * an item reservation, so that an element exists for this consumer.
     */
    @SuppressWarnings("unchecked")
    private E search() {
        long key = random.nextLong();
        int pos = probing.start(key);
        int stride = probing.stride(key);
        int probes = 1;
        for (;;) {
            Object e = slots.hint(pos);
            if (e != null) {
                if (slots.tryEmpty(pos, e)) {
                    counters.searchProbes(probes);
                    return (E) e;
                }
                counters.searchConflict(); // another consumer took this element first
            }
            pos = probing.next(pos, stride);
            probes++;
        }
    }

    /**
     * The probe key of an insert: a draw, or e's hashCode spread. Call before any reservation,
     * so that a hashCode() that throws leaves nothing to undo.
     */
    private long keyOf(Object e) {
        return keys == KeySource.RANDOM ? random.nextLong() : ProbeSequence.spread(e.hashCode());
    }

    // ---- inserting ----

    /**
     * Completes an insert after the space reservation was tried. On ACQUIRED: announce, fill,
     * publish.
     *
     * @return false if the element was not inserted: no space was reserved (full, timed out, or
     *         closed while this producer looked for room), or the table closed before the announce
     */
    private boolean insertReserved(int spaceOutcome, long key, E e) {
        if (spaceOutcome != Reservations.ACQUIRED) {
            return false; // NONE: full or timed out; EXHAUSTED: closed
        }
        if (!takeable.announce()) {
            fillable.release(); // closed after the space was reserved: hand it back
            return false;
        }
        counters.insertProbes(fill(key, e));
        counters.put();
        takeable.publish(); // after the slot write: a consumer reserving this item finds it
        return true;
    }

    private void ensureOpen() {
        if (takeable.isClosed()) {
            throw closedToInserts();
        }
    }

    @Override
    public boolean offer(E e) {
        long key = keyOf(checkElement(e));
        return !isClosed() && insertReserved(fillable.tryAcquire(), key, e);
    }

    @Override
    public void put(E e) throws InterruptedException {
        long key = keyOf(checkElement(e));
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        ensureOpen();
        if (!insertReserved(fillable.acquire(), key, e)) {
            throw closedToInserts(); // the untimed acquire fails only once closed
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        long key = keyOf(checkElement(e));
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return !isClosed() && insertReserved(fillable.acquireNanos(nanos), key, e);
    }

    // ---- removing ----

    /** Takes the element an item reservation guarantees, then frees its slot for producers. */
    @Override
    E removeReserved() {
        E e = search();
        counters.take();
        fillable.release(); // after the slot is empty: a producer reserving it finds room
        return e;
    }

    /**
     * Moves elements that are inside when it starts, in slot order, never ones that arrive while
     * it runs: at most as many as were available at the start, fewer if concurrent consumers take
     * some of them first. So a drain ends after one scan even while producers keep inserting.
     */
    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        int held = maxElements <= 0 ? 0 : takeable.tryAcquireHeld(maxElements);
        if (held == 0) {
            return 0;
        }
        // First look, then take: elements inserted behind a removal (into room it freed) are not
        // in the snapshot, so they are not drained.
        int[] where = new int[held];
        Object[] seen = new Object[held];
        int found = 0;
        int probes = 0;
        for (int i = 0; i < slots.length() && found < held; i++) {
            probes++;
            Object e = slots.hint(i);
            if (e != null) {
                where[found] = i;
                seen[found++] = e;
            }
        }
        counters.searchProbes(probes);
        int drained = 0;
        try {
            for (int k = 0; k < found; k++) {
                if (!slots.tryEmpty(where[k], seen[k])) {
                    counters.searchConflict(); // a consumer took it since the look
                    continue;
                }
                held--; // this reservation now belongs to seen[k]: settled below, or put back
                try {
                    @SuppressWarnings("unchecked")
                    E e = (E) seen[k];
                    target.add(e);
                } catch (RuntimeException | Error failure) {
                    putBack(seen[k]); // nothing is lost: it is inside again when the exception leaves
                    throw failure;
                }
                counters.take();
                fillable.release();
                takeable.settle(1);
                drained++;
            }
        } finally {
            takeable.handBack(held); // reservations whose element went elsewhere
        }
        return drained;
    }

    /**
     * Puts back an element taken under a held reservation (tryAcquireHeld): its slot was emptied
     * but not released, so an empty slot exists; handing the reservation back ends the hold.
     * The key is drawn, never e's hashCode: element code that throws here would lose e.
     */
    private void putBack(Object e) {
        fill(random.nextLong(), e);
        takeable.handBack(1);
    }

    @Override
    boolean removeFirst(Predicate<Object> match) {
        if (takeable.tryAcquireHeld(1) == 0) {
            return false; // every element inside is reserved by a consumer and about to leave
        }
        boolean removed = false;
        try {
            for (int i = 0; i < slots.length(); i++) {
                Object e = slots.read(i);
                if (e != null && match.test(e) && slots.tryEmpty(i, e)) {
                    counters.searchProbes(i + 1);
                    counters.take();
                    fillable.release();
                    takeable.settle(1);
                    removed = true;
                    return true;
                }
            }
            counters.searchProbes(slots.length());
            return false;
        } finally {
            if (!removed) {
                // no match, or match (an element's equals) threw: hand the reservation back, or
                // one element inside would stay reserved and no consumer could take it
                takeable.handBack(1);
            }
        }
    }

    /**
     * One look at every slot; an element that match accepts is taken out by CAS under an item
     * reservation held as in removeFirst, so a consumer that wins the element first keeps it and
     * the reservation goes back.
     */
    @Override
    int removeMatching(Predicate<Object> match) {
        int removed = 0;
        for (int i = 0; i < slots.length(); i++) {
            Object e = slots.read(i);
            if (e == null || !match.test(e)) {
                continue;
            }
            if (takeable.tryAcquireHeld(1) == 0) {
                break; // every element inside is reserved by a consumer and about to leave
            }
            if (slots.tryEmpty(i, e)) {
                counters.take();
                fillable.release();
                takeable.settle(1);
                removed++;
            } else {
                counters.searchConflict(); // a consumer took it since the look
                takeable.handBack(1);
            }
        }
        counters.searchProbes(slots.length());
        return removed;
    }

    @Override
    public void clear() {
        while (poll() != null) {
            // each poll frees one slot and wakes a producer if one waits
        }
    }

    // ---- looking ----

    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        for (int i = 0; i < slots.length(); i++) {
            Object e = slots.read(i);
            if (e != null) {
                return (E) e;
            }
        }
        return null;
    }

    @Override
    public boolean contains(Object o) {
        if (o == null) {
            return false;
        }
        for (int i = 0; i < slots.length(); i++) {
            Object e = slots.read(i);
            if (e != null && o.equals(e)) {
                return true;
            }
        }
        return false;
    }

    /** Returns the elements in slot order, read one slot at a time (weakly consistent). */
    @Override
    public Object[] toArray() {
        Object[] copy = new Object[slots.length()];
        int n = 0;
        for (int i = 0; i < copy.length; i++) {
            Object e = slots.read(i);
            if (e != null) {
                copy[n++] = e;
            }
        }
        return Arrays.copyOf(copy, n);
    }

    @Override
    public int size() {
        return takeable.available();
    }

    @Override
    public int remainingCapacity() {
        return fillable.available();
    }

    @Override
    public int capacity() {
        return slots.length();
    }

    @Override
    public Ordering ordering() {
        return Ordering.UNORDERED;
    }

    // ---- closing ----

    @Override
    public void close() {
        takeable.close();  // the linearization point: no announce succeeds after this
        fillable.close(); // wakes producers waiting for room: put throws, the timed offer returns false
    }

    @Override
    public boolean isClosed() {
        return takeable.isClosed();
    }

    /** For tests: the table's reservation counts, e.g. "available=3 pending=0". */
    String reservationsForTest() {
        return "takeable[" + takeable + "] fillable[" + fillable + "]";
    }

    /** For tests: this table's probe sequences (see ProbeSequence). */
    ProbeSequence probingForTest() {
        return probing;
    }
}
