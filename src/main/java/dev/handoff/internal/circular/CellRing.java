/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.circular;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The cells of {@link CellsCore}: a ring of {@code cells} cells, each with a state word, an
 * element and a list of the threads waiting at it. Position {@code p} (a put's or a take's
 * ticket) lives in cell {@code p % cells}; this class knows the cells' states and whom to wake
 * when one changes, and nothing of tickets, closing or counting.
 */
final class CellRing {
    /*
     * Implementation notes.
     *
     * State. A cell's word is 4 * p + phase, where p is the position the cell serves now (its
     * lap) and phase is one of
     *   EMPTY     (4p):     waiting for put p;
     *   FULL      (4p + 1): holds put p's element;
     *   TAKE_GONE (4p + 2): take p gave up before put p came: put p passes it on, writing nothing;
     *   TAKING    (4p + 3): p's element is being removed, by take p or by a remover.
     * and the cell then moves to 4 * (p + cells), the EMPTY state of its next lap. A lap is
     * skipped (EMPTY or TAKE_GONE straight to the next lap) when put p gave up. The word grows,
     * so "the cell reached my state" is one comparison: put p may write when the word is 4p,
     * take p may read when it is 4p + 1 and knows its lap is gone when it is at least
     * 4 * (p + cells). Only a remover moves it back, TAKING to FULL (a drainTo target threw)
     * or to EMPTY (a removal gave p back to the puts); those who meet the word then compare it
     * for equality, or wait again.
     *
     * Layout. A cell is one object, Cell: its word, its element and its list (32 bytes with
     * compressed references), so a put or a take moves one cache line of the ring between the
     * CPUs, where three parallel arrays would move two (the word's and the element's) and read a
     * third. The ring allocates its cells in array order, two to a 64-byte line. Threads of one
     * side claim consecutive positions at the same moment, so with i = p % cells they would write
     * neighbouring cells, and every put (every take) would pull the lines the other puts (takes)
     * are writing: false sharing on a line that every thread of a side writes, the cost that the
     * fetch-and-add claim exists to avoid. index() therefore cuts the first cells - cells % ROWS
     * cells into columns of ROWS consecutive cells and deals the positions round them as cards:
     * position k (= p % cells) takes row k / columns of column k % columns, cell
     * (k % columns) * ROWS + k / columns. Consecutive positions are ROWS cells apart (1 KB), and
     * the positions whose cells were allocated side by side are columns = cells / ROWS apart, far
     * more than the threads in flight; a collection that moves the cells leaves them in array
     * order or scatters them, which separates positions as well. The same idea spreads the ring
     * of R. Nikolaev's SCQ (DISC 2019) over its cache lines. The price: one thread's consecutive
     * operations no longer share a line either, so a lone producer and a lone consumer pass a
     * line between them for every element (1P/1C is the ring core's shape). The mapping is a
     * bijection, and nothing but the index depends on it: a cell's word names its position.
     *
     * Visibility of an element: put p writes the cell's item plainly, then CASes the word from 4p
     * to 4p + 1 (volatile); take p reads the word 4p + 1 (volatile), CASes it to 4p + 3, reads and
     * clears the item plainly, and releases the next lap with a volatile store of 4(p + cells),
     * which the next put's volatile read of that value acquires before it writes the item. Every
     * plain access of an item is thus ordered by its word: the put's before its CAS, the take's
     * between its CAS and its store. Each word change is a CAS except the two stores made by the
     * only thread that can change the word from its current phase (the take from TAKING, the
     * put passing TAKE_GONE when no one else gave up: see pass()).
     *
     * Waiting. A thread that must wait pushes a Waiter (its position, side and thread) onto the
     * cell's list, then reads the word again, and parks only if the word has not reached its
     * target (put p: 4p; take p: 4p + 1). Every thread that changes a word reads the list after
     * the change, and serves it if it is not empty: it detaches the whole list, unparks the
     * waiters whose target the word has reached, and pushes the others back. The push and the
     * word are both volatile, so of a waiter's push-then-read and a changer's write-then-read, at
     * least one sees the other: no wake-up is lost, and no waiter is woken before its target, so
     * a woken thread can always go on. A server that held waiters back while the word moved on
     * reads the word after pushing them back and serves again if it changed: the changer that
     * found the list empty meanwhile is covered by that read (its write precedes it).
     *
     * Giving up (CellGiveUps). A thread that gives up (time, interrupt, close) a position whose
     * lap has come settles the cell itself with a CAS (put: EMPTY or TAKE_GONE to the next lap;
     * take: EMPTY to TAKE_GONE; a take that finds FULL takes the element after all). A put whose
     * lap has not come marks its Waiter CANCELLED (or pushes a CANCELLED one) and then reads
     * the word; the record stays on the list, and the thread that brings the cell to that lap
     * applies it when it serves the list (apply()). The mark and the word are both volatile: of
     * the canceller's mark-then-read and the changer's write-then-serve, one sees the other, and
     * both settle by CAS from the same state, so a lap is settled once. Nothing acts on a lap
     * whose put gave up before the record is applied: take p only waits there.
     */

