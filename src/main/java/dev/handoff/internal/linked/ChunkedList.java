/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.linked;

import dev.handoff.internal.guard.ReentryGuard;

import java.util.Arrays;
import java.util.Collection;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The bounded FIFO list of a two-lock queue: a chain of array chunks with an end for producers
 * and an end for consumers, each of which counts the elements that passed it. Not thread-safe by
 * itself: the owner's put lock guards the put end, its take lock the take end, and each method
 * names the lock its caller holds. The other side's end is read only through its volatile count.
 *
 * @param <E> the type of elements held
 */
public final class ChunkedList<E> {
    /*
     * Implementation notes.
     *
     * Each list node is a chunk of chunkSize slots, filled front to back, so a producer allocates
     * once per chunk rather than once per element and a consumer reads a run of elements from a
     * few cache lines rather than from one node each.
     *
     *   takeEnd: chunk (head)  index (takeIndex)       putEnd: chunk (last)   index (putIndex)
     *             v                v                                  v                v
     *            [ null null e1 e2 ... ] -> [ e.. ... ] -> ... -> [ .. en null ... ] -> null
     *
     * Invariants:
     *   the elements, in order, are the slots from (head, takeIndex) up to (last, putIndex);
     *   every other slot of the chain is null; only consumers move takeEnd, under the take lock;
     *   only producers move putEnd, under the put lock; last.next == null; takeIndex == chunkSize
     *   only while the first element (if any) is in head.next: a consumer moves to the next chunk
     *   when it takes from it, since head.next may not exist before;
     *   size = puts - takes, where puts = putEnd.passed and takes = takeEnd.passed;
     *   0 <= puts - takes <= capacity (see "Counting").
     *
     * Counting. A shared count, written by both sides on every element, would pull one cache line
     * back and forth between producers and consumers per element, whatever else they do. Here
     * each end counts the elements that passed it (puts, takes: longs that never wrap), and each
     * side keeps a copy of the other's count (otherSeen), re-read only when the copy says it must
     * stop: a producer re-reads takes only when puts - its copy reaches capacity, a consumer
     * re-reads puts only when its copy equals takes. The copies lag, never lead (counts only
     * grow), so what a copy shows is there: a producer that sees room by its copy has it, and a
     * consumer that sees an element by its copy has one. Hence 0 <= puts - takes <= capacity: a
     * producer increments puts only after seeing room, a consumer increments takes only after
     * seeing an element. A producer that streams into a queue with room never reads the
     * consumers' line, and a consumer that finds a run of elements reads the producers' line once
     * per run. Unlocked readers (size, looksEmpty) read takes before puts: since takes never
     * passes puts, puts read later is at least takes read earlier, so the difference is never
     * negative; size() caps it at capacity, which concurrent removals and inserts between the two
     * reads could exceed.
     *
     * Layout. Each end (chunk, index, passed, otherSeen) is an object of its own, padded so that
     * the two ends never share a cache line (Chunk.End): each is written on every element by its
     * own side alone.
     *
     * Visibility between writers and readers is provided as follows: a producer stores the
     * element in its slot (and, when it opens a chunk, links it through last.next), all plain
     * writes, and then writes puts (volatile); a consumer reads puts (volatile) before it reads a
     * slot or head.next, so the slot and link written before the write are visible to it. A
     * consumer that uses the copy another consumer read sees them too: that read, the copy and
     * the slot reads are ordered through the take lock. Producer and consumer share a chunk
     * without sharing a slot: the producer writes only slots at and after putIndex, the consumer
     * reads and clears only slots before the puts it read, which are before putIndex.
     *
     * Recycling. The consumer that leaves a chunk (every slot taken and cleared, no longer
     * reachable from head or last) gives it to spares, where the next producer that needs a
     * chunk finds it, so a steady stream allocates nothing (Chunk.Spares says how it is safe).
     */

    /** Slots per chunk, unless the capacity is smaller. */
    public static final int CHUNK_SIZE = 64;

    /** The bound. */
    private final int capacity;

    /** Slots per chunk of this list: min(CHUNK_SIZE, capacity). */
    private final int chunkSize;

    /**
     * The consumers' end, guarded by the take lock (but for the volatile read of takes): chunk is
     * head, the chunk of the first element; index is takeIndex, its slot, which equals chunkSize
     * when the first element is in head.next (head advances lazily, at the next removal); passed
     * is takes; otherSeen is the consumers' copy of puts.
     */
    private final Chunk.End takeEnd = new Chunk.End();

    /**
     * The producers' end, guarded by the put lock (but for the volatile read of puts): chunk is
     * last, the chunk of the last element, with last.next == null; index is putIndex, its next
     * free slot, chunkSize when last is full; passed is puts; otherSeen is the producers' copy of
     * takes.
     */
    private final Chunk.End putEnd = new Chunk.End();

