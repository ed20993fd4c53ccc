/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.ImportanceClasses;

import dev.handoff.CircularBuffer.Core;
import dev.handoff.CircularBuffer.Waiting;
import dev.handoff.ParallelHashTable.KeySource;
import dev.handoff.ParallelHashTable.Search;
import dev.handoff.ParallelHashTable.SlotForm;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The one parser of spec strings, behind {@link HandoffSpec#parse(String)} (the grammar is in
 * {@link Handoffs}). Strict: every malformed, unknown or repeated option is an
 * {@link IllegalArgumentException} naming the spec and listing the kind's valid options.
 */
final class SpecParser {

    private SpecParser() {
    }

    /** The kinds, in the order the docs list them. */
    static final List<String> KINDS = List.of("circular", "lock-split", "pht", "pipe");

    private static final String USAGE =
            " (spec: kind:capacity[,option...], e.g. circular:101, lock-split:1024,stats or pipe:150)";

    /** One option of a kind: a flag (no values) or name=value with the values it takes. */
    private record Option(String name, List<String> values) {
        boolean isFlag() {
            return values.isEmpty();
        }

        @Override
        public String toString() {
            return isFlag() ? name : name + "=" + String.join("|", values);
        }
    }

    private static final Option STATS = new Option("stats", List.of());
    private static final Option WAIT = valued("wait", Waiting.values(), Waiting::specName);
    private static final Option CORE = valued("core", Core.values(), Core::specName);
    private static final Option SLOTS = valued("slots", SlotForm.values(), SlotForm::specName);
    private static final Option KEY = valued("key", KeySource.values(), KeySource::specName);
    private static final Option SEARCH = valued("search", Search.values(), Search::specName);
    /** Importance classes, every kind: numbers, not names, so listed by their range. */
    private static final Option CLASSES = new Option("classes", List.of("1.." + ImportanceClasses.MAX_CLASSES));
    private static final Option FAIR = new Option("fair", List.of("N>=1"));

    private static <T> Option valued(String name, T[] values, Function<T, String> specName) {
        return new Option(name, Stream.of(values).map(specName).toList());
    }

    /** A kind's options in canonical order (HandoffSpec's toString), stats last. */
    private static List<Option> optionsOf(String kind) {
        return switch (kind) {
            case "circular" -> List.of(WAIT, CORE, CLASSES, FAIR, STATS);
            case "pht" -> List.of(SLOTS, KEY, SEARCH, CLASSES, FAIR, STATS);
            default -> List.of(CLASSES, FAIR, STATS);
        };
    }

