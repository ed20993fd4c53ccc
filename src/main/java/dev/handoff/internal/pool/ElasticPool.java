/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pool;

import dev.handoff.Handoff;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ThreadPoolExecutor} that grows to its maximum size before it queues: a task starts on
 * a waiting thread if one waits, else on a new thread while the pool is below its maximum, else it
 * is queued in the handoff; it goes to the rejection handler only when the pool is at its maximum
 * and the handoff is full or closed, or the pool is shut down. Threads above the core size end
 * after {@code keepAliveTime} without a task. When the pool terminates it closes the handoff.
 *
 * <p>{@link #setRejectedExecutionHandler} and {@link #getRejectedExecutionHandler} set and return
 * the handler of the tasks the pool refuses; the pool keeps its own in front of it, which queues
 * a task at the maximum size.
 *
 * <p>{@code submit}, {@code invokeAll} and {@code invokeAny} wrap a task in a future that names the
 * task's importance class, if the task names one, so that a handoff with importance classes
 * queues it as {@code execute} would queue the task itself.
 */
public final class ElasticPool extends ImportancePool {
    /*
     * ElasticQueue.offer hands a task to a parked thread, and refuses it when none is parked, so
     * that execute() starts a thread for it; at the maximum size execute() hands it to
     * QueueAtMaximum, which hands it to a thread parked meanwhile or puts it into the handoff. After that insert it rechecks as execute() does after its own offer: a pool
     * shut down meanwhile may have let its last thread go (it takes the task back out, and refuses
     * it), and a pool whose every thread may time out may have none left (it takes the task back
     * out and executes it again, which starts a thread). ThreadPoolExecutor's processWorkerExit
     * covers the other order: a thread that ends after the insert sees the queue non-empty and
     * starts its replacement.
     */

    private final ElasticQueue<Runnable> queue;
    private final QueueAtMaximum atMaximum;

    private ElasticPool(int core, int max, long keepAlive, TimeUnit unit, ElasticQueue<Runnable> queue,
                        ThreadFactory threads, QueueAtMaximum atMaximum) {
        super(core, max, keepAlive, unit, queue, threads, atMaximum);
        this.queue = queue;
        this.atMaximum = atMaximum;
    }

    /**
     * Creates a pool on a handoff.
     *
     * @param handoff holds the queued tasks; the pool closes it when it terminates
     * @param core the threads kept when idle, {@code >= 0}
     * @param max the most threads, {@code >= max(core, 1)}
     * @param keepAlive how long a thread above {@code core} waits for a task before it ends, {@code >= 0}
     * @param unit the unit of keepAlive
     * @param threads makes the pool's threads
     * @param rejected called with each task the pool refuses
     * @return the pool
     * @throws IllegalArgumentException as {@link ThreadPoolExecutor}'s constructor
     * @throws NullPointerException if an argument is null
     */
    public static ElasticPool over(Handoff<Runnable> handoff, int core, int max, long keepAlive, TimeUnit unit,
                                   ThreadFactory threads, RejectedExecutionHandler rejected) {
        ElasticQueue<Runnable> queue = new ElasticQueue<>(handoff);
        return new ElasticPool(core, max, keepAlive, unit, queue, threads, new QueueAtMaximum(queue, rejected));
    }

    /** Sets the handler of the tasks this pool refuses; the pool's own stays in front of it. */
    @Override
    public void setRejectedExecutionHandler(RejectedExecutionHandler handler) {
        atMaximum.refused = Objects.requireNonNull(handler, "rejected execution handler");
    }

    /** Returns the handler of the tasks this pool refuses. */
    @Override
    public RejectedExecutionHandler getRejectedExecutionHandler() {
        return atMaximum.refused;
    }

    @Override
    protected void terminated() {
        queue.close(); // a handler that puts into the queue now fails instead of waiting forever
    }

    /** Queues a task that found the pool at its maximum size; refuses it only when that fails. */
    private static final class QueueAtMaximum implements RejectedExecutionHandler {
        private final ElasticQueue<Runnable> queue;

        /** The user's handler; volatile, since any submitting thread may call it after a set. */
        volatile RejectedExecutionHandler refused;

        QueueAtMaximum(ElasticQueue<Runnable> queue, RejectedExecutionHandler refused) {
            this.queue = queue;
            this.refused = Objects.requireNonNull(refused, "rejected execution handler");
        }

        @Override
        public void rejectedExecution(Runnable task, ThreadPoolExecutor pool) {
            if (pool.isShutdown() || !queue.offerAtMaximum(task)) {
                refused.rejectedExecution(task, pool); // shut down, or at the maximum and full or closed
                return;
            }
            // the rechecks of execute() after its offer: see the notes of ElasticPool
            if (pool.isShutdown() && pool.remove(task)) {
                refused.rejectedExecution(task, pool);
            } else if (everyThreadMayEnd(pool) && pool.getPoolSize() == 0 && pool.remove(task)) {
                pool.execute(task);
            }
        }

        /** Whether the pool may run out of threads: no core thread, or core threads that time out. */
        private static boolean everyThreadMayEnd(ThreadPoolExecutor pool) {
            return pool.getCorePoolSize() == 0 || pool.allowsCoreThreadTimeOut();
        }
    }
}
