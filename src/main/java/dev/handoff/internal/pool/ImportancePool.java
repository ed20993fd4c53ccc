/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pool;

import dev.handoff.Importance;

import java.util.Collection;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link ThreadPoolExecutor} whose {@code submit}, {@code invokeAll} and {@code invokeAny} keep
 * a task's {@link Importance} class: the futures they queue name it, so that a handoff with
 * importance classes serves them as it serves the task given to {@code execute}. The base of the
 * pools the library builds.
 */
public abstract class ImportancePool extends ThreadPoolExecutor {

    /** As {@link ThreadPoolExecutor}'s constructor of the same parameters. */
    protected ImportancePool(int core, int max, long keepAlive, TimeUnit unit, BlockingQueue<Runnable> queue,
                             ThreadFactory threads, RejectedExecutionHandler rejected) {
        super(core, max, keepAlive, unit, queue, threads, rejected);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable task, T result) {
        return Importance.futureTask(task, result); // submit(Runnable[, T])
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> task) {
        return Importance.futureTask(task); // submit(Callable), invokeAll
    }

    /** Runs the tasks until one succeeds, each with its importance class, as {@link FirstSuccess} says. */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        return FirstSuccess.untimed(this, tasks); // the JDK's wraps each future again, hiding its class
    }

    /** Runs the tasks until one succeeds or the time runs out, each with its importance class. */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return FirstSuccess.timed(this, tasks, timeout, unit);
    }
}
