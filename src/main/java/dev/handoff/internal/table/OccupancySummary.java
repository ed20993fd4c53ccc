/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.table;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One bit per slot of the hash table, set while the slot probably holds an element, so that a
 * consumer finds an element by reading 64 slots' bits at a time instead of probing slot by slot;
 * and the sweep, a position that moves forward over the slots and bounds how long an element is
 * passed over.
 *
 * <p>The slots stay the truth: a bit is only a hint, and a thread acts on a slot only by its
 * compare-and-set. What the table relies on is one invariant, kept by the Dekker pair below:
 * <em>once the fillers and emptiers of a slot have finished, its bit is set if and only if the
 * slot is not empty.</em> While they run, a bit may be set over an empty slot or clear over a
 * filled one; a consumer that meets a set bit over an empty slot clears it the same way.
 *
 * <p>The Dekker pair, with sequentially consistent (volatile) accesses on both sides: a filler
 * writes its slot, then reads the word and, if the bit is clear, sets it; an emptier writes its
 * slot, then clears the bit. Whoever writes the bit then reads the slot again and, if the bit
 * now disagrees with it, writes the bit again, until they agree. Consider the last write of a
 * bit in the total order, and its writer's read of the slot after it, which agreed: a later
 * emptier would write the bit after it, and so would a later filler of an empty slot (it reads
 * the bit clear), so the slot kept the value that read saw, and the bit agrees with it. Without
 * the second look, an emptier that took a just-filled element before its filler set the bit
 * left the bit set over an empty slot for good, and size() and isEmpty() counted it.
 */
public final class OccupancySummary implements Occupancy {
    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

    /**
     * Words apart, in longs: one word per 64-byte cache line, so that fills and removals in
     * different 64-slot ranges do not write the same line.
     */
    private static final int SPREAD = 8;

    /** Bit i % 64 of word i / 64 (at index (i / 64) * SPREAD) is slot i's. */
    private final long[] words;
    private final int wordCount;
    private final int m;

    /**
     * The sweep, at index SPREAD, counted without wrapping: slot sweep % m is where the next
     * sweep search starts. Only moves forward (advanceSweep). An array of its own, with a cache
     * line on either side, so that its writes do not evict the fields every search reads.
     */
    private final long[] sweep = new long[2 * SPREAD + 1];

    public OccupancySummary(int m) {
        this.m = m;
        this.wordCount = (int) ((m + 63L) >>> 6);
        this.words = new long[wordCount * SPREAD];
    }

    public int wordCount() {
        return wordCount;
    }

    /** The bits of word w: slots 64w to 64w + 63. Volatile: the emptier's side of the pair. */
    public long word(int w) {
        return (long) WORD.getVolatile(words, w * SPREAD);
    }

    /**
     * The clear bits of word w that stand for a slot (the last word's bits past slot m - 1 stand
     * for none): the empty slots it shows. Volatile, as {@link #word}.
     */
    public long clearBits(int w) {
        long clear = ~word(w);
        if (w == wordCount - 1 && (m & 63) != 0) {
            clear &= (1L << m) - 1; // bits past slot m - 1 belong to no slot
        }
        return clear;
    }

    /**
     * The bits of a pass's k-th word (of words + 1, from the word of slot first) that the pass
     * covers: the first word from slot first on, the last (the first word again) the slots before.
     */
    static long inPass(long bits, int k, int words, int first) {
        if (k == 0) {
            return bits & (-1L << first);
        }
        return k == words ? bits & ~(-1L << first) : bits;
    }

    /**
     * Call after filling slot i (a volatile CAS): sets its bit unless it is set, and clears it
     * again if the slot was emptied meanwhile (see the class comment).
     *
     * @return as {@link #emptied}: whether the bit ended set by a second look after a clear
     */
    @Override
    public boolean filled(int i, TableSlots slots) {
        int at = (i >>> 6) * SPREAD;
        long bit = 1L << i;
        // Volatile read after the slot's CAS: the filler's side of the Dekker pair (see class).
        if (((long) WORD.getVolatile(words, at) & bit) != 0) {
            return false; // set: whoever set it, or the emptier that clears it, looks at the slot after
        }
        WORD.getAndBitwiseOr(words, at, bit); // volatile, then the slot read: the Dekker pair
        // an emptier that took the element before the set cleared the bit before it: clear it now
        return slots.readVolatile(i) == null && emptied(i, slots);
    }

    /**
     * Call after emptying slot i, or on finding it empty with its bit set: clears the bit, then
     * reads the slot, and sets the bit again if the slot is filled meanwhile, until bit and slot
     * agree (see the class comment).
     *
     * @return whether it set the bit again: a filler left the bit to this call, so a consumer
     *         that looked at the word between the clear and the set may be parked, and the
     *         caller must wake one as the filler would have (SlotTable's notes)
     */
    @Override
    public boolean emptied(int i, TableSlots slots) {
        int at = (i >>> 6) * SPREAD;
        long bit = 1L << i;
        for (;;) {
            WORD.getAndBitwiseAnd(words, at, ~bit); // volatile, then the slot read: the Dekker pair
            if (slots.readVolatile(i) == null) {
                return false;
            }
            WORD.getAndBitwiseOr(words, at, bit); // a filler saw the bit still set and left it
            if (slots.readVolatile(i) != null) {
                return true;
            }
            // emptied again since the read above, maybe before the set: clear once more
        }
    }

    /**
     * Reads the words and, for each set bit, its slot (a bit may outlive its element, or stand
     * over a HELD slot), each with a volatile read.
     */
    @Override
    public boolean looksEmpty(TableSlots slots) {
        for (int w = 0; w < wordCount; w++) {
            for (long bits = word(w); bits != 0; bits &= bits - 1) {
                Object e = slots.readVolatile((w << 6) + Long.numberOfTrailingZeros(bits));
                if (e != null && e != TableSlots.HELD) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Reads the words only: a bit may be clear over a slot just filled; the producer's next pass finds out. */
    @Override
    public boolean looksFull(TableSlots slots) {
        for (int w = 0; w < wordCount; w++) {
            if (clearBits(w) != 0) {
                return false;
            }
        }
        return true;
    }

    /** The number of set bits: the occupied slots when no fill or removal is under way. */
    @Override
    public int occupied(TableSlots slots) {
        int n = 0;
        for (int w = 0; w < wordCount; w++) {
            n += Long.bitCount(word(w));
        }
        return n;
    }

    @Override
    public boolean looksReadEverySlot() {
        return false; // a word per 64 slots
    }

    /** The sweep's current position, without wrapping. */
    public long sweep() {
        // Volatile: a sweep search starts from the latest position it can see.
        return (long) WORD.getVolatile(sweep, SPREAD);
    }

    /** The slot of a sweep position. */
    public int slotOf(long position) {
        return (int) Long.remainderUnsigned(position, m);
    }

    /**
     * Moves the sweep to just past slot i, found by a search that started at position from,
     * unless another search already moved it further.
     */
    public void advanceSweep(long from, int i) {
        int start = slotOf(from);
        long past = from + (i >= start ? i - start : m - start + i) + 1;
        for (long s = sweep(); s < past; s = sweep()) {
            // CAS against the other consumers' advances only: the sweep only moves forward.
            if (WORD.compareAndSet(sweep, SPREAD, s, past)) {
                return;
            }
        }
    }
}
