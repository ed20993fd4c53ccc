/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.waiting;

import dev.handoff.HandoffClosedException;

import java.security.CodeSource;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * What every kind does once it is closed (the {@code Handoff} contract, "Closing" and "Under a
 * thread pool"), written here once:
 * <ul>
 *   <li>a timed poll that finds the handoff closed and empty waits out its timeout
 *       ({@link #waitOut}), as it would in an open, empty handoff;</li>
 *   <li>{@code take()} on a closed, empty handoff throws, except to a pool's own code, which
 *       parks until interrupted ({@link #takeWhenClosedAndEmpty});</li>
 *   <li>{@code put} on a closed handoff throws {@link HandoffClosedException}, except to a pool's
 *       own code, which gets {@link RejectedExecutionException} ({@link #refusePut}).</li>
 * </ul>
 *
 * <p>"A pool's own code" ({@link #calledByPool()}): the nearest caller outside this library
 * belongs to a class that implements {@link Executor}, or is nested in one. That is
 * {@code ThreadPoolExecutor.getTask} (the JDK's and Tomcat's fork), Jetty's
 * {@code QueuedThreadPool$Runner}, a hand-written executor's worker loop; a task that runs in a
 * pool and consumes a handoff is not (its nearest outside frame is the task's own class).
 */
public final class AfterClose {
    /*
     * Implementation notes.
     *
     * The stack is walked only once the handoff is closed: the open path pays nothing. Frames of
     * this library are skipped; a frame is the library's if its class is in dev.handoff or a
     * subpackage and was loaded from the library's own code source. The second condition keeps
     * the library's tests, which share its packages but not its jar (or classes folder), from
     * counting as library code: a test's task running in a pool is then the task it is, not the
     * pool. Reflection and java.lang.invoke frames are hidden from a default StackWalker; they
     * are skipped by name as well.
     *
     * The earlier rule, "ThreadPoolExecutor.getTask among the nearest callers", is kept beside
     * the new one for take(): it also recognises a JDK pool whose work queue is a user's wrapper
     * around a handoff (the wrapper's class, not the pool, is then the nearest outside caller).
     *
     * Waiting out a timeout: nothing can arrive in a closed, empty handoff, so no signal is
     * needed; the thread parks for the remaining time, holding no lock, and only an interrupt or
     * the deadline ends the wait.
     */

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /** Where this library's classes were loaded from; a class of its packages from elsewhere is a test's. */
    private static final CodeSource LIBRARY = AfterClose.class.getProtectionDomain().getCodeSource();

    /**
     * How many frames above the stack walk {@code ThreadPoolExecutor.getTask} may be for the rule
     * by name: this class, the kind's take(), a decorator's and a wrapper's take(), bridges.
     */
    private static final int FRAMES_TO_GET_TASK = 10;

    private AfterClose() {
    }

    /**
     * Whether the nearest caller outside this library is a pool's own code: its class implements
     * {@link Executor}, or is nested in a class that does. It walks the stack: call it only once
     * the handoff is closed.
     *
     * @return whether a pool's own code calls
     */
    public static boolean calledByPool() {
        return WALKER.walk(frames -> frames
                .map(StackWalker.StackFrame::getDeclaringClass)
                .filter(c -> !isLibrary(c) && !isReflection(c))
                .findFirst()
                .map(AfterClose::isPoolCode)
                .orElse(false));
    }

    /**
     * Whether a {@link java.util.concurrent.ThreadPoolExecutor} worker asks for its next task:
     * {@code ThreadPoolExecutor.getTask} is among the nearest callers, even behind a wrapper
     * queue. It walks the stack: call it only once the handoff is closed.
     *
     * @return whether the JDK pool's getTask calls
     */
    public static boolean calledByJdkPoolWorker() {
        return WALKER.walk(frames -> frames.limit(FRAMES_TO_GET_TASK)
                .anyMatch(f -> f.getMethodName().equals("getTask")
                        && f.getClassName().equals("java.util.concurrent.ThreadPoolExecutor")));
    }

    /**
     * What take() does once its handoff is closed and empty, called holding no lock: throws
     * {@code closedAndEmpty}, except to a pool's own code ({@link #calledByPool()}, or the JDK
     * pool's getTask behind a wrapper), which parks until it is interrupted. Nothing can arrive
     * in a closed, empty handoff, so no signal but an interrupt is needed.
     *
     * @param blocker the handoff, shown as the parked thread's blocker
     * @param closedAndEmpty the exception to throw to any other caller
     * @param <E> the element type the caller returns
     * @return never
     * @throws InterruptedException when the pool's thread is interrupted
     */
    public static <E> E takeWhenClosedAndEmpty(Object blocker, RuntimeException closedAndEmpty)
            throws InterruptedException {
        if (!calledByPool() && !calledByJdkPoolWorker()) {
            throw closedAndEmpty;
        }
        while (!Thread.interrupted()) {
            Parking.TAKE.park(blocker);
        }
        throw new InterruptedException();
    }

    /**
     * What a timed poll does once it found its handoff closed and empty before its deadline,
     * called holding no lock: parks until {@code deadline} (a {@link System#nanoTime()} value),
     * as it would have waited in an open, empty handoff, and returns {@code null}. Returns at once
     * if the deadline has passed.
     *
     * @param blocker the handoff, shown as the parked thread's blocker
     * @param deadline when the poll's timeout runs out, in {@link System#nanoTime()} time
     * @param <E> the element type the caller returns
     * @return {@code null}: nothing came
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    public static <E> E waitOut(Object blocker, long deadline) throws InterruptedException {
        for (long left = deadline - System.nanoTime(); left > 0L; left = deadline - System.nanoTime()) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            Parking.TAKE.parkNanos(blocker, left);
        }
        return null;
    }

    /**
     * The exception {@code put} throws on a closed handoff: {@code closed} itself, except to a
     * pool's own code ({@link #calledByPool()}), which gets a {@link RejectedExecutionException}
     * caused by it, as a pool's {@code execute} refuses a task.
     *
     * @param closed the exception every other caller gets
     * @return the exception to throw
     */
    public static RuntimeException refusePut(HandoffClosedException closed) {
        if (!calledByPool()) {
            return closed;
        }
        return new RejectedExecutionException("the pool's work queue is closed: task refused", closed);
    }

    /** A class of this library's own packages, loaded from the library itself (not its tests). */
    private static boolean isLibrary(Class<?> c) {
        String p = c.getPackageName();
        return (p.equals("dev.handoff") || p.startsWith("dev.handoff."))
                && Objects.equals(c.getProtectionDomain().getCodeSource(), LIBRARY);
    }

    private static boolean isReflection(Class<?> c) {
        String p = c.getPackageName();
        return p.startsWith("java.lang.invoke") || p.equals("java.lang.reflect")
                || p.startsWith("jdk.internal.reflect") || c.isHidden();
    }

    /** An executor's class, or one nested in an executor's class (its nest host or an enclosing class). */
    private static boolean isPoolCode(Class<?> c) {
        if (Executor.class.isAssignableFrom(c.getNestHost())) {
            return true;
        }
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (Executor.class.isAssignableFrom(k)) {
                return true;
            }
        }
        return false;
    }
}
