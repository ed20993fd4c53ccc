/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The lock-split queue's room: its algorithm, and the bounded FIFO list of array chunks it guards
 * with a put lock and a take lock.
 *
 * <p>{@link dev.handoff.internal.linked.LockSplitCore} is the algorithm that
 * {@code dev.handoff.LockSplitQueue} is a thin facade over: the two locks, the waiting, the
 * passing on of wake-ups and the closing; it answers ({@code false}, {@code null}) where the
 * contract throws, and the queue throws. {@link dev.handoff.internal.linked.ChunkedList} holds
 * the elements and both ends, each end counting the elements that passed it, so that producers
 * and consumers read each other's line only when their copy of the other's count runs out; its
 * notes give the invariants, the counting and the visibility argument. {@link dev.handoff.internal.linked.Chunk} is one link of
 * the chain, with the padded ends, the cursor that walks the whole list, and the stack of spare
 * chunks that lets a steady stream allocate nothing; nothing in them blocks.
 *
 * <p>Not exported: the module's {@code exports} keeps it out of the API. It uses the shared
 * mechanisms ({@code internal.guard}, {@code internal.waiting}, {@code internal.observe}) and no
 * other kind's room.
 */
package dev.handoff.internal.linked;
