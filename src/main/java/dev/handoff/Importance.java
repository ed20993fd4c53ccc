/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;

/**
 * An element that names its own importance class, for a handoff built with importance classes
 * ({@code classes=K} in {@link Handoffs#create(String)}).
 *
 * <p>Class {@code 0} is the most important, class {@code K - 1} the least. The default
 * classifier, {@link Classifier#byImportance(int)}, asks an element that implements this interface
 * for its class and puts every other element into class {@code K - 1}, so that elements which say
 * nothing (a plain {@link java.util.concurrent.ThreadPoolExecutor}'s {@code FutureTask} wrappers,
 * say: see "Tasks in a thread pool" below) never overtake the ones that do.
 *
 * <p>The class must not change while the element is inside a handoff: it is read once, by the
 * inserting call.
 *
 * <h2>Handoffs with importance classes</h2>
 * Every kind accepts the options {@code classes=K} ({@code 1 <= K <= 64}) and {@code fair=N}
 * ({@code N >= 1}, default 16), for instance {@code circular:1024,classes=3}. The element's class
 * comes from a {@link Classifier}: {@link Classifier#byImportance(int)} unless one is given to
 * {@link Handoffs#create(String, Classifier)}. With {@code K = 1} the kind itself is built, as
 * without the option, and the classifier is never called. For {@code K > 1}, on the buffered
 * kinds (circular, lock-split, pht):
 * <ul>
 *   <li><b>Which element a take returns.</b> Takes ({@code take}, {@code poll} and the timed
 *       {@code poll} that return an element, and each {@code drainTo} that moves any) are
 *       numbered by one counter shared by all consumers. Take {@code n} with
 *       {@code n % N == N - 1} is <em>fair</em>: it looks at the classes starting with class
 *       {@code (n / N) % K} and going round ({@code K - 1} is followed by {@code 0}), and serves the
 *       first non-empty one. Every other take serves the most important non-empty class. Within
 *       a class the kind's own order holds: FIFO for {@code circular} and {@code lock-split}.</li>
 *   <li><b>No starvation.</b> A class that is non-empty whenever a take looks at it is served at
 *       least once in every {@code K * N} consecutive takes; so, for a FIFO kind, the element at
 *       position {@code p} of its class ({@code 0} for the head) leaves within
 *       {@code (p + 1) * K * N} takes. Consecutive means consecutive numbers: when consumers run at
 *       the same time the takes of neighbouring numbers overlap. {@code remove(Object)} and the
 *       iterator's {@code remove} are not takes.</li>
 *   <li><b>Capacity, per class.</b> Each class holds up to the capacity of the spec:
 *       {@code circular:1024,classes=3} holds 1024 elements of each class and its
 *       {@link Handoff#capacity()} is 3072 ({@code K} times the capacity must fit an
 *       {@code int}). A producer waits only while its own class is full, so a flood of unimportant
 *       elements never blocks an important one. {@code remainingCapacity()} is the room of all
 *       classes together; an insert can fail while it is positive, when its own class is
 *       full.</li>
 *   <li><b>Order and views.</b> {@link Handoff#ordering()} is
 *       {@link Handoff.Ordering#UNORDERED}. {@code peek()} returns the head of the most important
 *       non-empty class; {@code toArray()} and the iterator list the classes in turn, most
 *       important first; {@code drainTo} moves whole classes in the order a take with its number
 *       would look at them, each by its kind's own {@code drainTo}.</li>
 *   <li><b>Closing.</b> As for every handoff, also for a producer waiting because its class is
 *       full. Consumers take every element inside, of every class, before {@code take()} reports
 *       the handoff closed and empty.</li>
 *   <li><b>Bad classes.</b> An inserting call whose classifier throws propagates that exception;
 *       one whose element gets a class outside {@code [0, K)} throws
 *       {@link IllegalArgumentException}. Either way nothing is inserted.</li>
 * </ul>
 * The pipe orders only producers that had to wait for a worker, by the same rule applied to the
 * wake-ups that workers send; a producer that finds a worker waiting hands over at once, ahead of
 * waiting producers of any class, so the pipe gives no starvation bound ({@link PipeHandoff}).
 * {@code docs/importance-classes.md} shows what the option costs.
 *
 * <h2>Tasks in a thread pool</h2>
 * A task that implements {@code Importance} and is given to {@code execute} is queued in its class.
 * {@code submit}, {@code invokeAll} and {@code invokeAny} wrap it in a future first, which names no
 * class in a plain {@link java.util.concurrent.ThreadPoolExecutor}. The pools of
 * {@link Handoffs#newThreadPool} and {@link Handoffs#newElasticPool} give each such future the
 * class of its task, read when the task is submitted. A pool of your own does so for
 * {@code submit} and {@code invokeAll} when its {@code newTaskFor} returns
 * {@link #futureTask(Runnable, Object)} and {@link #futureTask(Callable)}; its {@code invokeAny} (which wraps once more, in
 * {@link java.util.concurrent.ExecutorCompletionService}) and the wrappers of
 * {@link java.util.concurrent.CompletableFuture}'s {@code *Async} methods and of a
 * {@link java.util.concurrent.ScheduledThreadPoolExecutor} name none, so those tasks are of class
 * {@code K - 1}.
 */
public interface Importance {

    /**
     * Returns this element's importance class, {@code 0} for the most important.
     *
     * @return a class index; a handoff of {@code K} classes refuses an element whose class lies
     *         outside {@code [0, K)} with {@link IllegalArgumentException}
     */
    int importanceClass();

    /**
     * Returns a future that runs {@code task} and then gives {@code result}, as
     * {@code new FutureTask<>(task, result)} does, and that names the task's class: it implements
     * {@code Importance} with the class the task names, read once, now, if the task implements
     * {@code Importance}; for any other task it is a plain {@link FutureTask}. For a pool's
     * {@code newTaskFor}: see "Tasks in a thread pool" above.
     *
     * @param task the task to run
     * @param result what the future gives once the task has run
     * @param <T> the type of the result
     * @return a new future, not yet run; its {@code get}, {@code cancel} and exceptions are a
     *         {@code FutureTask}'s
     * @throws NullPointerException if task is null
     */
    static <T> RunnableFuture<T> futureTask(Runnable task, T result) {
        return task instanceof Importance i
                ? new ClassedFutureTask<>(task, result, i.importanceClass())
                : new FutureTask<>(task, result);
    }

    /**
     * Returns a future that calls {@code task}, as {@code new FutureTask<>(task)} does, and that
     * names the task's class: it implements {@code Importance} with the class the task names, read
     * once, now, if the task implements {@code Importance}; for any other task it is a plain
     * {@link FutureTask}. For a pool's {@code newTaskFor}: see "Tasks in a thread pool" above.
     *
     * @param task the task to call
     * @param <T> the type of the task's result
     * @return a new future, not yet run; its {@code get}, {@code cancel} and exceptions are a
     *         {@code FutureTask}'s
     * @throws NullPointerException if task is null
     */
    static <T> RunnableFuture<T> futureTask(Callable<T> task) {
        return task instanceof Importance i
                ? new ClassedFutureTask<>(task, i.importanceClass())
                : new FutureTask<>(task);
    }
}
