/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.probe.ProbeSequence;
import dev.handoff.internal.waiting.Spinner;

/**
 * The hash table's slots together with their {@link Occupancy}, changed together: every fill
 * and every removal of a slot goes through here, so that the occupancy follows the slot. Also a
 * drain's hold on a slot, the undo of an insert that met a close, and the looks that the waiters
 * re-check before they park. The fills ({@link TableFill}) and searches ({@link TableSearch})
 * decide which slot to try; this class tries it.
 */
public final class SlotTable {
    /*
     * Claims by compare-and-set, never by check-then-set. The papers' HashBuffer (Roussev and
     * Wu, ICN 2001, appendix) reads a slot, sees null, then sets it: two producers can both see
     * null and the second set overwrites (loses) the first element. Here a scan may look first
     * (TableSlots.hint), but only a CAS from null to its element makes a slot a producer's own,
     * and only a CAS from the element it saw to null makes the element a consumer's; a failed
     * CAS is counted as a conflict by the scan, which moves on.
     *
     * Invariant: a slot holds null, one element or HELD, and changes only by CAS: null -> e by a
     * producer, e -> null by a consumer, e -> HELD -> null (or back to e) by a drain. No element
     * is overwritten or taken twice.
     *
     * The occupancy's gap. A filler that finds its slot's summary bit still set leaves the bit to
     * the emptier of the previous element, which clears it and sets it again
     * (OccupancySummary.emptied); a consumer that read the word between the two saw no element,
     * and may have parked on that look. So an emptier that sets a bit again wakes one consumer
     * (markedAgain), as the filler would have.
     *
     * Visibility between writers and readers is provided as follows: a producer writes its
     * element into a slot with a volatile CAS (or under the slot's monitor), and a consumer takes
     * it with acquire semantics (a CAS with acquire, or the same monitor), so the actions before
     * put() happen-before the actions after the take that returns the element. A drain that puts
     * an element back does so with a volatile CAS, which the next taker's acquire pairs with.
     * ArraySlots and MonitorSlots name the partner of each access.
     */

    /** The slots. Invariant: a slot holds null, one element or HELD; only a CAS changes it. */
    final TableSlots slots;

    /** Probe sequences over the m slots. */
    final ProbeSequence probing;

    /** The occupied slots as the scans see them: the summary, or nothing beyond the slots. */
    private final Occupancy occupancy;

    final Counters counters;

    /**
     * Wakes one consumer: run when a removal found that a filler had left the slot's bit to it
     * (Occupancy.emptied), since a consumer may have looked at the word while it was clear.
     */
    private final Runnable markedAgain;

    /**
     * @param slots the slots
     * @param occupancy what records the occupied slots besides the slots themselves
     * @param counters the table's counters
     * @param markedAgain wakes one consumer (see Occupancy.emptied)
     */
    public SlotTable(TableSlots slots, Occupancy occupancy, Counters counters, Runnable markedAgain) {
        this.slots = slots;
        this.probing = new ProbeSequence(slots.length());
        this.occupancy = occupancy;
        this.counters = counters;
        this.markedAgain = markedAgain;
    }

    /** The number of slots, m. */
    public int length() {
        return slots.length();
    }

    /** This table's probe sequences. */
    public ProbeSequence probing() {
        return probing;
    }

    /** Claims empty slot i for e, and records it in the occupancy. */
    boolean tryFill(int i, Object e) {
        if (!slots.tryFill(i, e)) {
            return false;
        }
        if (occupancy.filled(i, slots)) {
            markedAgain.run(); // as in unmark
        }
        return true;
    }

    /** Takes e out of slot i, and clears it in the occupancy; false if e is not there (or HELD). */
    public boolean tryEmpty(int i, Object e) {
        if (e == TableSlots.HELD || !slots.tryEmpty(i, e)) {
            return false;
        }
        unmark(i);
        return true;
    }

    /** Clears slot i's bit after the slot was emptied (or found empty under a set bit). */
    void unmark(int i) {
        if (occupancy.emptied(i, slots)) {
            markedAgain.run();
        }
    }

    /** The element in slot i, read with acquire (its contents visible), or null if empty or HELD. */
    public Object element(int i) {
        Object e = slots.read(i);
        return e == TableSlots.HELD ? null : e;
    }

    /**
     * Holds the element e of slot i for a drain: e to HELD, so that nobody else takes it while
     * the drain hands it on.
     */
    public boolean hold(int i, Object e) {
        return slots.compareAndSet(i, e, TableSlots.HELD);
    }

    /**
     * Takes e back out of slot i, where its producer just put it, unless a consumer or a drain
     * took it first: the undo of an insert that found the table closed once its element was in
     * (TableHandoff's "Close"). While a drain holds e it waits, since the drain may yet put it
     * back.
     *
     * @return true if e was taken back (nobody received it), false if it was delivered
     */
    public boolean retract(int i, Object e) {
        for (int round = 0; ; round++) {
            Object now = slots.read(i);
            if (now == TableSlots.HELD) {
                Spinner.pauseForPartner(round); // the drain's add is under way
            } else if (now != e) {
                return false; // taken; the slot may hold another element by now
            } else if (tryEmpty(i, e)) {
                return true;
            }
        }
    }

    /** Ends a hold whose element left: HELD to null, and the bit cleared. */
    public void releaseHeld(int i) {
        slots.compareAndSet(i, TableSlots.HELD, null); // only the holder changes a HELD slot: it succeeds
        unmark(i);
    }

    /** Ends a hold whose element stays: HELD back to e (its bit is still set). */
    public void restoreHeld(int i, Object e) {
        slots.compareAndSet(i, TableSlots.HELD, e); // only the holder changes a HELD slot: it succeeds
    }

    /**
     * Whether no slot shows an element, read with volatile accesses: the consumers' re-check
     * before they park (the summary's words and the slots they mark; without one, every slot).
     */
    public boolean looksEmpty() {
        return occupancy.looksEmpty(slots);
    }

    /**
     * Whether no slot holds an element, reading every slot (volatile), not the summary: the
     * consumers' final check after close, which must not miss an element whose bit an emptier
     * has cleared and not yet set again (OccupancySummary.emptied).
     */
    public boolean noElementInSlots() {
        return slots.noElement();
    }

    /**
     * Whether no slot shows room, read with volatile accesses: the producers' re-check before
     * they park (the summary's words; without one, every slot).
     */
    public boolean looksFull() {
        return occupancy.looksFull(slots);
    }

    /** Whether the looks read every slot (no summary), so that a spinning thread looks seldom. */
    public boolean looksReadEverySlot() {
        return occupancy.looksReadEverySlot();
    }

    /**
     * The number of occupied (or HELD) slots: exact when no operation is under way, otherwise
     * within [0, m]. Reads the summary's words, or every slot without one.
     */
    public int occupied() {
        return occupancy.occupied(slots);
    }
}
