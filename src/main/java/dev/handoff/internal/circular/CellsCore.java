/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import dev.handoff.Handoff;
import dev.handoff.internal.circular.CellRing.Waiter;
import dev.handoff.internal.guard.ReentryGuard;
import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The {@code core=cells} core of a circular buffer: a put and a take each claim a position with
 * one fetch-and-add on a counter of their own side, never retried, and meet at the position's
 * cell. A thread that comes before its partner waits at its cell, and the partner that completes
 * the cell wakes exactly the threads whose turn it made. There is no lock on the way of a put or
 * a take, and nothing is allocated per element (a thread that parks allocates one record).
 *
 * <p>The operations that look inside ({@code toArray}, {@code contains}, {@code peek}, removal
 * by predicate, {@code drainTo}, {@code clear}) do not stop puts and takes: they see each cell as
 * it is when they pass it, as the iterators of {@code ConcurrentLinkedQueue} do, and they remove
 * an element only if it is still inside when they claim it. While one of them moves an element to
 * a {@code drainTo} target, the take whose turn that element is waits for it.
 *
 * <p>A put that gives up (time, interrupt, close) after later puts have claimed their places
 * leaves its place empty; until the takes reach that place, the buffer holds one element fewer
 * than its capacity. The last put to have claimed gives its place back instead, so a buffer used
 * by one thread at a time always holds its capacity.
 *
 * @param <E> the type of elements held
 */
public final class CellsCore<E> implements BufferCore<E> {
    /*
     * Implementation notes.
     *
     * The algorithm is the one of N. Koval, D. Alistarh and R. Elizarov, "Fast and Scalable
     * Channels in Kotlin Coroutines" (PPoPP 2023), folded onto a ring: put and take counters
     * claimed by fetch-and-add, a cell per position where the two meet, waiting at the cell,
     * and a cancelled waiter marking its cell so that the partner moves on. The cells, their
     * states and the waiting protocol are CellRing's (its notes). Position p lives in cell
     * p % capacity, so put p also waits there until take p - capacity has freed the cell: that
     * is the capacity bound, with no third counter.
     *
     * Counters. counts[PUTS] and counts[TAKES] are the next positions, 128 bytes apart so the
     * two sides never share a line. close() sets CLOSED in counts[PUTS] with one atomic OR, so a
     * put's claim also says whether the buffer was closed before it: positions below the
     * closing count (closedAt) were claimed by puts that finish, by filling or by giving up;
     * none above is ever filled, and a take beyond closedAt is closed and empty.
     *
     * Give-ups. A thread that gives up a position first tries to give it back, a CAS of its
     * counter from p + 1 to p, which succeeds only if nobody claimed after it; then the next
     * claimer takes p, and nothing is skipped. Otherwise the position's lap is skipped (CellRing:
     * a put's lap goes to the next one, a take's to TAKE_GONE, which put p passes), and the
     * partner at that position claims again. The claims of a partner found in the middle of its
     * operation are waited for (a few spins, then yields) rather than skipped: a put at p whose
     * cell still holds lap p - capacity waits if take p - capacity has claimed, and a take at p
     * whose cell is not yet FULL waits if put p has claimed, since then every earlier operation
     * on that cell has claimed too and none of them waits for anything but a claimed partner.
     *
     * Size. skew counts the put positions that hold no element (given up, passed, or removed)
     * less the take positions that took none; so size = puts - takes - skew, exact when no
     * operation is under way, and clamped to [0, capacity] while some are. Only give-ups,
     * passes and removals write skew, never a put or take that meets its partner.
     *
     * Spinning. With wait=spin a thread spins as its side's Spinner allows; with wait=park it
     * spins only while its partner is in the middle of its operation, a bounded few rounds.
     * A virtual thread never spins. Then it parks at its cell (CellRing).
     */

    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int PUTS = 16, TAKES = 32;
    private static final long CLOSED = 1L << 62;

    /** The outcomes of an attempt at one position. */
    private static final int DONE = 0, AGAIN = 1, REFUSED = 2, TIMED_OUT = 3;

    private final CellRing ring;
    private final int capacity;

    /** The put counter at [PUTS] (with CLOSED once closed), the take counter at [TAKES]. */
    private final long[] counts = new long[TAKES + 16];

