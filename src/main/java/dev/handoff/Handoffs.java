/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Builds handoffs by name, so that a server or a pool chooses its handoff by configuration.
 *
 * <p>A spec is {@code kind:capacity} followed by optional comma-separated options:
 * <pre>{@code
 * Handoff<Runnable> h = Handoffs.create("circular:101");
 * Handoff<Socket>   s = Handoffs.create("lock-split:1024,stats");
 * Handoff<Socket>   p = Handoffs.create("pht:101,slots=monitor");
 * }</pre>
 * The kinds are listed by {@link #kinds()}. The option {@code stats} turns on the counters behind
 * {@link Handoff#stats()} for every kind. Per-kind options:
 * <ul>
 *   <li>{@code pht} ({@link ParallelHashTable}): {@code slots=cas} (the default) or
 *       {@code slots=monitor}, the slot form ({@link ParallelHashTable.SlotForm}).</li>
 * </ul>
 */
public final class Handoffs {

    private Handoffs() {
    }

    /** The kinds create() knows, in the order the docs list them. */
    private static final List<String> KINDS = List.of("circular", "lock-split", "pht");

    /**
     * Returns the kind names that {@link #create(String)} accepts.
     *
     * @return the kinds, e.g. {@code circular}, {@code lock-split}, {@code pht}
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
        Spec parsed = Spec.parse(spec);
        return switch (parsed.kind) {
            case "circular" -> {
                parsed.allowOnly(spec);
                yield new CircularBuffer<>(parsed.capacity, parsed.stats);
            }
            case "lock-split" -> {
                parsed.allowOnly(spec);
                yield new LockSplitQueue<>(parsed.capacity, parsed.stats);
            }
            case "pht" -> {
                parsed.allowOnly(spec, "slots");
                ParallelHashTable.SlotForm form = ParallelHashTable.SlotForm.parse(
                        parsed.option("slots", ParallelHashTable.DEFAULT_SLOT_FORM.specName()), spec);
                yield new ParallelHashTable<>(parsed.capacity, form, parsed.stats);
            }
            default -> throw new IllegalArgumentException(
                    "unknown handoff kind '" + parsed.kind + "' in spec '" + spec
                            + "'; valid kinds: " + String.join(", ", KINDS) + usage());
        };
    }

    private static String usage() {
        return " (spec: kind:capacity[,option...], e.g. circular:101 or lock-split:1024,stats)";
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
            String[] parts = spec.trim().split(",");
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
            Arrays.stream(parts).skip(1).map(String::trim).map(o -> o.toLowerCase(Locale.ROOT))
                    .forEach(options::add);
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
