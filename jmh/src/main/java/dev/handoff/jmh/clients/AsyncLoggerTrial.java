/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import dev.handoff.jmh.ProcessCounters;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AsyncAppender;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.AppenderRef;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.NullConfiguration;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * One run of the async logger, in this JVM: {@value #PRODUCERS} producer threads log the lines
 * through a Logger whose only appender is Log4j's {@code AsyncAppender} (blocking, its queue made
 * by {@link HandoffQueueFactory}), whose thread hands each event to the variant's target.
 *
 * <ul>
 * <li>{@code file}: a buffered {@code FileAppender} (8 KiB buffer, no flush per line; Log4j
 *     flushes at the end of each batch, when the queue is empty) into a temporary file, with a
 *     layout of time, thread, level and logger; after the run the file is read back and checked,
 *     then deleted.</li>
 * <li>{@code count}: a {@link CheckingAppender} that checks each message on the fly and writes
 *     nothing.</li>
 * </ul>
 *
 * <p>Configured in code on a {@code NullConfiguration}: no configuration file, no plugin scanning
 * of this module's classes. Producer {@code p} logs {@code "producer=p seq=s"} for
 * {@code s = 0, 1, ...} (its share of the lines, {@link SequenceCheck#share}).
 *
 * <p>The measured span: it <b>starts</b> just before the producers, already started and waiting
 * on a latch, are released to make their first log call; it <b>ends</b> when
 * {@code AsyncAppender.stop()} has returned (it joins the appender's thread, which first appends
 * every event still queued) and the target's buffer has been flushed to the operating system (no
 * fsync). It is called after the last producer's last log call has returned. Wall time and
 * process CPU time are taken over that span. Context switches are taken from the start to the
 * moment the last log call has returned, while every thread of the run is still alive (Linux
 * forgets an ended thread's counts, and the appender's thread ends on stop): the drain of at
 * most a queue's worth of lines after that is not counted.
 */
public final class AsyncLoggerTrial {

    /** Producer threads, as the users' application had. */
    public static final int PRODUCERS = 4;

    /** The file variant's layout: enough of a real line that formatting costs what it costs. */
    static final String FILE_PATTERN = "%d{HH:mm:ss.SSS} [%t] %-5level %logger - %msg%n";

    private static final String LOGGER = "dev.handoff.jmh.clients.AsyncLogger";

    /** The async appender's target. */
    public enum Variant {
        FILE, COUNT;

        /** The variant's name on the command line and in the page: {@code file}, {@code count}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Variant of(String label) {
            return valueOf(label.trim().toUpperCase(Locale.ROOT));
        }
    }

    private AsyncLoggerTrial() {
    }

    /**
     * Runs once and checks every line.
     *
     * @param kind the queue, a {@link dev.handoff.jmh.Queues} name
     * @param variant the target
     * @param lines the lines all producers log together
     * @param capacity the async appender's queue capacity
     * @return the measurements and the check's findings (see {@link TrialResult#passed()})
     */
    public static TrialResult run(String kind, Variant variant, long lines, int capacity)
            throws IOException, InterruptedException {
        Path file = variant == Variant.FILE ? Files.createTempFile("async-logger-", ".log") : null;
        try {
            SequenceCheck check = SequenceCheck.forLines(lines, PRODUCERS);
            HandoffQueueFactory queues = new HandoffQueueFactory(kind);
            NullConfiguration config = new NullConfiguration();
            Appender target = file != null ? fileAppender(config, file) : new CheckingAppender("target", check);
            AsyncAppender async = asyncAppender(config, target, queues, capacity);
            LoggerContext context = start(config, async, queues);
            Span span = logAll(context.getLogger(LOGGER), lines, async, target);
            context.stop(10, TimeUnit.SECONDS);
            if (file != null) {
                readBack(file, check);
            }
            return new TrialResult(kind, variant.label(), 0, lines, capacity, queues.createdClass(),
                    span.wallNanos(), span.cpuNanos(), span.contextSwitches(), span.problems(check));
        } finally {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        }
    }

    private static FileAppender fileAppender(Configuration config, Path file) {
        PatternLayout layout = PatternLayout.newBuilder().withPattern(FILE_PATTERN).withConfiguration(config).build();
        return FileAppender.newBuilder()
                .setName("target")
                .setConfiguration(config)
                .setLayout(layout)
                .withFileName(file.toString())
                .withAppend(false)
                .setBufferedIo(true)
                .setBufferSize(8192)
                .setImmediateFlush(false)
                .setIgnoreExceptions(false)
                .build();
    }

    private static AsyncAppender asyncAppender(Configuration config, Appender target, HandoffQueueFactory queues,
            int capacity) {
        config.addAppender(target);
        return AsyncAppender.newBuilder()
                .setName("async")
                .setConfiguration(config)
                .setAppenderRefs(new AppenderRef[] {AppenderRef.createAppenderRef(target.getName(), null, null)})
                .setBlocking(true)
                .setBufferSize(capacity)
                .setBlockingQueueFactory(queues)
                .build();
    }

    /** Starts a context of its own whose logger {@link #LOGGER} has the async appender only. */
    private static LoggerContext start(Configuration config, AsyncAppender async, HandoffQueueFactory queues) {
        config.addAppender(async);
        LoggerConfig logger = LoggerConfig.newBuilder()
                .withLoggerName(LOGGER)
                .withLevel(Level.INFO)
                .withAdditivity(false)
                .withIncludeLocation("false")
                .withConfig(config)
                .build();
        logger.addAppender(async, null, null);
        config.addLogger(LOGGER, logger);
        LoggerContext context = new LoggerContext("async-logger");
        context.start(config);
        if (!async.isStarted() || queues.createdClass().equals(HandoffQueueFactory.NONE)) {
            throw new IllegalStateException("the async appender did not start with a queue of the factory");
        }
        return context;
    }

    /** Releases the producers, waits for their last call, stops the async appender: the span. */
    private static Span logAll(Logger logger, long lines, AsyncAppender async, Appender target)
            throws InterruptedException {
        Producers producers = Producers.start(logger, SequenceCheck.share(lines, PRODUCERS));
        ProcessCounters before = ProcessCounters.now();
        long start = System.nanoTime();
        producers.go();
        producers.awaitLastCall();
        long switchesAtLastCall = ProcessCounters.readContextSwitches();
        async.stop(); // joins the appender's thread, which appends what is still queued first
        if (target instanceof FileAppender file) {
            file.getManager().flush();
        }
        long end = System.nanoTime();
        long cpuAtEnd = ProcessCounters.readCpuNanos();
        producers.release();
        return new Span(end - start, difference(before.cpuNanos(), cpuAtEnd),
                difference(before.contextSwitches(), switchesAtLastCall), producers.failures());
    }

    /** {@code to - from}, or -1 where either is unknown. */
    private static long difference(long from, long to) {
        return from < 0 || to < 0 ? -1 : to - from;
    }

    /** Feeds the file's lines to the check, in the order they were written. */
    private static void readBack(Path file, SequenceCheck check) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                check.acceptLine(line);
            }
        }
    }

    /** What one run measured, and what went wrong in the producers. */
    private record Span(long wallNanos, long cpuNanos, long contextSwitches, List<String> producerFailures) {

        /** The producers' failures, then the check's findings. */
        List<String> problems(SequenceCheck check) {
            List<String> all = new ArrayList<>(producerFailures);
            all.addAll(check.problems());
            return List.copyOf(all);
        }
    }

    /**
     * The producer threads: started at once, each waits for {@link #go()}, logs its share, then
     * stays alive until {@link #release()}, so that its context switches can still be read.
     */
    private static final class Producers {
        private final CountDownLatch go = new CountDownLatch(1);
        private final CountDownLatch lastCall = new CountDownLatch(PRODUCERS);
        private final CountDownLatch exit = new CountDownLatch(1);
        private final List<Thread> threads = new ArrayList<>();
        private final List<String> failures = new ArrayList<>();

        static Producers start(Logger logger, long[] share) {
            Producers producers = new Producers();
            for (int p = 0; p < share.length; p++) {
                int id = p;
                Thread t = new Thread(() -> producers.produce(logger, id, share[id]), "producer-" + p);
                producers.threads.add(t);
                t.start();
            }
            return producers;
        }

        private void produce(Logger logger, int id, long lines) {
            try {
                go.await();
                for (long seq = 0; seq < lines; seq++) {
                    logger.info(SequenceCheck.MESSAGE, id, seq);
                }
            } catch (InterruptedException | RuntimeException e) {
                fail("producer " + id + ": " + e);
            } finally {
                lastCall.countDown();
            }
            awaitExit();
        }

        private void awaitExit() {
            try {
                exit.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private synchronized void fail(String failure) {
            failures.add(failure);
        }

        void go() {
            go.countDown();
        }

        void awaitLastCall() throws InterruptedException {
            lastCall.await();
        }

        /** Lets the producers end, and joins them. */
        void release() throws InterruptedException {
            exit.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }

        synchronized List<String> failures() {
            return List.copyOf(failures);
        }
    }
}