    static final int EMPTY = 0, FULL = 1, TAKE_GONE = 2, TAKING = 3;

    private static final VarHandle WORD, ITEM, LIST;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WORD = lookup.findVarHandle(Cell.class, "word", long.class);
            ITEM = lookup.findVarHandle(Cell.class, "item", Object.class);
            LIST = lookup.findVarHandle(Cell.class, "list", Waiter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * One cell: its three fields lie within 16 bytes of an object of 32, on one cache line
     * unless the object straddles two (see the notes on layout). Accessed only through WORD,
     * ITEM and LIST, in the modes the notes give.
     */
    static final class Cell {
        /** 4 * position + phase; volatile and CAS accesses only, after the constructor. */
        long word;
        /** The element of a FULL cell, else null; plain, ordered by word. */
        Object item;
        /** The threads waiting here and the records of give-ups, a stack; volatile and CAS accesses. */
        Waiter list;
    }

    /** A thread waiting at a cell, or the record of one that gave up there. */
    static final class Waiter {
        static final int WAITING = 0, DONE = 1, CANCELLED = 2;
        private static final VarHandle STATUS;

        static {
            try {
                STATUS = MethodHandles.lookup().findVarHandle(Waiter.class, "status", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Thread thread;
        final long position;
        final boolean put;
        /** WAITING, then DONE or CANCELLED, written only by thread; volatile (see the notes). */
        private volatile int status;
        /** The next on the cell's list; written before the push that publishes it. */
        Waiter next;

        Waiter(Thread thread, long position, boolean put, int status) {
            this.thread = thread;
            this.position = position;
            this.put = put;
            STATUS.set(this, status);
        }

        /** The word at which this waiter can go on. */
        long target() {
            return put ? word(position, EMPTY) : word(position, FULL);
        }

        int status() {
            return status;
        }

        void setStatus(int s) {
            status = s;
        }
    }

    /** Cells of one column of the layout: consecutive positions are this many array slots apart. */
    static final int ROWS = 32;

    /** The number of cells: the length of a lap. */
    final int cells;
    /** cells / ROWS: positions that share a column are this many apart. */
    private final int columns;
    /** columns * ROWS: the cells that index() spreads; 0 below two columns, where spreading moves nothing. */
    private final int spread;
    /**
     * floor((2^64 - 1) / cells): for a position p below 2^63, the high half of the unsigned
     * product p * perCell is p / cells or one less, since p * (2^64 / cells - perCell) / 2^64
     * is below 2p / 2^64 < 1; one subtraction then gives p % cells. Positions stay below 2^62.
     */
    private final long perCell;
    /**
     * ceil(2^64 / columns): for k below 2^31, the high half of the unsigned product k * perColumn
     * is k / columns (D. Lemire, O. Kaser, N. Kurz, "Faster remainder by direct computation",
     * 2019), one multiplication where a division would cost tens of cycles on every operation.
     */
    private final long perColumn;
    /** The cells, by index(); the array is written only by the constructor. */
    private final Cell[] slots;

    CellRing(int cells) {
        this.cells = cells;
        this.perCell = perCell(cells);
        this.columns = cells / ROWS;
        this.spread = columns >= 2 ? columns * ROWS : 0;
        this.perColumn = columns >= 2 ? Long.divideUnsigned(-1L, columns) + 1 : 0L;
        this.slots = new Cell[cells];
        for (int i = 0; i < cells; i++) {
            slots[i] = new Cell(); // in array order, two to a line (see the notes)
        }
        for (int k = 0; k < cells; k++) {
            slots[index(k)].word = word(k, EMPTY); // each cell waits for the first put of its own position
        }
        VarHandle.releaseFence(); // the cells and their words, for threads that read the ring through a race
    }

    static long word(long position, int phase) {
        return (position << 2) | phase;
    }

    static int phase(long word) {
        return (int) word & 3;
    }

    static long position(long word) {
        return word >>> 2;
    }

    /**
     * The array index of position p's cell: p % cells, spread so that consecutive positions,
     * which threads of one side claim at the same moment, lie on different cache lines (see
     * the notes on layout).
     */
    int index(long position) {
        int k = remainder(position, cells, perCell);
        if (k >= spread) {
            return k; // the last cells % ROWS cells keep their place
        }
        int row = (int) Math.unsignedMultiplyHigh(k, perColumn); // k / columns, without a division
        return (k - row * columns) * ROWS + row;
    }

    /**
     * position % cells, for a position below 2^62, without a division: q is position / cells or
     * one less (see perCell), so one subtraction at most corrects the remainder.
     */
    static int remainder(long position, int cells, long perCell) {
        long q = Math.unsignedMultiplyHigh(position, perCell);
        long r = position - q * cells; // below 2 * cells: a long, since 2 * cells may pass 2^31
        return (int) (r >= cells ? r - cells : r);
    }

    /** perCell for a ring of cells cells: floor((2^64 - 1) / cells). */
    static long perCell(int cells) {
        return Long.divideUnsigned(-1L, cells);
    }

    /** The next lap's EMPTY word after position p. */
    long nextLap(long p) {
        return word(p + cells, EMPTY);
    }

    /** Whether position p's lap of its cell is over (a volatile read); true for p < 0, which never had one. */
    boolean lapOver(long p) {
        return p < 0 || word(index(p)) >= nextLap(p);
    }

    long word(int i) {
        return (long) WORD.getVolatile(slots[i]);
    }

    boolean cas(int i, long expected, long next) {
        return WORD.compareAndSet(slots[i], expected, next);
    }

    // ---- the transitions, each followed by serving the cell's list if it has waiters ----

    /** Put p writes e into cell i, whose word it read as EMPTY(p): false if take p gave up meanwhile. */
    boolean fill(int i, long p, Object e) {
        ITEM.set(slots[i], e); // plain: published by the CAS below, read after take p's acquire of FULL
        if (cas(i, word(p, EMPTY), word(p, FULL))) {
            served(i);
            return true;
        }
        ITEM.set(slots[i], null); // TAKE_GONE now: no one reads the item until a put's next CAS
        return false;
    }

    /**
     * Claims p's element in cell i, whose word was read as FULL(p), for take p or a remover: the
     * element, or null if another claimed it first. The caller must {@link #release} the cell.
     */
    Object claim(int i, long p) {
        if (!cas(i, word(p, FULL), word(p, TAKING))) {
            return null;
        }
        Object e = ITEM.get(slots[i]); // plain: after the CAS, which follows put p's CAS (acquire)
        ITEM.set(slots[i], null);
        return e;
    }

    /** Ends a claim: the cell goes to its next lap (volatile store: only the claimer writes TAKING's word). */
    void release(int i, long p) {
        WORD.setVolatile(slots[i], nextLap(p));
        served(i);
    }

    /**
     * Ends a claim by giving position p back: the cell is EMPTY(p) again, for the next put at p
     * (the counter was set back by the caller). A take at p waits there again.
     */
    void reset(int i, long p) {
        WORD.setVolatile(slots[i], word(p, EMPTY));
        served(i);
    }

    /** Ends a claim by putting e at p: the cell is FULL(p) again, with e (the claimed element or another). */
    void unclaim(int i, long p, Object e) {
        ITEM.set(slots[i], e);
        WORD.setVolatile(slots[i], word(p, FULL));
        served(i);
    }

    /**
     * Put p passes a cell whose take gave up (TAKE_GONE(p)): a CAS, since a canceller that saw
     * put p's record may move it too; either way the cell is at its next lap after.
     */
    void pass(int i, long p) {
        cas(i, word(p, TAKE_GONE), nextLap(p));
        served(i);
    }

    /**
     * Settles a give-up at position p, for a put ({@code put}) or a take, if its lap has come:
     * see the notes. Returns the word at which it stopped;
     * for a take that finds FULL(p), FULL(p), and the take must claim the element.
     */
    long settle(int i, long p, boolean put) {
        while (true) {
            long w = word(i);
            long from = w;
            if (put && (w == word(p, EMPTY) || w == word(p, TAKE_GONE))) {
                w = nextLap(p);
            } else if (!put && w == word(p, EMPTY)) {
                w = word(p, TAKE_GONE);
            } else {
                return w; // not come yet (the record stands), settled, or (take) FULL
            }
            if (cas(i, from, w)) {
                served(i);
                return w;
            }
        }
    }

    /** Whether e is p's element in cell i at this instant: a read of the word, the element, the word. */
    Object peekAt(int i, long p) {
        if (word(i) != word(p, FULL)) {
            return null;
        }
        Object e = ITEM.getAcquire(slots[i]);
        return word(i) == word(p, FULL) ? e : null; // unchanged: e was p's, not a later lap's
    }

    // ---- the lists ----

    /**
     * Pushes w onto cell i's list, dropping the finished waiters at its top: a thread that gives
     * its position back again and again at a cell that does not change leaves no trail.
     */
    void push(int i, Waiter w) {
        Waiter head;
        do {
            head = (Waiter) LIST.getVolatile(slots[i]);
            Waiter below = head;
            while (below != null && below.status() == Waiter.DONE) {
                below = below.next; // never reused, so a stale head fails the CAS below (no ABA)
            }
            w.next = below;
        } while (!LIST.compareAndSet(slots[i], head, w));
    }

    /** Serves cell i's list if it has one: after a change of the word (see the notes). */
    void served(int i) {
        if (LIST.getVolatile(slots[i]) != null) { // after the word's change: the Dekker pair of push
            serve(i);
        }
    }

    /**
     * Unparks every thread waiting at any cell, so that it sees a close, and from now on every
     * waiter that a serve meets: a close is final, and a waiter that must wait on parks again.
     */
    void wakeAll() {
        wakeEveryone = true; // before the reads of the lists: a server holding some reads it after its push back
        for (int i = 0; i < cells; i++) {
            if (LIST.getVolatile(slots[i]) != null) {
                serve(i);
            }
        }
    }

    /** Set once by wakeAll(). */
    private volatile boolean wakeEveryone;

    private void serve(int i) {
        while (true) {
            boolean everyone = wakeEveryone;
            Waiter list = (Waiter) LIST.getAndSet(slots[i], (Waiter) null);
            if (list == null) {
                return;
            }
            long before = word(i);
            long w = apply(i, list);
            Waiter keptFirst = null, keptLast = null;
            for (Waiter x = list, next; x != null; x = next) {
                next = x.next;
                x.next = null;
                if (keep(x, w, everyone)) {
                    if (keptFirst == null) {
                        keptFirst = x;
                    } else {
                        keptLast.next = x;
                    }
                    keptLast = x;
                }
            }
            if (keptFirst != null) {
                pushAll(i, keptFirst, keptLast);
            }
            // Done unless the word moved: by apply (a waiter that pushed meanwhile may have read
            // the word before it), or while the kept ones were out (its changer found no list).
            if (w == before && (keptFirst == null || (word(i) == w && (everyone || !wakeEveryone)))) {
                return;
            }
        }
    }

    /** Whether x stays on the list when the word is w; unparks it if it can go on. */
    private boolean keep(Waiter x, long w, boolean everyone) {
        int s = x.status();
        if (s == Waiter.CANCELLED) {
            return w < nextLap(x.position); // a put's record is needed until its lap is over
        }
        if (s == Waiter.DONE) {
            return false;
        }
        if (w >= x.target()) {
            LockSupport.unpark(x.thread);
            return false;
        }
        if (everyone) {
            LockSupport.unpark(x.thread); // it looks at the close and parks again if it must
        }
        return true;
    }

    /** Applies the records of give-ups whose lap the word has reached; returns the word after. */
    private long apply(int i, Waiter list) {
        while (true) {
            long w = word(i);
            long p = position(w);
            int phase = phase(w);
            long next;
            if ((phase == EMPTY || phase == TAKE_GONE) && hasRecord(list, p)) {
                next = nextLap(p); // put p gave up: no element will come
            } else {
                return w;
            }
            cas(i, w, next); // or another settled it: read again either way
        }
    }

    private static boolean hasRecord(Waiter list, long p) {
        for (Waiter x = list; x != null; x = x.next) {
            if (x.position == p && x.put && x.status() == Waiter.CANCELLED) {
                return true;
            }
        }
        return false;
    }

    private void pushAll(int i, Waiter first, Waiter last) {
        Waiter head;
        do {
            head = (Waiter) LIST.getVolatile(slots[i]);
            last.next = head;
        } while (!LIST.compareAndSet(slots[i], head, first));
    }
}
