/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The room of the circular buffer: the cores that {@code dev.handoff.CircularBuffer} is a thin
 * {@code BlockingQueue} over, one per value of its {@code Core} option. Not exported.
 *
 * <ul>
 *   <li>{@link dev.handoff.internal.circular.BufferCore}: what a core does, what the buffer has
 *       checked before it calls, and how a core reports "closed" (an insert returns
 *       {@code false}, a take returns {@code null}) so that the buffer throws the contract's
 *       exceptions;</li>
 *   <li>{@link dev.handoff.internal.circular.LockCore} ({@code core=lock}, the default): one lock
 *       and two conditions, as {@code ArrayBlockingQueue};</li>
 *   <li>{@link dev.handoff.internal.circular.RingCore} ({@code core=ring}): lock-free puts and
 *       takes over a {@link dev.handoff.internal.circular.SequencedRing} (Vyukov's bounded MPMC
 *       queue), which lock only to wait and to look inside.</li>
 *   <li>{@link dev.handoff.internal.circular.CellsCore} ({@code core=cells}): a put and a take each
 *       claim a position with one fetch-and-add on a counter of their own side, never retried, and
 *       meet at the position's cell, with no lock on their way. Its parts, one job each: {@link
 *       dev.handoff.internal.circular.CellRing}, the ring of cells (a state word, an element and
 *       the threads waiting there) and whom to wake when a cell changes; {@link
 *       dev.handoff.internal.circular.CellCounts}, the put and take counters, the close, and the
 *       skew that makes the size exact; {@link dev.handoff.internal.circular.CellLobby}, where a
 *       put waits while the buffer is full and a take while it is empty, before they claim; {@link
 *       dev.handoff.internal.circular.CellWaits}, how a thread that claimed waits at its cell for
 *       its partner; {@link dev.handoff.internal.circular.CellGiveUps}, how a put or a take gives
 *       its position up (time, interrupt, close) so that nothing is lost and its partner moves on;
 *       {@link dev.handoff.internal.circular.CellsInside}, the operations that look inside, cell by
 *       cell, without stopping the puts and takes.</li>
 * </ul>
 *
 * <p>A new core implements {@code BufferCore}, takes in its constructor what it needs (capacity,
 * whether to spin, the buffer's {@code Counters}, the owning handoff for JFR's wait events), gets
 * a constant in {@code CircularBuffer.Core} and a case in {@code CircularBuffer}'s constructor.
 * Like every kind's room, this package uses only the shared mechanisms
 * ({@code dev.handoff.internal.waiting}, {@code .observe}, {@code .guard}, {@code .probe}),
 * {@code java.*}, and the contract types of {@code dev.handoff}; waiting goes through
 * {@code Spinner} (spin before parking) and {@code Waiters} (count, re-check, park), with the
 * waiter sets named {@code notEmpty} and {@code notFull}. The access modes and how they are
 * spelled are those of {@code dev.handoff}'s package notes.
 */
package dev.handoff.internal.circular;
