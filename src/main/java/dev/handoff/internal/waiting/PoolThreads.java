/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.waiting;

import dev.handoff.Handoff;

/**
 * The rule every kind keeps once it is closed and empty (the {@code Handoff} contract, "Under a
 * ThreadPoolExecutor"): {@code take()} throws, except to a {@link java.util.concurrent.ThreadPoolExecutor}
 * worker asking for its next task, which waits as in an open, empty handoff until the pool
 * interrupts it at shutdown. Written here once; every kind's take calls it.
 *
 * <p>Telling a pool worker apart needs the name of a JDK method ({@code ThreadPoolExecutor.getTask}),
 * read from the stack: not an API, so a JDK that renamed it would make pool workers throw
 * instead of idling (ThreadPoolContract fails then).
 */
public final class PoolThreads {

    /**
     * How many frames above the stack walk the pool's getTask may be: this class, the kind's
     * take(), a wrapper's take() (importance classes) and their bridge methods.
     */
    private static final int FRAMES_TO_GET_TASK = 8;

    private PoolThreads() {
    }

    /**
     * Whether the caller of take() is a {@link java.util.concurrent.ThreadPoolExecutor} worker
     * asking for its next task: whether {@code ThreadPoolExecutor.getTask} is among the nearest
     * callers. It walks the stack: call it only once the handoff is closed and empty.
     *
     * @return whether a pool worker asks
     */
    public static boolean calledByPoolWorker() {
        return StackWalker.getInstance().walk(frames -> frames.limit(FRAMES_TO_GET_TASK)
                .anyMatch(f -> f.getMethodName().equals("getTask")
                        && f.getClassName().equals("java.util.concurrent.ThreadPoolExecutor")));
    }

    /**
     * What take() does once its handoff is closed and empty, called holding no lock: throws
     * {@code closedAndEmpty}, except to a pool worker, which parks until it is interrupted.
     * Nothing can arrive in a closed, empty handoff, so no signal but an interrupt is needed.
     *
     * @param blocker the handoff, shown as the parked thread's blocker
     * @param closedAndEmpty the exception to throw to any other caller
     * @return never
     * @throws InterruptedException when the pool worker is interrupted
     */
    public static <E> E takeWhenClosedAndEmpty(Handoff<?> blocker, RuntimeException closedAndEmpty)
            throws InterruptedException {
        if (!calledByPoolWorker()) {
            throw closedAndEmpty;
        }
        while (!Thread.interrupted()) {
            Parking.TAKE.park(blocker);
        }
        throw new InterruptedException();
    }
}
