/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The pipe handoff's room: the mechanism behind {@code dev.handoff.PipeHandoff}, one job per
 * class. {@link dev.handoff.internal.pipe.WorkerSlots} holds the status array that producers
 * scan, one channel of depth one per slot, and who owns each slot;
 * {@link dev.handoff.internal.pipe.Dispatcher} is a producer's way to a waiting worker (the scan
 * of Theorem 3 and the handover); {@link dev.handoff.internal.pipe.Receiver} is a worker's wait
 * on its slot; {@link dev.handoff.internal.pipe.ProducerLine} holds the producers that found no
 * waiting worker, with their elements, one line per importance class.
 * {@link dev.handoff.internal.pipe.PipeCore}, the engine the pipe is a facade over, builds them,
 * hands each what it needs (the counters, a {@code BooleanSupplier} for closed, the spin
 * policies), holds the closed flag, and answers {@code false} or {@code null} where the contract
 * throws, so nothing here reads the pipe itself.
 * {@link dev.handoff.internal.pipe.GiveUp} names why a waiting worker or producer stops waiting
 * without its handoff done (close, interrupt, timeout, or a worker leaving to serve the line).
 */
/*
 * The arguments that span the classes.
 *
 * Invariants: every WAITING episode ends with exactly one successful CAS, a producer's
 * WAITING -> HANDED (its element is delivered to this worker, Dispatcher.tryWin) or the
 * worker's own WAITING -> BUSY (leaving: timeout, interrupt, close, or a producer in line,
 * Receiver.leaveWaiting; the producer that lost goes on with its element). channel.item != null
 * only while HANDED: written once by the winning producer, cleared by the worker before
 * HANDED -> BUSY. A node in the line is removed once, under its lock, by a worker (taken) or by
 * its producer (cancelled).
 *
 * No lost wake-up, a Dekker pair: a producer adds its node to the line (volatile write of its
 * size) and then reads every status and waiter, unparking each parked WAITING worker
 * (ProducerLine.await, WorkerSlots.unparkWaiting); a worker about to park writes its channel's
 * waiter (volatile) and then reads the line's size, and rereads it at every wake-up and spin
 * round (Receiver.awaitHandOver). So either the worker sees the node, leaves WAITING and takes
 * from the line, or the producer sees the worker's waiter and wakes it. The same pair covers a
 * handed element: the producer stores it (volatile) and then reads the waiter
 * (Dispatcher.handOver), the worker writes the waiter and then reads the element; a producer
 * that finds no waiter (the worker still spins) unparks nobody. A producer in line waits for
 * its node's taken flag, with the second pair in ProducerLine (parked against taken). These
 * waits are not on Waiters: it counts anonymous waiters on a lock's Condition, while here the
 * waker knows the one thread it serves (the CAS or the lock decided it) and unparks it, so a
 * lock per slot would only add a lock hand-over to every handoff.
 *
 * Close. The pipe writes closed (volatile), then wakes the producers in line (under the line's
 * lock), the threads waiting for a slot, and the waiter of every WAITING slot. Dekker pairs: a
 * worker sets WAITING and then reads closed; a producer joins the line and then reads closed.
 *
 * Visibility between writers and readers is provided as follows: a producer that wins a slot
 * writes the element into the channel with a volatile store; the worker reads it with an
 * acquire or a volatile load. A producer in line publishes its node under the line's lock and
 * the worker takes it under the same lock. Either way everything the producer did before
 * inserting happens-before what the worker does with the element. channel.waiter is written
 * (volatile) by the worker only once it stops spinning and read (volatile) by producers: the
 * Dekker pairs above. The worker clears the channel before its release store HANDED -> BUSY, and
 * producers reach it again only through the worker's next BUSY -> WAITING, so no element can be
 * overwritten; a waiter read just before the worker cleared it costs that thread one spurious
 * return from park, which every park here rechecks.
 */
package dev.handoff.internal.pipe;
