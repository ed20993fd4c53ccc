/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package of the library says what each of its classes is for: each directory of
 * {@code src/main/java/dev/handoff} that holds sources has a {@code package-info.java}, and it
 * names, as a whole word, every top-level type of that directory (one per file, named as the
 * file). A class added without a word in its package's notes turns this red.
 */
class PackageInfoTest {

    /** The library's sources: the tests run in src/, this module's directory. */
    static final Path MAIN = Path.of(System.getProperty("user.dir")).resolve("main/java");

    @Test
    void everyPackageInfoNamesEveryClassOfItsPackage() throws IOException {
        List<Path> packages;
        try (Stream<Path> dirs = Files.walk(MAIN.resolve("dev/handoff"))) {
            packages = dirs.filter(Files::isDirectory).filter(PackageInfoTest::holdsSources).sorted().toList();
        }
        assertFalse(packages.isEmpty(), "no packages under " + MAIN);
        List<String> missing = new ArrayList<>();
        for (Path dir : packages) {
            Path info = dir.resolve("package-info.java");
            String where = MAIN.relativize(dir).toString();
            if (!Files.exists(info)) {
                missing.add(where + ": no package-info.java");
                continue;
            }
            String notes = Files.readString(info);
            for (String type : topLevelTypes(dir)) {
                if (!Pattern.compile("\\b" + type + "\\b").matcher(notes).find()) {
                    missing.add(where + ": package-info.java does not name " + type);
                }
            }
        }
        assertEquals(List.of(), missing);
    }

    private static boolean holdsSources(Path dir) {
        return !topLevelTypes(dir).isEmpty();
    }

    /** The top-level types of a package directory: one per source file, named as the file. */
    private static List<String> topLevelTypes(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".java") && !n.equals("package-info.java") && !n.equals("module-info.java"))
                    .map(n -> n.substring(0, n.length() - ".java".length()))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