    /** Put positions without an element less take positions without one (see the notes). */
    private final AtomicLong skew = new AtomicLong();

    /** Take positions given up before their lap came, for put p to undo its fill (see the notes). */
    private final Set<Long> givenUp = new HashSet<>();
    private final ReentrantLock givenUpLock = new ReentrantLock();
    /** givenUp's size, written under givenUpLock; read by every put after its fill. */
    private volatile int givenUpCount;

    /** The put count when close() set CLOSED: written before closed, read after it. */
    private volatile long closedAt;

    private volatile boolean closed;

    private final boolean spin;
    private final Spinner takeSpinner = new Spinner();
    private final Spinner putSpinner = new Spinner();
    private final Counters counters;
    private final Handoff<?> owner;

    /** Serializes the inside operations; held while they run the caller's code. */
    private final ReentrantLock inside = new ReentrantLock();
    private final ReentryGuard reentry = new ReentryGuard(inside);

    /**
     * @param capacity the number of cells, checked by the caller
     * @param spin whether put() and take() may spin before they wait
     * @param counters where to count inserts, removals and waits
     * @param owner the buffer, named when a thread parks
     */
    public CellsCore(int capacity, boolean spin, Counters counters, Handoff<?> owner) {
        this.ring = new CellRing(capacity);
        this.capacity = capacity;
        this.spin = spin;
        this.counters = counters;
        this.owner = owner;
    }

    // ---- counters ----

    private long claimPut() {
        return (long) COUNT.getAndAdd(counts, PUTS, 1L);
    }

    private long claimTake() {
        return (long) COUNT.getAndAdd(counts, TAKES, 1L);
    }

    /** The put count: once closed, the count at the close (refused puts add to the counter after it). */
    private long puts() {
        long c = (long) COUNT.getVolatile(counts, PUTS);
        return (c & CLOSED) == 0 ? c : closed ? closedAt : c & ~CLOSED;
    }

    private long takes() {
        return (long) COUNT.getVolatile(counts, TAKES);
    }

    /** Gives position p of a side back if nobody claimed after it. */
    private boolean giveBack(int side, long p) {
        return COUNT.compareAndSet(counts, side, p + 1, p);
    }

    private long elements() {
        return puts() - takes() - skew.get();
    }

    // ---- inserting ----

    @Override
    public boolean offer(E e) {
        reentry.check();
        while (true) {
            if (closed || elements() >= capacity) {
                return false; // looks closed or full: claim nothing
            }
            long p = claimPut();
            if ((p & CLOSED) != 0) {
                return false;
            }
            int r = offerAt(p, e);
            if (r != AGAIN) {
                return r == DONE;
            }
        }
    }

    /** offer() at its position: DONE, AGAIN (take p gave up) or REFUSED (full). */
    private int offerAt(long p, E e) {
        int i = ring.index(p);
        long w = ring.word(i);
        for (int round = 0; w < CellRing.word(p, CellRing.EMPTY) && takes() > p - capacity; round++) {
            Spinner.pauseForPartner(round); // take p - capacity is under way (see the notes)
            w = ring.word(i);
        }
        if (w < CellRing.word(p, CellRing.EMPTY)) {
            abandonPut(i, p, null);
            return REFUSED;
        }
        return fillOrPass(i, p, e);
    }

    @Override
    public boolean put(E e) throws InterruptedException {
        return insert(e, false, 0L) == DONE;
    }

    @Override
    public boolean offer(E e, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return nanos <= 0L ? offer(e) : insert(e, true, System.nanoTime() + nanos) == DONE;
    }

    private int insert(E e, boolean timed, long deadline) throws InterruptedException {
        reentry.check();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        while (true) {
            long p = claimPut();
            if ((p & CLOSED) != 0) {
                return REFUSED;
            }
            int r = insertAt(p, e, timed, deadline);
            if (r != AGAIN) {
                return r;
            }
        }
    }

