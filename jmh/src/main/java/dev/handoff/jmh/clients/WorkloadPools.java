/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import dev.handoff.Handoffs;
import dev.handoff.jmh.Queues;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jboss.threads.EnhancedQueueExecutor;

/**
 * The pools {@link PoolWorkload} compares, by name:
 *
 * <ul>
 *   <li>{@code tpe+QUEUE}: a plain {@link ThreadPoolExecutor} on {@code Queues.create(QUEUE, capacity)}
 *       ({@code tpe+abq}, the yardstick; {@code tpe+circular+core=ring});
 *   <li>{@code pool+KIND}: {@link Handoffs#newThreadPool(String, int, java.util.concurrent.ThreadFactory,
 *       RejectedExecutionHandler)} on that handoff;
 *   <li>{@code elastic+KIND}: {@link Handoffs#newElasticPool(String, int, int, long, TimeUnit,
 *       java.util.concurrent.ThreadFactory, RejectedExecutionHandler)} on that handoff;
 *   <li>{@code eqe}: JBoss Threads' {@link EnhancedQueueExecutor}, its queue unbounded (its default).
 * </ul>
 *
 * <p>Sizes: in the steady shape every pool has core = max = {@code workers}; in the growth shape
 * core {@code growthCore}, max {@code growthMax}, and threads above the core end after 60 s idle,
 * so none ends inside a run. Every pool gets the same {@link #PUT_ON_REJECT} handler.
 */
final class WorkloadPools {

    private WorkloadPools() {
    }

    /** The queues under a plain ThreadPoolExecutor in the default list, the yardstick first. */
    static final List<String> DEFAULT_STEADY = List.of(
            "tpe+abq", "tpe+lbq", "tpe+circular", "tpe+circular+core=ring", "tpe+circular+core=cells",
            "tpe+lock-split", "pool+circular", "elastic+circular", "eqe");

    /** What {@code --full} adds to the steady list. */
    static final List<String> FULL_EXTRA = List.of(
            "tpe+pht+slots=cas", "tpe+pht+slots=cas+search=cursor", "tpe+pipe", "tpe+jox");

    /** The growth shape's pools: a plain pool grows only once its queue is full, the others first. */
    static final List<String> GROWTH = List.of("tpe+abq", "elastic+circular", "eqe");

    /** The yardstick every ratio divides by. */
    static final String YARDSTICK = "tpe+abq";

    /** A pool and its thread counts. */
    interface Pool {
        ExecutorService executor();

        /** The threads it has now. */
        int poolSize();

        /** The most threads it has had, or -1 where the pool does not keep that figure. */
        int largestPoolSize();
    }

    /**
     * The one back-pressure rule beyond the in-flight limit, the same for every pool: a task the
     * pool refuses is {@code put} into its queue, so the submitter waits for room. With the
     * in-flight limit at most the queue's capacity only the pipe, which holds nothing, refuses.
     */
    static final RejectedExecutionHandler PUT_ON_REJECT = (task, pool) -> {
        if (pool.isShutdown()) {
            throw new RejectedExecutionException("pool shut down");
        }
        try {
            pool.getQueue().put(task);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RejectedExecutionException("interrupted while waiting for room", e);
        }
    };

    /**
     * Builds a pool.
     *
     * @param name a name of the class comment
     * @param core the core threads
     * @param max the most threads
     * @param capacity the queue's capacity where the name gives none
     */
    static Pool create(String name, int core, int max, int capacity) {
        int plus = name.indexOf('+');
        String type = plus < 0 ? name : name.substring(0, plus);
        String rest = plus < 0 ? "" : name.substring(plus + 1);
        return switch (type) {
            case "tpe" -> {
                BlockingQueue<Runnable> queue = Queues.create(rest, capacity);
                yield tpe(new ThreadPoolExecutor(core, max, 60, TimeUnit.SECONDS, queue, PUT_ON_REJECT));
            }
            case "pool" -> {
                if (core != max) {
                    throw new IllegalArgumentException(name + ": newThreadPool is fixed-size, core " + core + " max " + max);
                }
                yield tpe(Handoffs.newThreadPool(Queues.handoffSpec(rest, capacity), core,
                        Executors.defaultThreadFactory(), PUT_ON_REJECT));
            }
            case "elastic" -> tpe(Handoffs.newElasticPool(Queues.handoffSpec(rest, capacity), core, max,
                    60, TimeUnit.SECONDS, Executors.defaultThreadFactory(), PUT_ON_REJECT));
            case "eqe" -> {
                if (!rest.isEmpty()) {
                    throw new IllegalArgumentException(name + ": eqe takes no queue");
                }
                EnhancedQueueExecutor eqe = new EnhancedQueueExecutor.Builder()
                        .setCorePoolSize(core)
                        .setMaximumPoolSize(max)
                        .setKeepAliveTime(Duration.ofSeconds(60))
                        .setRegisterMBean(false)
                        .build();
                yield new Pool() {
                    @Override
                    public ExecutorService executor() {
                        return eqe;
                    }

                    @Override
                    public int poolSize() {
                        return eqe.getPoolSize();
                    }

                    @Override
                    public int largestPoolSize() {
                        return -1; // kept only with its statistics switched on (a system property), which costs
                    }
                };
            }
            default -> throw new IllegalArgumentException(
                    "pool '" + name + "': want tpe+QUEUE, pool+KIND, elastic+KIND or eqe");
        };
    }

    private static Pool tpe(ThreadPoolExecutor pool) {
        return new Pool() {
            @Override
            public ExecutorService executor() {
                return pool;
            }

            @Override
            public int poolSize() {
                return pool.getPoolSize();
            }

            @Override
            public int largestPoolSize() {
                return pool.getLargestPoolSize();
            }
        };
    }
}
