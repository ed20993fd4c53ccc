/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.linked;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A link of a {@link ChunkedList}'s chain: a fixed array of slots and the next chunk. A slot
 * holds an element, or null before it is filled and after it is taken. Not thread-safe: the
 * list owner's locks guard every access (see ChunkedList's notes).
 */
final class Chunk {
    final Object[] items;
    Chunk next;
    /** While on the list's stack of spares: how many chunks it holds from this one down. */
    int depth;

    Chunk(int size) {
        this.items = new Object[size];
    }

    /**
     * A position in a chain, moving forward slot by slot and on into the next chunk: for the
     * operations that walk or rewrite the whole list while holding both locks.
     */
    static final class Cursor {
        private Chunk chunk;
        private int index;

        Cursor(Chunk chunk, int index) {
            this.chunk = chunk;
            this.index = index;
        }

        /** The slot at this position, which must be inside the chain (its chunk linked). */
        Object peek() {
            if (index == chunk.items.length) {
                chunk = chunk.next;
                index = 0;
            }
            return chunk.items[index];
        }

        /** The slot at this position, then moves past it. */
        Object next() {
            Object e = peek();
            index++;
            return e;
        }

        /** Writes e at this position, then moves past it. */
        void put(Object e) {
            peek();
            chunk.items[index++] = e;
        }

        Chunk chunk() {
            return chunk;
        }

        int index() {
            return index;
        }
    }

    /**
     * One end of a chain, on cache lines of its own: the chunk and slot where its side works, and
     * how many elements have passed through it since the list was built (inserted at the put
     * end; removed at the take end). Its side writes it on every element, under that side's lock;
     * the other side reads only {@link #passed}, and only when its own copy of it runs out, so in a
     * steady stream the two sides do not pull each other's line.
     */
    static final class End extends EndFields {
        long q0, q1, q2, q3, q4, q5, q6, q7; // after the fields: nothing else on their last line
    }

    /** The fields of {@link End}, between the padding before and the padding after them. */
    abstract static class EndFields extends EndPadding {
        /** Elements that passed this end, ever. Volatile: the other side reads it unlocked. */
        volatile long passed;
        /** The other end's passed as this side last read it: never more than its current value. */
        long otherSeen;
        /** The chunk of the end: the first element's (take end) or the last one's (put end). */
        Chunk chunk;
        /** The slot of the end in chunk: the first element's, or the first free one. */
        int index;
    }

    /**
     * Room before an end's fields. HotSpot lays out a superclass's fields before a subclass's and
     * puts the int in the gap after the object header, so no field of End can go there.
     */
    abstract static class EndPadding {
        int pad0;
        long pad1, pad2, pad3, pad4, pad5, pad6, pad7;
    }

    /**
     * The chunks a list's consumers left, every slot null, kept for its producers, so that a
     * steady stream allocates nothing. Consumers give under the take lock, producers take under
     * the put lock; the two sides may act at once.
     */
    static final class Spares {
        /*
         * A stack that consumers push one chunk at a time and a producer empties whole with
         * getAndSet into its own list, then uses chunk by chunk. The push's compareAndSet follows
         * the consumer's last read and clear of the chunk's slots, and each push reads the top the
         * previous one wrote, so every push happens-before the getAndSet that takes the stack and
         * the producer's writes into the reused slots. The getAndSet gives each chunk to one
         * producer; since only a producer removes chunks, and all of them at once, a push never
         * meets a chunk that was popped and pushed again (no ABA).
         */

        /** Most chunks kept: enough for a list of 1024 elements in chunks of 64 to allocate nothing. */
        static final int MAX = 17;

        private static final VarHandle TOP;

        static {
            try {
                TOP = MethodHandles.lookup().findVarHandle(Spares.class, "top", Chunk.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The stack, linked through next; null when empty. */
        private volatile Chunk top;

        /** Chunks a producer took from the stack and has not used yet. Guarded by the put lock. */
        private Chunk taken;

        /** A kept chunk, or a new one of the given size. Call only when holding the put lock. */
        Chunk take(int size) {
            Chunk c = taken;
            if (c == null && top != null) {
                c = (Chunk) TOP.getAndSet(this, null); // pairs with the compareAndSet in give()
            }
            if (c == null) {
                return new Chunk(size);
            }
            taken = c.next;
            c.next = null;
            return c;
        }

        /**
         * Keeps a chunk the list no longer reaches, every slot null, unless MAX are kept.
         * Call only when holding the take lock.
         */
        void give(Chunk used) {
            Chunk t;
            do {
                t = top;
                if (t != null && t.depth >= MAX) {
                    return; // enough kept: this one goes to the GC
                }
                used.next = t;
                used.depth = t == null ? 1 : t.depth + 1;
            } while (!TOP.compareAndSet(this, t, used)); // after the clears: pairs with take()
        }
    }
}
