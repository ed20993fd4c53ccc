/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.guard.UnderWay;
import dev.handoff.internal.observe.CountedHandoffs;
import dev.handoff.internal.probe.ProbeRandom;
import dev.handoff.internal.probe.ProbeSequence;
import dev.handoff.internal.table.ArraySlots;
import dev.handoff.internal.table.FillHints;
import dev.handoff.internal.table.MonitorSlots;
import dev.handoff.internal.table.OccupancySummary;
import dev.handoff.internal.table.TableScans;
import dev.handoff.internal.table.TableSlots;
import dev.handoff.internal.waiting.Spin;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Waiters;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
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
public class ParallelHashTable<E> extends AbstractHandoff<E> {
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
     *   summary  [  1   |  0   |  1 |  0   |  0   |  1 |  0   |  0   |  1 |  0   ]  one bit per slot
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
     * 2. No polling, and no shared count. The appendix code scans the table and, finding
     *    nothing, sleeps wait(500). Here a thread that finds nothing it can win in one pass
     *    (TableScans: one look at each summary bit, or one lap of a probe sequence) waits on a
     *    Condition (class Waiters) and is signalled by the thread that changes a slot:
     *
     *      put:  one pass: CAS the element into an empty slot  ->  signal a waiting consumer
     *            (none won: spin, then count itself among notFull's waiters, look again, park)
     *      take: one pass: CAS an element out of a slot  ->  signal a waiting producer
     *            (none won: spin, then count itself among notEmpty's waiters, look again, park)
     *
     *    No lost wake-up: the waiter's second look (TableScans.looksEmpty, looksFull) reads the
     *    summary words and slots with volatile reads after its volatile increment of the waiter
     *    count, and the changer reads that count after its volatile CAS of the slot and RMW of
     *    the word (Waiters' Dekker pair, with the slot or its summary word as the state). One
     *    gap needs a hand: a filler that finds its slot's bit still set leaves the bit to the
     *    emptier of the previous element, which clears it and sets it again; a consumer that
     *    read the word between the two saw no element, so the emptier wakes one
     *    (OccupancySummary.emptied's result, TableScans' markedAgain).
     *
     *    Consumers are woken one per burst (Waiters.oneWakeUpPerBurst): while a signalled
     *    consumer has not yet come back from its park, a put signals nobody, and the consumer
     *    that comes back and takes passes the wake-up on if elements are left. A lone producer
     *    feeding many parked consumers, which sets the pace there, so pays one lock and one
     *    unpark per burst instead of one per put. Producers are woken one per freed slot, by
     *    the take that freed it: in a full table every take frees room for exactly one
     *    producer, and handing the wake-up on from producer to producer left freed slots empty
     *    while the next one woke (measured slower at 4P/4C and 8P/8C).
     *
     *    Nothing but the slot and its summary word is written per element, so a pass may fail
     *    under concurrency (a slot freed, or an element put, behind it): the calls that must not
     *    fail look again before they park, and offer/poll() may miss (class Javadoc).
     *
     *    The scans are lock-free, not wait-free: a pass fails only if every slot it could use
     *    was won by another thread during that pass (or the table was full, or empty).
     *
     * 3. Many producers. Nothing in the scheme assumes a single producer: slots are claimed
     *    by CAS, and nothing counts inserts (see "Close").
     *
     * 4. Keys. A consumer's key is a fresh ThreadLocalRandom long per search (drawn through
     *    ProbeRandom, the seam the Lincheck model checker needs). The producer's key (KeySource)
     *    is by default drawn the same way, before the table is touched: no user code runs in the
     *    table, and keys are uniform and independent, Theorem 1's assumption. The papers' form
     *    spreads the element's hashCode() (ProbeSequence.spread), also before the table is
     *    touched, so a hashCode() that throws leaves nothing to undo; an element that drainTo
     *    puts back returns to its own slot. h1 and h2 come from the key's two halves, h2 moved up to the next
     *    value coprime to m (ProbeSequence): the papers take m prime, the coprime step keeps
     *    every probe sequence a permutation of the slots for any capacity.
     *
     * 5. The search (Search.SUMMARY, default). The papers' consumer probes slot by slot, about
     *    m/(n+1) probes when n of m slots are full: costly in the mostly empty table that fast
     *    consumers keep. OccupancySummary keeps one bit per slot, a hint kept true by a Dekker
     *    pair (see there), so a consumer reads 64 slots per word and tries only marked slots.
     *    A pass that finds nothing it can win ends; the caller looks again before it parks. Every second
     *    summary search of a thread starts at the sweep instead of a random slot and moves the
     *    sweep past the element it takes; a marked element at or after the sweep is therefore
     *    taken before the sweep can pass it, which bounds its wait (class Javadoc). Producers read
     *    the summary too, for a clear bit (m/(free+1) probes in a full table become a word or
     *    so): with random keys from just after the thread's own last fill (FillHints), so that
     *    one producer's elements lie ahead of the sweep in the order they came and the sweep
     *    meets the oldest first; from the key's start slot for its first fill, after a lost
     *    claim, and with hashed keys. Search.PROBE keeps the papers' search and insert (and
     *    no summary), so that Theorems 1 and 2 stay measurable. Search.CURSOR keeps, for at most
     *    every second search, the papers' search; the other searches walk from the thread's own
     *    cursor (TableScans.Walk), which bounds the wait as the sweep does without a position that
     *    every consumer writes, and producers fill on from their last fill slot by slot, as
     *    the summary fill does word by word. No summary: nothing but the slot is written per
     *    element.
     *
     * Close. close() writes closed, then wakes every waiter. A consumer reports "closed and
     * empty" only when it reads closed, then no drain under way that may still put an element
     * back (UnderWay), then no element in any slot (every slot, not the summary, whose bit an
     * emptier may have cleared over a new element for a moment); each read volatile, in that
     * order. An insert reads closed before it looks for a slot (refused: nothing touched), and
     * again after its slot's CAS and bit, and if the table is closed by then it takes its element
     * back (TableScans.retract) unless a consumer or a drain took it already; so an insert needs
     * no count. The pair: if the second read says open, the close, and so every final check,
     * comes after the fill and sees the element; if it says closed, the element is either taken
     * back, and the insert is refused, or received. A drain counts itself in UnderWay (it reads
     * no closed flag: it holds elements that may go back), and one that ends after the close
     * wakes every consumer to recheck.
     *
     * drainTo looks at the slots once and notes the elements inside (at most as many as were
     * counted at its start), then holds each by CAS (element -> HELD), hands it to the target,
     * and empties the slot (HELD -> null) once add returns; if add throws, the element goes
     * back into its own slot (HELD -> element), so nothing is lost and no other thread can fill
     * that slot meanwhile. It moves only elements present at its start and ends after one scan
     * even while producers keep inserting. remove(Object) and the bulk removals take a matching
     * element by the same CAS as a consumer, after the match.
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
     * with acquire semantics (a CAS with acquire, or the same monitor), so the actions before
     * put() happen-before the actions after the take that returns the element. A drain that
     * puts an element back does so with a volatile CAS, which the next taker's acquire pairs
     * with. Each ordered access below names its partner.
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

        /**
         * The value of this search in a spec's {@code search=} option: {@code probe},
         * {@code cursor} or {@code summary}.
         */
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

    /** Inserts that read the table open, and drains holding an element, not yet done. */
    private final UnderWay underWay = new UnderWay();

    /** Set once by close(). */
    private volatile boolean closed;

    /** Consumers parked until a slot shows an element, or the table is closed and final. */
    private final ReentrantLock takeLock = new ReentrantLock();
    private final Waiters notEmpty;

    /** Producers parked until a slot shows room, or the table closes. */
    private final ReentrantLock putLock = new ReentrantLock();
    private final Waiters notFull;

    /** Let one consumer and one producer at a time spin before parking (see Spin). */
    private final Spin.Gate takeSpin = new Spin.Gate();
    private final Spin.Gate putSpin = new Spin.Gate();

    /**
     * How many spin rounds apart a spinner looks at the table: every round with the summary (a
     * word per 64 slots), every 16th without it (Search.PROBE, CURSOR), where a look reads
     * every slot.
     */
    private final int lookEvery;

    /** The waiters' re-checks, as fields so that no wait allocates a lambda. */
    private final BooleanSupplier nothingToTakeYet = this::nothingToTakeYet;
    private final BooleanSupplier somethingToTake = () -> !nothingToTakeYet();

    /**
     * What a spinning consumer looks at, and how many rounds apart: under Search.CURSOR the
     * slots just from where its next walk starts, every round (a hint: the park re-checks every
     * slot); otherwise somethingToTake, every lookEvery rounds.
     */
    private final BooleanSupplier takeSpinReady;
    private final int takeLookEvery;
    private final BooleanSupplier noRoomYet = this::noRoomYet;
    private final BooleanSupplier someRoom = () -> !noRoomYet();

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
        this.lookEvery = search == Search.SUMMARY ? 1 : 16;
        this.takeLookEvery = search == Search.CURSOR ? 1 : lookEvery;
        this.notEmpty = Waiters.oneWakeUpPerBurst(takeLock, Parking.TAKE, this);
        this.notFull = new Waiters(putLock, Parking.PUT, this);
        this.scans = new TableScans(slotsSeam.apply(slots), search, keys, random, counters, notEmpty::signalOne);
        this.takeSpinReady = search == Search.CURSOR ? scans::elementNearCursor : somethingToTake;
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
     * @return {@link Search#SUMMARY}, {@link Search#PROBE} or {@link Search#CURSOR}
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

    // ---- inserting ----

    /** Outcomes of one insert attempt. */
    private static final int INSERTED = 0;
    private static final int FULL = 1;
    private static final int CLOSED = 2;

    @Override
    public boolean offer(E e) {
        long key = keyOf(checkElement(e));
        return tryInsert(key, e) == INSERTED;
    }

    @Override
    public void put(E e) throws InterruptedException {
        long key = keyOf(checkElement(e));
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (insert(key, e, false, 0L) != INSERTED) {
            throw closedToInserts(); // the untimed insert fails only once closed
        }
    }

    @Override
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        long key = keyOf(checkElement(e));
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return insert(key, e, true, nanos) == INSERTED;
    }

    /**
     * One pass of the fill, which undoes itself if the table closed meanwhile (see "Close" in
     * the notes).
     *
     * @return INSERTED, FULL (the pass won no empty slot) or CLOSED
     */
    private int tryInsert(long key, E e) {
        if (closed) {
            return CLOSED;
        }
        int slot = scans.insert(key, e);
        if (slot < 0) {
            return FULL;
        }
        // Volatile read after the slot's CAS and its summary bit: the pair with close() and a
        // consumer's final check (see "Close"). Closed now: take e back, unless it left already.
        if (closed && scans.retract(slot, e)) {
            return CLOSED;
        }
        counters.countInsert();
        notEmpty.signalOne(); // after the slot's CAS and its summary bit: Waiters' pair
        return INSERTED;
    }

    /** Ends an operation counted in UnderWay; one that ends after the close wakes every consumer. */
    private void endUnderWay(int cell) {
        underWay.end(cell); // volatile, then the read of closed: see "Close" in the notes
        if (closed) {
            notEmpty.signalAll(); // consumers recheck for the final state
        }
    }

    /** Inserts e, waiting while no slot shows room: put (untimed) and the timed offer. */
    private int insert(long key, E e, boolean timed, long nanos) throws InterruptedException {
        int r = tryInsert(key, e);
        if (r != FULL) {
            return r;
        }
        if (timed && nanos <= 0L) {
            return FULL; // before the deadline's sum, which overflows for a timeout near Long.MIN_VALUE
        }
        if (!timed && spinUntil(putSpin, notFull, someRoom, lookEvery)) {
            r = tryInsert(key, e);
        }
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        while (r == FULL) {
            if (timed && (nanos = deadline - System.nanoTime()) <= 0L) {
                return FULL;
            }
            counters.producerWait();
            parkOnce(putLock, notFull, noRoomYet, timed, nanos);
            r = tryInsert(key, e);
        }
        return r;
    }

    /** The producers' re-check: open, and no slot shows room (volatile reads). */
    private boolean noRoomYet() {
        return !closed && scans.looksFull();
    }

    // ---- removing ----

    @Override
    public E poll() {
        return tryTake();
    }

    @Override
    public E take() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        E e = await(false, 0L);
        return e != null ? e : takeWhenClosedAndEmpty(); // throws, but to a pool worker (Handoff, "Under a ThreadPoolExecutor")
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return await(true, nanos);
    }

