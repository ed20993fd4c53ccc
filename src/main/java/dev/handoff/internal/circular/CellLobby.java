/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;
import dev.handoff.internal.waiting.Waiters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Where a put of {@link CellsCore} waits while the buffer is full, and a take while it is empty,
 * before claiming a position: a thread claims only when its claim can be served soon, so that it
 * does not tie a position, and the partner who must serve exactly that position, to its wait.
 */
final class CellLobby {
    /*
     * Implementation notes.
     *
     * A take that claimed while the buffer was empty would wait at its cell for the one put that
     * reaches its position, and every take after it for the following ones: the puts could only
     * serve the takes in turn, each with a wake-up. Waiting here instead, a take claims once
     * elements() says an element is inside or a put has claimed its place, so a running take
     * goes on taking while there are elements, and a put wakes a parked take only when none is
     * running to take what it brings. Puts wait here for room the same way.
     *
     * The waiting is Waiters' protocol with one wake-up per burst (its notes hold the proof that
     * no wake-up is lost): the state is the counters (CellCounts.elements(), volatile reads),
     * changed by a claim's getAndAdd or a give-up's CAS or getAndAdd, all volatile; the changer
     * signals after that change, when its element is in (elementCame) or its place is free
     * (roomCame). A woken thread passes the wake-up on if the state lets a second one go too.
     * With wait=spin a take spins first, as its side's Spinner allows. Before reading the
     * other side's counter, a thread looks at the cell of the next position of its side: if
     * that is ready (FULL for a take; for a put, the end of its gate's lap: CellsCore), it
     * claims without waiting, and reads no line the other side writes on every operation.
     *
     * A batch of room. A put that finds the buffer full waits until roomAhead places beyond its
     * next position are free, so that the producers fill a batch while the takes work a batch
     * away: the two sides then do not pass each cell's line and the counters' lines between them
     * element by element (as puts that went at the first free place did, at the takes' heels),
     * and a producer that keeps up with a slow consumer is woken once a batch, not once for each
     * few places. First it spins for the batch, as its side's Spinner allows, reading the word of
     * the one cell whose take ends the batch (a line the takes write once per lap, not the take
     * counter they write on every take); if the spin ends before the batch it takes whatever room
     * came. Where it does not spin (the Spinner refuses: another producer spins, or the budget
     * fell to 0 because such spins did not pay) or the spin ends with no room, with wait=park an
     * untimed put parks for the batch, but only while the takes have kept busy: no take has
     * found the buffer empty for BUSY_LAPS laps (takesKeptBusy, from the take count that the
     * last take to find it empty left in takeWaitedAt). That is the slow consumer, whose every
     * take would otherwise wake a producer for one place. Where takes do run dry, the consumers
     * are faster than the producers, a producer woken a batch late lets them drain the buffer and
     * park (a wake-up for each side instead of none), so the put waits for any room. The batch
     * wait (batch: Waiters' protocol, the state shortOfBatch, changed by the same counter changes
     * as stillFull; roomCame signals it only once a batch is free, and the woken put passes the
     * wake-up on while room is left, so one batch wakes every waiting producer it can serve, in
     * turn) lasts at most BATCH_WAIT_NANOS, then the put waits for any room: the consumers may
     * stop taking with a batch not yet free (a consumer that waits for what this producer does
     * next), and a put must not stay parked while room exists. A timed offer waits for any room,
     * so that room that comes before its deadline is not missed waiting for more. Takes do not
     * wait for a batch: a take waiting for elements that are not coming would add its wait to
     * every handoff's latency.
     *
     * The gate (CellsCore's notes): a put that claimed position p while take p - capacity had
     * not claimed waits on a condition of its own until that take claims or a remover ends the
     * lap of p - capacity at its cell (drainTo moves elements out without a take). Every take
     * after its claim, and every removal after it freed cells, wakes them all if any is counted
     * (Waiters' protocol: the state is the take count or the cell's word): with more than one,
     * those whose gate is still shut wait again.
     */

    private final CellRing ring;
    private final CellCounts counts;
    private final int capacity;
    /** The places a spinning put waits to see free: ROOM_AHEAD, or a quarter of a smaller buffer (at least 1). */
    private final int roomAhead;
    private final boolean spin;
    private final Spinner takeSpinner;
    private final Spinner putSpinner;
    private final Counters counters;

    /**
     * The take count when a take last found the buffer empty here (takesKeptBusy); far below 0
     * while none has. Through TAKE_WAITED_AT, opaque: a hint, ordered with nothing else.
     */
    @SuppressWarnings("unused")
    private long takeWaitedAt;