    static HandoffSpec parse(String spec) {
        Objects.requireNonNull(spec, "handoff spec");
        String[] parts = spec.split(",", -1);
        int colon = parts[0].indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("handoff spec '" + spec + "' has no capacity; valid kinds: "
                    + String.join(", ", KINDS) + USAGE);
        }
        String kind = parts[0].substring(0, colon).trim().toLowerCase(Locale.ROOT);
        if (!KINDS.contains(kind)) {
            throw new IllegalArgumentException("unknown handoff kind '" + kind + "' in spec '" + spec
                    + "'; valid kinds: " + String.join(", ", KINDS) + USAGE);
        }
        int capacity = parseCapacity(parts[0].substring(colon + 1).trim(), spec);
        Map<String, String> options = parseOptions(spec, kind, parts);
        boolean stats = options.containsKey(STATS.name());
        try {
            HandoffSpec base = switch (kind) {
                case "circular" -> new HandoffSpec.Circular(capacity,
                        choose(spec, kind, options, WAIT, Waiting.values(), Waiting::specName, Waiting.PARK),
                        choose(spec, kind, options, CORE, Core.values(), Core::specName, Core.LOCK), stats);
                case "lock-split" -> new HandoffSpec.LockSplit(capacity, stats);
                case "pht" -> new HandoffSpec.HashTable(capacity,
                        choose(spec, kind, options, SLOTS, SlotForm.values(), SlotForm::specName,
                                ParallelHashTable.DEFAULT_SLOT_FORM),
                        choose(spec, kind, options, KEY, KeySource.values(), KeySource::specName,
                                ParallelHashTable.DEFAULT_KEY_SOURCE),
                        choose(spec, kind, options, SEARCH, Search.values(), Search::specName,
                                ParallelHashTable.DEFAULT_SEARCH),
                        stats);
                case "pipe" -> new HandoffSpec.Pipe(capacity, stats);
                default -> throw new AssertionError(kind); // KINDS has no other
            };
            return withClasses(spec, kind, options, base);
        } catch (IllegalArgumentException beyondTheLimit) {
            throw new IllegalArgumentException("handoff spec '" + spec + "': " + beyondTheLimit.getMessage(),
                    beyondTheLimit);
        }
    }

    /** Wraps base in HandoffSpec.Classed when the spec has classes=K (and maybe fair=N). */
    private static HandoffSpec withClasses(String spec, String kind, Map<String, String> options, HandoffSpec base) {
        Integer classes = number(spec, kind, options, CLASSES);
        Integer fair = number(spec, kind, options, FAIR);
        if (classes == null) {
            if (fair != null) {
                throw badOption(spec, kind, "option 'fair' needs the option classes=K");
            }
            return base;
        }
        return new HandoffSpec.Classed(base, classes, fair == null ? ImportanceClasses.DEFAULT_FAIR : fair);
    }

    /** The value of a numeric option, or null when absent. */
    private static Integer number(String spec, String kind, Map<String, String> options, Option option) {
        String value = options.get(option.name());
        if (value == null) {
            return null;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw badOption(spec, kind, "option '" + option.name() + "' needs an integer, was '" + value + "'");
        }
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

    /**
     * Reads the parts after the head into option name to value (null for a flag), refusing
     * empty parts and every option that is unknown to the kind, repeated, a flag with a value,
     * or a valued option without one.
     */
    private static Map<String, String> parseOptions(String spec, String kind, String[] parts) {
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].trim();
            if (part.isEmpty()) {
                throw badOption(spec, kind, "an empty option (a stray comma?)");
            }
            int eq = part.indexOf('=');
            String name = (eq < 0 ? part : part.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
            String value = eq < 0 ? null : part.substring(eq + 1).trim().toLowerCase(Locale.ROOT);
            Option option = optionsOf(kind).stream().filter(o -> o.name().equals(name)).findFirst()
                    .orElseThrow(() -> badOption(spec, kind, "unknown option '" + part + "'"));
            if (options.containsKey(name)) {
                throw badOption(spec, kind, "option '" + name + "' given twice");
            }
            if (option.isFlag() && value != null) {
                throw badOption(spec, kind, "option '" + name + "' takes no value, was '" + part + "'");
            }
            if (!option.isFlag() && (value == null || value.isEmpty())) {
                throw badOption(spec, kind, "option '" + name + "' needs a value, " + option);
            }
            options.put(name, value);
        }
        return options;
    }

    /**
     * Returns the one of values whose spec name is the option's value, or dflt when the option
     * is absent; throws, naming every valid name=value, when it is none of them.
     */
    private static <T> T choose(String spec, String kind, Map<String, String> options, Option option,
                                T[] values, Function<T, String> specName, T dflt) {
        String value = options.get(option.name());
        if (value == null) {
            return dflt;
        }
        for (T v : values) {
            if (specName.apply(v).equals(value)) {
                return v;
            }
        }
        String valid = option.values().stream().map(v -> option.name() + "=" + v).collect(Collectors.joining(", "));
        throw badOption(spec, kind, "unknown " + option.name() + "=" + value + "; valid: " + valid);
    }

    private static IllegalArgumentException badOption(String spec, String kind, String problem) {
        String valid = optionsOf(kind).stream().map(Option::toString).collect(Collectors.joining(", "));
        return new IllegalArgumentException("handoff spec '" + spec + "': " + problem + "; valid options for "
                + kind + ": " + valid);
    }
}