    /** One pass of the search; the element, or null if it won none. */
    @SuppressWarnings("unchecked")
    private E tryTake() {
        Object e = scans.take();
        if (e == null) {
            return null;
        }
        counters.countRemoval();
        notFull.signalOne(); // after the slot's CAS and its summary bit: Waiters' pair
        return (E) e;
    }

    /**
     * Takes an element, waiting while no slot shows one: take (untimed) and the timed poll.
     *
     * @return the element; null if the time ran out, or the table is closed and nothing can
     *         arrive any more
     */
    private E await(boolean timed, long nanos) throws InterruptedException {
        E e = tryTake();
        if (e != null || timed && nanos <= 0L) {
            return e; // before the deadline's sum, which overflows for a timeout near Long.MIN_VALUE
        }
        if (!timed && spinUntil(takeSpin, notEmpty, takeSpinReady, takeLookEvery)) {
            e = tryTake();
        }
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        while (e == null) {
            if (closedAndFinal() || timed && (nanos = deadline - System.nanoTime()) <= 0L) {
                return null;
            }
            counters.consumerWait();
            parkOnce(takeLock, notEmpty, nothingToTakeYet, timed, nanos);
            e = tryTake();
            if (e != null && !scans.looksEmpty()) {
                notEmpty.signalOne(); // pass the wake-up on: elements are left (Waiters' burst rule)
            }
        }
        return e;
    }