    /** put() at its position: DONE, AGAIN, REFUSED (closed) or TIMED_OUT; throws if interrupted. */
    private int insertAt(long p, E e, boolean timed, long deadline) throws InterruptedException {
        int i = ring.index(p);
        long target = CellRing.word(p, CellRing.EMPTY);
        if (ring.word(i) < target) {
            long w = await(i, p, true, timed, deadline);
            if (w < 0) {
                if (w == -STOP_INTERRUPTED) {
                    throw new InterruptedException();
                }
                return w == -STOP_CLOSED ? REFUSED : TIMED_OUT;
            }
            if (closed) { // room came after the close: a put that waited is refused (BufferCore.close)
                abandonPut(i, p, null);
                return REFUSED;
            }
        }
        return fillOrPass(i, p, e);
    }

    /** Put p at a cell that reached its lap: DONE, or AGAIN after passing a take that gave up. */
    private int fillOrPass(int i, long p, E e) {
        if (ring.word(i) == CellRing.word(p, CellRing.EMPTY) && ring.fill(i, p, e)) {
            // after the fill's CAS: the Dekker pair of a giving-up take's record, then read of the word
            if (givenUpCount != 0 && reclaimed(i, p)) {
                skew.getAndIncrement(); // take p had given up: e is back, and p holds nothing
                return AGAIN;
            }
            counters.countInsert();
            return DONE;
        }
        ring.pass(i, p); // TAKE_GONE(p): the only other state a live put finds at its lap
        skew.getAndIncrement();
        return AGAIN;
    }

    /**
     * Gives up put position p, whose element was never written: back to the counter if nobody
     * claimed after it, else the lap is skipped (a record if it has not come yet). x is the
     * put's Waiter if it waited, else null.
     */
    private void abandonPut(int i, long p, Waiter x) {
        if (giveBack(PUTS, p)) {
            if (x != null) {
                x.setStatus(Waiter.DONE);
            }
            return;
        }
        if (x == null) {
            x = new Waiter(Thread.currentThread(), p, true, Waiter.CANCELLED);
            ring.push(i, x);
        } else {
            x.setStatus(Waiter.CANCELLED); // volatile: before settle's read of the word (CellRing's notes)
        }
        ring.settle(i, p, true);
        skew.getAndIncrement();
    }

    // ---- removing ----

    @Override
    public E poll() {
        reentry.check();
        while (true) {
            if (elements() <= 0) {
                return null; // looks empty: claim nothing
            }
            long p = claimTake();
            Object r = pollAt(p);
            if (r != AGAIN_MARK) {
                return cast(r);
            }
        }
    }

    /** poll() at its position: the element, null (empty), or AGAIN_MARK (its lap was skipped). */
    private Object pollAt(long p) {
        int i = ring.index(p);
        while (true) {
            long w = ring.word(i);
            for (int round = 0; w < CellRing.word(p, CellRing.FULL) && puts() > p; round++) {
                Spinner.pauseForPartner(round); // put p, and all before it here, are under way
                w = ring.word(i);
            }
            if (w < CellRing.word(p, CellRing.FULL) && !came(abandonTake(i, p, null), p)) {
                return null;
            }
            Object r = takeOrPass(i, p);
            if (r != WAIT_MARK) {
                return r;
            }
        }
    }

    @Override
    public E take() throws InterruptedException {
        return remove(false, 0L);
    }

    @Override
    public E poll(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return nanos <= 0L ? poll() : remove(true, System.nanoTime() + nanos);
    }

    private E remove(boolean timed, long deadline) throws InterruptedException {
        reentry.check();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        while (true) {
            long p = claimTake();
            if (closed && p >= closedAt) {
                return null; // closed and empty: no put will fill p
            }
            Object r = removeAt(p, timed, deadline);
            if (r != AGAIN_MARK) {
                return cast(r);
            }
        }
    }

    /** Markers for "claim again" and "wait at the cell again"; never elements. */
    private static final Object AGAIN_MARK = new Object(), WAIT_MARK = new Object();

