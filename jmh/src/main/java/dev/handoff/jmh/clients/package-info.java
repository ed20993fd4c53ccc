/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Real clients of the queues, beside the micro-benchmarks: programs that drive a queue through a
 * library that uses it, with that library's own call pattern.
 *
 * <p>{@link dev.handoff.jmh.clients.AsyncLoggerRun} logs through Log4j2's {@code AsyncAppender}
 * with each queue plugged in by {@link dev.handoff.jmh.clients.HandoffQueueFactory} (the appender
 * offers before it puts, and its thread asks {@code isEmpty()} after each take), one fresh JVM per
 * run; {@link dev.handoff.jmh.clients.AsyncLoggerTrial} is one such run in-process, and
 * {@link dev.handoff.jmh.clients.AsyncLoggerPage} renders the runs as a Markdown page and JSON.
 * Every run checks that each line arrived exactly once and in order per producer
 * ({@link dev.handoff.jmh.clients.SequenceCheck}, with {@link dev.handoff.jmh.clients.CheckingAppender}
 * as the target that only counts); a run whose check fails gives no number.
 *
 * <p>{@link dev.handoff.jmh.clients.PoolWorkload} runs thread pools on each queue
 * ({@link dev.handoff.jmh.clients.WorkloadPools} builds them: plain {@code ThreadPoolExecutor}s, the
 * library's pools, JBoss' {@code EnhancedQueueExecutor}) under CPU-bound tasks of geometric length,
 * one fresh JVM per run; {@link dev.handoff.jmh.clients.WorkloadRun} is one run in-process, timing
 * each task's queue wait into a {@link dev.handoff.jmh.clients.LatencyHistogram}, and
 * {@link dev.handoff.jmh.clients.PoolWorkloadPage} renders the runs. {@link
 * dev.handoff.jmh.clients.TrialResult} is one async-logger run as its JSON keeps it.
 */
package dev.handoff.jmh.clients;
