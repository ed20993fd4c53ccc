/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code import} of the library's sources, static or not, is used. ArchitectureTest reads
 * bytecode, where an import leaves no trace; this reads the source. A use is the imported name in
 * the code, outside comments and string literals, or in a Javadoc reference that javadoc resolves
 * through the imports ({@code {@link}}, {@code {@linkplain}}, {@code {@value}}, {@code @see},
 * {@code @throws}, {@code @exception}); a name in a plain comment or in Javadoc prose is not.
 */
class SourceImportsTest {

    private static final Pattern IMPORT =
            Pattern.compile("(?m)^import\\s+(static\\s+)?([\\w.]+?)(\\.\\*)?\\s*;");

    /** A Javadoc reference: the tag, then the reference, with a method's parameter list if any. */
    private static final Pattern REFERENCE = Pattern.compile(
            "(?:\\{@(?:link|linkplain|value)|@(?:see|throws|exception))\\s+([^\\s(}]*(?:\\([^)]*\\))?)");

    @Test
    void everyImportIsUsed() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(PackageInfoTest.MAIN)) {
            sources = files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
        assertFalse(sources.isEmpty(), "no sources under " + PackageInfoTest.MAIN);
        List<String> unused = new ArrayList<>();
        for (Path source : sources) {
            for (String name : unusedImports(Files.readString(source))) {
                unused.add(PackageInfoTest.MAIN.relativize(source) + ": " + name);
            }
        }
        assertEquals(List.of(), unused);
    }

    /** The imports of one source file that it never uses, as written after {@code import}. */
    static List<String> unusedImports(String source) {
        Split split = split(source);
        String code = IMPORT.matcher(split.code).replaceAll("");
        StringBuilder references = new StringBuilder();
        for (String javadoc : split.javadoc) {
            Matcher m = REFERENCE.matcher(javadoc.replaceAll("(?m)^\\s*\\*", " ")); // a tag may end a line
            while (m.find()) {
                references.append(m.group(1)).append('\n');
            }
        }
        List<String> unused = new ArrayList<>();
        Matcher m = IMPORT.matcher(split.code);
        while (m.find()) {
            if (m.group(3) != null) {
                continue; // on demand: no one name to look for
            }
            String imported = m.group(2);
            String name = imported.substring(imported.lastIndexOf('.') + 1);
            Pattern use = Pattern.compile("(?<![\\w$.#])" + Pattern.quote(name) + "(?![\\w$])");
            if (!use.matcher(code).find() && !use.matcher(references).find()) {
                unused.add((m.group(1) != null ? "static " : "") + imported);
            }
        }
        return unused;
    }

    /** A source cut in two: the code with comments and literals blanked, and its Javadoc comments. */
    record Split(String code, List<String> javadoc) {
    }

    static Split split(String s) {
        StringBuilder code = new StringBuilder(s.length());
        List<String> javadoc = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (s.startsWith("//", i)) {
                int end = s.indexOf('\n', i);
                i = end < 0 ? s.length() : end;
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
                if (s.startsWith("/**", i) && !s.startsWith("/**/", i)) {
                    javadoc.add(s.substring(i, end));
                }
                code.append(' ');
                i = end;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                while (end > 0 && s.charAt(end - 1) == '\\') {
                    end = s.indexOf("\"\"\"", end + 1);
                }
                i = end < 0 ? s.length() : end + 3;
                code.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != c && s.charAt(j) != '\n') {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                i = j + 1;
                code.append(c).append(c);
            } else {
                code.append(c);
                i++;
            }
        }
        return new Split(code.toString(), javadoc);
    }
}
