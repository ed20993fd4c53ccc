/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import dev.handoff.internal.guard.ReentryGuard;
import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Spinner;

import java.util.Collection;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The {@code core=cells} core of a circular buffer: a put and a take each claim a position with
 * one fetch-and-add on a counter of their own side, never retried, and meet at the position's
 * cell. A take claims only while an element is inside or on its way, and a put only while there
 * is room (else it waits for that, in CellLobby); a thread that reaches its cell before its
 * partner waits at the cell, and the partner that completes the cell wakes exactly the threads
 * whose turn it made. No lock on the way of a put or a take that finds an element or room, and
 * nothing allocated per element (a thread that parks allocates one record).
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
     * states and the waiting protocol are CellRing's (its notes).
     *
     * The capacity bound, with no third counter: put p writes only once take p - capacity has
     * claimed (the gate), so that no more than capacity elements are inside and not yet claimed by
     * their take. The ring has more cells than the capacity (cellsFor), and position p lives in the
     * cell of p % cells (CellRing.index), so put p also waits at its cell for take p - cells to
     * release it, a take claimed long before. With one cell per place, put p would wait for take
     * p - capacity's release, take p for put p, put p + capacity for take p, and so on: a take that
     * lost its CPU between its claim and its release would start a chain of waits one lap apart,
     * each ended by a wake-up, whenever threads outnumber CPUs. Through the gate a claim is enough,
     * so a preempted take holds up only its cell's next put, after the others went round the slack.
     * A put that finds the gate shut waits in CellLobby (rare: the lobby admits puts only while
     * there is room, so only puts that claimed together pass it), and every take after its claim,
     * and every removal, wakes the puts waiting there, if any. Since a claim opens a gate, a take
     * never gives its position back (CellGiveUps). Unlike the channels, a take does not claim while
     * the buffer is empty, nor a put while it is full: they wait in CellLobby first, so that a
     * running take keeps taking what is there rather than wait for the one put that serves its
     * position (its notes).
     *
     * Counters, the close and the size are CellCounts'; giving a position up is CellGiveUps'.
     *
     * offer() and poll() never wait, so they never claim a position they might have to give up:
     * each reads its side's next position and its cell, and claims it by CAS only if the cell is
     * ready (a retry means another thread of its side claimed it). Full and empty are decided from
     * counts read in the order that makes them true at one instant (offer reads the put count, then
     * the take count; poll the reverse). A partner found in the middle of its operation is waited
     * for (a few spins, then yields): a put at p whose gate is open and whose cell still holds an
     * earlier lap if take p - cells has claimed, and a take at p whose cell is not yet FULL if put
     * p has claimed, since then every earlier operation on that cell has claimed too, and none of
     * them waits for anything but a claimed partner. A timed offer or poll that runs out of time
     * makes one such attempt before it answers.
     *
     * Spinning. With wait=spin a thread spins as its side's Spinner allows; with wait=park it
     * spins only while its partner is in the middle of its operation, a bounded few rounds, and
     * a put of a full buffer spins for a batch of room as the Spinner allows (its budget falls to
     * 0 where such spins do not pay), then parks (CellLobby). A virtual thread never spins.
     * Then it parks at its cell (CellRing) or in the lobby.
     *
     * What a handoff costs, for P producers and C consumers on M cores (a line: a cache line
     * that moves from one core's cache to another's; a wake-up: an unpark and the context switch
     * it causes). Every figure counts one put and the take of its element.
     *
     * No work between operations, nobody waiting (the buffer neither empty nor full):
     *   - the put counter's line: one move per put while P > 1 producers claim in turn (none for
     *     P = 1, whose counter stays in its cache); the take counter's the same with C;
     *   - the cell's line: two moves, put p's write to take p's read and claim, then take p's
     *     release to put p + cells' write a lap later (consecutive positions lie on different
     *     lines, so claims of one side at once do not share a line);
     *   - the waiter counts that each side reads after its change (CellLobby's Waiters) are
     *     written only when a thread parks: no move while nobody does;
     *   - no wake-up: no thread waits, and no lock is taken.
     * Two to four moves, none of them on a line every thread writes but the two counters, and
     * those by one fetch-and-add each, never retried. ArrayBlockingQueue's lock word moves on every
     * put and every take, its count and indices with it (one object), and when P + C threads
     * contend, the ones that find the lock held park on it: a wake-up per contended release.
     * When threads outnumber cores (P + C > M), a put or take descheduled between its claim and
     * its write holds up only the one partner of its position (which parks at the cell after a
     * short spin, and is woken by that write), not every thread, as a descheduled lock holder does.
     *
     * A slow consumer (the buffer full, producers waiting): each take moves the cell's line once
     * (the put wrote it) and reads the counters' and the waiters' lines, which producers parked in
     * the lobby do not write. A producer's spin for a batch of room does not pay (the consumer
     * frees a place per unit of its work), so the put side's budget falls to 0 and a producer
     * parks until roomAhead places are free (a quarter of the capacity, at most 256), then the
     * wake-up passes from producer to producer while room is left: P wake-ups per roomAhead
     * handoffs, where a lock-based buffer that signals on every take wakes a producer for nearly
     * every handoff. The batch is bounded in time (BATCH_WAIT_NANOS) so that a put never stays
     * parked while room exists; with wait=spin one producer spins for the batch instead, and
     * takes whatever room came. Where the consumers are faster (their takes find the buffer
     * empty now and then), a producer woken a batch late would let them drain it and park, so
     * it waits for any room instead (CellLobby.takesKeptBusy).
     */

    /** The outcomes of an attempt at one position. */
    private static final int DONE = 0, AGAIN = 1, REFUSED = 2, TIMED_OUT = 3;

    private final CellRing ring;
    private final int capacity;
    private final CellCounts counts = new CellCounts();
    private final CellsInside inside;
    private final ReentryGuard reentry;
    private final CellGiveUps giveUps;
    private final CellLobby lobby;
    private final CellWaits waits;

    private final boolean spin;
    private final Spinner takeSpinner;
    private final Spinner putSpinner;
    private final Counters counters;
    private final Object owner;

    /**
     * @param capacity the number of cells, checked by the caller
     * @param spin whether put() and take() may spin before they wait
     * @param counters where to count inserts, removals and waits
     * @param owner the buffer, named when a thread parks
     */
    public CellsCore(int capacity, boolean spin, Counters counters, Object owner) {
        this.ring = new CellRing(cellsFor(capacity));
        this.capacity = capacity;
        this.spin = spin;
        // with wait=spin, spinners that keep looking (Spinner.latencyFirst); without it, only a
        // put's wait for a batch of room spins, by the library's choice, and parks at once at 0
        this.takeSpinner = spin ? Spinner.latencyFirst() : new Spinner();
        this.putSpinner = spin ? Spinner.latencyFirst() : new Spinner();
        this.counters = counters;
        this.owner = owner;
        this.inside = new CellsInside(ring, counts, counters);
        this.reentry = inside.reentry;
        this.lobby = new CellLobby(ring, counts, capacity, spin, takeSpinner, putSpinner, counters, owner);
        this.giveUps = new CellGiveUps(ring, counts, lobby);
        this.waits = new CellWaits(ring, counts, giveUps, spin, takeSpinner, putSpinner, counters, owner);
    }

    /** Most cells added beyond the capacity: a lap of slack for a capacity up to this. */
    static final int MAX_SLACK = 1 << 16;

    /**
     * The cells for a capacity: twice the capacity up to MAX_SLACK extra, within the largest
     * array; from two columns of the ring's layout up (CellRing.ROWS), rounded up to whole
     * columns. A small ring keeps exactly 2N cells, so that its laps come round as soon as they
     * would without the layout (the proofs run small rings).
     */
    static int cellsFor(int capacity) {
        long largest = Integer.MAX_VALUE - 8;
        long cells = Math.min((long) capacity + Math.min(capacity, MAX_SLACK), largest);
        if (cells < 2 * CellRing.ROWS) {
            return (int) cells;
        }
        long whole = (cells + CellRing.ROWS - 1) / CellRing.ROWS * CellRing.ROWS;
        return (int) (whole <= largest ? whole : cells);
    }

    // ---- inserting ----

    @Override
    public boolean offer(E e) {
        reentry.check();
        long stale = -1L;
        for (int round = 0; ; ) {
            long p = counts.nextPut();
            if (p < 0) {
                return false;
            }
            if (!lobby.gateOpen(p)) {
                return false; // full: the take at p's gate has not claimed
            }
            int i = ring.index(p);
            long w = ring.word(i);
            if (w == CellRing.word(p, CellRing.EMPTY) || w == CellRing.word(p, CellRing.TAKE_GONE)) {
                if (counts.claimPutAt(p) && fillOrPass(i, p, e) == DONE) {
                    return true;
                }
            } else if (w < CellRing.word(p, CellRing.EMPTY)) {
                if (!counts.takeClaimed(p - ring.cells)) {
                    return false; // no room at p's cell: a remover opened the gate past a slow put
                }
                Spinner.pauseForPartner(round++); // take p - cells is under way (see the notes)
            } else if (p == stale) {
                // still p: a removal gave places back and has not yet reset p's cell (CellsInside.closeUp)
                Spinner.pauseForPartner(round++);
            } else {
                stale = p; // another put filled p: read again
            }
        }
    }

    @Override
    public boolean put(E e) throws InterruptedException {
        return insert(e, false, 0L) == DONE;
    }

    @Override
    public boolean offer(E e, long nanos) throws InterruptedException {
        int r = insert(e, true, nanos);
        // out of time while waiting for one place: a last offer takes any room that came meanwhile
        return r == DONE || (r == TIMED_OUT && nanos > 0L && offer(e));
    }

    /**
     * The put and the timed offer: DONE, REFUSED (closed) or TIMED_OUT; throws if interrupted,
     * on entry (as every waiting method of BlockingQueue, a timed offer that need not wait too)
     * or while it waits.
     */
    private int insert(E e, boolean timed, long nanos) throws InterruptedException {
        reentry.check();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (timed && nanos <= 0L) {
            return offer(e) ? DONE : TIMED_OUT; // before the deadline's sum, which overflows near Long.MIN_VALUE
        }
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        while (true) {
            if (!lobby.awaitRoom(timed, deadline)) {
                return TIMED_OUT;
            }
            long p = counts.claimPut();
            if (p < 0) {
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
        boolean waited = false;
        if (!lobby.gateOpen(p)) {
            int stop = lobby.awaitGate(p, timed, deadline);
            if (stop != 0) {
                giveUps.abandonPut(i, p, null);
                return stopped(-stop);
            }
            waited = true;
        }
        if (ring.word(i) < CellRing.word(p, CellRing.EMPTY)) {
            long w = waits.await(i, p, true, timed, deadline);
            if (w < 0) {
                return stopped(w);
            }
            waited = true;
        }
        if (waited && counts.isClosed()) { // room came after the close: a put that waited is refused (BufferCore.close)
            giveUps.abandonPut(i, p, null);
            return REFUSED;
        }
        return fillOrPass(i, p, e);
    }

    /** What a put that stopped waiting (w: minus the reason) returns; throws if interrupted. */
    private static int stopped(long w) throws InterruptedException {
        if (w == -CellWaits.STOP_INTERRUPTED) {
            throw new InterruptedException();
        }
        return w == -CellWaits.STOP_CLOSED ? REFUSED : TIMED_OUT;
    }

    /** Put p at a cell that reached its lap: DONE, or AGAIN after passing a take that gave up. */
    private int fillOrPass(int i, long p, E e) {
        for (int round = 0; ring.word(i) == CellRing.word(p, CellRing.TAKING); round++) {
            // p was given back by a removal that closes up (CellsInside.closeUp) and has not yet
            // reset p's cell: it does so under its lock, without waiting, and this put then fills p
            Spinner.pauseForPartner(round);
        }
        if (ring.word(i) == CellRing.word(p, CellRing.EMPTY) && ring.fill(i, p, e)) {
            // after the fill's CAS: the Dekker pair of a giving-up take's record, then read of the word
            if (counts.anyGivenUp() && giveUps.reclaimed(i, p)) {
                counts.emptyPut(); // take p had given up: e is back, and p holds nothing
                return AGAIN;
            }
            counters.countInsert();
            lobby.elementCame();
            return DONE;
        }
        ring.pass(i, p); // TAKE_GONE(p): the only other state a live put finds at its lap
        counts.emptyPut();
        return AGAIN;
    }

    // ---- removing ----

    @Override
    public E poll() {
        reentry.check();
        for (int round = 0; ; ) {
            long p = counts.takes();
            int i = ring.index(p);
            long w = ring.word(i);
            if (w == CellRing.word(p, CellRing.FULL) || w >= ring.nextLap(p)) {
                if (counts.claimTakeAt(p)) {
                    lobby.gateMoved(); // after the claim: the Dekker pair of a gate waiter's count, then read
                    Object r = pollAt(p);
                    if (r != AGAIN_MARK) {
                        return cast(r);
                    }
                }
            } else if (w < CellRing.word(p, CellRing.FULL) && !counts.putClaimed(p)) {
                return null; // empty: no put has claimed the next take's position
            } else {
                Spinner.pauseForPartner(round++); // put p is under way, or a remover holds p's element
            }
        }
    }

    /** poll() at its position: the element, null (empty), or AGAIN_MARK (its lap was skipped). */
    private Object pollAt(long p) {
        int i = ring.index(p);
        while (true) {
            long w = ring.word(i);
            for (int round = 0; w < CellRing.word(p, CellRing.FULL) && counts.putClaimed(p); round++) {
                Spinner.pauseForPartner(round); // put p, and all before it here, are under way
                w = ring.word(i);
            }
            if (w < CellRing.word(p, CellRing.FULL) && !CellGiveUps.came(giveUps.abandonTake(i, p, null), p)) {
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
        E e = remove(true, nanos);
        // out of time while waiting at one position: a last poll takes any element that came meanwhile
        return e != null || nanos <= 0L ? e : poll();
    }

    /**
     * The take and the timed poll: the element, or null when closed and empty or out of time;
     * throws if interrupted, on entry or while it waits.
     */
    private E remove(boolean timed, long nanos) throws InterruptedException {
        reentry.check();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (timed && nanos <= 0L) {
            return poll(); // before the deadline's sum, which overflows near Long.MIN_VALUE
        }
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        while (true) {
            if (!lobby.awaitElement(timed, deadline)) {
                return null;
            }
            long p = counts.claimTake();
            lobby.gateMoved(); // after the claim: the Dekker pair of a gate waiter's count, then read
            if (counts.closedFor(p)) {
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
                long w = waits.await(i, p, false, timed, deadline);
                if (w < 0) {
                    stopped = (int) -w;
                    if (stopped < CellWaits.CAME) { // given up, nothing came
                        if (stopped == CellWaits.STOP_INTERRUPTED) {
                            throw new InterruptedException();
                        }
                        return null;
                    }
                    stopped -= CellWaits.CAME; // given up, but the element came meanwhile: take it
                }
            }
            Object r = takeOrPass(i, p);
            if (stopped == CellWaits.STOP_INTERRUPTED && r != AGAIN_MARK) {
                Thread.currentThread().interrupt(); // keep the interrupt: the element came, or await stops again
            }
            if (r == WAIT_MARK) {
                continue; // a removal gave p back to the puts: wait (or stop) again
            }
            if (r == AGAIN_MARK && stopped != 0) { // a remover had it: the give-up stands
                if (stopped == CellWaits.STOP_INTERRUPTED) {
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
                    lobby.roomCame();
                    return e;
                }
            } else if (w == CellRing.word(p, CellRing.TAKING)) {
                Spinner.pauseForPartner(round); // a remover claimed it: released or put back soon
            } else if (w < CellRing.word(p, CellRing.FULL)) {
                return WAIT_MARK; // a removal closed up and gave p back to the puts: wait for the next put at p
            } else {
                counts.emptyTake(); // passed or given up: p took no element
                return AGAIN_MARK;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <E> E cast(Object o) {
        return (E) o;
    }

    // ---- the inside operations: CellsInside ----

    @Override
    public int drainTo(Collection<? super E> target, int maxElements) {
        try {
            return inside.drainTo(target, maxElements, size());
        } finally {
            lobby.roomCame(); // even if the target threw after some moved
            lobby.gateMoved();
        }
    }

    @Override
    public boolean removeFirst(Predicate<Object> match) {
        return freed(inside.removeWhere(match, true)) > 0;
    }

    @Override
    public int removeMatching(Predicate<Object> match) {
        return freed(inside.removeWhere(match, false));
    }

    @Override
    public void clear() {
        freed(inside.removeWhere(e -> true, false));
    }

    private int freed(int removed) {
        if (removed > 0) {
            lobby.roomCame();
            lobby.gateMoved();
        }
        return removed;
    }

    @Override
    public Object[] toArray() {
        return inside.toArray();
    }

    @Override
    public E peek() {
        return cast(inside.peek());
    }

    @Override
    public long oldestStamp(ToLongFunction<Object> stampOf) {
        return inside.oldestStamp(stampOf);
    }

    @Override
    public int size() {
        return (int) Math.max(0L, Math.min(capacity, counts.elements()));
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
        inside.exclusively(() -> {
            if (counts.close()) {
                ring.wakeAll(); // after the close: the Dekker pair of a waiter's push, then read of it
                lobby.wakeAll();
            }
        });
    }

    @Override
    public boolean isClosed() {
        return counts.isClosed();
    }
}