    /**
     * take() at its position: the element, null (closed and empty, or timed out), or AGAIN_MARK;
     * throws if interrupted before its element came.
     */
    private Object removeAt(long p, boolean timed, long deadline) throws InterruptedException {
        int i = ring.index(p);
        while (true) {
            int stopped = 0;
            if (ring.word(i) < CellRing.word(p, CellRing.FULL)) {
                long w = await(i, p, false, timed, deadline);
                if (w < 0) {
                    stopped = (int) -w;
                    if (stopped < CAME) { // given up, nothing came
                        if (stopped == STOP_INTERRUPTED) {
                            throw new InterruptedException();
                        }
                        return null;
                    }
                    stopped -= CAME; // given up, but the element came meanwhile: take it
                }
            }
            Object r = takeOrPass(i, p);
            if (stopped == STOP_INTERRUPTED && r != AGAIN_MARK) {
                Thread.currentThread().interrupt(); // keep the interrupt: the element came, or await stops again
            }
            if (r == WAIT_MARK) {
                continue; // a removal gave p back to the puts: wait (or stop) again
            }
            if (r == AGAIN_MARK && stopped != 0) { // a remover had it: the give-up stands
                if (stopped == STOP_INTERRUPTED) {
                    throw new InterruptedException();
                }
                return null;
            }
            return r;
        }
    }

    /**
     * Take p at a cell that reached FULL(p) or beyond (or whose give-up found it so): the
     * element, or AGAIN_MARK if p's lap was skipped or its element removed by another.
     */
    private Object takeOrPass(int i, long p) {
        for (int round = 0; ; round++) {
            long w = ring.word(i);
            if (w == CellRing.word(p, CellRing.FULL)) {
                Object e = ring.claim(i, p);
                if (e != null) {
                    ring.release(i, p);
                    counters.countRemoval();
                    return e;
                }
            } else if (w == CellRing.word(p, CellRing.TAKING)) {
                Spinner.pauseForPartner(round); // a remover claimed it: released or put back soon
            } else if (w < CellRing.word(p, CellRing.FULL)) {
                return WAIT_MARK; // a removal closed up and gave p back to the puts: wait for the next put at p
            } else {
                skew.getAndDecrement(); // passed or given up: p took no element
                return AGAIN_MARK;
            }
        }
    }

    /**
     * Gives up take position p: back to the counter if nobody claimed after it; else settled at
     * once if its lap has come, or left in givenUp for put p (see the notes). Returns the word it
     * stopped at: FULL(p) or TAKING(p) if the element came after all, which the caller must then take.
     */
    private long abandonTake(int i, long p, Waiter x) {
        if (x != null) {
            x.setStatus(Waiter.DONE); // the record, if any, lives in givenUp, not on the list
        }
        if (giveBack(TAKES, p)) {
            return -1L;
        }
        recordGiveUp(p); // before settle's read of the word: the Dekker pair of put p's fill, then read of givenUpCount
        long w = ring.settle(i, p, false);
        if (came(w, p)) {
            forgetGiveUp(p);
            return w;
        }
        if (w >= CellRing.word(p, CellRing.TAKE_GONE)) {
            forgetGiveUp(p); // settled now (TAKE_GONE), or the lap is over: put p has nothing to do
        }
        skew.getAndDecrement();
        return w;
    }

    private void recordGiveUp(long p) {
        givenUpLock.lock();
        try {
            givenUp.add(p);
            givenUpCount = givenUp.size();
        } finally {
            givenUpLock.unlock();
        }
    }

    private boolean forgetGiveUp(long p) {
        givenUpLock.lock();
        try {
            boolean had = givenUp.remove(p);
            givenUp.removeIf(q -> ring.word(ring.index(q)) >= ring.nextLap(q)); // laps over: nobody will look
            givenUpCount = givenUp.size();
            return had;
        } finally {
            givenUpLock.unlock();
        }
    }

    /**
     * Called by put p after it filled its cell while some take had given up far from its lap:
     * takes p's element back if take p was one of them. Then put p claims a new position.
     */
    private boolean reclaimed(int i, long p) {
        return forgetGiveUp(p) && ring.claim(i, p) != null && released(i, p);
    }

    private boolean released(int i, long p) {
        ring.release(i, p);
        return true;
    }

    /** Whether word w says that take p's element is there (or claimed by a remover, who may put it back). */
    private static boolean came(long w, long p) {
        return w == CellRing.word(p, CellRing.FULL) || w == CellRing.word(p, CellRing.TAKING);
    }

    @SuppressWarnings("unchecked")
    private static <E> E cast(Object o) {
        return (E) o;
    }

    // ---- waiting at a cell ----

