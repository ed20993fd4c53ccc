/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pipe;

import dev.handoff.internal.observe.Counters;
import dev.handoff.internal.waiting.Parking;
import dev.handoff.internal.waiting.Spinner;
import dev.handoff.internal.waiting.Waiters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A pipe's worker slots and who owns them: the status array that producers scan, one channel of
 * depth one per slot, and the ownership half of the slot states (claim, reclaim from a terminated
 * thread, release, waiting for a free slot). The handoff half ({@code WAITING}, {@code HANDED})
 * is {@link Dispatcher}'s and {@link Receiver}'s.
 */
public final class WorkerSlots {
    /*
     * Slot states, and who moves a slot out of each:
     *
     *   FREE    no worker owns the slot                     (claim: FREE -> BUSY, CAS)
     *   BUSY    owned, the worker is not waiting            (its worker: BUSY -> WAITING, CAS;
     *                                                        release: BUSY -> FREE, CAS)
     *   WAITING the worker waits in take/poll               (a producer: WAITING -> HANDED, CAS;
     *                                                        its worker leaving: WAITING -> BUSY)
     *   HANDED  a producer won the worker; its element is   (its worker, after reading the
     *           in, or on its way into, the channel          element: HANDED -> BUSY)
     *
     * Dispatcher and Receiver run the handoff through WAITING and HANDED; this class the ownership.
     *
     * Ownership. A slot is FREE or owned; only its owner moves it out of BUSY. A slot claimed
     * implicitly (take() or the timed poll()) records its owner Thread; a thread that needs a slot
     * when none is FREE takes over a BUSY slot whose owner has terminated, by a CAS on the owner
     * field. A worker leaves every wait in BUSY, so a dead owner's slot is BUSY and its channel
     * empty. A slot held by a PipeWorker handle records EXPLICIT and is never reclaimed.
     *
     * Waiting for a slot: a thread that finds none parks through slotWaiters (class Waiters, on
     * slotLock), whose re-check after counting itself is a volatile scan for a claimable slot;
     * release() CASes BUSY -> FREE (volatile) and then signals through slotWaiters, so either the
     * waiter finds the slot or release() signals (the proof is Waiters'). Thread termination
     * signals nobody, so one waiter, the rechecker, rescans every DEAD_OWNER_RECHECK_NANOS and
     * hands the role on when it leaves; the others wait for a signal only, so thousands of threads
     * waiting for a slot cost nothing.
     */

    /** No worker owns the slot. */
    static final int FREE = 0;
    /** Owned by a worker that is not waiting. */
    static final int BUSY = 1;
    /** Owned by a worker waiting in take or poll: a producer may claim it. */
    static final int WAITING = 2;
    /** Claimed by a producer: the element is in, or on its way into, the channel. */
    static final int HANDED = 3;

