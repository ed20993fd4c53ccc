/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The handbook's own checks: every relative link and anchor in README.md and docs/ resolves, every
 * kept result a command names (in code as in prose) exists, and no word meant for the
 * maintainers' tracker reaches a user.
 */
class DocsTest {

    /** The repository root: src/ is this module's directory, one level down. */
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();

    /** Words of the tracker and of the machines the figures were taken on, not of the handbook. */
    private static final List<Pattern> INTERNAL = List.of(
            Pattern.compile("\\bissues? \\d+", Pattern.CASE_INSENSITIVE),
            Pattern.compile("the issue that", Pattern.CASE_INSENSITIVE),
            Pattern.compile("this round", Pattern.CASE_INSENSITIVE),
            Pattern.compile("lent machine", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\bseeds? 00\\d", Pattern.CASE_INSENSITIVE),
            Pattern.compile("shared/seeds"));

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            String text = withoutCode(Files.readString(page));
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // http:, https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (hash >= 0 && resolved.toString().endsWith(".md")
                        && !anchors(Files.readString(resolved)).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    /** A kept result by its path from the root: a name with a commit's seven hex digits. */
    private static final Pattern KEPT_RESULT = Pattern.compile("docs/data/[a-z0-9.-]*-[0-9a-f]{7}[a-z0-9.-]*\\.(?:json|md)");

    @Test
    void everyKeptResultACommandNamesExists() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Path page : pages()) {
            Matcher m = KEPT_RESULT.matcher(Files.readString(page));
            while (m.find()) {
                if (!Files.exists(ROOT.resolve(m.group()))) {
                    missing.add(ROOT.relativize(page) + ": " + m.group());
                }
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void noTrackerWordsReachAUser() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path page : pages()) {
            String[] lines = Files.readString(page).split("\n");
            for (int i = 0; i < lines.length; i++) {
                for (Pattern word : INTERNAL) {
                    Matcher m = word.matcher(lines[i]);
                    if (m.find()) {
                        found.add(ROOT.relativize(page) + ":" + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        assertEquals(List.of(), found);
    }

    /** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to dashes. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new HashSet<>();
        for (String line : withoutCode(markdown).split("\n")) {
            if (line.startsWith("#")) {
                String heading = line.replaceFirst("^#+\\s*", "").trim();
                String anchor = heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "")
                        .replace(' ', '-');
                String unique = anchor;
                for (int n = 1; !anchors.add(unique); n++) {
                    unique = anchor + "-" + n;
                }
            }
        }
        return anchors;
    }

    /** The text without fenced code blocks, where a '#' or a bracket is code, not markup. */
    private static String withoutCode(String markdown) {
        return markdown.replaceAll("(?s)```.*?```", "");
    }
}