    /** Chunks the consumers left, for the producers (see "Recycling"). */
    private final Chunk.Spares spares = new Chunk.Spares();

    /**
     * An empty list of the given capacity; its first chunk is allocated now, the others as
     * elements arrive.
     *
     * @param capacity the most elements it holds, {@code > 0}
     */
    public ChunkedList(int capacity) {
        this.capacity = capacity;
        this.chunkSize = Math.min(CHUNK_SIZE, capacity);
        takeEnd.chunk = putEnd.chunk = new Chunk(chunkSize);
    }

    // ---- the put end; call each holding the put lock ----

    /** Stores e and counts it in, which publishes it. Call holding the put lock, with room() > 0. */
    public void put(E e) {
        enqueue(e);
        pass(putEnd, 1); // publishes e and a chunk it linked: pairs with the read in availableNow()
    }

    /** Stores e in the next free slot, linking a new chunk if last is full. */
    private void enqueue(E e) {
        Chunk.End end = putEnd;
        if (end.index == chunkSize) {
            Chunk next = spares.take(chunkSize);
            end.chunk.next = next; // plain: published with e by the write of puts in put()
            end.chunk = next;
            end.index = 0;
        }
        end.chunk.items[end.index++] = e; // plain: published by the write of puts in put()
    }

    /**
     * How many more elements the producers may insert: by their copy of takes, re-read when the
     * copy says the list is full (see "Counting"). Call holding the put lock.
     */
    public long room() {
        Chunk.End end = putEnd;
        long room = capacity - (end.passed - end.otherSeen);
        if (room <= 0) {
            end.otherSeen = takeEnd.passed; // volatile read: pairs with the write in take()
            room = capacity - (end.passed - end.otherSeen);
        }
        return room;
    }

    // ---- the take end; call each holding the take lock ----

    /** Removes the first element and counts it out. Call holding the take lock, with available() > 0. */
    public E take() {
        E e = dequeue();
        pass(takeEnd, 1); // the slot was cleared before: pairs with the read of takes in room()
        return e;
    }

    /**
     * Moves up to max elements, in order, into target through guard, and counts them out as
     * taken, also when target throws: the element it refused is still first, and the rest follow
     * it. Returns how many it moved. Call holding the take lock.
     *
     * @param guard adds to target, refusing calls back into the queue
     */
    public int drainTo(Collection<? super E> target, int max, ReentryGuard guard) {
        long n = Math.min(max, availableNow()); // all there are, not the copy's count
        int moved = 0;
        try {
            while (moved < n) {
                guard.add(target, first()); // if this throws, the element is still inside
                dequeue();
                moved++;
            }
        } finally {
            pass(takeEnd, moved); // as in take()
        }
        return moved;
    }

    /** Removes and returns the first element; the caller counts it out. */
    @SuppressWarnings("unchecked")
    private E dequeue() {
        Chunk.End end = takeEnd;
        if (end.index == chunkSize) {
            Chunk used = end.chunk;
            end.chunk = used.next; // not null: the first element is in it
            end.index = 0;
            spares.give(used); // every slot taken and cleared
        }
        Object[] items = end.chunk.items;
        E e = (E) items[end.index];
        items[end.index++] = null;
        return e;
    }

    /**
     * The stamp of the first element from the take end on that has one, or
     * {@code Long.MAX_VALUE}: read without either lock (no caller holds one), weakly consistent.
     * The volatile read of takes comes first and pairs with the write in take(): the chunk and
     * index read after it are those of that take or a later one, and a later one may have moved
     * on, given its chunk to the spares, or had it refilled: then the walk reads elements just
     * taken or newer ones, or nulls, and stops after at most puts - takes slots or at a missing
     * link. The slots a producer published are those before puts, read before the walk.
     *
     * @param stampOf an element's stamp, or {@code Long.MAX_VALUE} for an element without one
     */
    public long oldestStamp(ToLongFunction<Object> stampOf) {
        Chunk.End end = takeEnd;
        long takes = end.passed;
        long inside = putEnd.passed - takes; // volatile: the slots before it are published
        Chunk chunk = end.chunk;
        int index = end.index;
        for (long left = inside; left > 0; left--) {
            if (index >= chunk.items.length) {
                chunk = chunk.next;
                index = 0;
                if (chunk == null) {
                    break; // a racy read of a chunk that was left meanwhile
                }
            }
            Object e = chunk.items[index++];
            long stamp = e == null ? Long.MAX_VALUE : stampOf.applyAsLong(e);
            if (stamp != Long.MAX_VALUE) {
                return stamp;
            }
        }
        return Long.MAX_VALUE;
    }

    /** The first element, left in place. Call holding the take lock, with available() > 0. */
    @SuppressWarnings("unchecked")
    public E first() {
        Chunk.End end = takeEnd;
        return (E) (end.index == chunkSize ? end.chunk.next.items[0] : end.chunk.items[end.index]);
    }

