/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress.ci;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.GradingResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;
import org.openjdk.jcstress.infra.runners.TestList;

/**
 * Runs jcstress and then checks its results both ways: every safe test passed, and every racy
 * twin was <em>seen failing</em>. This is what proves that the safe tests could catch a bug.
 *
 * <p>A racy twin is a test class whose simple name starts with {@code Flawed} (its fix, identical
 * but for one place, is the {@code Fixed} class beside it). It marks its bad
 * outcome {@code ACCEPTABLE_INTERESTING} (a {@code FORBIDDEN} one would make jcstress itself fail),
 * so jcstress alone cannot tell whether the twin failed; this check can. The build fails when
 * <ul>
 *   <li>a safe test observed a {@code FORBIDDEN} outcome, or did not run normally;</li>
 *   <li>a racy twin never observed any {@code ACCEPTABLE_INTERESTING} outcome;</li>
 *   <li>a selected test has no result at all, or fewer racy twins than {@code --min-racy} ran.</li>
 * </ul>
 * A safe test that only timed out in the harness (jcstress's {@code TIMEOUT_ERROR}, seen here when
 * the two CPUs are shared with other heavy work) is run once more on its own; it fails the build
 * only if it times out again or then shows a {@code FORBIDDEN} outcome, so a real hang still
 * fails it.
 *
 * <p>Usage: {@code java -cp jcstress.jar dev.handoff.jcstress.ci.CheckedRun [--min-racy N]
 * [jcstress options]}. With jcstress's own {@code -p results.bin.gz} it checks an earlier run
 * without running anything. Exit status 0 when every check passed, 1 otherwise.
 */
public final class CheckedRun {

    private CheckedRun() {
    }

    /** A test whose simple name starts with this is a deliberately wrong twin. */
    static final String FLAWED_PREFIX = "Flawed";