    /**
     * Parks on waiters once, holding lock for its re-check and await, until signalled, the
     * re-check says stillBlocked is false, or (when timed) nanos pass; the caller tries again.
     */
    private static void parkOnce(ReentrantLock lock, Waiters waiters, BooleanSupplier stillBlocked,
                                 boolean timed, long nanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            if (timed) {
                waiters.awaitNanos(stillBlocked, nanos);
            } else {
                waiters.await(stillBlocked);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether the table is closed and nothing can arrive: closed, then nothing under way, then
     * no element, read in that order (see "Close" in the notes).
     */
    private boolean closedAndFinal() {
        return closed && underWay.none() && scans.noElementInSlots();
    }

    /** The consumers' re-check: no slot shows an element, and the table is not final. */
    private boolean nothingToTakeYet() {
        boolean mayBeFinal = closed && underWay.none(); // read before the slots, as in closedAndFinal
        return scans.looksEmpty() && !mayBeFinal;
    }

    /**
     * The brief wait before parking (class Spin), until ready says a pass may succeed: at most
     * Spin.ROUNDS rounds for the side's one spinner, asking ready every {@code every} rounds, a few
     * yields for the others, none while threads of the side are parked (they are ahead of this
     * one).
     *
     * @return whether ready became true
     */
    private boolean spinUntil(Spin.Gate gate, Waiters parked, BooleanSupplier ready, int every) {
        if (parked.any()) { // a hint only: the waiting loop rechecks everything
            return false;
        }
        if (!gate.tryEnter()) {
            return Spin.yieldUntil(ready);
        }
        try {
            for (int i = 0; i < Spin.ROUNDS && !parked.any(); i++) {
                if (i % every == 0 && ready.getAsBoolean()) {
                    return true;
                }
                Spin.pause(i);
            }
            return false;
        } finally {
            gate.exit();
        }
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
        int inside = maxElements <= 0 ? 0 : Math.min(maxElements, scans.occupied());
        if (inside == 0) {
            return 0;
        }
        int[] where = new int[inside];
        Object[] seen = new Object[inside];
        int found = 0;
        int probes = 0;
        for (int i = 0; i < scans.slots.length() && found < inside; i++) {
            probes++;
            Object e = scans.element(i);
            if (e != null) {
                where[found] = i;
                seen[found++] = e;
            }
        }
        counters.searchProbes(probes);
        int drained = 0;
        int cell = underWay.begin(); // a held element may go back: consumers must not call the table final
        try {
            for (int k = 0; k < found; k++) {
                if (!scans.hold(where[k], seen[k])) {
                    counters.searchConflict(); // a consumer took it since the look
                    continue;
                }
                handOn(target, where[k], seen[k]);
                drained++;
            }
        } finally {
            endUnderWay(cell);
        }
        return drained;
    }

    /** Adds a held element to the drain's target, then frees its slot; puts it back if add throws. */
    @SuppressWarnings("unchecked")
    private void handOn(Collection<? super E> target, int slot, Object e) {
        try {
            target.add((E) e);
        } catch (RuntimeException | Error failure) {
            scans.restoreHeld(slot, e); // nothing is lost: it is inside again when the exception leaves
            notEmpty.signalOne();
            throw failure;
        }
        scans.releaseHeld(slot);
        counters.countRemoval();
        notFull.signalOne();
    }

    @Override
    boolean removeFirst(Predicate<Object> match) {
        for (int i = 0; i < scans.slots.length(); i++) {
            Object e = scans.element(i);
            if (e != null && match.test(e) && scans.tryEmpty(i, e)) {
                counters.searchProbes(i + 1);
                afterRemoval();
                return true;
            }
        }
        counters.searchProbes(scans.slots.length());
        return false;
    }

    /**
     * One look at every slot; an element that match accepts is taken out by the consumers' CAS,
     * so a consumer that wins the element first keeps it.
     */
    @Override
    int removeMatching(Predicate<Object> match) {
        int removed = 0;
        for (int i = 0; i < scans.slots.length(); i++) {
            Object e = scans.element(i);
            if (e == null || !match.test(e)) {
                continue;
            }
            if (scans.tryEmpty(i, e)) {
                afterRemoval();
                removed++;
            } else {
                counters.searchConflict(); // a consumer took it since the look
            }
        }
        counters.searchProbes(scans.slots.length());
        return removed;
    }

    /** Counts a removal other than a take's, and wakes a producer for the slot it freed. */
    private void afterRemoval() {
        counters.countRemoval();
        notFull.signalOne(); // after the slot's CAS: Waiters' pair
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
            Object e = scans.element(i);
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
            Object e = scans.element(i);
            if (e != null) {
                copy[n++] = e;
            }
        }
        return Arrays.copyOf(copy, n);
    }

    /** The occupied slots: a word of the summary at a time, or slot by slot without a summary. */
    @Override
    public int size() {
        return scans.occupied();
    }

    /** The empty slots: {@code capacity() - size()}. */
    @Override
    public int remainingCapacity() {
        return capacity() - size();
    }

    @Override
    public HandoffSpec.HashTable spec() {
        return new HandoffSpec.HashTable(capacity(), slotForm(), keySource(), search(), counters.enabled());
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
        closed = true; // volatile: the pair with an insert's second read (see "Close"); the re-checks read it
        notFull.signalAll(); // producers: put throws, the timed offer returns false
        notEmpty.signalAll(); // consumers: take drains, then throws once nothing is under way
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /** For tests: what is inside and under way, e.g. "occupied=3 underWay=false". */
    String stateForTest() {
        return "occupied=" + scans.occupied() + " underWay=" + !underWay.none();
    }

    /** For tests: this table's probe sequences (see ProbeSequence). */
    ProbeSequence probingForTest() {
        return scans.probing;
    }
}