    /**
     * How many elements the consumers may take, at least: by their copy of puts, re-read when the
     * copy says the list is empty (see "Counting"). Call holding the take lock.
     */
    public long available() {
        long available = takeEnd.otherSeen - takeEnd.passed;
        return available > 0 ? available : availableNow();
    }

    /** How many elements the consumers may take, by puts re-read. Call holding the take lock. */
    private long availableNow() {
        Chunk.End end = takeEnd;
        // volatile read: pairs with the write in put(), and publishes the slots it counts
        end.otherSeen = putEnd.passed;
        return end.otherSeen - end.passed;
    }

    /**
     * Adds n to an end's count: a volatile write, so that the other side reading it sees what was
     * done before, and so that it precedes this side's read of the other side's waiter count
     * (the Dekker handshake in Waiters). Call holding that end's lock.
     */
    private static void pass(Chunk.End end, long n) {
        end.passed = end.passed + n; // only this side writes it, under its lock: no update is lost
    }

    // ---- the whole list; call each holding both locks ----

    /**
     * Removes the first {@code limit} elements that match, closing the gaps: the elements behind
     * each one move forward, in order; the removed ones are counted out as taken. Returns how many
     * it removed. If match throws, what it removed so far stays removed (and counted) and the
     * rest stay in order. Call holding both locks.
     *
     * @param guard asks match, refusing calls back into the queue
     */
    public int removeWhere(Predicate<Object> match, int limit, ReentryGuard guard) {
        Chunk.Cursor from = new Chunk.Cursor(takeEnd.chunk, takeEnd.index);
        Chunk.Cursor to = new Chunk.Cursor(takeEnd.chunk, takeEnd.index);
        int unread = lockedSize(), removed = 0;
        try {
            for (; unread > 0 && removed < limit; unread--) {
                Object e = from.peek();
                if (guard.test(match, e)) {
                    removed++;
                } else {
                    to.put(e);
                }
                from.next();
            }
        } finally {
            for (; unread > 0; unread--) { // the one under test when match threw, and the rest
                to.put(from.next());
            }
            if (removed > 0) {
                truncate(to.chunk(), to.index(), removed);
            }
        }
        return removed;
    }

    /**
     * Ends the list at slot index of chunk end, which drops the chunks after it, clears the slots
     * after it, and counts out the removed elements.
     */
    private void truncate(Chunk end, int index, int removed) {
        Arrays.fill(end.items, index, chunkSize, null);
        end.next = null;
        putEnd.chunk = end;
        putEnd.index = index;
        pass(takeEnd, removed); // counted as taken, so puts - takes stays the size; as in take()
    }

    /** Empties the list and counts its elements out as taken; returns how many there were. */
    public int clear() {
        takeEnd.chunk = putEnd.chunk = new Chunk(chunkSize); // the old chain goes to GC whole
        takeEnd.index = putEnd.index = 0;
        int removed = lockedSize();
        pass(takeEnd, removed); // counted as taken; as in take()
        return removed;
    }

    /** A copy of the elements in order. Call holding both locks. */
    public Object[] toArray() {
        Object[] copy = new Object[lockedSize()];
        Chunk.Cursor c = new Chunk.Cursor(takeEnd.chunk, takeEnd.index);
        for (int n = 0; n < copy.length; n++) {
            copy[n] = c.next();
        }
        return copy;
    }

    /** Whether some element equals o, asked in order from the first. Call holding both locks. */
    public boolean contains(Object o) {
        for (Object e : toArray()) {
            if (o.equals(e)) {
                return true;
            }
        }
        return false;
    }

    /** Counted out so far: takes, a volatile read. Exact when holding both locks. */
    public long takes() {
        return takeEnd.passed;
    }

    /** puts - takes, exactly. Call holding both locks. */
    private int lockedSize() {
        return (int) (putEnd.passed - takeEnd.passed);
    }

    // ---- unlocked reads ----

    /** The size at some moment during the call, at most capacity; no lock. */
    public int size() {
        long takes = takeEnd.passed; // first: see "Counting"
        return (int) Math.min(putEnd.passed - takes, capacity);
    }

    /** Whether the list was empty at some moment during the call; no lock. */
    public boolean looksEmpty() {
        long takes = takeEnd.passed; // first: see "Counting"
        return putEnd.passed == takes;
    }

    /** Whether puts equals takes, both read (volatile), never the copy: a waiter's re-check. */
    public boolean isEmptyNow() {
        return putEnd.passed == takeEnd.passed;
    }

    /** Whether the list is full by puts and takes both read (volatile), never the copy: a waiter's re-check. */
    public boolean isFullNow() {
        return putEnd.passed - takeEnd.passed >= capacity;
    }
}
