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
 * work queue, {@link dev.handoff.internal.pool.ElasticQueue}, refuses an {@code offer} unless a
 * pool thread waits for the task, so that the pool starts a thread instead, and at the maximum
 * size the pool's own rejection handler puts the task into the handoff.
 *
 * <p>Not exported: the module's {@code exports} keeps it out of the API; {@code Handoffs}
 * returns these pools as {@code ThreadPoolExecutor}. It uses from {@code dev.handoff} only the
 * contract types, and no kind's room.
 */
package dev.handoff.internal.pool;
