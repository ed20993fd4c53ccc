/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link VirtualLivenessTest}: many virtual threads against a few platform
 * threads, on as many carriers as the parent gave, with a progress watchdog.
 *
 * <p>Run as {@code VirtualLivenessRun mode spec...}, where mode is
 * <ul>
 *   <li>{@code consumers}: {@link #PLATFORM} platform producers {@code put} the elements 0 to
 *       {@link #ELEMENTS} - 1, {@link #VIRTUAL} virtual consumers {@code poll(20 ms)} in a loop
 *       until all are taken (the program that found the stall of yielding waits);</li>
 *   <li>{@code producers}: the mirror image, virtual producers {@code offer(x, 20 ms)} until it
 *       succeeds, platform consumers {@code poll(20 ms)} until all are taken;</li>
 *   <li>{@code mixed}: virtual producers alternate {@code put} and {@code offer(x, 20 ms)}, virtual
 *       consumers alternate {@code take} and {@code poll(20 ms)}, a platform thread interrupts
 *       random ones meanwhile (an interrupted insert is retried, an interrupted removal took
 *       nothing), and once every element is in, the handoff is closed: consumers end on
 *       {@link HandoffClosedException} from {@code take}, or on a {@code null} from the timed poll once
 *       it reads closed and empty.</li>
 * </ul>
 * Each of the {@link #RUNS} runs per spec checks that every element was taken exactly once,
 * naming the missing and the duplicated. A watchdog reads the count of taken elements every
 * {@value #WATCH_MILLIS} ms; if it did not move for {@link #STALL_SECONDS} s, that is a stall: it
 * writes a dump of every thread, virtual ones included
 * ({@code com.sun.management.HotSpotDiagnosticMXBean.dumpThreads}), under {@code liveness.dumps}, prints the line
 * {@code STALL ...} and halts the JVM with 2. Nothing else is timed.
 *
 * <p>A spec may hold {@code %v}, replaced by the number of virtual threads (a pipe's worker slots);
 * {@code abq:N} is the JDK's {@code ArrayBlockingQueue}, the reference (not in mode mixed).
 * Prints {@code RUN spec=... mode=... run=... ok millis=...} per run, or {@code FAIL ...}; exits 1
 * if any run failed.
 */
final class VirtualLivenessRun {

    static final int RUNS = Integer.getInteger("liveness.runs", 1);
    static final int ELEMENTS = Integer.getInteger("liveness.elements", 20_000);
    static final int VIRTUAL = Integer.getInteger("liveness.consumers", 1_000);
    static final int PLATFORM = Integer.getInteger("liveness.platform", 4);
    static final long STALL_SECONDS = Long.getLong("liveness.stallSeconds", 10);
    static final long WATCH_MILLIS = 250;

    private VirtualLivenessRun() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        boolean allOk = true;
        for (int s = 1; s < args.length; s++) {
            String spec = args[s].replace("%v", Integer.toString(VIRTUAL));
            for (int run = 0; run < RUNS; run++) {
                String head = "spec=" + spec + " mode=" + mode + " carriers="
                        + System.getProperty("jdk.virtualThreadScheduler.parallelism", "?") + " run=" + run;
                long start = System.nanoTime();
                String outcome = runOnce(spec, mode, head);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                System.out.println((outcome.isEmpty() ? "RUN " + head + " ok" : "FAIL " + head + " " + outcome)
                        + " millis=" + millis);
                System.out.flush();
                allOk &= outcome.isEmpty();
            }
        }
        System.exit(allOk ? 0 : 1);
    }

    /** One run: "" if every element was taken exactly once, else what went wrong. */
    static String runOnce(String spec, String mode, String head) throws Exception {
        BlockingQueue<Integer> h = queueOf(spec, mode);
        AtomicIntegerArray seen = new AtomicIntegerArray(ELEMENTS);
        AtomicInteger taken = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        AtomicLong firstError = new AtomicLong();
        StringBuilder errorText = new StringBuilder();
        Thread.UncaughtExceptionHandler onError = (t, e) -> {
            if (errors.getAndIncrement() == 0) {
                synchronized (errorText) {
                    errorText.append(t.getName()).append(" threw ").append(e);
                }
                firstError.set(System.nanoTime());
            }
        };
        Thread watchdog = Thread.ofPlatform().name("watchdog").daemon().start(() -> watch(taken, head));

        List<Thread> producers = new ArrayList<>();
        List<Thread> consumers = new ArrayList<>();
        switch (mode) {
            case "consumers" -> {
                for (int c = 0; c < VIRTUAL; c++) {
                    consumers.add(Thread.ofVirtual().uncaughtExceptionHandler(onError)
                            .start(() -> pollUntilAllTaken(h, seen, taken)));
                }
                for (int p = 0; p < PLATFORM; p++) {
                    int first = p;
                    producers.add(Thread.ofPlatform().uncaughtExceptionHandler(onError).start(() -> {
                        for (int e = first; e < ELEMENTS; e += PLATFORM) {
                            putUninterruptibly(h, e);
                        }
                    }));
                }
            }
            case "producers" -> {
                for (int c = 0; c < PLATFORM; c++) {
                    consumers.add(Thread.ofPlatform().uncaughtExceptionHandler(onError)
                            .start(() -> pollUntilAllTaken(h, seen, taken)));
                }
                for (int p = 0; p < VIRTUAL; p++) {
                    int first = p;
                    producers.add(Thread.ofVirtual().uncaughtExceptionHandler(onError).start(() -> {
                        try {
                            for (int e = first; e < ELEMENTS; e += VIRTUAL) {
                                while (!h.offer(e, 20, TimeUnit.MILLISECONDS)) {
                                    // full: offer again
                                }
                            }
                        } catch (InterruptedException ex) {
                            throw new IllegalStateException("nobody interrupts in this mode", ex);
                        }
                    }));
                }
            }
            case "mixed" -> {
                int half = Math.max(1, VIRTUAL / 2);
                for (int c = 0; c < half; c++) {
                    boolean timed = c % 2 == 1;
                    consumers.add(Thread.ofVirtual().uncaughtExceptionHandler(onError)
                            .start(() -> takeUntilClosed((Handoff<Integer>) h, seen, taken, timed)));
                }
                for (int p = 0; p < half; p++) {
                    int first = p;
                    boolean timed = p % 2 == 1;
                    producers.add(Thread.ofVirtual().uncaughtExceptionHandler(onError).start(() -> {
                        for (int e = first; e < ELEMENTS; e += half) {
                            insertRetryingInterrupts(h, e, timed);
                        }
                    }));
                }
            }
            default -> throw new IllegalArgumentException("mode " + mode);
        }
        Thread interrupter = null;
        if (mode.equals("mixed")) {
            List<Thread> all = new ArrayList<>(producers);
            all.addAll(consumers);
            interrupter = Thread.ofPlatform().name("interrupter").daemon().start(() -> {
                while (taken.get() < ELEMENTS && !Thread.currentThread().isInterrupted()) {
                    all.get(ThreadLocalRandom.current().nextInt(all.size())).interrupt();
                    LockSupport.parkNanos(200_000);
                }
            });
        }
        for (Thread t : producers) {
            t.join(); // the watchdog ends the JVM if this never comes
        }
        if (mode.equals("mixed")) {
            ((Handoff<Integer>) h).close();
        }
        for (Thread t : consumers) {
            t.join();
        }
        if (interrupter != null) {
            interrupter.interrupt();
            interrupter.join();
        }
        watchdog.interrupt();
        watchdog.join();

        StringBuilder wrong = new StringBuilder();
        if (errors.get() > 0) {
            wrong.append(errors.get()).append(" thread(s) threw, first: ").append(errorText).append("; ");
        }
        int missing = 0, duplicated = 0, firstMissing = -1, firstDuplicated = -1;
        for (int e = 0; e < ELEMENTS; e++) {
            int n = seen.get(e);
            if (n == 0 && missing++ == 0) {
                firstMissing = e;
            } else if (n > 1 && duplicated++ == 0) {
                firstDuplicated = e;
            }
        }
        if (missing > 0 || duplicated > 0) {
            wrong.append("missing=").append(missing).append(" (first ").append(firstMissing).append(") duplicated=")
                    .append(duplicated).append(" (first ").append(firstDuplicated).append("); ");
        }
        if (!h.isEmpty()) {
            wrong.append("left inside: ").append(h.size()).append("; ");
        }
        return wrong.toString();
    }

    /**
     * The handoff of a spec, or for {@code abq:N} the JDK's {@code ArrayBlockingQueue} of capacity N,
     * the reference that a stall of a handoff is held against (modes consumers and producers: it
     * cannot be closed).
     */
    static BlockingQueue<Integer> queueOf(String spec, String mode) {
        if (!spec.startsWith("abq:")) {
            return Handoffs.create(spec);
        }
        if (mode.equals("mixed")) {
            throw new IllegalArgumentException("abq cannot be closed: modes consumers and producers only");
        }
        return new ArrayBlockingQueue<>(Integer.parseInt(spec.substring("abq:".length())));
    }

    /** A consumer of modes consumers and producers: timed polls until every element is taken. */
    static void pollUntilAllTaken(BlockingQueue<Integer> h, AtomicIntegerArray seen, AtomicInteger taken) {
        try {
            while (taken.get() < ELEMENTS) {
                Integer e = h.poll(20, TimeUnit.MILLISECONDS);
                if (e != null) {
                    seen.getAndIncrement(e);
                    taken.incrementAndGet();
                }
            }
        } catch (InterruptedException ex) {
            throw new IllegalStateException("nobody interrupts in this mode", ex);
        }
    }

    /** A consumer of mode mixed: take or timed poll until closed and empty; an interrupt took nothing. */
    static void takeUntilClosed(Handoff<Integer> h, AtomicIntegerArray seen, AtomicInteger taken, boolean timed) {
        while (true) {
            try {
                Integer e = timed ? h.poll(20, TimeUnit.MILLISECONDS) : h.take();
                if (e != null) {
                    seen.getAndIncrement(e);
                    taken.incrementAndGet();
                } else if (h.isClosed() && h.isEmpty()) {
                    return;
                }
            } catch (HandoffClosedException closedAndEmpty) {
                return;
            } catch (InterruptedException ignored) {
                // took nothing: wait again
            }
        }
    }

    /** A producer of mode mixed: put, or offer(20 ms) until it succeeds; an interrupted insert did not insert. */
    static void insertRetryingInterrupts(BlockingQueue<Integer> h, int e, boolean timed) {
        while (true) {
            try {
                if (!timed) {
                    h.put(e);
                    return;
                }
                if (h.offer(e, 20, TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException again) {
                // not inserted: insert again
            }
        }
    }

    static void putUninterruptibly(BlockingQueue<Integer> h, int e) {
        try {
            h.put(e);
        } catch (InterruptedException ex) {
            throw new IllegalStateException("nobody interrupts a producer in this mode", ex);
        }
    }

    /** The watchdog: a stall is no element taken for STALL_SECONDS; it dumps every thread and halts. */
    static void watch(AtomicInteger taken, String head) {
        int last = -1;
        long since = System.nanoTime();
        while (!Thread.currentThread().isInterrupted()) {
            int now = taken.get();
            if (now != last) {
                last = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since > TimeUnit.SECONDS.toNanos(STALL_SECONDS)) {
                String dump = dumpThreads(head);
                System.out.println("STALL " + head + " taken=" + now + " of " + ELEMENTS + ": no element taken for "
                        + STALL_SECONDS + " s; threads dumped to " + dump);
                System.out.flush();
                Runtime.getRuntime().halt(2);
            }
            try {
                Thread.sleep(WATCH_MILLIS);
            } catch (InterruptedException done) {
                return;
            }
        }
    }

    /** Dumps every thread, virtual ones included, to a new file under liveness.dumps; returns its path. */
    static String dumpThreads(String head) {
        try {
            Path dir = Path.of(System.getProperty("liveness.dumps", "target/liveness-dumps")).toAbsolutePath();
            Files.createDirectories(dir);
            Path file = dir.resolve(head.replaceAll("[^A-Za-z0-9=.-]+", "_") + "-" + System.currentTimeMillis() + ".txt");
            // By reflection: the test sources compile inside module dev.handoff, which does not
            // read java.management; the child runs on the class path, where everything is read.
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            Class<?> bean = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
            Object diagnostics = factory.getMethod("getPlatformMXBean", Class.class).invoke(null, bean);
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object plainText = Enum.valueOf((Class) Class.forName("com.sun.management.HotSpotDiagnosticMXBean$ThreadDumpFormat"),
                    "TEXT_PLAIN");
            bean.getMethod("dumpThreads", String.class, plainText.getClass()).invoke(diagnostics, file.toString(), plainText);
            return file.toString();
        } catch (Exception e) {
            return "(no dump: " + e + ")";
        }
    }
}
