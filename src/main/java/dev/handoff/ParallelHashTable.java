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
 * <p>A producer puts its element into an empty slot found from a key (by the search's
 * summary, or on a double-hashing probe sequence); a consumer takes whichever element it finds
 * first ({@link Search}).
 * Producers and consumers working on different slots never wait for each other, so many
 * consumers can search at once. In exchange <b>no order is promised</b>: {@link #ordering()} is
 * {@link Handoff.Ordering#UNORDERED}, and an element may stay inside while later ones leave.
 *
 * <p>How long an element waits is bounded under the default search, {@link Search#SUMMARY}:
 * every second search of each consumer thread takes the first element at or after the
 * <em>sweep</em>, a position that moves forward over the slots and never past an element inside
 * without taking it. With one consumer an element leaves within {@code 2 * capacity + 2}
 * removals after its insert returns; with c consumers, a sweep search that read the sweep before
 * another one moved it can take an element the sweep has already passed, so up to c such
 * searches may come between two steps of the sweep. Under {@link Search#PROBE} there is no
 * bound: each removal takes any given element with probability at least {@code 1/capacity}, so
 * the wait has a geometric tail.
 *
 * <p>The producer's key comes from {@link KeySource}: by default a pseudo-random draw per insert
 * ({@link KeySource#RANDOM}), so that no element code runs in an insert or a removal (only
 * {@code remove(Object)} and {@code contains} call {@code equals}) and every element gets an
 * independent, uniform probe sequence. The papers' form, {@link KeySource#ELEMENT_HASH}, keys on
 * the element's {@code hashCode()}: an exception it throws leaves the insert with nothing
 * changed; under {@link Search#PROBE} equal hash codes share one probe sequence, so many equal
 * elements insert in time proportional to the fill, not in Theorem 1's constant time.
 *
 * <p>The slots come in two forms ({@link SlotForm}): the papers' form, a small object with a
 * monitor per slot, held only for one read or compare-and-set, and a lock-free form on one
 * array. Both behave the same and differ only in speed. Blocked threads wait on
 * {@link java.util.concurrent.locks.Condition}s.
 *
 * <p>{@code size()} and {@code remainingCapacity()} count the elements a consumer may reserve and
 * the free slots a producer may reserve; they always lie within {@code [0, capacity()]} and add
 * up to {@code capacity()} whenever no operation is in progress. {@code peek()},
 * {@code contains}, {@code toArray()} and iteration read the slots one by one and are weakly
 * consistent; they list elements in slot order, which says nothing about the order of removal.
 *
 * <p>Linearizability. Seen by consumers ({@code offer}, {@code poll} and {@code size()} while
 * the table neither fills up nor closes) the table behaves as a multiset. Where fullness or
 * closing comes in it does not: a removal frees its slot only once the element is out, and an
 * insert counts its element only once it is written. So an {@code offer} may be refused while
 * a {@code poll} under way still holds the slot it is emptying, or while {@code size()} does not
 * yet count an {@code offer} under way; and an {@code offer} under way at {@code close()}
 * returns {@code true} while a later {@code poll()} may return {@code null} before that element
 * arrives ({@code take()} waits for it). {@code ParallelHashTableLincheckTest} (jcstress-tests)
 * finds these histories.
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
     * slot; a consumer looks for an occupied one (item 5).
     *
     *              consumer: start r, stride s'           producer: start h1(k), stride h2(k)
     *                   v                                     v
     *   slots  [ e3 | null | e1 | null | null | e7 | null | null | e2 | null ]     m = 10
     *               ^^^^ claimed by CAS null -> e             ^^^^ taken by CAS e -> null
     *
     *   takeable  (closed | pending | available)   consumers reserve an element here
     *   fillable  (closed |    0    | available)   producers reserve an empty slot here (not once closed)
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
     *      put:  reserve a space (park while none; refused once closed)
     *            ->  CAS the element into an empty slot  ->  publish (available++)
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
     *    counted in takeable, so no consumer can hold a reservation for it (counting it earlier
     *    would let a consumer scan an empty table while that producer is descheduled).
     *
     *    The scans are lock-free, not wait-free: a lap over all m slots fails only if every slot
     *    it could use was won by another thread during that lap. No scan waits for a thread.
     *
     * 3. Many producers. Nothing in the scheme assumes a single producer: reservations are
     *    counted atomically and slots are claimed by CAS.
     *
     * 4. Keys. A consumer's key is a fresh ThreadLocalRandom long per search (drawn through
     *    ProbeRandom, the seam the Lincheck model checker needs). The producer's key (KeySource)
     *    is by default drawn the same way, before any reservation: no user code runs in the
     *    table, and keys are uniform and independent, Theorem 1's assumption. The papers' form
     *    spreads the element's hashCode() (ProbeSequence.spread), also before any reservation,
     *    so a hashCode() that throws leaves nothing to undo; an element that drainTo puts back
     *    gets a drawn key. h1 and h2 come from the key's two halves, h2 moved up to the next
     *    value coprime to m (ProbeSequence): the papers take m prime, the coprime step keeps
     *    every probe sequence a permutation of the slots for any capacity.
     *
     * 5. The search (Search.SUMMARY, default). The papers' consumer probes slot by slot, about
     *    m/(n+1) probes when n of m slots are full: costly in the mostly empty table that fast
     *    consumers keep. OccupancySummary keeps one bit per slot, a hint kept true by a Dekker
     *    pair (see there), so a consumer reads 64 slots per word and tries only marked slots.
     *    One pass that finds nothing it can win falls back to the probe search, which cannot
     *    fail under a reservation: the summary is never needed for correctness. Every second
     *    summary search of a thread starts at the sweep instead of a random slot and moves the
     *    sweep past the element it takes; a marked element at or after the sweep is therefore
     *    taken before the sweep can pass it, which bounds its wait (class Javadoc). Producers read
     *    the summary too, for a clear bit from their key's start slot (m/(free+1) probes in a
     *    full table become a word or so). Search.PROBE keeps the papers' search and insert (and
     *    no summary), so that Theorems 1 and 2 stay measurable.
     *
     * Close. close() closes fillable (the linearization point: no space is reserved after it),
     * then takeable. An insert either reserved its space before and will publish, or is refused;
     * one under way holds a space, so it needs no announce in takeable. A consumer reports "closed
     * and empty" only when takeable is closed with available == 0 and pending == 0 (one word) and
     * then every space is free (nothingUnderWay): nothing can arrive, a final state. A fillable
     * release after the close wakes all consumers to recheck (Waiters' pair, fillable's word as
     * the state). remove(Object), the bulk removals and drainTo, which may hand an element's
     * reservation back (no match, a consumer won it, or the target threw), hold it as pending
     * until they know, so that no consumer declares the table empty while one may come back.
     *
     * drainTo reserves up to maxElements elements of takeable in one CAS, looks at the slots once
     * to note which elements are inside, and only then takes those by CAS, so it moves only
     * elements present at its start and ends after one scan even while producers keep inserting.
     *
     * Theorems checked by ParallelHashTableTheoremProperties on this class's own counters:
     * insert probes (seed 004 Th. 1) and random-start search probes (Th. 2, Search.PROBE), on
     * fresh tables and in the steady state, the permutation property of ProbeSequence, and the
     * conflict probability (Th. 3) with real threads. The mutation check (TheoremMutations,
     * src/test/mutations) shows that each deliberate fault in ProbeSequence or in TableScans'
     * fill() and probeSearch() turns one of them red.
     *
     * Visibility between writers and readers is provided as follows: a producer writes its
     * element into a slot with a volatile CAS (or the slot's monitor), and a consumer takes it
     * with acquire semantics (a CAS with acquire, or the same monitor),
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

    /** How a consumer finds an element to take. */
    public enum Search {
        /**
         * The papers' search and insert: slot by slot along a double-hashing probe sequence, from
         * a pseudo-random slot (about {@code m/(n+1)} probes with n of m slots full, Theorem 2)
         * or from the key (Theorem 1). No bound on an element's wait, only a geometric tail.
         */
        PROBE,
        /**
         * Reads a summary of the occupied slots, 64 slots a word, from a pseudo-random slot or
         * the sweep in turn (an element's wait is bounded: see the class description), and
         * producers read it from their key for an empty slot. The default.
         */
        SUMMARY;

        /** The value of this search in a spec's {@code search=} option: {@code probe} or {@code summary}. */
        String specName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The search used when none is named: the one with a bound on waiting. */
    public static final Search DEFAULT_SEARCH = Search.SUMMARY;

    /**
     * The largest capacity of a table with {@link SlotForm#CAS} slots:
     * {@code Integer.MAX_VALUE - 8}, the longest array the JVM allocates. The array is allocated
     * at construction, one reference per slot, so the heap must still have room for it.
     */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    /**
     * The largest capacity of a table with {@link SlotForm#MONITOR} slots: {@code 1 << 24}; each
     * slot is an object (about 20 bytes, 320 MiB at the limit), allocated at construction.
     */
    public static final int MAX_MONITOR_CAPACITY = 1 << 24;

    /** The slots, and the fill and the search over them. */
    private final TableScans scans;

    /** The form the slots were built in. */
    private final SlotForm form;

    /** Empty slots producers may reserve (pending stays 0); none once closed. */
    private final Reservations fillable;

    /** Where producers' keys come from. */
    private final KeySource keys;

    /** How consumers search. */
    private final Search search;

    /** Draws search keys and RANDOM insert keys: ThreadLocalRandom except under Lincheck. */
    private final ProbeRandom random;

    /**
     * Creates a table of the given capacity with the default slot form and key source, no stats.
     * @param capacity the number of slots, i.e. of elements it holds
     * @throws IllegalArgumentException if {@code capacity <= 0} or {@code capacity > MAX_CAPACITY}
     */
    public ParallelHashTable(int capacity) {
        this(capacity, DEFAULT_SLOT_FORM, false);
    }

    /**
     * Creates a table of the given capacity with the default slot form and key source.
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
        this(capacity, form, keys, DEFAULT_SEARCH, countStats);
    }

    /**
     * Creates a table of the given capacity, slot form, key source and search.
     *
     * @param capacity the number of slots, i.e. of elements it holds; any value {@code > 0} up
     *        to the form's limit
     * @param form how the slots are built
     * @param keys where a producer's probe sequence starts
     * @param search how a consumer finds an element
     * @param countStats whether {@link #stats()} counts puts, takes, waits, probes and conflicts
     * @throws IllegalArgumentException if {@code capacity <= 0}, or above {@link #MAX_CAPACITY}
     *         ({@link #MAX_MONITOR_CAPACITY} for monitor slots)
     * @throws NullPointerException if {@code form}, {@code keys} or {@code search} is null
     */
    @SuppressWarnings("this-escape") // registers itself with CountedHandoffs, last (see there)
    public ParallelHashTable(int capacity, SlotForm form, KeySource keys, Search search, boolean countStats) {
        this(capacity, form, keys, search, countStats, ProbeRandom.THREAD_LOCAL);
    }

    /**
     * Creates a table that draws its random keys from {@code random}: the seam through which the
     * Lincheck model-checking tests replace {@code ThreadLocalRandom} (see {@link ProbeRandom}).
     */
    ParallelHashTable(int capacity, SlotForm form, KeySource keys, Search search, boolean countStats,
                      ProbeRandom random) {
        this(capacity, form, keys, search, countStats, random, UnaryOperator.identity());
    }

    /**
     * Creates a table whose slots are wrapped by {@code slotsSeam}: the seam through which the
     * Theorem 3 property holds one consumer between its look at a slot and its claim, so that a
     * known number of other removals happen within one search (ParallelHashTableTheoremProperties).
     */
    ParallelHashTable(int capacity, SlotForm form, KeySource keys, Search search, boolean countStats,
                      ProbeRandom random, UnaryOperator<TableSlots> slotsSeam) {
        super(countStats);
        this.form = Objects.requireNonNull(form, "slot form");
        this.keys = Objects.requireNonNull(keys, "key source");
        this.search = Objects.requireNonNull(search, "search");
        this.random = Objects.requireNonNull(random, "random");
        checkCapacity(capacity, form);

        TableSlots slots = form == SlotForm.MONITOR ? new MonitorSlots(capacity) : new ArraySlots(capacity);
        this.scans = new TableScans(slotsSeam.apply(slots), search, random, counters);
        this.fillable = Reservations.ofSpaces(capacity, counters::producerWait, this, Wait.PUT, takeable::wakeAll);
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

    /**
     * Returns how this table's consumers search.
     *
     * @return {@link Search#SUMMARY} or {@link Search#PROBE}
     */
    public Search search() {
        return search;
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
     * Completes an insert after the space reservation was tried. On ACQUIRED: fill, then make
     * the element takeable.
     *
     * @return false if the element was not inserted: no space was reserved (full, timed out, or
     *         closed)
     */
    private boolean insertReserved(int spaceOutcome, long key, E e) {
        if (spaceOutcome != Reservations.ACQUIRED) {
            return false; // NONE: full or timed out; EXHAUSTED: closed
        }
        counters.insertProbes(scans.insert(key, e));
        counters.countInsert();
        takeable.release(); // after the slot write: a consumer reserving this item finds it
        return true;
    }

    /** Every space free: no insert, and no removal, under way (see "Close" in the notes). */
    @Override
    boolean nothingUnderWay() {
        return fillable.available() == capacity();
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
        if (isClosed() || !insertReserved(fillable.acquire(), key, e)) {
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
    @SuppressWarnings("unchecked")
    E removeReserved() {
        E e = (E) scans.take();
        counters.countRemoval();
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
        int[] where = new int[held];
        Object[] seen = new Object[held];
        int found = 0;
        int probes = 0;
        for (int i = 0; i < scans.slots.length() && found < held; i++) {
            probes++;
            Object e = scans.slots.hint(i);
            if (e != null) {
                where[found] = i;
                seen[found++] = e;
            }
        }
        counters.searchProbes(probes);
        int drained = 0;
        try {
            for (int k = 0; k < found; k++) {
                if (!scans.tryEmpty(where[k], seen[k])) {
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
                counters.countRemoval();
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
        scans.insert(random.nextLong(), e);
        takeable.handBack(1);
    }

    @Override
    boolean removeFirst(Predicate<Object> match) {
        if (takeable.tryAcquireHeld(1) == 0) {
            return false; // every element inside is reserved by a consumer and about to leave
        }
        boolean removed = false;
        try {
            for (int i = 0; i < scans.slots.length(); i++) {
                Object e = scans.slots.read(i);
                if (e != null && match.test(e) && scans.tryEmpty(i, e)) {
                    counters.searchProbes(i + 1);
                    counters.countRemoval();
                    fillable.release();
                    takeable.settle(1);
                    removed = true;
                    return true;
                }
            }
            counters.searchProbes(scans.slots.length());
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
        for (int i = 0; i < scans.slots.length(); i++) {
            Object e = scans.slots.read(i);
            if (e == null || !match.test(e)) {
                continue;
            }
            if (takeable.tryAcquireHeld(1) == 0) {
                break; // every element inside is reserved by a consumer and about to leave
            }
            if (scans.tryEmpty(i, e)) {
                counters.countRemoval();
                fillable.release();
                takeable.settle(1);
                removed++;
            } else {
                counters.searchConflict(); // a consumer took it since the look
                takeable.handBack(1);
            }
        }
        counters.searchProbes(scans.slots.length());
        return removed;
    }

    /** Polls at most size() times, so it ends while producers keep inserting; new arrivals may stay. */
    @Override
    public void clear() {
        for (int n = size(); n > 0 && poll() != null; n--) { // each poll frees a slot, waking a producer
        }
    }

    // ---- looking ----

    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        return (E) firstInSlotOrder(e -> true);
    }

    @Override
    public boolean contains(Object o) {
        return o != null && firstInSlotOrder(o::equals) != null;
    }

    /** The first element in slot order that match accepts, or null; one look at each slot. */
    private Object firstInSlotOrder(Predicate<Object> match) {
        for (int i = 0; i < scans.slots.length(); i++) {
            Object e = scans.slots.read(i);
            if (e != null && match.test(e)) {
                return e;
            }
        }
        return null;
    }

    /** Returns the elements in slot order, read one slot at a time (weakly consistent). */
    @Override
    public Object[] toArray() {
        Object[] copy = new Object[scans.slots.length()];
        int n = 0;
        for (int i = 0; i < copy.length; i++) {
            Object e = scans.slots.read(i);
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
        return scans.slots.length();
    }

    @Override
    public Ordering ordering() {
        return Ordering.UNORDERED;
    }

    // ---- closing ----

    @Override
    public void close() {
        fillable.close(); // the linearization point: no space is reserved after this; wakes producers
        takeable.close(); // then consumers: take drains, then throws once nothing is under way
    }

    @Override
    public boolean isClosed() {
        return fillable.isClosed();
    }

    /** For tests: the table's reservation counts, e.g. "available=3 pending=0". */
    String reservationsForTest() {
        return "takeable[" + takeable + "] fillable[" + fillable + "]";
    }

    /** For tests: this table's probe sequences (see ProbeSequence). */
    ProbeSequence probingForTest() {
        return scans.probing;
    }
}
