/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Waiting, shared by every kind: how a thread that cannot proceed spins briefly or not at all
 * ({@link dev.handoff.internal.waiting.Spinner}), counts itself, re-checks and parks on a lock's
 * condition ({@link dev.handoff.internal.waiting.Waiters}), how every park is recorded for JFR
 * ({@link dev.handoff.internal.waiting.Parking}), and what a closed handoff does for a timed poll, a take
 * and a put, a pool's own threads included ({@link dev.handoff.internal.waiting.AfterClose}).
 * Not exported: the module's API is {@code dev.handoff}.
 *
 * <h2>Every loop that waits for another thread</h2>
 * A virtual thread must not wait for another thread in a loop that neither parks nor ends within
 * a bound: a loop of {@code Thread.onSpinWait()} or {@code Thread.yield()} keeps it on its
 * carrier, ahead of the wake-ups of the very threads it waits for. Here is every loop
 * of the module that may wait for another thread without parking, by the reason it ends. A loop
 * not named here parks on every round that waits, or waits for nothing (its rounds are its own
 * work).
 *
 * <h3>Budgeted spins: none on a virtual thread</h3>
 Every one is {@link dev.handoff.internal.waiting.Spinner#spin} (or its short form
 * {@code spinUntil}), then a park: no rounds on a virtual thread, which parks at once; on a
 * platform thread the side's budget, at most {@link dev.handoff.internal.waiting.Spinner#ROUNDS}
 * (a {@code wait=spin} probe four times that). Listed by caller, with what each waits for.
 * <ul>
 *   <li>{@code LockCore.spinWhileCountIs} (take, put with {@code wait=spin}): the count to leave 0,
 *       or full; {@code LockCore.spinForLockWhileProducersWait} (take, poll, while producers wait
 *       for room): the held lock to look free.</li>
 *   <li>{@code RingCore.spinPoll}, {@code RingCore.spinOffer} ({@code wait=spin}): an element, or room.</li>
 *   <li>{@code CellLobby.spunForRoomAhead} (a put of a full buffer, either waiting mode): the take that ends
 *       a batch of room; {@code CellLobby.spunForElement} (a take, {@code wait=spin}): an element.</li>
 *   <li>{@code CellWaits.spinFor} with {@code wait=spin}: the cell's word to reach the target.</li>
 *   <li>{@code TableHandoff.spin} (untimed put and take): a slot that shows room, or an element.</li>
 *   <li>{@code Dispatcher.handOffWithoutParking} (put): a worker to show itself spinning.</li>
 *   <li>{@code ProducerLine.spinUntilTaken} (a put in line): a worker to take its node.</li>
 *   <li>{@code Receiver.spinForItem} (a waiting worker): an element handed over, or a producer in line.</li>
 *   <li>{@code Reservations.spinThenTryAcquire} (an untimed acquire): a reservation.</li>
 * </ul>
 *
 * <h3>Spins on a partner under way: none on a virtual thread</h3>
 {@link dev.handoff.internal.waiting.Spinner#spinForPartner}: no rounds on a virtual thread,
 * {@link dev.handoff.internal.waiting.Spinner#PARTNER_ROUNDS} on a platform thread; then a park
 * that the partner ends with an unpark.
 * <ul>
 *   <li>{@code CellWaits.spinFor} with {@code wait=park}, once the partner has claimed: its change of
 *       the cell; then {@code CellWaits.await} parks at the cell, served by that change.</li>
 *   <li>{@code WorkerSlots.Channel.awaitHandedItem}: the element of the producer that won the slot;
 *       then it parks until that producer's unpark.</li>
 * </ul>
 *
 * <h3>Waits for a partner under way: {@code Spinner.pauseForPartner}</h3>
 * No bound on the rounds: each loop ends when its partner completes.
 * {@link dev.handoff.internal.waiting.Spinner#pauseForPartner(int)} spins
 * {@link dev.handoff.internal.waiting.Spinner#PARTNER_ROUNDS} rounds on a platform thread, yields
 * {@link dev.handoff.internal.waiting.Spinner#PARTNER_YIELDS}, then parks; a virtual thread parks
 * from the first round. The park is timed ({@code partnerParkNanos}: 1 us, doubling to 1 ms), since
 * the partner unparks nobody: its release would have to look for a waiter on every operation, for
 * a wait that is rare. A partner that runs the caller's code (a drain target's {@code add}) may
 * hold such a wait for long: it then looks once a millisecond.
 * <ul>
 *   <li>{@code CellsCore.offer}: take {@code p - cells}, claimed, to release p's cell; or, when it
 *       reads the same stale p twice, a removal that gave places back ({@code CellsInside.closeUp},
 *       between {@code givePutsBack} and its resets) to reset p's cell;
 *       {@code CellsCore.fillOrPass}: the same removal, for a put that claimed such a p.</li>
 *   <li>{@code CellsCore.poll}: put p, claimed, to fill, or a remover that holds p's element
 *       ({@code TAKING}) to let it go; {@code CellsCore.pollAt}: put p, claimed, to fill.</li>
 *   <li>{@code CellsCore.takeOrPass}: a remover ({@code drainTo}, a removal) to release p's element
 *       or put it back.</li>
 *   <li>{@code SequencedRing.offer}, {@code SequencedRing.poll}: the consumer, or producer, that
 *       claimed the cell to release, or publish, it; {@code SequencedRing.freeze}: every claim made
 *       before the freeze to be released.</li>
 *   <li>{@code SlotTable.retract} (an insert that met the close): the drain holding its element
 *       ({@code HELD}) to hand it on or put it back.</li>
 *   <li>{@code TableHandoff.insert}, {@code take} ({@code lookedInVain}), from the second round in
 *       a row whose re-check found room, or an element, that the pass then missed: a thread between
 *       a slot's CAS and its summary bit ({@code OccupancySummary.filled}, {@code emptied}).</li>
 *   <li>{@code ClassedHandoff.removeFirst}: every reservation held by others, for one to be settled
 *       or handed back; it stops once no class holds a match.</li>
 *   <li>{@code ClassHandoffs.takeReserved}, {@code ClassHandoffs.drainTo}: a lap that lost every
 *       element to other consumers. Lock-free (a failed lap implies another's completed take),
 *       but it pauses: the element owed to it may be in a class whose insert still publishes.</li>
 * </ul>
 * The park's own loop ({@code Spinner.parkForPartner}) parks again after an early return (a stale
 * permit) until its deadline, and stops at an interrupt.
 *
 * <h3>Lock-free retries: a failed round means another thread completed an operation</h3>
 * They retry at once, or after one {@code Thread.onSpinWait()}: a thread retries only as often as
 * others make progress, so nothing is waited for.
 * <ul>
 *   <li>{@code SequencedRing.offer}, {@code poll}: a lost CAS on tail or head (another thread took
 *       the position), or a stale position; {@code SequencedRing.size}: head moved meanwhile.</li>
 *   <li>{@code CellsCore.offer}, {@code poll}: a lost claim CAS, a stale position, or a position
 *       passed after a take gave it up or a put skipped it; {@code CellsCore.insert}, {@code remove},
 *       {@code pollAt}, {@code removeAt}: again after a give-up or a removal (their waits park, in
 *       {@code CellLobby} or at the cell).</li>
 *   <li>{@code CellRing.settle}, {@code apply} (a CAS on the word), {@code push}, {@code pushAll} (a
 *       CAS on the list), {@code serve} (again only if the word moved, or the close came, meanwhile).</li>
 *   <li>{@code Reservations.tryAcquire}, {@code tryAcquireHeld}: a CAS on the state.</li>
 *   <li>{@code OccupancySummary.emptied}: again only after others filled and emptied the slot;
 *       {@code OccupancySummary.advanceSweep}: another consumer moved the sweep; {@code Chunk.Spares.give}:
 *       a producer took the stack.</li>
 *   <li>{@code Receiver.receive}: a worker that left {@code WAITING} for the line found it emptied
 *       by another worker or by a producer that gave up.</li>
 *   <li>{@code RingCore.awaitElement}, {@code awaitRoom}: a round that does not park follows the
 *       other side's claim, whose release the next try waits for in the ring (above).
 *       {@code TableHandoff.insert}, {@code take}: a round that does not park follows another
 *       thread's fill or take of a slot the look saw, except in the gap above.</li>
 * </ul>
 *
 * <h3>Bounded by the table, the slots or the classes</h3>
 * One pass each; the caller then parks or answers.
 * <ul>
 *   <li>{@code ProbeFill.insert}, {@code WalkFill.walkFill}, {@code ProbeSearch.take},
 *       {@code CursorSearch.cursorSearch}: one lap, m probes; {@code CursorSearch.elementNear}: 16.</li>
 *   <li>{@code SummaryFill.fill}, {@code SummarySearch.take}: one pass over the summary's words,
 *       each bit once; {@code OccupancySummary.looksEmpty}, {@code looksFull}: every word once.</li>
 *   <li>{@code Dispatcher.tryHandOff}, {@code tryHandToSpinningWorker}: W probes each;
 *       {@code WorkerSlots.tryClaim}, {@code noSlotYet}, {@code unparkWaiting}: W slots;
 *       {@code ProducerLine.pollNext}: K lines.</li>
 *   <li>{@code CellsInside}'s loops: the positions between the counts read at their start;
 *       {@code CellRing.wakeAll}: every cell; {@code TableHandoff.drainTo} and removals: m slots.</li>
 * </ul>
 *
 * <h3>Loops that park</h3>
 * The waits on {@link dev.handoff.internal.waiting.Waiters} ({@code LockCore}, {@code RingCore},
 * {@code CellLobby}, {@code Reservations.await}, {@code WorkerSlots.awaitFreeSlot},
 * {@code TableHandoff}, {@code LockSplitQueue}) re-check and park; a round that does not park
 * follows a change of the state. {@code CellWaits.await}, {@code ProducerLine.await},
 * {@code Receiver.awaitHandOver}, {@code WorkerSlots.Channel.awaitHandedItem} and
 * {@link dev.handoff.internal.waiting.AfterClose} park until the partner (or the close, or an
 * interrupt) unparks them; {@code SequencedRing.awaitThaw} waits for the ring's lock.
 *
 */
package dev.handoff.internal.waiting;