    private static final VarHandle TAKE_WAITED_AT;

    static {
        try {
            TAKE_WAITED_AT = MethodHandles.lookup().findVarHandle(CellLobby.class, "takeWaitedAt", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Waiters notEmpty;
    private final Waiters notFull;
    /** Untimed puts of a full buffer with wait=park, waiting for a batch of room. */
    private final Waiters batch;
    /** Puts that claimed beyond the capacity, waiting for their gate (CellsCore). */
    private final Waiters gate;
    /** Whether a take must wait here: empty and open (a closed buffer's take finds out by claiming). */
    private final BooleanSupplier stillEmpty;
    /** Whether a put must wait here: full and open. */
    private final BooleanSupplier stillFull;
    /** Whether a put waiting for a batch waits on: fewer than roomAhead places free, and open. */
    private final BooleanSupplier shortOfBatch;

    CellLobby(CellRing ring, CellCounts counts, int capacity, boolean spin, Spinner takeSpinner, Spinner putSpinner,
              Counters counters, Object owner) {
        this.ring = ring;
        this.counts = counts;
        this.capacity = capacity;
        this.roomAhead = Math.max(1, Math.min(ROOM_AHEAD, capacity / 4));
        this.takeWaitedAt = Long.MIN_VALUE / 2; // no take has found the buffer empty: kept busy
        this.spin = spin;
        this.takeSpinner = takeSpinner;
        this.putSpinner = putSpinner;
        this.counters = counters;
        this.notEmpty = Waiters.oneWakeUpPerBurst(lock, Parking.TAKE, owner);
        this.notFull = Waiters.oneWakeUpPerBurst(lock, Parking.PUT, owner);
        this.batch = Waiters.oneWakeUpPerBurst(lock, Parking.PUT, owner);
        this.gate = new Waiters(lock, Parking.PUT, owner);
        this.stillEmpty = () -> counts.elements() <= 0 && !counts.isClosed();
        this.stillFull = () -> counts.elements() >= capacity && !counts.isClosed();
        this.shortOfBatch = () -> counts.elements() > capacity - roomAhead && !counts.isClosed();
    }

    /** Waits while the buffer is empty and open; false if the time ran out first. */
    boolean awaitElement(boolean timed, long deadline) throws InterruptedException {
        long t = counts.takes();
        if (ring.word(ring.index(t)) == CellRing.word(t, CellRing.FULL)) {
            return true; // the next take's element is in: no need to read the put side's counter
        }
        if (!stillEmpty.getAsBoolean() || spunForElement()) {
            return true;
        }
        return await(notEmpty, stillEmpty, false, timed, deadline);
    }

    /** Waits while the buffer is full and open; false if the time ran out first. */
    boolean awaitRoom(boolean timed, long deadline) throws InterruptedException {
        long p = counts.puts();
        if (ring.lapOver(p - capacity)) {
            return true; // the next put's gate is open: no need to read the take side's counter
        }
        if (!stillFull.getAsBoolean()) {
            return true;
        }
        if (spunForRoomAhead(p) || !spin && !timed && takesKeptBusy(p) && awaitBatchOfRoom()) {
            return true;
        }
        return await(notFull, stillFull, true, timed, deadline);
    }

    /**
     * The laps of takes that must all have found an element before a put parks for a batch of
     * room (see the notes): consumers that ran dry within them are the faster side.
     */
    static final int BUSY_LAPS = 4;

    /**
     * Whether the takes have found an element every time for the last BUSY_LAPS laps: none
     * found the buffer empty since take p - (BUSY_LAPS + 1) * capacity (p: the next put of a
     * full buffer, so about p - capacity takes have claimed). A hint, from one opaque read; see
     * the notes.
     */
    private boolean takesKeptBusy(long p) {
        return p - (BUSY_LAPS + 1L) * capacity > (long) TAKE_WAITED_AT.getOpaque(this);
    }

    /**
     * The longest a put of a full buffer parks for a batch of room before it waits for any room:
     * a millisecond, the longest a put may stay parked while some room exists (see the notes).
     */
    static final long BATCH_WAIT_NANOS = 1_000_000L;

    /**
     * For an untimed put of a full buffer with wait=park: parks until roomAhead places are free
     * or the buffer closes, at most BATCH_WAIT_NANOS; whether that came (see the notes).
     */
    private boolean awaitBatchOfRoom() throws InterruptedException {
        return await(batch, shortOfBatch, true, true, System.nanoTime() + BATCH_WAIT_NANOS);
    }

    /** The most places a put of a full buffer waits for before it claims (see the notes). */
    static final int ROOM_AHEAD = 256;

    /**
     * For a put of a full buffer (p: the next put position), in either waiting mode: spins, as
     * the put side's Spinner allows, until roomAhead places from p on are free or the buffer
     * closes, then takes any room that came; whether room came (or the close). False when the
     * Spinner says park at once. A spin that ends with less room than roomAhead counts as one
     * that did not pay.
     */
    private boolean spunForRoomAhead(long p) {
        long ahead = p - capacity + roomAhead - 1; // its take's release leaves room for puts p to p + roomAhead - 1
        int spun = putSpinner.spin(this, ahead, CellLobby::roomAheadOrClosed, null, 0, 1);
        return spun == Spinner.CAME || spun == Spinner.MISSED && !stillFull.getAsBoolean(); // take what did come
    }

    /** The spinning put's condition: volatile reads, hints; the claim decides. */
    private static boolean roomAheadOrClosed(CellLobby lobby, long ahead) {
        return lobby.ring.lapOver(ahead) || lobby.counts.isClosed();
    }

    /** With wait=spin, spins while the buffer is empty and open, as the spinner allows; whether it stopped being. */
    private boolean spunForElement() {
        return spin && takeSpinner.spinUntil(stillEmpty, 0L, (still, unused) -> !still.getAsBoolean());
    }

    private boolean await(Waiters waiters, BooleanSupplier still, boolean put, boolean timed, long deadline)
            throws InterruptedException {
        lock.lockInterruptibly();
        try {
            long nanos = timed ? deadline - System.nanoTime() : 0L;
            while (still.getAsBoolean()) {
                if (timed && nanos <= 0L) {
                    return false;
                }
                if (put) {
                    counters.producerWait();
                } else {
                    counters.consumerWait();
                }
                nanos = waiters.await(still, timed, nanos);
            }
            if (!put) {
                TAKE_WAITED_AT.setOpaque(this, counts.takes()); // this take found it empty: a hint for takesKeptBusy
            }
            long elements = counts.elements();
            if (put ? elements < capacity - 1 : elements > 1) {
                waiters.signalOneHeld(); // enough for this thread and another: pass the wake-up on
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until take p - capacity has claimed, unless closed first; for a put that claimed p
     * beyond the capacity. Returns 0, or why it stopped (CellWaits.STOP_*): then it must give p up.
     */
    int awaitGate(long p, boolean timed, long deadline) {
        BooleanSupplier shut = () -> !gateOpen(p) && !counts.isClosed();
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            return CellWaits.STOP_INTERRUPTED;
        }
        try {
            long nanos = timed ? deadline - System.nanoTime() : 0L;
            while (shut.getAsBoolean()) {
                if (timed && nanos <= 0L) {
                    return CellWaits.STOP_TIMED_OUT;
                }
                counters.producerWait();
                nanos = gate.await(shut, timed, nanos);
            }
            return gateOpen(p) ? 0 : CellWaits.STOP_CLOSED;
        } catch (InterruptedException e) {
            return CellWaits.STOP_INTERRUPTED;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether put p may write: take p - capacity has claimed, or a remover ended its lap at its
     * cell (the claim first: CellCounts.takeClaimedForPut reads a line the takes never write).
     */
    boolean gateOpen(long p) {
        return counts.takeClaimedForPut(p - capacity) || ring.lapOver(p - capacity);
    }

    /** After a take's claim, or a removal that freed cells: wakes the puts waiting for their gate, if any. */
    void gateMoved() {
        if (gate.any()) { // after the claim or the release: the Dekker pair of await's count, then re-check
            gate.signalAll();
        }
    }

    /** After a change that may let a waiting take claim: an element in, or a take position given up. */
    void elementCame() {
        notEmpty.signalOne();
    }

    /** After a change that may let a waiting put claim: a place freed, a put position given back. */
    void roomCame() {
        notFull.signalOne();
        // after the change, as notFull's: the Dekker pair of a batch waiter's count, then its re-check
        if (batch.any() && !shortOfBatch.getAsBoolean()) {
            batch.signalOne(); // a batch of room is free: one wake-up, passed on while room is left
        }
    }

    /** Wakes every thread waiting here, after the close. */
    void wakeAll() {
        lock.lock();
        try {
            notEmpty.signalAllHeld();
            notFull.signalAllHeld();
            batch.signalAllHeld();
            gate.signalAllHeld();
        } finally {
            lock.unlock();
        }
    }
}
