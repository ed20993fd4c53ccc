/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.guard.UnderWay;
import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeSequence;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;
import dev.handoff.internal.waiting.Waiters;

import java.util.Arrays;
import java.util.Collection;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The hash table's handoff: a pass of its fill or its search, and the waiting, closing, draining
 * and removing around them. The public ParallelHashTable is a thin BlockingQueue over this (as
 * the JDK's SynchronousQueue is over its Transferer), and chooses the fill and the search that
 * this runs.
 */
public final class TableHandoff {
    /*
     * No polling, and no shared count. The papers' HashBuffer scans the table and, finding
     * nothing, sleeps wait(500). Here a thread that finds nothing it can win in one pass (of its
     * TableFill or TableSearch) waits on a Condition (class Waiters) and is signalled by the
     * thread that changes a slot:
     *
     *   put:  one pass: CAS the element into an empty slot  ->  signal a waiting consumer
     *         (none won: spin, then count itself among notFull's waiters, look again, park)
     *   take: one pass: CAS an element out of a slot  ->  signal a waiting producer
     *         (none won: spin, then count itself among notEmpty's waiters, look again, park)
     *
     * No lost wake-up: the waiter's second look (SlotTable.looksEmpty, looksFull) reads the
     * summary words and slots with volatile reads after its volatile increment of the waiter
     * count, and the changer reads that count after its volatile CAS of the slot and RMW of the
     * word (Waiters' Dekker pair, with the slot or its summary word as the state). The one gap,
     * a bit set again by an emptier, is closed in SlotTable (markedAgain).
     *
     * Consumers are woken one per burst (Waiters.oneWakeUpPerBurst): while a signalled consumer
     * has not yet come back from its park, a put signals nobody, and the consumer that comes back
     * and takes passes the wake-up on if elements are left. A lone producer feeding many parked
     * consumers, which sets the pace there, so pays one lock and one unpark per burst instead of
     * one per put. Producers are woken one per freed slot, by the take that freed it: in a full
     * table every take frees room for exactly one producer, and handing the wake-up on from
     * producer to producer would leave freed slots empty while the next one woke
     * (docs/parallel-hash-table.md, invariant 3).
     *
     * Before it parks, an untimed put or take spins (Spinner, one spinner per side), never while
     * threads of its side are parked: they are ahead of it. A spinner looks every round where a
     * look is a word per 64 slots, every LOOK_EVERY_SLOT_READ rounds where it reads every slot;
     * a cursor consumer looks near its cursor every round (CursorSearch.elementNear).
     *
     * Nothing but the slot and its summary word is written per element, so a pass may fail under
     * concurrency (a slot freed, or an element put, behind it): the calls that must not fail look
     * again before they park, and offer/poll() may miss (ParallelHashTable's Javadoc).
     *
     * Close. close() writes closed, then wakes every waiter. A consumer reports "closed and
     * empty" only when it reads closed, then no drain under way that may still put an element
     * back (UnderWay), then no element in any slot (every slot, not the summary, whose bit an
     * emptier may have cleared over a new element for a moment); each read volatile, in that
     * order. An insert reads closed before it looks for a slot (refused: nothing touched), and
     * again after its slot's CAS and bit, and if the table is closed by then it takes its element
     * back (SlotTable.retract) unless a consumer or a drain took it already; so an insert needs
     * no count. The pair: if the second read says open, the close, and so every final check,
     * comes after the fill and sees the element; if it says closed, the element is either taken
     * back, and the insert is refused, or received. A drain counts itself in UnderWay (it reads
     * no closed flag: it holds elements that may go back), and one that ends after the close
     * wakes every consumer to recheck.
     *
     * drainTo looks at the slots once and notes the elements inside (at most as many as were
     * counted at its start), then holds each by CAS (element -> HELD), hands it to the target,
     * and empties the slot (HELD -> null) once add returns; if add throws, the element goes back
     * into its own slot (HELD -> element), so nothing is lost and no other thread can fill that
     * slot meanwhile. It moves only elements present at its start and ends after one scan even
     * while producers keep inserting. remove(Object) and the bulk removals take a matching
     * element by the same CAS as a consumer, after the match.
     */

    /** Rounds apart that a spinner looks when a look reads every slot (no summary). */
    private static final int LOOK_EVERY_SLOT_READ = 16;

    /** Outcomes of one insert attempt. */
    private static final int INSERTED = 0;
    private static final int FULL = 1;
    private static final int CLOSED = 2;

    /** The slots and their occupancy. */
    private final SlotTable table;

    /** How producers find an empty slot, and consumers an element. */
    private final TableFill fill;
    private final TableSearch search;

    private final Counters counters;

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

    /** Whether a consumer, or a producer, may spin before parking, and for how long. */
    private final Spinner takeSpinner = new Spinner();
    private final Spinner putSpinner = new Spinner();

    /** How many spin rounds apart a spinning producer looks at the table (see the notes). */
    private final int putLookEvery;

    /** The waiters' re-checks, as fields so that no wait allocates a lambda. */
    private final BooleanSupplier stillEmpty = this::stillEmpty;
    private final BooleanSupplier somethingToTake = () -> !stillEmpty();
    private final BooleanSupplier stillFull = this::stillFull;

    /** What a spinning consumer looks at, and how many rounds apart (see the notes). */
    private final BooleanSupplier takeSpinReady;
    private final int takeLookEvery;

    /**
     * @param owner the handoff, named in the JFR events of its waits
     * @param slots the slots
     * @param scheme the occupancy, fill and search this table runs
     * @param counters the handoff's counters
     */
    public TableHandoff(Object owner, TableSlots slots, TableScheme scheme, Counters counters) {
        this.counters = counters;
        this.notEmpty = Waiters.oneWakeUpPerBurst(takeLock, Parking.TAKE, owner);
        this.notFull = new Waiters(putLock, Parking.PUT, owner);
        this.table = new SlotTable(slots, scheme.occupancy(), counters, notEmpty::signalOne);
        this.fill = scheme.fill().apply(table);
        this.search = scheme.search().apply(table);
        this.putLookEvery = table.looksReadEverySlot() ? LOOK_EVERY_SLOT_READ : 1;
        this.takeSpinReady = this.search.hasNearLook() ? this.search::elementNear : somethingToTake;
        this.takeLookEvery = this.search.hasNearLook() ? 1 : putLookEvery;
    }

    // ---- inserting ----

    /** One pass of the fill (see {@link #insert}); whether it inserted e. */
    public boolean offer(long key, Object e) {
        return tryInsert(key, e) == INSERTED;
    }

    /**
     * One pass of the fill, which undoes itself if the table closed meanwhile (see "Close" in
     * the notes).
     *
     * @return INSERTED, FULL (the pass won no empty slot) or CLOSED
     */
    private int tryInsert(long key, Object e) {
        if (closed) {
            return CLOSED;
        }
        int slot = fill.insert(key, e);
        if (slot < 0) {
            return FULL;
        }
        // Volatile read after the slot's CAS and its summary bit: the pair with close() and a
        // consumer's final check (see "Close"). Closed now: take e back, unless it left already.
        if (closed && table.retract(slot, e)) {
            return CLOSED;
        }
        counters.countInsert();
        notEmpty.signalOne(); // after the slot's CAS and its summary bit: Waiters' pair
        return INSERTED;
    }

    /**
     * Inserts e, waiting while no slot shows room: put (untimed) and the timed offer.
     *
     * @param key the insert's probe key
     * @return whether e was inserted; false if the table is closed, or (timed) the time ran out
     * @throws InterruptedException if interrupted on entry or while parked
     */
    public boolean insert(long key, Object e, boolean timed, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        int r = tryInsert(key, e);
        if (r != FULL) {
            return r == INSERTED;
        }
        if (timed && nanos <= 0L) {
            return false; // before the deadline's sum, which overflows for a timeout near Long.MIN_VALUE
        }
        if (!timed && spin(putSpinner, TableHandoff::room, TableHandoff::producerParked, putLookEvery)) {
            r = tryInsert(key, e);
        }
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        for (int missed = 0; r == FULL; ) {
            if (timed && (nanos = deadline - System.nanoTime()) <= 0L) {
                return false;
            }
            counters.producerWait();
            missed = parkOnce(putLock, notFull, stillFull, timed, nanos) ? 0 : lookedInVain(missed);
            r = tryInsert(key, e);
        }
        return r == INSERTED;
    }

    /** The producers' re-check: open, and no slot shows room (volatile reads). */
    private boolean stillFull() {
        return !closed && table.looksFull();
    }

    /** Ends an operation counted in UnderWay; one that ends after the close wakes every consumer. */
    private void endUnderWay(int cell) {
        underWay.end(cell); // volatile, then the read of closed: see "Close" in the notes
        if (closed) {
            notEmpty.signalAll(); // consumers recheck for the final state
        }
    }

    // ---- removing ----

    /** One pass of the search; the element, or null if it won none. */
    public Object poll() {
        Object e = search.take();
        if (e == null) {
            return null;
        }
        counters.countRemoval();
        notFull.signalOne(); // after the slot's CAS and its summary bit: Waiters' pair
        return e;
    }

    /**
     * Takes an element, waiting while no slot shows one: take (untimed) and the timed poll.
     *
     * @return the element; null if the time ran out, or the table is closed and nothing can
     *         arrive any more
     * @throws InterruptedException if interrupted on entry or while parked
     */
    public Object take(boolean timed, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Object e = poll();
        if (e != null || timed && nanos <= 0L) {
            return e; // before the deadline's sum, which overflows for a timeout near Long.MIN_VALUE
        }
        if (!timed && spin(takeSpinner, TableHandoff::element, TableHandoff::consumerParked, takeLookEvery)) {
            e = poll();
        }
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        for (int missed = 0; e == null; ) {
            if (closedAndFinal() || timed && (nanos = deadline - System.nanoTime()) <= 0L) {
                return null;
            }
            counters.consumerWait();
            missed = parkOnce(takeLock, notEmpty, stillEmpty, timed, nanos) ? 0 : lookedInVain(missed);
            e = poll();
            if (e != null && !table.looksEmpty()) {
                notEmpty.signalOne(); // pass the wake-up on: elements are left (Waiters' burst rule)
            }
        }
        return e;
    }

    /**
     * Whether the table is closed and nothing can arrive: closed, then nothing under way, then
     * no element, read in that order (see "Close" in the notes).
     */
    private boolean closedAndFinal() {
        return closed && underWay.none() && table.noElementInSlots();
    }

    /** The consumers' re-check: no slot shows an element, and the table is not final. */
    private boolean stillEmpty() {
        boolean mayBeFinal = closed && underWay.none(); // read before the slots, as in closedAndFinal
        return table.looksEmpty() && !mayBeFinal;
    }

    // ---- waiting ----

    /**
     * Parks on waiters once, holding lock for its re-check and await, until signalled, the
     * re-check says stillBlocked is false, or (when timed) nanos pass; the caller tries again.
     *
     * @return false if it did not park because the re-check, asked first, said the caller may
     *         pass: a look at the summary that the caller's pass may still miss (see lookedInVain)
     */
    private static boolean parkOnce(ReentrantLock lock, Waiters waiters, BooleanSupplier stillBlocked,
                                    boolean timed, long nanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            if (!stillBlocked.getAsBoolean()) {
                return false;
            }
            waiters.await(stillBlocked, timed, nanos);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * After a round whose re-check said "pass again" instead of parking: the first such round
     * passes again at once (room or an element came); each one after it in a row pauses for a
     * partner first, since the look and the pass disagree only while another thread is between
     * a slot's CAS and its summary bit (OccupancySummary.filled, emptied), a few instructions.
     *
     * @param missed such rounds in a row before this one
     * @return such rounds in a row, this one included
     */
    private static int lookedInVain(int missed) {
        if (missed > 0) {
            Spinner.pauseForPartner(missed - 1);
        }
        return missed + 1;
    }

    /**
     * The spin before parking, for as many rounds as the side's spinner allows, until ready says
     * a pass may succeed: ready is asked every {@code every} rounds, and the spin ends at once
     * while threads of the side are parked, sideParked (a hint: the waiting loop re-checks
     * everything).
     *
     * @return whether ready became true
     */
    private boolean spin(Spinner spinner, Spinner.Ready<TableHandoff> ready, Spinner.Ready<TableHandoff> sideParked,
            int every) {
        if (sideParked.test(this, 0L)) {
            return false; // they are ahead of this thread: no spin, and no spin counted as failed
        }
        return spinner.spin(this, 0L, ready, sideParked, 0, every) == Spinner.CAME;
    }

    /** The producers' spin condition: a slot shows room. */
    private static boolean room(TableHandoff t, long unused) {
        return !t.stillFull();
    }

    /** The consumers' spin condition: an element shows, where the search looks. */
    private static boolean element(TableHandoff t, long unused) {
        return t.takeSpinReady.getAsBoolean();
    }

    /** Whether a producer parked: it is ahead of a spinning one, which stops. */
    private static boolean producerParked(TableHandoff t, long unused) {
        return t.notFull.any();
    }

    /** Whether a consumer parked: it is ahead of a spinning one, which stops. */
    private static boolean consumerParked(TableHandoff t, long unused) {
        return t.notEmpty.any();
    }

    // ---- draining and removing ----

    /**
     * Moves elements that are inside when it starts, in slot order, never ones that arrive while
     * it runs (see the notes); an element whose {@code add} throws goes back into its slot before
     * the exception leaves.
     *
     * @return how many elements it moved
     */
    public <E> int drainTo(Collection<? super E> target, int maxElements) {
        int inside = maxElements <= 0 ? 0 : Math.min(maxElements, table.occupied());
        if (inside == 0) {
            return 0;
        }
        int[] where = new int[inside];
        Object[] seen = new Object[inside];
        int found = 0;
        int probes = 0;
        for (int i = 0; i < table.length() && found < inside; i++) {
            probes++;
            Object e = table.element(i);
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
                if (!table.hold(where[k], seen[k])) {
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
    private <E> void handOn(Collection<? super E> target, int slot, Object e) {
        try {
            target.add((E) e);
        } catch (RuntimeException | Error failure) {
            table.restoreHeld(slot, e); // nothing is lost: it is inside again when the exception leaves
            notEmpty.signalOne();
            throw failure;
        }
        table.releaseHeld(slot);
        counters.countRemoval();
        notFull.signalOne();
    }

    /** Takes out the first element in slot order that match accepts; whether it took one. */
    public boolean removeFirst(Predicate<Object> match) {
        for (int i = 0; i < table.length(); i++) {
            Object e = table.element(i);
            if (e != null && match.test(e) && table.tryEmpty(i, e)) {
                counters.searchProbes(i + 1);
                afterRemoval();
                return true;
            }
        }
        counters.searchProbes(table.length());
        return false;
    }

    /**
     * One look at every slot; an element that match accepts is taken out by the consumers' CAS,
     * so a consumer that wins the element first keeps it.
     *
     * @return how many it took out
     */
    public int removeMatching(Predicate<Object> match) {
        int removed = 0;
        for (int i = 0; i < table.length(); i++) {
            Object e = table.element(i);
            if (e == null || !match.test(e)) {
                continue;
            }
            if (table.tryEmpty(i, e)) {
                afterRemoval();
                removed++;
            } else {
                counters.searchConflict(); // a consumer took it since the look
            }
        }
        counters.searchProbes(table.length());
        return removed;
    }

    /** Counts a removal other than a take's, and wakes a producer for the slot it freed. */
    private void afterRemoval() {
        counters.countRemoval();
        notFull.signalOne(); // after the slot's CAS: Waiters' pair
    }

    // ---- looking ----

    /** The first element in slot order that match accepts, or null; one look at each slot. */
    public Object firstInSlotOrder(Predicate<Object> match) {
        for (int i = 0; i < table.length(); i++) {
            Object e = table.element(i);
            if (e != null && match.test(e)) {
                return e;
            }
        }
        return null;
    }

    /**
     * The least stamp over every slot, read one slot at a time as toArray() reads them (weakly
     * consistent), or {@code Long.MAX_VALUE}: the table keeps no order, so the oldest element may
     * be in any slot, and the cost is one read per slot, the capacity, per call.
     *
     * @param stampOf an element's stamp, or {@code Long.MAX_VALUE} for an element without one
     */
    public long oldestStamp(ToLongFunction<Object> stampOf) {
        long oldest = Long.MAX_VALUE;
        for (int i = 0, n = table.length(); i < n; i++) {
            Object e = table.element(i);
            if (e != null) {
                oldest = Math.min(oldest, stampOf.applyAsLong(e));
            }
        }
        return oldest;
    }

    /** The elements in slot order, read one slot at a time (weakly consistent). */
    public Object[] toArray() {
        Object[] copy = new Object[table.length()];
        int n = 0;
        for (int i = 0; i < copy.length; i++) {
            Object e = table.element(i);
            if (e != null) {
                copy[n++] = e;
            }
        }
        return Arrays.copyOf(copy, n);
    }

    /** The occupied slots: a word of the summary at a time, or slot by slot without a summary. */
    public int size() {
        return table.occupied();
    }

    /** The number of slots, m. */
    public int capacity() {
        return table.length();
    }

    /** This table's probe sequences. */
    public ProbeSequence probing() {
        return table.probing();
    }

    // ---- closing ----

    /** Refuses inserts from now on, and wakes every waiter to re-check. */
    public void close() {
        closed = true; // volatile: the pair with an insert's second read (see "Close"); the re-checks read it
        notFull.signalAll(); // producers: put throws, the timed offer returns false
        notEmpty.signalAll(); // consumers: take drains, then throws once nothing is under way
    }

    public boolean isClosed() {
        return closed;
    }

    /** What is inside and under way, e.g. "occupied=3 underWay=false": for tests. */
    public String state() {
        return "occupied=" + table.occupied() + " underWay=" + !underWay.none();
    }
}
