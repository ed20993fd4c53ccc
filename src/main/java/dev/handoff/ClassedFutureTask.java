/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;

/**
 * A {@link FutureTask} that names the importance class of the task it runs, so that a pool's
 * handoff with importance classes queues a submitted task in the class that {@code execute} would
 * have given the task itself. Made by {@link Importance#futureTask(Runnable, Object)} and
 * {@link Importance#futureTask(Callable)}, only for a task that implements {@link Importance}.
 * Everything else (running, {@code get}, cancellation, exceptions) is the {@code FutureTask}'s own.
 *
 * @param <V> the result type
 */
final class ClassedFutureTask<V> extends FutureTask<V> implements Importance {

    /**
     * The task's class, read once when the future is made: a handoff reads it once, at the insert,
     * and the task must not change it meanwhile ({@link Importance}). Kept as a number, so that the
     * future does not hold the task after it ran, as {@code FutureTask} lets go of its callable.
     */
    private final int importanceClass;

    ClassedFutureTask(Callable<V> task, int importanceClass) {
        super(task);
        this.importanceClass = importanceClass;
    }

    ClassedFutureTask(Runnable task, V result, int importanceClass) {
        super(task, result);
        this.importanceClass = importanceClass;
    }

    /** Returns the importance class of the task this future runs. */
    @Override
    public int importanceClass() {
        return importanceClass;
    }
}
