/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.ImportanceClasses;
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
 *
 * <p>It knows no kind's options: each spec record declares its own as a {@link Grammar} (its
 * name, its valued options, and how to build the record from their values), so that a new option
 * of a kind touches that kind's record only. The options every kind shares ({@code classes},
 * {@code fair}, {@code stats}, {@code sojourn}) are read here, and written here for a spec with classes.
 */
final class SpecParser {

    private SpecParser() {
    }

    /** The kinds' grammars, in the order the docs list the kinds. */
    private static final List<Grammar<?>> GRAMMARS = List.of(HandoffSpec.Circular.GRAMMAR,
            HandoffSpec.LockSplit.GRAMMAR, HandoffSpec.HashTable.GRAMMAR, HandoffSpec.Pipe.GRAMMAR);

    /** The kinds' grammars: what the parser accepts, for the test that every value runs the contract. */
    static List<Grammar<?>> grammars() {
        return GRAMMARS;
    }

    /** The kinds' names, in the order the docs list them. */
    static final List<String> KINDS = GRAMMARS.stream().map(Grammar::kind).toList();

    private static final String USAGE =
            " (spec: kind:capacity[,option...], e.g. circular:101, lock-split:1024,stats or pipe:150)";

    /**
     * A valued option of a kind, {@code name=value}: the values it takes, each written by
     * {@code specName}, the one used when the option is absent, and where a spec keeps it.
     *
     * @param <S> the kind's spec record
     * @param <T> the option's type
     */
    record Choice<S extends HandoffSpec, T>(String name, List<T> values, Function<T, String> specName,
                                            T absent, Function<S, T> of) {
        static <S extends HandoffSpec, T> Choice<S, T> of(String name, T[] values, Function<T, String> specName,
                                                          T absent, Function<S, T> of) {
            return new Choice<>(name, List.of(values), specName, absent, of);
        }

        /** {@code ,name=value} of this option in the spec s, as the canonical string writes it. */
        String written(S s) {
            return "," + name + "=" + specName.apply(of.apply(s));
        }

        @Override
        public String toString() {
            return name + "=" + values.stream().map(specName).collect(Collectors.joining("|"));
        }
    }

    /** The values a spec string gave, for a kind's {@link Grammar#build} to read. */
    interface Given {
        /** The option's value: the one given, or the option's {@code absent} value. */
        <T> T get(Choice<?, T> option);
    }

    /**
     * A kind's part of the grammar: its name, its valued options in canonical order, and its
     * record built from a capacity, the options' values and the stats flag.
     *
     * @param <S> the kind's spec record
     */
    record Grammar<S extends HandoffSpec>(String kind, List<Choice<S, ?>> options, Builder<S> build) {
        /** Builds the kind's record; may throw IllegalArgumentException for a capacity beyond a limit. */
        interface Builder<S> {
            S build(int capacity, Given given, boolean stats);
        }

        /** The canonical string of s: {@code kind:capacity}, every valued option, then {@code stats}. */
        String write(S s) {
            StringBuilder text = new StringBuilder(kind).append(':').append(s.capacity());
            options.forEach(o -> text.append(o.written(s)));
            return text.append(s.stats() ? ",stats" : "").toString();
        }
    }

    /** One option every kind has: a flag (no values) or a number. */
    private record Common(String name, String values) {
        @Override
        public String toString() {
            return values.isEmpty() ? name : name + "=" + values;
        }
    }

    private static final Common CLASSES = new Common("classes", "1.." + ImportanceClasses.MAX_CLASSES);
    private static final Common FAIR = new Common("fair", "N>=1");
    private static final Common STATS = new Common("stats", "");
    private static final Common SOJOURN = new Common("sojourn", "");

