/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.probe.ProbeSequence;
import dev.handoff.internal.table.ArraySlots;
import dev.handoff.internal.table.MonitorSlots;
import dev.handoff.internal.table.TableHandoff;
import dev.handoff.internal.table.TableScheme;
import dev.handoff.internal.table.TableSlots;

import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.function.ToLongFunction;

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
 * searches may come between two steps of the sweep. Under {@link Search#CURSOR} at least every
 * second search of each consumer thread walks slot by slot from that thread's own cursor,
 * which moves only forward and never past an element inside without taking it; so an element
 * leaves within {@code 2 * capacity + 2} searches of any one consumer thread, however many
 * consumers there are, and no position is shared by the consumers. Under {@link Search#PROBE}
 * there is no bound: each removal takes any given element with probability at least
 * {@code 1/capacity}, so the wait has a geometric tail.
 *
 * <p>The producer's key comes from {@link KeySource}: by default a pseudo-random draw per insert
 * ({@link KeySource#RANDOM}), so that no element code runs in an insert or a removal (only
 * {@code remove(Object)} and {@code contains} call {@code equals}) and every element gets an
 * independent, uniform probe sequence. The papers' form, {@link KeySource#ELEMENT_HASH}, keys on
 * the element's {@code hashCode()}: an exception it throws leaves the insert with nothing
 * changed; under {@link Search#PROBE} and {@link Search#CURSOR} equal hash codes share one
 * probe sequence, so many equal elements insert in time proportional to the fill, not in
 * Theorem 1's constant time.
 *
 * <p>The slots come in two forms ({@link SlotForm}): the papers' form, a small object with a
 * monitor per slot, held only for one compare-and-set or read of an element to hand on, and a
 * lock-free form on one array. Both behave the same and differ only in speed. Blocked threads
 * wait on {@link java.util.concurrent.locks.Condition}s.
 *
 * <p>No count is shared by all threads: an insert and a removal each change one slot (and, under
 * the default search, one word of the occupancy summary), so producers and consumers working on
 * different parts of the table write different cache lines. The price is in the answers that a
 * count would give at once. {@code size()} and {@code remainingCapacity()} count the occupied and
 * the empty slots (a word of the summary at a time, or slot by slot under {@link Search#PROBE} and
 * {@link Search#CURSOR}); they always lie within {@code [0, capacity()]} and add up to
 * {@code capacity()} whenever no operation is in progress. {@code offer} and {@code poll()} look at
 * each slot at most once: {@code offer} returns {@code false} when its pass finds no empty slot it
 * can claim, which under concurrent removals can happen while a slot behind the pass is freed;
 * {@code poll()} returns {@code null} when its pass finds no element it can take, which under
 * concurrent inserts can happen while an element arrives behind the pass. The waiting calls
 * ({@code put}, {@code take} and the timed forms) never give up on such a miss: they look again
 * before they park, and park only while no slot shows what they need. {@code peek()},
 * {@code contains}, {@code toArray()} and iteration read the slots one by one and are weakly
 * consistent; they list elements in slot order, which says nothing about the order of removal.
 *
 * <p>Linearizability. While the table neither fills up nor closes, {@code offer}, {@code poll}
 * and {@code size()} behave as on a multiset, and {@code offer} and {@code poll} still do across
 * {@code close()}: an insert that finds the table closed once its element is in takes the element
 * back and is refused, unless a consumer took it first. Where fullness comes in they do not (a
 * slot and its summary bit change one after the other), nor does {@code size()} during a close
 * (an element taken back was counted for a moment). {@code ParallelHashTableLincheckTest}
 * (jcstress-tests) checks the first two and pins a history of the third.
 *
 * <p>See {@link Handoff} for closing, interruption, iteration and memory-consistency effects.
 *
 * @param <E> the type of elements held
 */
public final class ParallelHashTable<E> extends AbstractHandoff<E> {
    /*
     * Implementation notes.
     *
     * The parallel hash table (PHT) of B. Roussev and J. Wu, "Distributed computing using Java: a
     * comparison of two server designs", Journal of Systems Architecture 52(7), 2006, section 4,
     * first the concurrent hash table of their "Client-server design alternatives: back to pipes
     * but with threads", Proc. International Conference on Networking (ICN), 2001, section 3.5:
     * m slots, open addressing with double hashing h(k, i) = (h1(k) + i * h2(k)) mod m. A
     * producer probes from its insert's key for an empty slot; a consumer looks for an occupied one.
     *
     *              consumer: start r, stride s'           producer: start h1(k), stride h2(k)
     *                   v                                     v
     *   slots  [ e3 | null | e1 | null | null | e7 | null | null | e2 | null ]     m = 10
     *               ^^^^ claimed by CAS null -> e             ^^^^ taken by CAS e -> null
     *   summary  [  1   |  0   |  1 |  0   |  0   |  1 |  0   |  0   |  1 |  0   ]  one bit per slot
     *
     * This class maps its options, once, onto dev.handoff.internal.table: the slots (ArraySlots,
     * MonitorSlots) and a TableScheme (the occupancy, the producers' TableFill and the consumers'
     * TableSearch), which TableHandoff runs, waiting, closing and draining around them. Each of
     * those classes says where it differs from the papers.
     *
     * Keys (keyOf). Search keys and RANDOM insert keys are ThreadLocalRandom draws, through
     * ProbeRandom (the Lincheck model checker's seam), made before the table is touched: no user
     * code runs in the table, and keys are uniform and independent, Theorem 1's assumption.
     * ELEMENT_HASH spreads hashCode() (ProbeSequence.spread), also first, so a hashCode() that
     * throws leaves nothing to undo. h1 and h2 come from the key's two halves, h2 moved up to the
     * next value coprime to m (the papers take m prime), so every probe sequence is a permutation
     * of the slots for any capacity.
     */

    /** How the slots are built. Both forms give the same behaviour; they differ in speed. */
    public enum SlotForm {
        /**
         * The papers' form: one {@code SynchronizedRef}-style object per slot, whose
         * compare-and-set, and every read of an element to hand on, hold its monitor for that
         * one step; a scan's look at a slot reads its volatile value without the monitor.
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
         * Walks from each thread's own place and, in turn, the papers' search, with no summary:
         * a consumer thread's search after a probe, or after a search that won nothing, goes
         * slot by slot from where its last walk in this table stopped and takes the first
         * element it wins; a search after a walk that won probes from a pseudo-random slot as
         * {@link #PROBE} does; a producer with {@link KeySource#RANDOM}
         * fills slot by slot from just after its own last fill (with
         * {@link KeySource#ELEMENT_HASH}, on its key's probe sequence), so that its elements lie
         * in the order it put them. Nothing but the slots is written per element, and an
         * element's wait is bounded (see the class description).
         */
        CURSOR,
        /**
         * Reads a summary of the occupied slots, 64 slots a word, from a pseudo-random slot or
         * the sweep in turn (an element's wait is bounded: see the class description), and
         * producers read it for an empty slot: with {@link KeySource#RANDOM} from just after the
         * thread's last insert into the table, so that one producer's elements lie in the order
         * it put them and the sweep meets the oldest first; with
         * {@link KeySource#ELEMENT_HASH} from the key's start slot. The default.
         */
        SUMMARY;

        /** The value of this search in a spec's {@code search=} option: probe, cursor or summary. */
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

    /** The slots, the fill and the search over them, and the waiting around them. */
    private final TableHandoff table;

    /** The spec this table was built from, canonical (AbstractHandoff.specOf). */
    private final String spec;

    /** The spec's slot form, key source and search. */
    private final SlotForm slotForm;
    private final KeySource keys;
    private final Search search;

    /** Draws search keys and RANDOM insert keys: ThreadLocalRandom except under Lincheck. */
    private final ProbeRandom random;

    /**
     * Creates a table of the given capacity with the default slot form, key source and search,
     * that does not count statistics. Other options are chosen through a spec:
     * {@code Handoffs.hashTable(capacity).slots(SlotForm.MONITOR).withStats().build()}.
     *
     * @param capacity the number of slots, i.e. of elements it holds
     * @throws IllegalArgumentException if {@code capacity <= 0} or {@code capacity > MAX_CAPACITY}
     */
    public ParallelHashTable(int capacity) {
        this(new HandoffSpec.HashTable(capacity, DEFAULT_SLOT_FORM, DEFAULT_KEY_SOURCE, DEFAULT_SEARCH, false));
    }

    /** Creates the table of a spec, which checked the capacity against its slot form. */
    ParallelHashTable(HandoffSpec.HashTable spec) {
        this(spec, ProbeRandom.THREAD_LOCAL);
    }

    /** Creates a table that draws its random keys from {@code random}: the Lincheck tests' seam. */
    ParallelHashTable(HandoffSpec.HashTable spec, ProbeRandom random) {
        this(spec, random, UnaryOperator.identity());
    }

    /**
     * Creates a table whose slots are wrapped by {@code slotsSeam}: the seam through which the
     * Theorem 3 property holds one consumer between its look at a slot and its claim
     * (ParallelHashTableTheoremProperties), and other tests hook into a fill.
     */
    ParallelHashTable(HandoffSpec.HashTable spec, ProbeRandom random, UnaryOperator<TableSlots> slotsSeam) {
        super(spec.stats());
        this.spec = spec.toString();
        this.slotForm = spec.slots();
        this.keys = spec.keys();
        this.search = spec.search();
        this.random = Objects.requireNonNull(random, "random");
        int capacity = spec.capacity();
        TableSlots slots = slotsSeam.apply(spec.slots() == SlotForm.MONITOR
                ? new MonitorSlots(capacity) : new ArraySlots(capacity));
        boolean followOn = spec.keys() == KeySource.RANDOM; // a producer fills on from its own last fill
        TableScheme scheme = switch (spec.search()) {
            case PROBE -> TableScheme.probe(random);
            case CURSOR -> TableScheme.cursor(followOn, random);
            case SUMMARY -> TableScheme.summary(capacity, followOn, random);
        };
        this.table = new TableHandoff(this, slots, scheme, counters);
    }

    /** Rejects a capacity outside [1, the form's limit], naming the limit. */
    static int checkCapacity(int capacity, SlotForm form) {
        return form == SlotForm.MONITOR
                ? checkCapacity(capacity, MAX_MONITOR_CAPACITY, "ParallelHashTable.MAX_MONITOR_CAPACITY",
                        "ParallelHashTable with monitor slots")
                : checkCapacity(capacity, MAX_CAPACITY, "ParallelHashTable.MAX_CAPACITY", "ParallelHashTable");
    }

    /** {@return the form this table's slots were built in, {@link SlotForm#MONITOR} or {@link SlotForm#CAS}} */
    public SlotForm slotForm() {
        return slotForm;
    }

    /**
     * {@return where this table's producers take their keys from, {@link KeySource#RANDOM} or
     * {@link KeySource#ELEMENT_HASH}}
     */
    public KeySource keySource() {
        return keys;
    }

    /**
     * {@return how this table's consumers search, {@link Search#SUMMARY}, {@link Search#PROBE} or
     * {@link Search#CURSOR}}
     */
    public Search search() {
        return search;
    }

    /**
     * The probe key of an insert: a draw, or e's hashCode spread. Call before touching the table,
     * so that a hashCode() that throws leaves nothing to undo.
     */
    private long keyOf(Object e) {
        return keys == KeySource.RANDOM ? random.nextLong() : ProbeSequence.spread(e.hashCode());
    }

    @Override
    public boolean offer(E e) {
        return table.offer(keyOf(checkElement(e)), e);
    }

    @Override
    public void put(E e) throws InterruptedException {
        if (!table.insert(keyOf(checkElement(e)), e, false, 0L)) {
            throw closedToPut(); // the untimed insert fails only once closed
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        return table.insert(keyOf(checkElement(e)), e, true, unit.toNanos(timeout));
    }

    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        return (E) table.poll();
    }

    @Override
    @SuppressWarnings("unchecked")
    public E take() throws InterruptedException {
        E e = (E) table.take(false, 0L);
        return e != null ? e : takeWhenClosedAndEmpty(); // throws, but to a pool's own code (Handoff, "Under a thread pool")
    }

    @Override
    @SuppressWarnings("unchecked")
    E timedTake(long nanos) throws InterruptedException {
        return (E) table.take(true, nanos); // null: timed out, or closed and empty
    }

    /**
     * Moves elements that are inside when it starts, in slot order, never ones that arrive while
     * it runs: at most as many as were inside at the start, fewer if concurrent consumers take
     * some of them first. So a drain ends after one scan even while producers keep inserting.
     * An element whose {@code add} throws goes back into its slot before the exception leaves.
     */
    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        checkDrainTarget(target);
        return table.drainTo(target, maxElements);
    }

    @Override
    boolean removeFirst(Predicate<Object> match) {
        return table.removeFirst(match);
    }

    @Override
    int removeMatching(Predicate<Object> match) {
        return table.removeMatching(match);
    }

    /** Polls at most size() times, so it ends while producers keep inserting; new arrivals may stay. */
    @Override
    public void clear() {
        for (int n = size(); n > 0 && poll() != null; n--) { // each poll frees a slot, waking a producer
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        return (E) table.firstInSlotOrder(e -> true);
    }

    @Override
    public boolean contains(Object o) {
        return o != null && table.firstInSlotOrder(o::equals) != null;
    }

    /** Returns the elements in slot order, read one slot at a time (weakly consistent). */
    @Override
    public Object[] toArray() {
        return table.toArray();
    }

    /** Looks at every slot: the table keeps no order (see {@code TableHandoff.oldestStamp}). */
    @Override
    long oldestStamp(ToLongFunction<Object> stampOf) {
        return table.oldestStamp(stampOf);
    }

    /** The occupied slots: a word of the summary at a time, or slot by slot without a summary. */
    @Override
    public int size() {
        return table.size();
    }

    /** The empty slots: {@code capacity() - size()}. */
    @Override
    public int remainingCapacity() {
        return capacity() - size();
    }

    @Override
    public HandoffSpec.HashTable spec() {
        return specOf(spec, HandoffSpec.HashTable.class);
    }

    @Override
    public int capacity() {
        return table.capacity();
    }

    @Override
    public Ordering ordering() {
        return Ordering.UNORDERED;
    }

    @Override
    public void close() {
        table.close(); // producers: put throws, the timed offer returns false; consumers drain, then take throws
    }

    @Override
    public boolean isClosed() {
        return table.isClosed();
    }

    /** For tests: what is inside and under way, e.g. "occupied=3 underWay=false". */
    String stateForTest() {
        return table.state();
    }

    /** For tests: this table's probe sequences (see ProbeSequence). */
    ProbeSequence probingForTest() {
        return table.probing();
    }
}
