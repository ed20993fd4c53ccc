/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The thread pools over a handoff that {@code dev.handoff.Handoffs} builds
 * ({@code newThreadPool}, {@code newElasticPool}), each a {@code ThreadPoolExecutor} with the
 * handoff as its work queue.
 *
 * <p>{@link dev.handoff.internal.pool.ImportancePool} is the base of both: its {@code submit},
 * {@code invokeAll} and {@code invokeAny} queue futures that name the task's
 * {@code Importance} class, so that a handoff with importance classes serves them as it serves
 * the task given to {@code execute}. {@link dev.handoff.internal.pool.FirstSuccess} is its
 * {@code invokeAny}, the JDK's algorithm with each task's own future in place of the completion
 * service's wrapper, which names no class.
 * {@link dev.handoff.internal.pool.ElasticPool} grows to its maximum size before it queues: its
 * work queue, {@link dev.handoff.internal.pool.ElasticQueue}, hands an offered task straight to
 * a parked pool thread and refuses it when none is parked, so that the pool starts a thread
 * instead, and at the maximum size the pool's own rejection handler hands the task over or puts
 * it into the handoff. {@link dev.handoff.internal.pool.IdleThreads} holds the parked pool
 * threads, the one that parked last on top, each waiting in a single-use waiter that a hand-over
 * fills without a lock.
 *
 * <p>Not exported: the module's {@code exports} keeps it out of the API; {@code Handoffs}
 * returns these pools as {@code ThreadPoolExecutor}. It uses from {@code dev.handoff} only the
 * contract types, and no kind's room.
 */
package dev.handoff.internal.pool;
