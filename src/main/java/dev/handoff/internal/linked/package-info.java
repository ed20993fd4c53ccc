/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The lock-split queue's room: the bounded FIFO list of array chunks that
 * {@code dev.handoff.LockSplitQueue} guards with a put lock and a take lock.
 *
 * <p>{@link dev.handoff.internal.linked.ChunkedList} holds the elements and both ends, each end
 * counting the elements that passed it, so that producers and consumers read each other's line
 * only when their copy of the other's count runs out; its notes give the invariants, the
 * counting and the visibility argument. {@link dev.handoff.internal.linked.Chunk} is one link of
 * the chain, with the padded ends, the cursor that walks the whole list, and the stack of spare
 * chunks that lets a steady stream allocate nothing. The locks, the waiting and the closing stay
 * in the queue; nothing here blocks.
 *
 * <p>Not exported: the module's {@code exports} keeps it out of the API. It uses the shared
 * mechanisms ({@code internal.guard}) and no other kind's room.
 */
package dev.handoff.internal.linked;
