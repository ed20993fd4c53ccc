/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.openjdk.jcstress.annotations.JCStressTest;

/**
 * Keeps docs/teaching.md true to the lessons. Its table "The lessons" states, for every lesson
 * class, how many jcstress tests it has and how many of them are racy twins, and the totals; this
 * test counts the nested classes annotated {@link JCStressTest} (and those among them named
 * {@code Flawed...}, as {@code CheckedRun} recognizes a racy twin) by reflection and compares.
 * Every lesson class in this module must have a row. It also checks that every relative link and
 * {@code #anchor} of the page resolves, by GitHub's rule for heading anchors.
 */
class TeachingPageCountsTest {

    /** Surefire runs in the module's directory and names it in {@code basedir}. */
    private static final Path MODULE = Path.of(System.getProperty("basedir", "."));
    private static final Path PAGE = MODULE.resolve("../docs/teaching.md").normalize();
    private static final Path LESSONS = MODULE.resolve("src/main/java/dev/handoff/jcstress");

    /** {@code | [3](#lesson-3-...) | `Handoff_03_Name` | 8 | 1 |} */
    private static final Pattern ROW = Pattern.compile(
            "^\\| \\[(\\d+)]\\(#([^)]+)\\) \\| `(Handoff_(\\d{2})_\\w+)` \\| (\\d+) \\| (\\d+) \\|$");
    /** {@code | all | | 87 | 4 |} */
    private static final Pattern TOTAL = Pattern.compile("^\\| all \\| \\| (\\d+) \\| (\\d+) \\|$");
    private static final Pattern LESSON_FILE = Pattern.compile("(Handoff_\\d{2}_\\w+)\\.java");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)\\)");

    @Test
    void everyLessonCountOnThePageIsTrue() throws Exception {
        List<String> lines = Files.readAllLines(PAGE);
        List<String> wrong = new ArrayList<>();
        Set<String> listed = new TreeSet<>();
        int tests = 0;
        int racy = 0;
        int[] total = null;
        for (String line : lines) {
            Matcher total1 = TOTAL.matcher(line);
            if (total1.matches()) {
                total = new int[] {Integer.parseInt(total1.group(1)), Integer.parseInt(total1.group(2))};
            }
            Matcher row = ROW.matcher(line);
            if (!row.matches()) {
                continue;
            }
            String name = row.group(3);
            listed.add(name);
            int lesson = Integer.parseInt(row.group(1));
            if (lesson != Integer.parseInt(row.group(4))) {
                wrong.add(name + ": listed as lesson " + lesson);
            }
            if (!row.group(2).startsWith("lesson-" + lesson + "-")) {
                wrong.add(name + ": links to #" + row.group(2) + ", not to its lesson's section");
            }
            Class<?> lessonClass = Class.forName("dev.handoff.jcstress." + name);
            int[] counted = count(lessonClass);
            tests += counted[0];
            racy += counted[1];
            if (counted[0] != Integer.parseInt(row.group(5))) {
                wrong.add(name + ": the page says " + row.group(5) + " tests, the class has " + counted[0]);
            }
            if (counted[1] != Integer.parseInt(row.group(6))) {
                wrong.add(name + ": the page says " + row.group(6) + " racy twins, the class has " + counted[1]);
            }
        }
        assertFalse(listed.isEmpty(), "no lesson rows found in " + PAGE);
        assertEquals(lessonClasses(), listed, "every lesson class has exactly one row in " + PAGE);
        if (total == null) {
            wrong.add("no '| all | | tests | racy |' row");
        } else {
            if (total[0] != tests) {
                wrong.add("the page says " + total[0] + " tests in all, the classes have " + tests);
            }
            if (total[1] != racy) {
                wrong.add("the page says " + total[1] + " racy twins in all, the classes have " + racy);
            }
        }
        assertTrue(wrong.isEmpty(), PAGE + " is out of date:\n  " + String.join("\n  ", wrong));
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        Set<String> anchors = anchors(PAGE);
        for (String target : links(PAGE)) {
            if (target.matches("^[a-z]+:.*")) {
                continue; // https:, mailto:: not checked here
            }
            int hash = target.indexOf('#');
            String file = hash < 0 ? target : target.substring(0, hash);
            String anchor = hash < 0 ? null : target.substring(hash + 1);
            Path path = file.isEmpty() ? PAGE : PAGE.resolveSibling(file).normalize();
            if (!Files.exists(path)) {
                broken.add(target + ": no file " + path);
            } else if (anchor != null
                    && !(file.isEmpty() ? anchors : anchors(path)).contains(anchor)) {
                broken.add(target + ": no heading with that anchor");
            }
        }
        assertTrue(broken.isEmpty(), "broken links in " + PAGE + ":\n  " + String.join("\n  ", broken));
    }

    /** {tests, racy twins} of one lesson class. */
    private static int[] count(Class<?> lesson) {
        int tests = 0;
        int racy = 0;
        for (Class<?> nested : lesson.getDeclaredClasses()) {
            if (nested.isAnnotationPresent(JCStressTest.class)) {
                tests++;
                if (nested.getSimpleName().startsWith("Flawed")) {
                    racy++;
                }
            }
        }
        return new int[] {tests, racy};
    }

    private static Set<String> lessonClasses() throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.list(LESSONS)) {
            files.forEach(f -> {
                Matcher m = LESSON_FILE.matcher(f.getFileName().toString());
                if (m.matches()) {
                    names.add(m.group(1));
                }
            });
        }
        return names;
    }

    /** The link targets of a Markdown file, outside fenced code blocks. */
    private static List<String> links(Path markdown) throws IOException {
        List<String> targets = new ArrayList<>();
        for (String line : prose(markdown)) {
            Matcher m = LINK.matcher(line);
            while (m.find()) {
                targets.add(m.group(1));
            }
        }
        return targets;
    }

    /** The anchors GitHub gives the headings of a Markdown file. */
    private static Set<String> anchors(Path markdown) throws IOException {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(markdown)) {
            if (!line.matches("^#{1,6} .*")) {
                continue;
            }
            String text = line.replaceFirst("^#{1,6} ", "").strip()
                    .replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1"); // a link's text only
            String slug = text.toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }

    private static List<String> prose(Path markdown) throws IOException {
        List<String> prose = new ArrayList<>();
        boolean inFence = false;
        for (String line : Files.readAllLines(markdown)) {
            if (line.startsWith("```")) {
                inFence = !inFence;
            } else if (!inFence) {
                prose.add(line);
            }
        }
        return prose;
    }
}
