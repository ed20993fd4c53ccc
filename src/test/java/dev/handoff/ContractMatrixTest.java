/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The contract suite's matrix: every value the spec parser accepts runs the whole contract in
 * some configuration, or a written exclusion below says why not. The matrix is the set of
 * concrete {@link HandoffContractTest} classes of this package, each read by the spec of the
 * handoff it builds; the values are the parser's own grammars ({@code SpecParser.grammars()}),
 * so an option value added to a kind without a contract configuration fails this test.
 *
 * <p>What each entry of the matrix must hold: for every kind, every value of every valued option
 * ({@code kind:N,...,name=value,...} in the canonical string); every kind with {@code stats}, with
 * {@code sojourn} (the pipe excepted: the parser refuses it) and with importance classes; and
 * importance classes over every value of every valued option.
 */
class ContractMatrixTest {

    /** Entries the matrix need not hold, each with the reason. */
    private static final Map<String, String> EXCLUDED = Map.of(
            "pipe with sojourn", "the parser refuses it: a pipe holds no element to time",
            "pipe with stats", "PipeHandoffTest and FactoryContract's counter tests count the pipe");

    /** The spec of the handoff each concrete contract class builds, by class name. */
    static Map<String, String> matrix() throws IOException, URISyntaxException, ReflectiveOperationException {
        Path root = Path.of(HandoffContractTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve("dev/handoff");
        Map<String, String> specs = new TreeMap<>();
        List<Path> classFiles;
        try (Stream<Path> files = Files.list(dir)) {
            classFiles = files.filter(f -> f.getFileName().toString().endsWith("ContractTest.class")).toList();
        }
        for (Path f : classFiles) {
            String name = f.getFileName().toString().replace(".class", "");
            Class<?> c = Class.forName("dev.handoff." + name);
            if (!HandoffContractTest.class.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers())) {
                continue;
            }
            Constructor<?> make = c.getDeclaredConstructor();
            make.setAccessible(true);
            HandoffContractTest test = (HandoffContractTest) make.newInstance();
            specs.put(name, test.handoffOf(4).spec().toString());
        }
        return specs;
    }

    /** What the matrix must hold: a name for each entry, and the test a spec string passes for it. */
    private record Entry(String name, java.util.function.Predicate<String> heldBy) {
    }

    private static List<Entry> entries() {
        List<Entry> entries = new ArrayList<>();
        for (SpecParser.Grammar<?> grammar : SpecParser.grammars()) {
            String kind = grammar.kind() + ":";
            entries.add(new Entry(grammar.kind() + " with stats", s -> s.startsWith(kind) && s.contains(",stats")));
            entries.add(new Entry(grammar.kind() + " with sojourn", s -> s.startsWith(kind) && s.contains(",sojourn")));
            entries.add(new Entry(grammar.kind() + " with classes", s -> s.startsWith(kind) && s.contains(",classes=")));
            for (SpecParser.Choice<?, ?> option : grammar.options()) {
                for (String value : values(option)) {
                    String written = "," + option.name() + "=" + value + ",";
                    entries.add(new Entry(grammar.kind() + " " + option.name() + "=" + value,
                            s -> s.startsWith(kind) && (s + ",").contains(written)));
                    entries.add(new Entry(grammar.kind() + " " + option.name() + "=" + value + " with classes",
                            s -> s.startsWith(kind) && (s + ",").contains(written) && s.contains(",classes=")));
                }
            }
        }
        return entries;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<String> values(SpecParser.Choice<?, ?> option) {
        SpecParser.Choice raw = option;
        return ((List<Object>) raw.values()).stream().map(v -> (String) raw.specName().apply(v)).toList();
    }

    @Test
    void everyValueTheParserAcceptsRunsTheContractOrIsExcludedWithAReason() throws Exception {
        Map<String, String> matrix = matrix();
        assertFalse(matrix.isEmpty(), "no contract class found beside " + HandoffContractTest.class);
        List<String> missing = new ArrayList<>();
        for (Entry e : entries()) {
            if (!EXCLUDED.containsKey(e.name()) && matrix.values().stream().noneMatch(e.heldBy())) {
                missing.add(e.name());
            }
        }
        assertEquals(List.of(), missing, () -> "the contract runs on:\n" + String.join("\n",
                matrix.entrySet().stream().map(x -> "  " + x.getValue() + "  (" + x.getKey() + ")").toList()));
    }

    @Test
    void everyExclusionIsStillNeeded() throws Exception {
        Map<String, String> matrix = matrix();
        for (Entry e : entries()) {
            if (EXCLUDED.containsKey(e.name())) {
                assertFalse(matrix.values().stream().anyMatch(e.heldBy()),
                        () -> "'" + e.name() + "' is excluded but the matrix holds it: drop the exclusion");
            }
        }
    }
}
