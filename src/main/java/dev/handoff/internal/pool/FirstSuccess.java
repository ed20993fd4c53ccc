/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.pool;

import dev.handoff.Importance;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link java.util.concurrent.ExecutorService#invokeAny} for a pool whose handoff may have
 * importance classes: each task goes to the pool's {@code execute} as a future that implements
 * {@link Importance} with the task's class when the task implements it, as
 * {@link Importance#futureTask(Callable)} makes it for {@code submit}. The JDK's own
 * ({@link java.util.concurrent.AbstractExecutorService}) wraps each future once more, in
 * {@link java.util.concurrent.ExecutorCompletionService}'s private wrapper, which names no class.
 * Results, exceptions, timeout and cancellation are as the JDK's.
 */
public final class FirstSuccess {
    /*
     * The algorithm of AbstractExecutorService.doInvokeAny (JSR-166): start one task, then one
     * more each time a look finds none finished; wait for a finished one only when all are
     * started; return the first result, keep the last ExecutionException for when none succeeds;
     * cancel every started task on the way out, whichever way that is. A task reports itself
     * finished from FutureTask.done(), into a queue of this call, as the completion service's
     * wrapper does; the wrapper is the task's own future here, so the handoff sees its class.
     */

    private FirstSuccess() {
    }

    /**
     * Runs the tasks on the pool until one succeeds, and returns its result.
     *
     * @param pool runs each task, through its {@code execute}
     * @param tasks the tasks, at least one
     * @param <T> the type of the result
     * @return the result of a task that completed without throwing
     * @throws InterruptedException if interrupted while waiting; the tasks are cancelled
     * @throws ExecutionException if no task succeeded
     * @throws IllegalArgumentException if tasks is empty
     * @throws NullPointerException if tasks or one of them is null
     * @throws java.util.concurrent.RejectedExecutionException if the pool refuses a task
     */
    public static <T> T untimed(Executor pool, Collection<? extends Callable<T>> tasks)
            throws InterruptedException, ExecutionException {
        try {
            return invokeAny(pool, tasks, false, 0L);
        } catch (TimeoutException cannotHappen) {
            throw new AssertionError("an untimed invokeAny timed out", cannotHappen);
        }
    }

    /**
     * Runs the tasks on the pool until one succeeds or the time runs out.
     *
     * @param pool runs each task, through its {@code execute}
     * @param tasks the tasks, at least one
     * @param timeout the most to wait
     * @param unit the unit of timeout
     * @param <T> the type of the result
     * @return the result of a task that completed without throwing
     * @throws InterruptedException if interrupted while waiting; the tasks are cancelled
     * @throws ExecutionException if no task succeeded
     * @throws TimeoutException if no task succeeded in time; the tasks are cancelled
     * @throws IllegalArgumentException if tasks is empty
     * @throws NullPointerException if tasks, one of them or unit is null
     * @throws java.util.concurrent.RejectedExecutionException if the pool refuses a task
     */
    public static <T> T timed(Executor pool, Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return invokeAny(pool, tasks, true, unit.toNanos(timeout));
    }

    private static <T> T invokeAny(Executor pool, Collection<? extends Callable<T>> tasks, boolean timed, long nanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(tasks, "tasks");
        int unstarted = tasks.size();
        if (unstarted == 0) {
            throw new IllegalArgumentException("tasks is empty");
        }
        BlockingQueue<Future<T>> finished = new LinkedBlockingQueue<>();
        List<Future<T>> started = new ArrayList<>(unstarted);
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        Iterator<? extends Callable<T>> it = tasks.iterator();
        try {
            ExecutionException last = null;
            started.add(start(pool, it.next(), finished));
            unstarted--;
            int running = 1;
            while (true) {
                Future<T> f = finished.poll();
                if (f == null) {
                    if (unstarted > 0) {
                        started.add(start(pool, it.next(), finished));
                        unstarted--;
                        running++;
                        continue;
                    }
                    if (running == 0) {
                        break;
                    }
                    f = timed ? finished.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS) : finished.take();
                    if (f == null) {
                        throw new TimeoutException();
                    }
                }
                running--;
                try {
                    return f.get();
                } catch (ExecutionException e) {
                    last = e;
                } catch (RuntimeException e) { // a cancelled task, as the JDK counts it
                    last = new ExecutionException(e);
                }
            }
            throw last != null ? last : new ExecutionException("no task completed", null);
        } finally {
            for (Future<T> f : started) {
                f.cancel(true);
            }
        }
    }

    /** Makes the future of one task, with the task's class if it names one, and executes it. */
    private static <T> Future<T> start(Executor pool, Callable<T> task, BlockingQueue<Future<T>> finished) {
        Attempt<T> f = task instanceof Importance i
                ? new ClassedAttempt<>(task, i.importanceClass(), finished)
                : new Attempt<>(task, finished);
        pool.execute(f);
        return f;
    }

    /** One task of an invokeAny: once done, it joins the call's queue of finished tasks. */
    private static class Attempt<T> extends FutureTask<T> {
        private final BlockingQueue<Future<T>> finished;

        Attempt(Callable<T> task, BlockingQueue<Future<T>> finished) {
            super(task);
            this.finished = finished;
        }

        @Override
        protected void done() {
            finished.add(this);
        }
    }

    /** An attempt whose task names its importance class, which it names in turn. */
    private static final class ClassedAttempt<T> extends Attempt<T> implements Importance {
        private final int importanceClass;

        ClassedAttempt(Callable<T> task, int importanceClass, BlockingQueue<Future<T>> finished) {
            super(task, finished);
            this.importanceClass = importanceClass;
        }

        @Override
        public int importanceClass() {
            return importanceClass;
        }
    }
}