    public static void main(String[] args) throws Exception {
        List<String> jcstressArgs = new ArrayList<>();
        int minRacy = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--min-racy")) {
                minRacy = Integer.parseInt(args[++i]);
            } else {
                jcstressArgs.add(args[i]);
            }
        }
        Options opts = new Options(jcstressArgs.toArray(new String[0]));
        if (!opts.parse()) {
            System.exit(1);
        }
        List<String> problems = new ArrayList<>();
        List<String> timedOut = new ArrayList<>();
        if (!opts.shouldParse() && !run(opts)) {
            // jcstress throws an AssertionError at the end of a run in which a test failed;
            // the check below names which ones, so only remember that it did.
            problems.add("jcstress reported failures (listed above)");
        }
        problems.addAll(check(opts.getResultFile(), opts.getTestFilter(), minRacy, timedOut));
        if (!timedOut.isEmpty()) {
            problems.addAll(rerun(jcstressArgs, timedOut, opts.shouldParse()));
            if (problems.size() == 1 && problems.get(0).startsWith("jcstress reported")) {
                problems.clear(); // the only failures were harness timeouts that passed on their rerun
            }
        }
        if (problems.isEmpty()) {
            System.out.println("CHECKED RUN: OK: every safe test passed and every racy twin was seen failing.");
            System.exit(0);
        }
        System.out.println("CHECKED RUN: FAILED");
        for (String p : problems) {
            System.out.println("  " + p);
        }
        System.exit(1);
    }

    /** Runs jcstress; returns false if it reported a failure. */
    private static boolean run(Options opts) throws Exception {
        try {
            new JCStress(opts).run();
            return true;
        } catch (Exception | AssertionError e) {
            return false;
        }
    }

    /**
     * Runs the safe tests that timed out once more, alone, and returns their problems. When only
     * checking an earlier run, there is nothing to rerun: each timeout is a problem.
     */
    private static List<String> rerun(List<String> jcstressArgs, List<String> timedOut, boolean parseOnly)
            throws Exception {
        List<String> problems = new ArrayList<>();
        if (parseOnly) {
            for (String test : timedOut) {
                problems.add(test + ": did not run normally: TIMEOUT_ERROR");
            }
            return problems;
        }
        String only = "^(" + String.join("|", timedOut.stream().map(Pattern::quote).toList()) + ")$";
        List<String> args = new ArrayList<>();
        for (int i = 0; i < jcstressArgs.size(); i++) {
            String a = jcstressArgs.get(i);
            if (a.equals("-t") || a.equals("-r")) {
                i++; // replaced below
            } else {
                args.add(a);
            }
        }
        args.addAll(List.of("-t", only, "-r", "jcstress-rerun"));
        System.out.println("CHECKED RUN: harness timeout(s), running once more alone: " + timedOut);
        Options again = new Options(args.toArray(new String[0]));
        if (!again.parse()) {
            problems.add("could not parse the rerun's options " + args);
            return problems;
        }
        boolean ran = run(again);
        List<String> stillTimedOut = new ArrayList<>();
        problems.addAll(check(again.getResultFile(), only, 0, stillTimedOut));
        for (String test : stillTimedOut) {
            problems.add(test + ": did not run normally twice: TIMEOUT_ERROR");
        }
        if (!ran && problems.isEmpty()) {
            problems.add("jcstress reported failures in the rerun (listed above)");
        }
        return problems;
    }

    /**
     * Reads the result blob and returns one line per problem; empty when all is well. Safe tests
     * whose only fault is a harness timeout go to {@code timedOut} instead.
     */
    static List<String> check(String resultFile, String filter, int minRacy, List<String> timedOut)
            throws Exception {
        InProcessCollector collector = new InProcessCollector();
        DiskReadCollector reader = new DiskReadCollector(resultFile, collector);
        reader.dump();
        reader.close();
        Map<String, TestResult> byName = new TreeMap<>();
        for (TestResult r : ReportUtils.mergedByName(collector.getTestResults())) {
            byName.put(r.getName(), r);
        }

        List<String> problems = new ArrayList<>();
        Pattern selected = Pattern.compile(filter);
        int racy = 0;
        System.out.println();
        System.out.println("CHECKED RUN: racy twins must show an interesting outcome, safe tests no forbidden one");
        for (String test : new TreeSet<>(TestList.tests())) {
            if (!selected.matcher(test).find()) {
                continue;
            }
            TestResult result = byName.get(test);
            if (result == null) {
                problems.add(test + ": selected but no result");
                continue;
            }
            boolean isRacy = simpleName(test).startsWith(FLAWED_PREFIX);
            long interesting = count(result, Expect.ACCEPTABLE_INTERESTING);
            long forbidden = count(result, Expect.FORBIDDEN);
            String verdict;
            if (isRacy) {
                racy++;
                verdict = interesting > 0 ? "seen failing" : "NOT SEEN FAILING";
                if (interesting == 0) {
                    problems.add(test + ": racy twin, but its bad outcome was never observed in "
                            + result.getTotalCount() + " samples (run longer, or the test cannot catch the bug)");
                }
            } else {
                boolean normal = result.status() == Status.NORMAL;
                verdict = forbidden == 0 && normal ? "passed" : "FAILED";
                if (forbidden > 0) {
                    problems.add(test + ": " + forbidden + " FORBIDDEN outcome(s) observed");
                }
                if (!normal && forbidden == 0 && result.status() == Status.TIMEOUT_ERROR) {
                    timedOut.add(test);
                } else if (!normal) {
                    problems.add(test + ": did not run normally: " + result.status());
                }
            }
            System.out.printf("  %-16s %12d samples  %10d interesting  %s%n",
                    verdict, result.getTotalCount(), interesting, test);
            for (GradingResult g : result.grading().gradingResults.values()) {
                if (g.count > 0 || g.expect != Expect.ACCEPTABLE) {
                    System.out.printf("  %16s %12d          %-22s %s%n", "", g.count, g.expect, g.id);
                }
            }
        }
        if (racy < minRacy) {
            problems.add("only " + racy + " racy twin(s) ran, " + minRacy + " required");
        }
        return problems;
    }

    private static long count(TestResult result, Expect expect) {
        long n = 0;
        for (GradingResult g : result.grading().gradingResults.values()) {
            if (g.expect == expect) {
                n += g.count;
            }
        }
        return n;
    }

    private static String simpleName(String test) {
        return test.substring(test.lastIndexOf('.') + 1);
    }
}
