/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The mutation check of the theorem properties: each deliberate fault in {@code src/test/mutations}
 * must turn a theorem property red, and the sources without a fault must keep them all green.
 * {@code mvn verify} runs it (exec-maven-plugin, phase integration-test, after the tests);
 * {@code docs/parallel-hash-table.md} ("The mutation check") says how to run it alone.
 *
 * <p>Each mutation is a unified diff against the repository ({@code git apply} reads it too), with
 * a preamble before its first {@code ---} line: what the fault is, and a line
 * {@code Properties: Class[, Class...]} naming the property classes (in package
 * {@code dev.handoff}) that must catch it. For each mutation, and once for the sources as they
 * are, this program
 * <ol>
 *   <li>copies {@code src/main/java} to {@code <work>/<name>/src/main/java} and applies the diff
 *       there; each hunk must match exactly one place (its line numbers are not used), so a
 *       mutation that no longer fits the code stops the check instead of testing nothing;</li>
 *   <li>compiles the copy (release 21), and</li>
 *   <li>runs the named property classes in a JVM of its own on that copy and the compiled tests,
 *       one property at a time in name order, stopping at the first that fails.</li>
 * </ol>
 * A mutant is <em>red</em> when a property fails on it with anything but a linkage error, or when
 * the run does not finish within the time limit (a scan that never ends is a fault too). The
 * check passes when the unmutated copy is green and every mutant is red; a mutation that does not
 * apply or compile fails it.
 *
 * <p>Usage: {@code TheoremMutations --repository DIR --main-classes DIR --work DIR
 * [--timeout SECONDS] [--only=NAME[,NAME...]] [--every-property]}, on the test class path. The
 * child JVMs get that class path with {@code --main-classes} replaced by the mutant's classes.
 * {@code --every-property} runs every property on each mutant instead of stopping at the first
 * red one, to list all that catch it (the table in docs/parallel-hash-table.md).
 */
public final class TheoremMutations {

    private static final String PROPERTIES_LINE = "Properties:";

    private TheoremMutations() {
    }

    /** One deliberate fault: its name (the file name without .patch), description, diff, catchers. */
    record Mutation(String name, String description, List<String> properties, List<FilePatch> patches) {
    }

    /** The hunks of one file of a diff. */
    record FilePatch(String path, List<Hunk> hunks) {
    }

    /** One hunk: the lines it expects and the lines it leaves. */
    record Hunk(List<String> before, List<String> after) {
    }

    /** How a run of the properties on one copy ended. */
    enum Outcome { GREEN, RED, TIMED_OUT, BROKEN }

    record Result(String name, Outcome outcome, String detail, long millis) {
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        List<Mutation> mutations = readMutations(options.repository.resolve("src/test/mutations"), options.only);
        if (mutations.isEmpty()) {
            throw new IllegalStateException("no mutations found in src/test/mutations");
        }
        Set<String> allProperties = new LinkedHashSet<>();
        mutations.forEach(m -> allProperties.addAll(m.properties()));
        List<Result> results = new ArrayList<>();
        Result baseline = runCopy(options, "unmutated", List.of(), List.copyOf(allProperties));
        results.add(baseline);
        System.out.println(line(baseline, "green"));
        if (baseline.outcome() == Outcome.GREEN) {
            for (Mutation m : mutations) {
                Result r = runCopy(options, m.name(), m.patches(), m.properties());
                results.add(r);
                System.out.println(line(r, "red"));
                if (r.outcome() == Outcome.GREEN || r.outcome() == Outcome.BROKEN) {
                    System.out.println("[mutations]   the fault: " + m.description());
                }
            }
        }
        boolean ok = baseline.outcome() == Outcome.GREEN && results.size() == mutations.size() + 1
                && results.stream().skip(1).allMatch(r -> r.outcome() == Outcome.RED || r.outcome() == Outcome.TIMED_OUT);
        if (!ok) {
            System.out.println("MUTATION CHECK FAILED: the unmutated sources must pass every theorem property,"
                    + " and every mutant must fail one (logs under " + options.work + ")");
            System.exit(1);
        }
        System.out.println("MUTATION CHECK PASSED: " + mutations.size() + " of " + mutations.size()
                + " mutants turned a theorem property red");
    }