    /** Why a waiter stops; a take's give-up that finds its element come adds CAME. */
    private static final int STOP_CLOSED = 1, STOP_TIMED_OUT = 2, STOP_INTERRUPTED = 3, CAME = 8;

    /**
     * Waits until cell i reaches position p's target (put: EMPTY(p); take: FULL(p)) and returns
     * the word; or gives p up and returns minus the reason (STOP_*), plus CAME for a take whose
     * element came as it gave up, which must then take it.
     */
    private long await(int i, long p, boolean put, boolean timed, long deadline) {
        long target = put ? CellRing.word(p, CellRing.EMPTY) : CellRing.word(p, CellRing.FULL);
        long w = spinFor(i, p, put, target);
        if (w >= target) {
            return w;
        }
        Waiter x = new Waiter(Thread.currentThread(), p, put, Waiter.WAITING);
        ring.push(i, x);
        if (put) {
            counters.producerWait();
        } else {
            counters.consumerWait();
        }
        Parking parking = put ? Parking.PUT : Parking.TAKE;
        while (true) {
            w = ring.word(i); // after the push: the Dekker pair of a changer's serve (CellRing)
            if (w >= target) {
                x.setStatus(Waiter.DONE);
                return w;
            }
            int stop = stopReason(put, p, timed, deadline);
            if (stop != 0) {
                return -giveUp(i, p, x, stop);
            }
            if (timed) {
                parking.parkNanos(owner, deadline - System.nanoTime());
            } else {
                parking.park(owner);
            }
        }
    }

    /** Why a waiter at position p must stop now, or 0. Clears the interrupt it reports. */
    private int stopReason(boolean put, long p, boolean timed, long deadline) {
        if (Thread.interrupted()) {
            return STOP_INTERRUPTED;
        }
        if (closed && (put || p >= closedAt)) {
            return STOP_CLOSED; // a take below closedAt waits on: its put finishes
        }
        return timed && deadline - System.nanoTime() <= 0L ? STOP_TIMED_OUT : 0;
    }

    /** Gives up waiter x at position p; returns the reason, plus CAME if a take's element came. */
    private int giveUp(int i, long p, Waiter x, int stop) {
        if (x.put) {
            abandonPut(i, p, x);
            return stop;
        }
        if (stop == STOP_CLOSED) {
            x.setStatus(Waiter.DONE); // p is beyond the close: no put comes, nothing to settle
            return stop;
        }
        return came(abandonTake(i, p, x), p) ? stop + CAME : stop;
    }

    /** Spins before parking (see the notes); returns the last word read. */
    private long spinFor(int i, long p, boolean put, long target) {
        long w = ring.word(i);
        Spinner spinner = put ? putSpinner : takeSpinner;
        int rounds = spin ? spinner.begin() : partnerUnderWay(p, put) ? Spinner.partnerRounds() : 0;
        for (int k = 0; k < rounds && w < target; k++) {
            Spinner.pause(k);
            w = ring.word(i);
        }
        if (spin && rounds > 0) {
            spinner.end(w >= target);
        }
        return w;
    }

    /** Whether position p's partner has claimed (so that it, and all before it at the cell, are under way). */
    private boolean partnerUnderWay(long p, boolean put) {
        return put ? takes() > p - capacity : puts() > p;
    }

