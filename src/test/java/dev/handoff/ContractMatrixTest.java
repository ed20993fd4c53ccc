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
 * importance classes over every value of every valued option. And every concrete class of the
 * library that implements {@link Handoff} is built by some contract class, so a new handoff (a
 * pool's work queue included) cannot ship without the contract.
 */
class ContractMatrixTest {

    /** Entries the matrix need not hold, each with the reason. */
    private static final Map<String, String> EXCLUDED = Map.of(
            "pipe with sojourn", "the parser refuses it: a pipe holds no element to time",
            "pipe with stats", "PipeHandoffTest and FactoryContract's counter tests count the pipe");

    /** The spec of the handoff each concrete contract class builds, by class name. */
    static Map<String, String> matrix() throws IOException, URISyntaxException, ReflectiveOperationException {
        Map<String, String> specs = new TreeMap<>();
        for (Class<?> c : contractClasses()) {
            Constructor<?> make = c.getDeclaredConstructor();
            make.setAccessible(true);
            HandoffContractTest test = (HandoffContractTest) make.newInstance();
            specs.put(c.getSimpleName(), test.handoffOf(4).spec().toString());
        }
        return specs;
    }

    /** The concrete {@link HandoffContractTest} classes of this package. */
    private static List<Class<?>> contractClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(HandoffContractTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Path> classFiles;
        try (Stream<Path> files = Files.list(root.resolve("dev/handoff"))) {
            classFiles = files.filter(f -> f.getFileName().toString().endsWith("ContractTest.class")).sorted().toList();
        }
        List<Class<?>> classes = new ArrayList<>();
        for (Path f : classFiles) {
            Class<?> c = Class.forName("dev.handoff." + f.getFileName().toString().replace(".class", ""));
            if (HandoffContractTest.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers())) {
                classes.add(c);
            }
        }
        return classes;
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

    @Test
    void everyHandoffClassOfTheLibraryRunsTheContract() throws Exception {
        Path main = Path.of(Handoff.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> handoffClasses;
        try (Stream<Path> files = Files.walk(main)) {
            handoffClasses = files.map(f -> main.relativize(f).toString())
                    .filter(f -> f.endsWith(".class") && !f.contains("$"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.'))
                    .filter(ContractMatrixTest::isConcreteHandoff)
                    .sorted()
                    .toList();
        }
        assertFalse(handoffClasses.isEmpty(), "no Handoff class found in " + main);
        List<String> tested = new ArrayList<>();
        for (Class<?> c : contractClasses()) {
            Constructor<?> make = c.getDeclaredConstructor();
            make.setAccessible(true);
            tested.add(((HandoffContractTest) make.newInstance()).handoffOf(4).getClass().getName());
        }
        assertEquals(List.of(), handoffClasses.stream().filter(h -> !tested.contains(h)).toList(),
                "Handoff classes that no contract class builds");
    }

    private static boolean isConcreteHandoff(String className) {
        try {
            Class<?> c = Class.forName(className, false, Handoff.class.getClassLoader());
            return Handoff.class.isAssignableFrom(c) && !c.isInterface() && !Modifier.isAbstract(c.getModifiers());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