    private static String line(Result r, String wanted) {
        return String.format(Locale.ROOT, "[mutations] %-34s %-9s (wanted %s, %.1f s) %s",
                r.name(), r.outcome(), wanted, r.millis() / 1000.0, r.detail());
    }

    // ---- one copy: copy, patch, compile, run ----

    private static Result runCopy(Options options, String name, List<FilePatch> patches, List<String> properties)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        Path dir = options.work.resolve(name);
        deleteTree(dir);
        Path sources = dir.resolve("src/main/java");
        copyTree(options.repository.resolve("src/main/java"), sources);
        try {
            for (FilePatch p : patches) {
                apply(dir.resolve(p.path()), p);
            }
        } catch (IllegalStateException stale) {
            return new Result(name, Outcome.BROKEN, stale.getMessage(), millisSince(start));
        }
        Path classes = dir.resolve("classes");
        String compileErrors = compile(sources, classes);
        if (compileErrors != null) {
            return new Result(name, Outcome.BROKEN, "does not compile: " + compileErrors, millisSince(start));
        }
        return runProperties(options, name, dir, classes, properties, start);
    }

    private static Result runProperties(Options options, String name, Path dir, Path classes, List<String> properties,
                                        long start) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Xmx1g");
        command.add("-cp");
        command.add(classes + java.io.File.pathSeparator + options.testClassPath());
        command.add(Child.class.getName());
        if (options.everyProperty) {
            command.add(Child.EVERY_PROPERTY);
        }
        properties.forEach(p -> command.add(TheoremMutations.class.getPackageName() + "." + p));
        Path log = dir.resolve("run.log");
        Process child = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!child.waitFor(options.timeoutSeconds, TimeUnit.SECONDS)) {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly().waitFor();
            return new Result(name, Outcome.TIMED_OUT, "no end within " + options.timeoutSeconds + " s, in "
                    + lastLineStarting(log, Child.RUN), millisSince(start));
        }
        String verdict = lastLineStarting(log, Child.VERDICT);
        Outcome outcome = switch (child.exitValue()) {
            case 0 -> Outcome.GREEN;
            case 1 -> Outcome.RED;
            default -> Outcome.BROKEN;
        };
        return new Result(name, outcome, verdict.isEmpty() ? "exit " + child.exitValue() + ", see " + log : verdict,
                millisSince(start));
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private static String lastLineStarting(Path log, String prefix) throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        String found = "";
        for (String l : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (l.startsWith(prefix)) {
                found = l.substring(prefix.length()).trim();
            }
        }
        return found;
    }

    /** Compiles every source under dir except the module descriptor; null, or the first errors. */
    private static String compile(Path sourceRoot, Path classes) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: run on a JDK");
        }
        Files.createDirectories(classes);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sourceRoot)) {
            files = walk.filter(p -> p.toString().endsWith(".java") && !p.endsWith("module-info.java")).toList();
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            boolean ok = javac.getTask(null, fm, diagnostics,
                    List.of("--release", "21", "-implicit:none", "-nowarn", "-d", classes.toString()),
                    null, fm.getJavaFileObjectsFromPaths(files)).call();
            if (ok) {
                return null;
            }
        }
        return diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR)
                .limit(3)
                .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                .collect(Collectors.joining("; "));
    }

    // ---- reading and applying the diffs ----

    static List<Mutation> readMutations(Path dir, Set<String> only) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.toString().endsWith(".patch")).sorted().toList();
        }
        List<Mutation> mutations = new ArrayList<>();
        for (Path f : files) {
            String name = f.getFileName().toString().replaceFirst("\\.patch$", "");
            if (only.isEmpty() || only.contains(name)) {
                mutations.add(parse(name, Files.readAllLines(f, StandardCharsets.UTF_8)));
            }
        }
        if (!only.isEmpty() && mutations.size() != only.size()) {
            throw new IllegalArgumentException("--only names a mutation that is not in " + dir + ": " + only);
        }
        return mutations;
    }

    /** Parses a unified diff with a preamble; see the class comment. */
    static Mutation parse(String name, List<String> lines) {
        StringBuilder description = new StringBuilder();
        List<String> properties = new ArrayList<>();
        List<FilePatch> patches = new ArrayList<>();
        int i = 0;
        for (; i < lines.size() && !lines.get(i).startsWith("--- "); i++) {
            String l = lines.get(i).trim();
            if (l.startsWith(PROPERTIES_LINE)) {
                Arrays.stream(l.substring(PROPERTIES_LINE.length()).split(","))
                        .map(String::trim).filter(s -> !s.isEmpty()).forEach(properties::add);
            } else if (!l.isEmpty()) {
                description.append(description.isEmpty() ? "" : " ").append(l);
            }
        }
        while (i < lines.size()) {
            if (!lines.get(i).startsWith("--- ") || i + 1 >= lines.size() || !lines.get(i + 1).startsWith("+++ ")) {
                throw new IllegalArgumentException(name + ": expected a '--- a/...' and '+++ b/...' pair at line " + (i + 1));
            }
            String path = lines.get(i + 1).substring(4).trim().replaceFirst("^b/", "").replaceFirst("\\t.*$", "");
            i += 2;
            List<Hunk> hunks = new ArrayList<>();
            while (i < lines.size() && lines.get(i).startsWith("@@")) {
                List<String> before = new ArrayList<>();
                List<String> after = new ArrayList<>();
                for (i++; i < lines.size() && !lines.get(i).startsWith("@@") && !lines.get(i).startsWith("--- "); i++) {
                    String l = lines.get(i);
                    char tag = l.isEmpty() ? ' ' : l.charAt(0);
                    String text = l.isEmpty() ? "" : l.substring(1);
                    switch (tag) {
                        case ' ' -> {
                            before.add(text);
                            after.add(text);
                        }
                        case '-' -> before.add(text);
                        case '+' -> after.add(text);
                        case '\\' -> { } // "\ No newline at end of file"
                        default -> throw new IllegalArgumentException(name + ": unexpected line in a hunk: " + l);
                    }
                }
                hunks.add(new Hunk(before, after));
            }
            if (hunks.isEmpty()) {
                throw new IllegalArgumentException(name + ": no hunk for " + path);
            }
            patches.add(new FilePatch(path, hunks));
        }
        if (patches.isEmpty() || properties.isEmpty()) {
            throw new IllegalArgumentException(name + ": needs a diff and a '" + PROPERTIES_LINE + "' line");
        }
        return new Mutation(name, description.toString(), properties, patches);
    }

    /** Applies each hunk where its lines occur, which must be exactly one place. */
    static void apply(Path file, FilePatch patch) throws IOException {
        if (!Files.exists(file)) {
            throw new IllegalStateException("does not apply: no file " + patch.path());
        }
        List<String> text = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        for (Hunk h : patch.hunks()) {
            int at = -1;
            for (int start = 0; start + h.before().size() <= text.size(); start++) {
                if (text.subList(start, start + h.before().size()).equals(h.before())) {
                    if (at >= 0) {
                        throw new IllegalStateException("does not apply: a hunk matches " + patch.path()
                                + " at lines " + (at + 1) + " and " + (start + 1) + "; give it more context");
                    }
                    at = start;
                }
            }
            if (at < 0) {
                throw new IllegalStateException("does not apply: the code a hunk expects is not in " + patch.path()
                        + " any more (starting '" + h.before().get(0).trim() + "'); update the mutation");
            }
            List<String> region = text.subList(at, at + h.before().size());
            region.clear();
            region.addAll(h.after());
        }
        Files.write(file, text, StandardCharsets.UTF_8);
    }

    // ---- files ----

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    // ---- options ----

    private record Options(Path repository, Path mainClasses, Path work, long timeoutSeconds, Set<String> only,
                           boolean everyProperty) {

        static Options parse(String[] args) {
            Path repository = null;
            Path mainClasses = null;
            Path work = null;
            long timeout = 300;
            Set<String> only = new LinkedHashSet<>();
            boolean everyProperty = false;
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--every-property")) {
                    everyProperty = true;
                    continue;
                }
                if (args[i].startsWith("--only=")) { // one argument, so that Maven may pass it empty
                    Arrays.stream(args[i].substring("--only=".length()).split(","))
                            .map(String::trim).filter(n -> !n.isEmpty()).forEach(only::add);
                    continue;
                }
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--repository" -> repository = Path.of(required(args[i], value)).toAbsolutePath().normalize();
                    case "--main-classes" -> mainClasses = Path.of(required(args[i], value)).toAbsolutePath().normalize();
                    case "--work" -> work = Path.of(required(args[i], value)).toAbsolutePath().normalize();
                    case "--timeout" -> timeout = Long.parseLong(required(args[i], value));
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; usage: --repository DIR --main-classes DIR --work DIR [--timeout S] [--only=NAMES]"
                            + " [--every-property]");
                }
                i++;
            }
            if (repository == null || mainClasses == null || work == null || timeout <= 0) {
                throw new IllegalArgumentException("--repository, --main-classes and --work are required; --timeout > 0");
            }
            return new Options(repository, mainClasses, work, timeout, only, everyProperty);
        }

        private static String required(String option, String value) {
            if (value == null) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return value;
        }

        /** This JVM's class path without the unmutated main classes. */
        String testClassPath() {
            return Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                    .map(e -> Path.of(e).toAbsolutePath().normalize())
                    .filter(e -> !e.equals(mainClasses))
                    .map(Path::toString)
                    .collect(Collectors.joining(java.io.File.pathSeparator));
        }
    }

    // ---- the child JVM ----

    /**
     * Runs the jqwik properties and examples of the given classes one at a time, in name order,
     * and exits at the first failure (or, after {@value #EVERY_PROPERTY}, after all of them, to
     * list every property a mutant turns red): 0 all passed, 1 one failed (the mutant is red), 2
     * the run itself is broken (nothing found, or a linkage error: test and main classes do not
     * fit).
     */
    static final class Child {
        static final String RUN = "[run]";
        static final String VERDICT = "[verdict]";
        static final String EVERY_PROPERTY = "--every-property";

        private Child() {
        }

        public static void main(String[] args) throws ClassNotFoundException {
            boolean everyProperty = args.length > 0 && args[0].equals(EVERY_PROPERTY);
            Launcher launcher = LauncherFactory.create();
            int ran = 0;
            List<String> red = new ArrayList<>();
            for (String className : Arrays.asList(args).subList(everyProperty ? 1 : 0, args.length)) {
                Class<?> type = Class.forName(className);
                List<Method> properties = Arrays.stream(type.getDeclaredMethods())
                        .filter(m -> m.isAnnotationPresent(net.jqwik.api.Property.class)
                                || m.isAnnotationPresent(net.jqwik.api.Example.class))
                        .sorted(Comparator.comparing(Method::getName))
                        .toList();
                for (Method m : properties) {
                    String id = type.getSimpleName() + "#" + m.getName();
                    System.out.println(RUN + " " + id);
                    System.out.flush();
                    Failure failure = new Failure();
                    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                            .selectors(DiscoverySelectors.selectMethod(type, m)).build();
                    launcher.execute(request, failure);
                    if (failure.tests == 0) {
                        exit(2, id + " was not run");
                    }
                    ran++;
                    if (failure.thrown != null) {
                        StringWriter trace = new StringWriter();
                        failure.thrown.printStackTrace(new PrintWriter(trace));
                        System.out.println(trace);
                        if (failure.thrown instanceof LinkageError) {
                            exit(2, id + ": " + firstLine(failure.thrown));
                        }
                        if (!everyProperty) {
                            exit(1, id + ": " + firstLine(failure.thrown));
                        }
                        red.add(m.getName());
                    }
                }
            }
            if (!red.isEmpty()) {
                exit(1, "red: " + String.join(", ", red));
            }
            exit(ran == 0 ? 2 : 0, ran + " properties passed");
        }

        private static String firstLine(Throwable t) {
            String message = String.valueOf(t.getMessage());
            int end = message.indexOf('\n');
            String first = end < 0 ? message : message.substring(0, end);
            return t.getClass().getSimpleName() + ": " + (first.length() > 300 ? first.substring(0, 300) + "..." : first);
        }

        private static void exit(int status, String verdict) {
            System.out.println(VERDICT + " " + verdict);
            System.out.flush();
            System.exit(status);
        }

        /** Counts the tests run and keeps the first failure. */
        private static final class Failure implements TestExecutionListener {
            int tests;
            Throwable thrown;

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (!id.isTest()) {
                    return;
                }
                tests++;
                if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL && thrown == null) {
                    thrown = result.getThrowable().orElseGet(() -> new AssertionError(result.getStatus().toString()));
                }
            }
        }
    }
}
