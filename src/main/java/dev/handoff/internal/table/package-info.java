/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The parallel hash table's room: the mechanism that {@code dev.handoff.ParallelHashTable} is a
 * thin {@code BlockingQueue} over, with its options mapped, once, onto the classes below. Each
 * class says where it differs from the papers of Roussev and Wu.
 *
 * <p>The handoff and its slots:
 * <ul>
 *   <li>{@link dev.handoff.internal.table.TableHandoff}: a pass of the fill or the search, and
 *       the waiting, closing, draining and removing around them, with no shared count and no
 *       polling;</li>
 *   <li>{@link dev.handoff.internal.table.SlotTable}: the slots together with their occupancy,
 *       changed together; every claim of a slot is a compare-and-set, and a drain's hold, the
 *       undo of an insert that met the close, and the looks before parking are here too;</li>
 *   <li>{@link dev.handoff.internal.table.TableSlots}: the m slots, each null, one element or
 *       {@code HELD}, in two forms that behave the same:
 *       {@link dev.handoff.internal.table.ArraySlots} (lock-free, one array through a
 *       {@code VarHandle}) and {@link dev.handoff.internal.table.MonitorSlots} (the papers' form,
 *       a monitor per slot).</li>
 * </ul>
 *
 * <p>What a table keeps besides its slots, a hint that only a slot's compare-and-set confirms:
 * {@link dev.handoff.internal.table.Occupancy}, either an
 * {@link dev.handoff.internal.table.OccupancySummary} (a bit per slot, kept true by a Dekker
 * pair, and the sweep that bounds how long an element is passed over) or
 * {@link dev.handoff.internal.table.NoSummary} (nothing: every look reads the slots).
 *
 * <p>How a producer finds an empty slot, one pass that never waits for another thread
 * ({@link dev.handoff.internal.table.TableFill}):
 * {@link dev.handoff.internal.table.ProbeFill} (the papers' insert along the key's
 * double-hashing probe sequence, Theorem 1),
 * {@link dev.handoff.internal.table.SummaryFill} (the summary's clear bits) and
 * {@link dev.handoff.internal.table.WalkFill} (slot by slot from the producer's last fill).
 * {@link dev.handoff.internal.table.FillHints} holds where each producer's next fill starts, so
 * that one producer's elements lie in the order it put them.
 *
 * <p>How a consumer finds an element, one pass likewise
 * ({@link dev.handoff.internal.table.TableSearch}):
 * {@link dev.handoff.internal.table.ProbeSearch} (the papers' search from a pseudo-random slot,
 * Theorems 2 and 3), {@link dev.handoff.internal.table.SummarySearch} (the default: the summary,
 * from a pseudo-random word or, every second search, the sweep) and
 * {@link dev.handoff.internal.table.CursorSearch} (a walk from the thread's own cursor and a
 * probe lap in turn). {@link dev.handoff.internal.table.SweepTurn} is one thread's turn: whether
 * its next summary search starts from the sweep.
 * {@link dev.handoff.internal.table.TableScheme} is the occupancy, fill and search a table runs,
 * chosen once from its options.
 *
 * <p>Not exported: the module's {@code exports} keeps it out of the API. Like every kind's room,
 * it uses only the shared mechanisms ({@code internal.waiting}, {@code .observe}, {@code .guard},
 * {@code .probe}), {@code java.*}, and the contract types of {@code dev.handoff}; the access
 * modes and how they are spelled are those of {@code dev.handoff}'s package notes.
 */
package dev.handoff.internal.table;
