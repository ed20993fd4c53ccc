/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.pool.ElasticPool;
import dev.handoff.internal.pool.ImportancePool;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Builds handoffs from a spec, so that a server or a pool chooses its handoff by configuration:
 * a string such as {@code "circular:101,stats"}, or the same spec written in Java.
 * <pre>{@code
 * Handoff<Runnable> h = Handoffs.create("circular:101");
 * Handoff<Socket>   s = Handoffs.create("lock-split:1024,stats");
 * Handoff<Socket>   t = Handoffs.create("pht:1031,slots=monitor");
 * Handoff<Socket>   p = Handoffs.create("pipe:150");   // 150 worker slots, nothing buffered
 *
 * CircularBuffer<Runnable>    c = Handoffs.circular(1024).spinning().withStats().build();
 * ParallelHashTable<Socket>   u = Handoffs.hashTable(1031).slots(SlotForm.MONITOR).build();
 * HandoffSpec spec = HandoffSpec.parse("pht:1031,key=hash");   // the string, as a value
 * }</pre>
 * Both forms give a {@link HandoffSpec}; {@link #create(String)} is
 * {@code HandoffSpec.parse(spec).build()}.
 *
 * <h2>Spec strings</h2>
 * <pre>
 * spec     = kind ":" capacity { "," option }
 * option   = "stats" | "sojourn" | name "=" value
 * </pre>
 * Kind, option names and values are read without regard to case, and whitespace around each
 * part, {@code :} and {@code =} is ignored. Each option may appear once, in any order. An unknown
 * kind, a capacity that is not an integer from 1 to the kind's limit, and an option that is
 * unknown to the kind, repeated, without its value, with a value it does not take
 * ({@code stats=true}) or with an unknown value are each an {@link IllegalArgumentException}
 * whose message names the spec and lists what is valid.
 *
 * <table class="striped">
 * <caption>Kinds, options and capacity limits</caption>
 * <thead><tr><th>kind</th><th>class</th><th>options besides {@code stats}</th><th>capacity</th></tr></thead>
 * <tbody>
 * <tr><td>{@code circular}</td><td>{@link CircularBuffer}</td>
 *     <td>{@code wait=park} (default) or {@code wait=spin}: how a thread waits for an element or
 *     room ({@link CircularBuffer.Waiting}); {@code core=lock} (default), {@code core=ring} or
 *     {@code core=cells}: one lock, a lock-free ring whose puts and takes lock only to wait, or
 *     positions claimed by fetch-and-add ({@link CircularBuffer.Core})</td>
 *     <td>1 to {@link CircularBuffer#MAX_CAPACITY}; with {@code core=ring} to {@link CircularBuffer#MAX_RING_CAPACITY}</td></tr>
 * <tr><td>{@code lock-split}</td><td>{@link LockSplitQueue}</td><td>none</td>
 *     <td>1 to {@link LockSplitQueue#MAX_CAPACITY}</td></tr>
 * <tr><td>{@code pht}</td><td>{@link ParallelHashTable}</td>
 *     <td>{@code slots=cas} (default) or {@code slots=monitor}: the slot form
 *     ({@link ParallelHashTable.SlotForm}); {@code key=random} (default) or {@code key=hash}:
 *     a producer's key, a random draw or the element's {@code hashCode()}
 *     ({@link ParallelHashTable.KeySource}); {@code search=summary} (default), {@code search=probe}
 *     or {@code search=cursor}: how a consumer finds an element ({@link ParallelHashTable.Search})</td>
 *     <td>1 to {@link ParallelHashTable#MAX_CAPACITY};
 *     with {@code slots=monitor} to {@link ParallelHashTable#MAX_MONITOR_CAPACITY}</td></tr>
 * <tr><td>{@code pipe}</td><td>{@link PipeHandoff}</td><td>none</td>
 *     <td>worker slots, 1 to {@link PipeHandoff#MAX_CAPACITY}</td></tr>
 * </tbody>
 * </table>
 * The option {@code stats} turns on the counters behind {@link Handoff#stats()} for every kind;
 * {@code sojourn} records how long each element stays inside ({@link SojournSpec}), for every
 * kind but the pipe, which holds nothing.
 * For the pipe kind the capacity is the number of worker slots (see {@link PipeHandoff}).
 *
 * <p>{@link #newThreadPool(HandoffSpec, int)} builds a fixed-size {@link ThreadPoolExecutor} on any
 * kind, {@link #newElasticPool(HandoffSpec, int, int, long, TimeUnit)} one that grows to its
 * maximum size before it queues, on a buffered kind.
 * Every kind also takes {@code classes=K} (1 to 64) and {@code fair=N} (default 16): importance
 * classes, described in {@link Importance}, written in Java as
 * {@link HandoffSpec#withClasses(int)}; a custom classifier is given with
 * {@link #create(String, Classifier)} or {@link HandoffSpec.Classed#build(Classifier)}.
 */
public final class Handoffs {

    private Handoffs() {
    }

    /**
     * Returns the kind names that {@link #create(String)} accepts.
     *
     * @return the kinds: {@code circular}, {@code lock-split}, {@code pht}, {@code pipe}
     */
    public static List<String> kinds() {
        return SpecParser.KINDS;
    }

    /**
     * Creates a handoff from a spec such as {@code "circular:101"} or {@code "lock-split:1024,stats"}:
     * {@code HandoffSpec.parse(spec).build()}.
     *
     * @param spec {@code kind:capacity[,option...]}, as in the class comment
     * @param <E> the element type
     * @return a new, open, empty handoff
     * @throws NullPointerException if spec is null
     * @throws IllegalArgumentException if the spec is not valid: see {@link HandoffSpec#parse(String)}
     */
    public static <E> Handoff<E> create(String spec) {
        return HandoffSpec.parse(spec).build();
    }

    /**
     * Creates a handoff with importance classes from a spec such as
     * {@code "circular:1024,classes=3"}, whose elements are classified by {@code classifier}
     * instead of {@link Classifier#byImportance(int)}. See {@link Importance} for what the classes
     * do.
     *
     * @param spec {@code kind:capacity,classes=K[,fair=N][,option...]}
     * @param classifier the class of each element, in {@code [0, K)}
     * @param <E> the element type
     * @return a new, open, empty handoff
     * @throws NullPointerException if spec or classifier is null
     * @throws IllegalArgumentException if the spec is bad, as for {@link #create(String)}, or has no
     *         {@code classes=K} option
     */
    public static <E> Handoff<E> create(String spec, Classifier<? super E> classifier) {
        Objects.requireNonNull(classifier, "classifier");
        return HandoffSpec.parse(spec).build(classifier);
    }

    /**
     * Starts the spec of a {@link CircularBuffer} that parks waiting threads and counts nothing:
     * {@code circular:capacity}.
     *
     * @param capacity the number of elements it holds
     * @return the spec, whose options and {@code build()} follow
     * @throws IllegalArgumentException if capacity is not in {@code [1, CircularBuffer.MAX_CAPACITY]}
     */
    public static HandoffSpec.Circular circular(int capacity) {
        return new HandoffSpec.Circular(capacity, CircularBuffer.Waiting.PARK, false);
    }

    /**
     * Starts the spec of a {@link LockSplitQueue} that counts nothing: {@code lock-split:capacity}.
     *
     * @param capacity the number of elements it holds
     * @return the spec, whose options and {@code build()} follow
     * @throws IllegalArgumentException if capacity {@code <= 0}
     */
    public static HandoffSpec.LockSplit lockSplit(int capacity) {
        return new HandoffSpec.LockSplit(capacity, false);
    }

    /**
     * Starts the spec of a {@link ParallelHashTable} with the default slot form and key source that
     * counts nothing: {@code pht:capacity}.
     *
     * @param capacity the number of slots, i.e. of elements it holds
     * @return the spec, whose options and {@code build()} follow
     * @throws IllegalArgumentException if capacity is not in {@code [1, ParallelHashTable.MAX_CAPACITY]}
     */
    public static HandoffSpec.HashTable hashTable(int capacity) {
        return new HandoffSpec.HashTable(capacity, ParallelHashTable.DEFAULT_SLOT_FORM,
                ParallelHashTable.DEFAULT_KEY_SOURCE, ParallelHashTable.DEFAULT_SEARCH, false);
    }

    /**
     * Starts the spec of a {@link PipeHandoff} that counts nothing: {@code pipe:workerSlots}.
     *
     * @param workerSlots the number of workers that can wait at once
     * @return the spec, whose options and {@code build()} follow
     * @throws IllegalArgumentException if workerSlots is not in {@code [1, PipeHandoff.MAX_CAPACITY]}
     */
    public static HandoffSpec.Pipe pipe(int workerSlots) {
        return new HandoffSpec.Pipe(workerSlots, false);
    }

    /**
     * Creates a fixed-size thread pool whose work queue is a handoff built from {@code spec}, as
     * {@link #newThreadPool(HandoffSpec, int)} does.
     *
     * @param spec the handoff's spec string, as for {@link #create(String)}
     * @param workers the number of threads, {@code > 0}
     * @return a new pool
     * @throws IllegalArgumentException if the spec is bad, {@code workers <= 0}, or a pipe has
     *         fewer worker slots than {@code workers}
     * @throws NullPointerException if spec is null
     */
    public static ThreadPoolExecutor newThreadPool(String spec, int workers) {
        return newThreadPool(HandoffSpec.parse(spec), workers);
    }

    /**
     * Creates a fixed-size thread pool whose work queue is a handoff built from {@code spec}, as
     * {@link #newThreadPool(HandoffSpec, int, ThreadFactory, RejectedExecutionHandler)} does.
     *
     * @param spec the handoff's spec string, as for {@link #create(String)}
     * @param workers the number of threads, {@code > 0}
     * @param threads makes the pool's threads (platform or virtual)
     * @param rejected called with each task the pool does not accept
     * @return a new pool
     * @throws IllegalArgumentException if the spec is bad, {@code workers <= 0}, or a pipe has
     *         fewer worker slots than {@code workers}
     * @throws NullPointerException if an argument is null
     */
    public static ThreadPoolExecutor newThreadPool(String spec, int workers, ThreadFactory threads,
                                                   RejectedExecutionHandler rejected) {
        return newThreadPool(HandoffSpec.parse(spec), workers, threads, rejected);
    }

    /**
     * Creates a fixed-size thread pool whose work queue is a handoff built from {@code spec}.
     * Threads come from {@link Executors#defaultThreadFactory()}; a task that cannot be queued is
     * refused with {@link ThreadPoolExecutor.AbortPolicy}.
     *
     * @param spec the handoff's spec
     * @param workers the number of threads, {@code > 0}
     * @return a new pool; see {@link #newThreadPool(HandoffSpec, int, ThreadFactory, RejectedExecutionHandler)}
     * @throws IllegalArgumentException if {@code workers <= 0}, or a pipe has fewer worker slots
     *         than {@code workers}
     * @throws NullPointerException if spec is null
     */
    public static ThreadPoolExecutor newThreadPool(HandoffSpec spec, int workers) {
        return newThreadPool(spec, workers, Executors.defaultThreadFactory(), new ThreadPoolExecutor.AbortPolicy());
    }

    /**
     * Creates a fixed-size thread pool whose work queue is a handoff built from {@code spec}.
     *
     * <p>The pool has {@code workers} core threads and as many at most, started one per submitted
     * task until all exist, and never timed out. A task submitted when every thread exists goes
     * through the handoff's {@code offer}: a buffered kind queues it while it has room; the pipe
     * kind hands it straight to an idle thread, so that pool is a direct-handoff pool, as with a
     * {@link java.util.concurrent.SynchronousQueue}. A task that is not accepted goes to
     * {@code rejected}. When the pool terminates it closes the handoff, so that a rejection
     * handler that {@code put}s into the queue fails instead of waiting forever.
     *
     * <p>Sizing is discussed in {@code docs/thread-pools.md}. For the pipe kind the capacity, its
     * number of worker slots, must be at least {@code workers}; a thread whose task throws gives
     * its slot back before it dies, so that its replacement finds one.
     *
     * <p>A task keeps its importance class (a handoff with {@code classes=K}) through
     * {@code execute}, {@code submit}, {@code invokeAll} and {@code invokeAny}: see "Tasks in a
     * thread pool" in {@link Importance}.
     *
     * @param spec the handoff's spec
     * @param workers the number of threads, {@code > 0}
     * @param threads makes the pool's threads (platform or virtual)
     * @param rejected called with each task the pool does not accept
     * @return a new pool
     * @throws IllegalArgumentException if {@code workers <= 0}, or a pipe has fewer worker slots
     *         than {@code workers}
     * @throws NullPointerException if an argument is null
     */
    public static ThreadPoolExecutor newThreadPool(HandoffSpec spec, int workers, ThreadFactory threads,
                                                   RejectedExecutionHandler rejected) {
        Objects.requireNonNull(spec, "handoff spec");
        Objects.requireNonNull(threads, "thread factory");
        Objects.requireNonNull(rejected, "rejected execution handler");
        if (workers <= 0) {
            throw new IllegalArgumentException("a thread pool needs workers > 0, was " + workers);
        }
        if (!spec.buffered() && spec.capacity() < workers) { // a pipe's capacity is its worker slots
            throw new IllegalArgumentException("spec '" + spec + "' has " + spec.capacity()
                    + " worker slots for " + workers + " threads; a pipe needs one slot per thread");
        }
        return new HandoffThreadPool(workers, spec.build(), threads, rejected);
    }

    /**
     * Creates a pool that grows to {@code max} threads before it queues, on a handoff built from
     * {@code spec}, as {@link #newElasticPool(HandoffSpec, int, int, long, TimeUnit, ThreadFactory,
     * RejectedExecutionHandler)} does.
     *
     * @param spec the handoff's spec string, as for {@link #create(String)}; a buffered kind
     * @param core the threads kept when idle, {@code >= 0}
     * @param max the most threads, {@code >= 1} and {@code >= core}
     * @param keepAlive how long a thread above {@code core} waits for a task before it ends, {@code >= 0}
     * @param unit the unit of {@code keepAlive}
     * @return a new pool
     * @throws IllegalArgumentException if the spec is bad or names the pipe, or the sizes are out of range
     * @throws NullPointerException if spec or unit is null
     */
    public static ThreadPoolExecutor newElasticPool(String spec, int core, int max, long keepAlive, TimeUnit unit) {
        return newElasticPool(HandoffSpec.parse(spec), core, max, keepAlive, unit);
    }

    /**
     * Creates a pool that grows to {@code max} threads before it queues, as
     * {@link #newElasticPool(HandoffSpec, int, int, long, TimeUnit, ThreadFactory,
     * RejectedExecutionHandler)} does, with threads from {@link Executors#defaultThreadFactory()}
     * and {@link ThreadPoolExecutor.AbortPolicy} for the tasks it refuses.
     *
     * @param spec the handoff's spec; a buffered kind
     * @param core the threads kept when idle, {@code >= 0}
     * @param max the most threads, {@code >= 1} and {@code >= core}
     * @param keepAlive how long a thread above {@code core} waits for a task before it ends, {@code >= 0}
     * @param unit the unit of {@code keepAlive}
     * @return a new pool
     * @throws IllegalArgumentException if the spec names the pipe, or the sizes are out of range
     * @throws NullPointerException if spec or unit is null
     */
    public static ThreadPoolExecutor newElasticPool(HandoffSpec spec, int core, int max, long keepAlive,
                                                    TimeUnit unit) {
        return newElasticPool(spec, core, max, keepAlive, unit, Executors.defaultThreadFactory(),
                new ThreadPoolExecutor.AbortPolicy());
    }

    /**
     * Creates a pool that grows to {@code max} threads before it queues, on a handoff built from
     * {@code spec}, as {@link #newElasticPool(HandoffSpec, int, int, long, TimeUnit, ThreadFactory,
     * RejectedExecutionHandler)} does.
     *
     * @param spec the handoff's spec string, as for {@link #create(String)}; a buffered kind
     * @param core the threads kept when idle, {@code >= 0}
     * @param max the most threads, {@code >= 1} and {@code >= core}
     * @param keepAlive how long a thread above {@code core} waits for a task before it ends, {@code >= 0}
     * @param unit the unit of {@code keepAlive}
     * @param threads makes the pool's threads (platform or virtual)
     * @param rejected called with each task the pool refuses
     * @return a new pool
     * @throws IllegalArgumentException if the spec is bad or names the pipe, or the sizes are out of range
     * @throws NullPointerException if an argument is null
     */
    public static ThreadPoolExecutor newElasticPool(String spec, int core, int max, long keepAlive, TimeUnit unit,
                                                    ThreadFactory threads, RejectedExecutionHandler rejected) {
        return newElasticPool(HandoffSpec.parse(spec), core, max, keepAlive, unit, threads, rejected);
    }

    /**
     * Creates a pool that grows to {@code max} threads before it queues, on a handoff built from
     * {@code spec}. A plain {@link ThreadPoolExecutor} on a bounded queue starts threads beyond
     * {@code core} only once the queue is full; this one starts them first:
     * <ol>
     *   <li>Below {@code core} threads, each task starts a new thread, as in any pool.</li>
     *   <li>Then a task goes to a thread that waits for one, if any waits;</li>
     *   <li>else it starts a new thread while the pool has fewer than {@code max};</li>
     *   <li>else it is queued in the handoff;</li>
     *   <li>and it goes to {@code rejected} only when the pool has {@code max} threads and the
     *       handoff is full or closed, or the pool is shut down.</li>
     * </ol>
     * Threads above {@code core} end after {@code keepAlive} without a task. A task goes to a
     * waiting thread without a lock: the thread that waited last gets it, so that threads the load
     * no longer needs stay idle and end. A thread that is just finishing a task is not yet
     * waiting, so a task may start a new thread although one was about to come free; no task is
     * lost or run twice. When the pool terminates it closes the handoff, as
     * {@link #newThreadPool(HandoffSpec, int, ThreadFactory, RejectedExecutionHandler)} does.
     * {@link ThreadPoolExecutor#setRejectedExecutionHandler} on the pool replaces
     * {@code rejected}; the pool's queueing at the maximum stays in front of it.
     *
     * <p>The pipe holds no task, so it cannot queue at the maximum and is refused: a plain
     * {@code ThreadPoolExecutor} on a pipe of {@code max} worker slots already grows first, as
     * with a {@link java.util.concurrent.SynchronousQueue}. {@code core == max} gives a fixed-size
     * pool. A task keeps its importance class as in
     * {@link #newThreadPool(HandoffSpec, int, ThreadFactory, RejectedExecutionHandler)}.
     *
     * @param spec the handoff's spec; a buffered kind, with or without importance classes
     * @param core the threads kept when idle, {@code >= 0}
     * @param max the most threads, {@code >= 1} and {@code >= core}
     * @param keepAlive how long a thread above {@code core} waits for a task before it ends, {@code >= 0}
     * @param unit the unit of {@code keepAlive}
     * @param threads makes the pool's threads (platform or virtual)
     * @param rejected called with each task the pool refuses
     * @return a new pool
     * @throws IllegalArgumentException if the spec names the pipe, {@code core < 0}, {@code max < 1},
     *         {@code max < core} or {@code keepAlive < 0}
     * @throws NullPointerException if an argument is null
     */
    public static ThreadPoolExecutor newElasticPool(HandoffSpec spec, int core, int max, long keepAlive,
                                                    TimeUnit unit, ThreadFactory threads,
                                                    RejectedExecutionHandler rejected) {
        Objects.requireNonNull(spec, "handoff spec");
        Objects.requireNonNull(unit, "keep-alive unit");
        Objects.requireNonNull(threads, "thread factory");
        Objects.requireNonNull(rejected, "rejected execution handler");
        if (core < 0 || max < 1 || max < core || keepAlive < 0) {
            throw new IllegalArgumentException("an elastic pool needs 0 <= core <= max, max >= 1 and keepAlive >= 0;"
                    + " was core " + core + ", max " + max + ", keepAlive " + keepAlive);
        }
        if (!spec.buffered()) {
            throw new IllegalArgumentException("spec '" + spec + "': an elastic pool queues in its handoff, and a pipe"
                    + " holds nothing; a plain ThreadPoolExecutor on a pipe of max worker slots grows by itself");
        }
        return ElasticPool.over(spec.build(), core, max, keepAlive, unit, threads, rejected);
    }

    /**
     * A fixed-size pool on a handoff: closes it on termination, frees pipe slots of dying threads,
     * and wraps a submitted task in a future that names the task's importance class.
     */
    private static final class HandoffThreadPool extends ImportancePool {
        private final Handoff<Runnable> handoff;

        HandoffThreadPool(int workers, Handoff<Runnable> handoff, ThreadFactory threads,
                          RejectedExecutionHandler rejected) {
            super(workers, workers, 0L, TimeUnit.MILLISECONDS, handoff, threads, rejected);
            this.handoff = handoff;
        }

        @Override
        protected void afterExecute(Runnable task, Throwable thrown) {
            // A task that threw ends its thread, and the pool starts a replacement while this
            // thread is still alive: give the pipe slot back now so that the replacement finds one.
            if (thrown != null && handoff instanceof PipeHandoff<Runnable> pipe) {
                pipe.leave();
            }
        }

        @Override
        protected void terminated() {
            handoff.close();
        }
    }
}