    static HandoffSpec parse(String spec) {
        Objects.requireNonNull(spec, "handoff spec");
        String[] parts = spec.split(",", -1);
        int colon = parts[0].indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("handoff spec '" + spec + "' has no capacity; valid kinds: "
                    + String.join(", ", KINDS) + USAGE);
        }
        String kind = parts[0].substring(0, colon).trim().toLowerCase(Locale.ROOT);
        Grammar<?> grammar = GRAMMARS.stream().filter(g -> g.kind().equals(kind)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown handoff kind '" + kind + "' in spec '"
                        + spec + "'; valid kinds: " + String.join(", ", KINDS) + USAGE));
        int capacity = parseCapacity(parts[0].substring(colon + 1).trim(), spec);
        Map<String, String> options = parseOptions(spec, grammar, parts);
        try {
            HandoffSpec base = grammar.build().build(capacity, given(spec, grammar, options),
                    options.containsKey(STATS.name()));
            return withClasses(spec, grammar, options,
                    options.containsKey(SOJOURN.name()) ? base.withSojourn() : base);
        } catch (IllegalArgumentException beyondTheLimit) {
            throw new IllegalArgumentException("handoff spec '" + spec + "': " + beyondTheLimit.getMessage(),
                    beyondTheLimit);
        }
    }

    /** The valued options' values as given, checked against the values each takes. */
    private static Given given(String spec, Grammar<?> grammar, Map<String, String> options) {
        return new Given() {
            @Override
            public <T> T get(Choice<?, T> option) {
                String value = options.get(option.name());
                if (value == null) {
                    return option.absent();
                }
                for (T v : option.values()) {
                    if (option.specName().apply(v).equals(value)) {
                        return v;
                    }
                }
                String valid = option.values().stream().map(v -> option.name() + "=" + option.specName().apply(v))
                        .collect(Collectors.joining(", "));
                throw badOption(spec, grammar, "unknown " + option.name() + "=" + value + "; valid: " + valid);
            }
        };
    }

    /** Wraps base in HandoffSpec.Classed when the spec has classes=K (and maybe fair=N). */
    private static HandoffSpec withClasses(String spec, Grammar<?> grammar, Map<String, String> options,
                                           HandoffSpec base) {
        Integer classes = number(spec, grammar, options, CLASSES);
        Integer fair = number(spec, grammar, options, FAIR);
        if (classes == null) {
            if (fair != null) {
                throw badOption(spec, grammar, "option 'fair' needs the option classes=K");
            }
            return base;
        }
        return new HandoffSpec.Classed(base, classes, fair == null ? ImportanceClasses.DEFAULT_FAIR : fair);
    }

    /** The value of a numeric option, or null when absent. */
    private static Integer number(String spec, Grammar<?> grammar, Map<String, String> options, Common option) {
        String value = options.get(option.name());
        if (value == null) {
            return null;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw badOption(spec, grammar, "option '" + option.name() + "' needs an integer, was '" + value + "'");
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

    /** Every option of the kind, its own and the common ones, as the error messages list them. */
    private static List<Object> optionsOf(Grammar<?> grammar) {
        return Stream.concat(grammar.options().stream(), Stream.of(CLASSES, FAIR, STATS, SOJOURN)).map(o -> (Object) o)
                .toList();
    }

    /** The name of an option of the kind, or null if it has none of that name. */
    private static Object find(Grammar<?> grammar, String name) {
        for (Object o : optionsOf(grammar)) {
            String n = o instanceof Choice<?, ?> c ? c.name() : ((Common) o).name();
            if (n.equals(name)) {
                return o;
            }
        }
        return null;
    }

    /**
     * Reads the parts after the head into option name to value (null for a flag), refusing
     * empty parts and every option that is unknown to the kind, repeated, a flag with a value,
     * or a valued option without one.
     */
    private static Map<String, String> parseOptions(String spec, Grammar<?> grammar, String[] parts) {
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].trim();
            if (part.isEmpty()) {
                throw badOption(spec, grammar, "an empty option (a stray comma?)");
            }
            int eq = part.indexOf('=');
            String name = (eq < 0 ? part : part.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
            String value = eq < 0 ? null : part.substring(eq + 1).trim().toLowerCase(Locale.ROOT);
            Object option = find(grammar, name);
            if (option == null) {
                throw badOption(spec, grammar, "unknown option '" + part + "'");
            }
            if (options.containsKey(name)) {
                throw badOption(spec, grammar, "option '" + name + "' given twice");
            }
            boolean flag = option == STATS || option == SOJOURN;
            if (flag && value != null) {
                throw badOption(spec, grammar, "option '" + name + "' takes no value, was '" + part + "'");
            }
            if (!flag && (value == null || value.isEmpty())) {
                throw badOption(spec, grammar, "option '" + name + "' needs a value, " + option);
            }
            options.put(name, value);
        }
        return options;
    }

    /**
     * The canonical string of a spec with classes: its base's, with {@code classes} and
     * {@code fair} before the flags {@code stats} and {@code sojourn}, which stay last.
     */
    static String writeClasses(HandoffSpec.Classed classed) {
        String base = classed.base().toString();
        String flags = (classed.stats() ? ",stats" : "") + (classed.sojourn() ? ",sojourn" : "");
        return base.substring(0, base.length() - flags.length()) + ",classes=" + classed.classes()
                + ",fair=" + classed.fair() + flags;
    }

    private static IllegalArgumentException badOption(String spec, Grammar<?> grammar, String problem) {
        String valid = optionsOf(grammar).stream().map(Object::toString).collect(Collectors.joining(", "));
        return new IllegalArgumentException("handoff spec '" + spec + "': " + problem + "; valid options for "
                + grammar.kind() + ": " + valid);
    }
}