    static final VarHandle STATUS = MethodHandles.arrayElementVarHandle(int[].class);
    static final VarHandle ITEM;
    private static final VarHandle WAITER;
    private static final VarHandle OWNER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ITEM = lookup.findVarHandle(Channel.class, "item", Object.class);
            WAITER = lookup.findVarHandle(Channel.class, "waiter", Thread.class);
            OWNER = lookup.findVarHandle(Channel.class, "owner", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Room before a channel's fields, so that no two channels share a cache line: each is read by
     * its own worker while it spins and written by the producer that wins it. HotSpot lays out a
     * superclass's fields before a subclass's, and puts the int in the gap after the object
     * header, so no field of Channel can go there; from one channel's fields to the next
     * channel's lie this padding and an object header, more than 64 bytes.
     */
    abstract static class ChannelPadding {
        int pad0;
        long pad1, pad2, pad3, pad4, pad5, pad6, pad7;
    }

    /** A worker's pipe of depth one, with what a producer needs to wake the worker. */
    static final class Channel extends ChannelPadding {
        /** The handed element. Accessed through ITEM. Non-null only while the slot is HANDED. */
        Object item;
        /**
         * The spin policy of this slot's worker when it spins on its own: it alone waits on this
         * channel, so its spins adapt to its own producers. Allocated right after its channel and
         * before the next channel's padding, so that no other worker's fields share its line.
         */
        final Spinner spinner = new Spinner();
        /**
         * The worker once it has stopped spinning and may park, else null: producers unpark only
         * this. Accessed through WAITER; written only by the slot's owner or claimer.
         */
        private Thread waiter;
        /** A Thread (implicit worker), EXPLICIT, or null. Accessed through OWNER. */
        Object owner;

        /**
         * Waits, uninterruptibly, for the element of the producer that has won this HANDED slot
         * (it arrives within a few instructions); keeps an interrupt that arrives meanwhile.
         */
        Object awaitHandedItem(Object blocker) {
            // The producer has won this slot and is writing: a wait on a running partner, not
            // one that the side's spin budget governs.
            // getAcquire pairs with the volatile store in Dispatcher.handOver()
            Spinner.spinForPartner(this, 0L, (channel, unused) -> ITEM.getAcquire(channel) != null);
            announceWaiter(Thread.currentThread());
            boolean interrupted = false;
            Object x;
            // Volatile read after announceWaiter: the Dekker pair with Dispatcher.handOver().
            while ((x = ITEM.getVolatile(this)) == null) {
                Parking.TAKE.park(blocker); // the producer unparks us after writing the element
                interrupted |= Thread.interrupted(); // a set flag would make park return at once
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return x;
        }

        /**
         * Shows the owner as a thread that may park: a volatile write, which the caller follows
         * with volatile rereads of what it waits for (the Dekker pairs in the package notes).
         */
        void announceWaiter(Thread owner) {
            WAITER.setVolatile(this, owner);
        }

        /** The announced waiter, or null while the owner spins or works: a volatile read. */
        Thread waiter() {
            return (Thread) WAITER.getVolatile(this);
        }

        /**
         * Forgets the waiter. A plain write, made visible by the owner's next release or volatile
         * write of the slot's status; a producer that still reads the old value only makes that
         * thread's next park return early.
         */
        void clearWaiter() {
            waiter = null;
        }
    }

    /**
     * The statuses in one 64-byte cache line. Every handoff writes its worker's status; claims
     * spread workers over the lines of the array (tryClaim) rather than fill one line first.
     */
    private static final int STATUSES_PER_LINE = 16;

    /** The owner recorded for a slot held by a handle ({@link #claimExplicit()}): never reclaimed. */
    private static final Object EXPLICIT = new Object();

    /** How often a thread waiting for a slot looks for slots of terminated threads: 20 ms. */
    private static final long DEAD_OWNER_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** One state per slot, FREE, BUSY, WAITING or HANDED. Accessed through STATUS. */
    final int[] status;

    /** One channel per slot. */
    final Channel[] channels;

    /** Whether the pipe is closed: a volatile read, for the re-checks below. */
    private final BooleanSupplier closed;

    private final Counters counters;

    /** The slot of each thread that became a worker by calling take() or the timed poll(). */
    private final ThreadLocal<Integer> implicitSlot = new ThreadLocal<>();

    /** Threads that need a slot while all are held park under this lock. */
    private final ReentrantLock slotLock = new ReentrantLock();

    /** Threads waiting for a slot; signalled when a slot is given back, and by close. */
    private final Waiters slotWaiters;

    /** The waiters' re-check after counting themselves: open, and no slot claimable yet. */
    private final BooleanSupplier noSlotYet = this::noSlotYet;

    /** Whether a thread in awaitFreeSlot() rescans for dead owners periodically. Guarded by slotLock. */
    private boolean slotRechecker;

    /**
     * @param w the number of slots, W
     * @param closed whether the pipe is closed, read with a volatile (or stronger) access
     * @param counters the pipe's counters, for the waits for a slot
     * @param owner the pipe, named by the JFR events of those waits
     */
    public WorkerSlots(int w, BooleanSupplier closed, Counters counters, Object owner) {
        this.status = new int[w];
        this.channels = new Channel[w];
        for (int i = 0; i < w; i++) {
            channels[i] = new Channel();
        }
        this.closed = closed;
        this.counters = counters;
        this.slotWaiters = new Waiters(slotLock, Parking.TAKE, owner);
    }

    /** W, the number of slots. */
    public int count() {
        return status.length;
    }

    /** The number of slots WAITING at this moment: a snapshot. */
    public int waiting() {
        int n = 0;
        for (int i = 0; i < status.length; i++) {
            if ((int) STATUS.getOpaque(status, i) == WAITING) { // a snapshot: no ordering needed
                n++;
            }
        }
        return n;
    }

    /**
     * Unparks the thread of every WAITING slot. A stale or null waiter makes this a harmless no-op
     * or a spurious wake-up: every park is in a loop that rechecks its condition.
     */
    public void unparkWaiting() {
        for (int i = 0; i < status.length; i++) {
            // Volatile read: the second half of the caller's Dekker pair (see the package notes).
            if ((int) STATUS.getVolatile(status, i) == WAITING) {
                Thread waiter = channels[i].waiter(); // null while it spins: it rereads the line itself
                if (waiter != null) {
                    LockSupport.unpark(waiter);
                }
            }
        }
    }

    /**
     * Returns the calling thread's slot, claiming one on its first call and waiting for one while
     * all are held by live workers.
     *
     * @return the slot, or -1 if the pipe closed or (when timed) the time ran out first
     */
    public int currentThreadSlot(boolean timed, long nanos) throws InterruptedException {
        Integer slot = implicitSlot.get();
        if (slot == null) {
            int claimed = tryClaim(Thread.currentThread());
            if (claimed < 0) {
                claimed = awaitFreeSlot(timed, nanos);
                if (claimed < 0) {
                    return -1;
                }
            }
            slot = claimed;
            implicitSlot.set(slot);
        }
        return slot;
    }

    /** Claims a slot for a handle, without waiting; -1 if every slot is held by a live worker. */
    public int claimExplicit() {
        return tryClaim(EXPLICIT);
    }

    /** Gives back the calling thread's implicit slot, if it holds one; returns whether it did. */
    public boolean leave() {
        Integer slot = implicitSlot.get();
        if (slot == null) {
            return false;
        }
        implicitSlot.remove();
        release(slot);
        return true;
    }

    /**
     * Waits through slotWaiters until tryClaim succeeds, the pipe closes, or (when timed) the time runs
     * out; see the notes for the rechecker.
     *
     * @return the claimed slot, or -1
     */
    private int awaitFreeSlot(boolean timed, long nanos) throws InterruptedException {
        slotLock.lockInterruptibly();
        boolean rechecker = false;
        try {
            for (;;) {
                if (closed.getAsBoolean()) {
                    return -1;
                }
                int slot = tryClaim(Thread.currentThread());
                if (slot >= 0) {
                    return slot;
                }
                if (timed && nanos <= 0L) {
                    return -1;
                }
                if (!slotRechecker) {
                    slotRechecker = rechecker = true;
                }
                counters.consumerWait();
                // The rechecker wakes up in time to rescan for dead owners, timed or not.
                long wait = !rechecker ? nanos
                        : timed ? Math.min(nanos, DEAD_OWNER_RECHECK_NANOS) : DEAD_OWNER_RECHECK_NANOS;
                nanos -= wait - slotWaiters.await(noSlotYet, rechecker || timed, wait);
            }
        } finally {
            if (rechecker) {
                slotRechecker = false;
                slotWaiters.signalOneHeld(); // the next waiter takes the role on
            }
            slotLock.unlock();
        }
    }

    /**
     * Whether a waiter must still wait: the pipe open and no slot FREE or held by a dead thread.
     * Volatile reads of closed and of every status: the re-check Waiters requires.
     */
    private boolean noSlotYet() {
        if (closed.getAsBoolean()) {
            return false;
        }
        for (int i = 0; i < status.length; i++) {
            int s = (int) STATUS.getVolatile(status, i);
            if (claimable(s, channels[i])) {
                return false;
            }
        }
        return true;
    }

    /** Whether tryClaim can claim a slot in state s: FREE, or BUSY under a terminated thread. */
    private static boolean claimable(int s, Channel channel) {
        return s == FREE || deadOwner(s, channel) != null;
    }

    /**
     * The owner of a slot in state s that tryClaim may take over: a terminated thread holding it
     * BUSY, else null. A volatile read of the owner, after the caller's volatile read of s.
     */
    private static Thread deadOwner(int s, Channel channel) {
        return s == BUSY && OWNER.getVolatile(channel) instanceof Thread t && !t.isAlive() ? t : null;
    }

    /**
     * Claims a FREE slot, or a BUSY one whose owner thread has terminated, for owner.
     *
     * @return the slot, or -1 if every slot is held by a live worker
     */
    private int tryClaim(Object owner) {
        int w = status.length;
        int lines = (w + STATUSES_PER_LINE - 1) / STATUSES_PER_LINE;
        for (int k = 0; k < lines * STATUSES_PER_LINE; k++) {
            // Slot 0, 16, 32, ..., then 1, 17, 33, ...: a line of statuses each before any
            // line's second, so that up to W/16 workers write lines of their own.
            int i = (k % lines) * STATUSES_PER_LINE + k / lines;
            if (i >= w) {
                continue;
            }
            int s = (int) STATUS.getVolatile(status, i);
            Channel channel = channels[i];
            // Volatile CAS: pairs with the CAS BUSY -> FREE in release(), whose cleared owner and
            // waiter it makes visible to this claimer.
            if (s == FREE && STATUS.compareAndSet(status, i, FREE, BUSY)) {
                OWNER.setVolatile(channel, owner); // read by later claimers looking for dead owners
                return i;
            }
            Thread dead = deadOwner(s, channel);
            // CAS against the other claimers of the same dead owner's slot (this one's partner is
            // the same CAS in their tryClaim); the dead thread writes nothing.
            if (dead != null && OWNER.compareAndSet(channel, dead, owner)) {
                // The dead thread left its last wait in BUSY with an empty channel (see notes).
                channel.clearWaiter();
                return i;
            }
        }
        return -1;
    }

    /** Gives a slot back. Call only from its owner, while no call waits on the slot. */
    public void release(int slot) {
        Channel channel = channels[slot];
        channel.clearWaiter();
        OWNER.setOpaque(channel, (Object) null); // published by the CAS below
        // Volatile CAS: the cleared owner and waiter are visible to the next claimer, whose
        // CAS FREE -> BUSY reads this value.
        if (!STATUS.compareAndSet(status, slot, BUSY, FREE)) {
            throw new IllegalStateException("worker slot " + slot + " released while not BUSY");
        }
        slotWaiters.signalOne(); // after the volatile CAS, as Waiters requires
    }

    /** Wakes every thread waiting for a slot; called by close after it wrote closed. */
    public void wakeSlotWaiters() {
        slotWaiters.signalAll(); // they recheck closed under slotLock
    }
}
