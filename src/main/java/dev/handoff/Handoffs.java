/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Builds handoffs by name, so that a server or a pool chooses its handoff by configuration.
 *
 * <p>A spec is {@code kind:capacity} followed by optional comma-separated options:
 * <pre>{@code
 * Handoff<Runnable> h = Handoffs.create("circular:101");
 * Handoff<Socket>   s = Handoffs.create("lock-split:1024,stats");
 * Handoff<Socket>   t = Handoffs.create("pht:101,slots=monitor");
 * Handoff<Socket>   p = Handoffs.create("pipe:150");   // 150 worker slots, nothing buffered
 * }</pre>
 * For the pipe kind the capacity is the number of worker slots (see {@link PipeHandoff}).
 *
 * <p>{@link #newThreadPool(String, int)} builds a {@link ThreadPoolExecutor} on any kind.
 * The kinds are listed by {@link #kinds()}. The option {@code stats} turns on the counters behind
 * {@link Handoff#stats()} for every kind. Per-kind options:
 * <ul>
 *   <li>{@code circular} ({@link CircularBuffer}): {@code wait=park} (the default) or
 *       {@code wait=spin}, how a thread waits for an element or room
 *       ({@link CircularBuffer.Waiting}).</li>
 *   <li>{@code pht} ({@link ParallelHashTable}): {@code slots=cas} (the default) or
 *       {@code slots=monitor}, the slot form ({@link ParallelHashTable.SlotForm}).</li>
 * </ul>
 * Every kind also takes {@code classes=K} (1 to 64) and {@code fair=N} (default 16): importance
 * classes, described in {@link Importance}; a custom classifier is given with
 * {@link #create(String, Classifier)}.
 */
public final class Handoffs {

    private Handoffs() {
    }

    /** The kinds create() knows, in the order the docs list them. */
    private static final List<String> KINDS = List.of("circular", "lock-split", "pht", "pipe");

    /**
     * Returns the kind names that {@link #create(String)} accepts.
     *
     * @return the kinds: {@code circular}, {@code lock-split}, {@code pht}, {@code pipe}
     */
    public static List<String> kinds() {
        return KINDS;
    }

    /**
     * Creates a handoff from a spec such as {@code "circular:101"} or {@code "lock-split:1024,stats"}.
     *
     * @param spec {@code kind:capacity[,option...]}
     * @param <E> the element type
     * @return a new, open, empty handoff
     * @throws NullPointerException if spec is null
     * @throws IllegalArgumentException if the kind is unknown (the message lists the valid kinds),
     *         the capacity is not a positive integer, or an option is unknown
     */
    public static <E> Handoff<E> create(String spec) {
        return create(spec, Spec.parse(spec), null);
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
        return create(spec, Spec.parse(spec), classifier);
    }

    /** Builds the kind, with importance classes when the spec has classes=K (ImportanceClasses). */
    private static <E> Handoff<E> create(String spec, Spec parsed, Classifier<? super E> classifier) {
        ImportanceClasses<E> classes = ImportanceClasses.fromSpec(parsed, spec, classifier);
        if (classes == null) {
            return createKind(parsed, spec, parsed.stats);
        }
        if (parsed.kind.equals("pipe")) {
            parsed.allowOnly(spec);
            return new PipeHandoff<>(parsed.capacity, parsed.stats, classes);
        }
        return ClassedHandoff.of(classes, parsed.capacity, parsed.stats, stats -> createKind(parsed, spec, stats));
    }

    private static <E> Handoff<E> createKind(Spec parsed, String spec, boolean stats) {
        return switch (parsed.kind) {
            case "circular" -> {
                parsed.allowOnly(spec, "wait");
                CircularBuffer.Waiting waiting =
                        CircularBuffer.Waiting.parse(parsed.option("wait", "park"), spec);
                yield new CircularBuffer<>(parsed.capacity, stats, waiting);
            }
            case "lock-split" -> {
                parsed.allowOnly(spec);
                yield new LockSplitQueue<>(parsed.capacity, stats);
            }
            case "pht" -> {
                parsed.allowOnly(spec, "slots");
                ParallelHashTable.SlotForm form = ParallelHashTable.SlotForm.parse(
                        parsed.option("slots", ParallelHashTable.DEFAULT_SLOT_FORM.specName()), spec);
                yield new ParallelHashTable<>(parsed.capacity, form, stats);
            }
            case "pipe" -> {
                parsed.allowOnly(spec);
                yield new PipeHandoff<>(parsed.capacity, stats);
            }
            default -> throw new IllegalArgumentException(
                    "unknown handoff kind '" + parsed.kind + "' in spec '" + spec
                            + "'; valid kinds: " + String.join(", ", KINDS) + usage());
        };
    }

    /**
     * Creates a fixed-size thread pool whose work queue is a handoff built from {@code spec}.
     * Threads come from {@link Executors#defaultThreadFactory()}; a task that cannot be queued is
     * refused with {@link ThreadPoolExecutor.AbortPolicy}.
     *
     * @param spec the handoff's spec, as for {@link #create(String)}
     * @param workers the number of threads, {@code > 0}
     * @return a new pool; see {@link #newThreadPool(String, int, ThreadFactory, RejectedExecutionHandler)}
     */
    public static ThreadPoolExecutor newThreadPool(String spec, int workers) {
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
     * @param spec the handoff's spec, as for {@link #create(String)}
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
        Objects.requireNonNull(threads, "thread factory");
        Objects.requireNonNull(rejected, "rejected execution handler");
        if (workers <= 0) {
            throw new IllegalArgumentException("a thread pool needs workers > 0, was " + workers);
        }
        Handoff<Runnable> queue = create(spec);
        if (queue instanceof PipeHandoff<?> && queue.capacity() < workers) {
            throw new IllegalArgumentException("spec '" + spec + "' has " + queue.capacity()
                    + " worker slots for " + workers + " threads; a pipe needs one slot per thread");
        }
        return new HandoffThreadPool(workers, queue, threads, rejected);
    }

    /** A fixed-size pool on a handoff: closes it on termination, frees pipe slots of dying threads. */
    private static final class HandoffThreadPool extends ThreadPoolExecutor {
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

    private static String usage() {
        return " (spec: kind:capacity[,option...], e.g. circular:101, lock-split:1024,stats or pipe:150)";
    }

    /** A parsed spec: kind, capacity, and the options other than stats. */
    static final class Spec {
        final String kind;
        final int capacity;
        final boolean stats;
        final Set<String> options;

        private Spec(String kind, int capacity, boolean stats, Set<String> options) {
            this.kind = kind;
            this.capacity = capacity;
            this.stats = stats;
            this.options = options;
        }

        static Spec parse(String spec) {
            if (spec == null) {
                throw new NullPointerException("handoff spec");
            }
            String[] parts = spec.trim().split(",", -1);
            String head = parts[0].trim();
            int colon = head.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("handoff spec '" + spec + "' has no capacity; valid kinds: "
                        + String.join(", ", KINDS) + usage());
            }
            String kind = head.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("unknown handoff kind '" + kind + "' in spec '" + spec
                        + "'; valid kinds: " + String.join(", ", KINDS) + usage());
            }
            int capacity = parseCapacity(head.substring(colon + 1).trim(), spec);
            Set<String> options = new LinkedHashSet<>();
            for (String part : Arrays.asList(parts).subList(1, parts.length)) {
                String option = part.trim().toLowerCase(Locale.ROOT);
                if (option.isEmpty()) {
                    throw new IllegalArgumentException("handoff spec '" + spec
                            + "' has an empty option (a stray comma?)" + usage());
                }
                options.add(option);
            }
            boolean stats = options.remove("stats");
            return new Spec(kind, capacity, stats, options);
        }

        private static int parseCapacity(String text, String spec) {
            try {
                int capacity = Integer.parseInt(text);
                if (capacity > 0) {
                    return capacity;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("handoff spec '" + spec + "': capacity must be a positive integer, was '"
                    + text + "'");
        }

        /** Rejects any option left after stats, naming the ones this kind knows. */
        void allowOnly(String spec, String... known) {
            Set<String> unknown = new LinkedHashSet<>(options);
            for (String k : known) {
                unknown.removeIf(o -> o.equals(k) || o.startsWith(k + "="));
            }
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException("handoff spec '" + spec + "': unknown option(s) " + unknown
                        + " for kind " + kind + "; known: " + (known.length == 0 ? "stats" : "stats, " + String.join(", ", known)));
            }
        }

        /**
         * Returns the one of values whose specName is value, for option name=value; throws,
         * naming every valid name=value, when it is none of them.
         */
        static <T> T choose(String name, String value, T[] values, Function<T, String> specName,
                String spec) {
            for (T v : values) {
                if (specName.apply(v).equals(value)) {
                    return v;
                }
            }
            StringBuilder valid = new StringBuilder();
            for (T v : values) {
                valid.append(valid.length() == 0 ? "" : ", ")
                        .append(name).append('=').append(specName.apply(v));
            }
            throw new IllegalArgumentException("handoff spec '" + spec + "': unknown " + name + "=" + value
                    + "; valid: " + valid);
        }

        /** Returns the value of option name=value, or dflt when absent. */
        String option(String name, String dflt) {
            for (String o : options) {
                if (o.startsWith(name + "=")) {
                    return o.substring(name.length() + 1);
                }
            }
            return dflt;
        }
    }
}