    // ---- the inside operations: cell by cell, never stopping puts and takes ----

    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        inside.lock();
        try {
            int moved = 0;
            int most = Math.min(maxElements, size()); // what is inside now, not what comes meanwhile
            for (long q = takes(), end = puts(); q < end && moved < most; q++) {
                int i = ring.index(q);
                if (ring.peekAt(i, q) == null) {
                    continue;
                }
                Object e = ring.claim(i, q);
                if (e == null) {
                    continue; // its take came first
                }
                try {
                    reentry.add(target, cast(e));
                } catch (Throwable t) {
                    ring.unclaim(i, q, e); // still inside, at its place
                    throw t;
                }
                removed(i, q);
                moved++;
            }
            return moved;
        } finally {
            inside.unlock();
        }
    }

    /** Ends the removal of position q's element by an inside operation. */
    private void removed(int i, long q) {
        ring.release(i, q);
        skew.getAndIncrement(); // take q will pass the cell
        counters.countRemoval();
    }

    @Override
    public boolean removeFirst(Predicate<Object> match) {
        return removeWhere(match, true) > 0;
    }

    @Override
    public int removeMatching(Predicate<Object> match) {
        return removeWhere(match, false);
    }

    /**
     * Removes the first (or every) element match accepts, asking about each before changing
     * anything. The elements after the first removed one close up behind it, and the places
     * freed at the end are given back to the put counter, as long as no put claimed one
     * meanwhile (else they stay as places the takes pass).
     */
    private int removeWhere(Predicate<Object> match, boolean firstOnly) {
        inside.lock();
        try {
            long from = takes(), end = puts();
            if (end <= from) {
                return 0;
            }
            boolean[] chosen = new boolean[(int) (end - from)];
            long first = -1;
            for (long q = from; q < end; q++) {
                Object e = ring.peekAt(ring.index(q), q);
                if (e != null && (first < 0 || !firstOnly) && reentry.test(match, e)) {
                    chosen[(int) (q - from)] = true;
                    first = first < 0 ? q : first;
                }
            }
            return first < 0 ? 0 : closeUp(from, first, end, chosen);
        } finally {
            inside.unlock();
        }
    }

    /**
     * Removes the chosen elements of [first, end) by claiming every cell there and writing the
     * others back, in order, from first on; if some cell there cannot be claimed (a put or a take
     * under way), removes the chosen ones in place instead.
     */
    private int closeUp(long from, long first, long end, boolean[] chosen) {
        int n = (int) (end - first);
        Object[] held = new Object[n];
        for (int j = 0; j < n; j++) {
            long q = first + j;
            held[j] = ring.claim(ring.index(q), q);
            if (held[j] == null) {
                for (int k = 0; k < j; k++) {
                    ring.unclaim(ring.index(first + k), first + k, held[k]);
                }
                return removeInPlace(from, first, end, chosen);
            }
        }
        int kept = 0;
        for (int j = 0; j < n; j++) {
            if (!chosen[(int) (first - from) + j]) {
                long q = first + kept++;
                ring.unclaim(ring.index(q), q, held[j]);
            }
        }
        boolean givenBack = COUNT.compareAndSet(counts, PUTS, end, first + kept);
        for (long q = first + kept; q < end; q++) {
            if (givenBack) {
                ring.reset(ring.index(q), q); // free for the next put at q; a take at q waits again
            } else {
                ring.release(ring.index(q), q);
                skew.getAndIncrement(); // take q will pass it
            }
        }
        counters.countRemovals(n - kept);
        return n - kept;
    }

    private int removeInPlace(long from, long first, long end, boolean[] chosen) {
        int count = 0;
        for (long q = first; q < end; q++) {
            int i = ring.index(q);
            if (chosen[(int) (q - from)] && ring.claim(i, q) != null) {
                removed(i, q);
                count++;
            }
        }
        return count;
    }

    @Override
    public void clear() {
        removeMatching(e -> true);
    }

    // ---- looking ----

    @Override
    public Object[] toArray() {
        List<Object> seen = new ArrayList<>();
        for (long q = takes(), end = puts(); q < end; q++) {
            Object e = ring.peekAt(ring.index(q), q);
            if (e != null) {
                seen.add(e);
            }
        }
        return seen.toArray();
    }

    @Override
    public E peek() {
        for (long q = takes(), end = puts(); q < end; q++) {
            Object e = ring.peekAt(ring.index(q), q);
            if (e != null) {
                return cast(e);
            }
        }
        return null;
    }

    @Override
    public boolean contains(Object o) {
        for (Object e : toArray()) {
            if (o.equals(e)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int size() {
        return (int) Math.max(0L, Math.min(capacity, elements()));
    }

    @Override
    public int remainingCapacity() {
        return capacity - size();
    }

    @Override
    public int capacity() {
        return capacity;
    }

    // ---- closing ----

    @Override
    public void close() {
        inside.lock(); // one closer at a time
        try {
            if (closed) {
                return;
            }
            closedAt = (long) COUNT.getAndBitwiseOr(counts, PUTS, CLOSED);
            closed = true;
            ring.wakeAll(); // after closed: the Dekker pair of a waiter's push, then read of closed
        } finally {
            inside.unlock();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
