/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The counters of {@link CellsCore}: the next put and take positions, the close, the skew that
 * makes the size exact, and the take positions given up before their lap came.
 */
final class CellCounts {
    /*
     * Implementation notes.
     *
     * counts[PUTS] and counts[TAKES] are the next positions, 128 bytes apart so that the two
     * sides never write one line; counts[TAKES_SEEN], as far from the array's header and
     * counts[PUTS], is a take count that a put read (takeClaimedForPut), so that the puts check
     * their gate on a line that they write once per lap and the takes never write. No take
     * position is ever given back, so the take count never goes back.
     *
     * close() sets CLOSED in counts[PUTS] with one atomic OR, so a put's claim also says whether
     * the buffer was closed before it: the positions below the count at the close (closedAt) were
     * claimed by puts that finish, by filling or by giving up; none above is ever filled, and a
     * take there is closed and empty. closedAt is written before closed, which puts() and the takes
     * read first.
     *
     * skew counts the put positions that hold no element (given up, passed, removed) less the
     * take positions that took none; so the size is puts - takes - skew, exact when no operation
     * is under way. Only give-ups, passes and removals write it, never a put or take that meets
     * its partner.
     *
     * givenUp holds the take positions given up before their lap came (CellsCore's notes). A
     * taker adds its position, a volatile write of givenUpCount under the lock, before it reads
     * its cell's word; put p reads givenUpCount after the CAS of its fill. Of the two pairs one
     * sees the other: either the taker sees FULL and takes the element, or the put sees the
     * record and takes its element back; both claim the cell by CAS, so only one does.
     */

    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int TAKES_SEEN = 8, PUTS = 16, TAKES = 32;
    private static final long CLOSED = 1L << 62;

    private final long[] counts = new long[TAKES + 16];

    private final AtomicLong skew = new AtomicLong();

    /** Guarded by givenUpLock. */
    private final Set<Long> givenUp = new HashSet<>();
    private final ReentrantLock givenUpLock = new ReentrantLock();
    /** givenUp's size: written under givenUpLock, read lock-free by every put after its fill. */
    private volatile int givenUpCount;

    private volatile long closedAt;
    private volatile boolean closed;

    // ---- claiming ----

    /** A put position, or -1 if the buffer is closed (the position is never used). */
    long claimPut() {
        long c = (long) COUNT.getAndAdd(counts, PUTS, 1L);
        return (c & CLOSED) == 0 ? c : -1L;
    }

    long claimTake() {
        return (long) COUNT.getAndAdd(counts, TAKES, 1L);
    }

    /** Claims put position s if it is still the next one and the buffer is open: for offer(). */
    boolean claimPutAt(long s) {
        return COUNT.compareAndSet(counts, PUTS, s, s + 1);
    }

    /** Claims take position t if it is still the next one: for poll(). */
    boolean claimTakeAt(long t) {
        return COUNT.compareAndSet(counts, TAKES, t, t + 1);
    }

    /** The next put position, or -1 once closed. */
    long nextPut() {
        long c = (long) COUNT.getVolatile(counts, PUTS);
        return (c & CLOSED) == 0 ? c : -1L;
    }

    /** Gives put position p back if nobody claimed after it, nor closed. */
    boolean givePutBack(long p) {
        return COUNT.compareAndSet(counts, PUTS, p + 1, p);
    }

    /** Sets the put counter back from end to to, if no put claimed since it read end, nor closed. */
    boolean givePutsBack(long end, long to) {
        return COUNT.compareAndSet(counts, PUTS, end, to);
    }

    /** The put count: once closed, the count at the close (refused puts add to the counter after it). */
    long puts() {
        long c = (long) COUNT.getVolatile(counts, PUTS);
        return (c & CLOSED) == 0 ? c : closed ? closedAt : c & ~CLOSED;
    }

    long takes() {
        return (long) COUNT.getVolatile(counts, TAKES);
    }

    /** Whether a put has claimed position p (it, and every earlier put at p's cell, is under way or done). */
    boolean putClaimed(long p) {
        return puts() > p;
    }

    /** Whether a take has claimed position p. */
    boolean takeClaimed(long p) {
        return takes() > p;
    }

    /**
     * Whether a take has claimed position p, asked by a put at its gate: first of takesSeen, a
     * take count that some put read, then of the count itself, which then becomes takesSeen.
     */
    boolean takeClaimedForPut(long p) {
        // opaque: any value the take count ever had says that every take below it claimed, since
        // the count never goes back; a put far below the capacity reads no line the takes write
        if (p < (long) COUNT.getOpaque(counts, TAKES_SEEN)) {
            return true;
        }
        long t = takes(); // volatile: the gate waiter's read after its count (CellLobby)
        COUNT.setOpaque(counts, TAKES_SEEN, t); // puts may race; each value written is a count the takes had
        return t > p;
    }

    /** puts - takes - skew: the size when nothing is under way; any long while something is. */
    long elements() {
        return puts() - takes() - skew.get();
    }

    /** A put position that will hold no element, or a removed element. */
    void emptyPut() {
        skew.getAndIncrement();
    }

    /** A take position that took no element. */
    void emptyTake() {
        skew.getAndDecrement();
    }

    // ---- closing ----

    /** Closes, once: returns whether this call closed. */
    boolean close() {
        if (closed) {
            return false;
        }
        closedAt = (long) COUNT.getAndBitwiseOr(counts, PUTS, CLOSED);
        closed = true;
        return true;
    }

    boolean isClosed() {
        return closed;
    }

    /** Whether take position p can never be filled: closed, and p at or beyond the close. */
    boolean closedFor(long p) {
        return closed && p >= closedAt;
    }

    // ---- take positions given up before their lap ----

    void recordGiveUp(long p) {
        givenUpLock.lock();
        try {
            givenUp.add(p);
            givenUpCount = givenUp.size();
        } finally {
            givenUpLock.unlock();
        }
    }

    /** Whether some take gave up before its lap came: read by put p after its fill's CAS. */
    boolean anyGivenUp() {
        return givenUpCount != 0;
    }

    /**
     * Forgets take position p's give-up; returns whether it was recorded. Drops the records of
     * laps that are over too (a take record whose put gave up as well is never looked at).
     */
    boolean forgetGiveUp(long p, CellRing ring) {
        givenUpLock.lock();
        try {
            boolean had = givenUp.remove(p);
            givenUp.removeIf(q -> ring.word(ring.index(q)) >= ring.nextLap(q));
            givenUpCount = givenUp.size();
            return had;
        } finally {
            givenUpLock.unlock();
        }
    }
}
