/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import com.google.common.collect.testing.QueueTestSuiteBuilder;
import com.google.common.collect.testing.TestStringQueueGenerator;
import com.google.common.collect.testing.features.CollectionFeature;
import com.google.common.collect.testing.features.CollectionSize;
import com.google.common.collect.testing.features.Feature;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import junit.framework.TestCase;
import junit.framework.TestSuite;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * guava-testlib's {@link QueueTestSuiteBuilder}, the standard conformance suite of the
 * {@code Queue} and {@code Collection} methods, turned into JUnit 5 dynamic tests so that the
 * contract suite runs it from the same subclass as everything else.
 *
 * <p>guava builds a JUnit 3 {@link TestSuite} of {@link TestCase}s; each becomes a
 * {@link DynamicTest} that runs the case with {@link TestCase#runBare()} (set-up, test,
 * tear-down; a failure propagates as it is), each nested suite a {@link DynamicContainer}.
 */
final class GuavaConformance {

    private GuavaConformance() {
    }

    /**
     * The guava Queue suite for a handoff kind.
     *
     * @param name the name shown in reports
     * @param ordering the kind's ordering: FIFO adds {@link CollectionFeature#KNOWN_ORDER}
     * @param newHandoff makes an empty handoff of the given capacity
     */
    static Stream<DynamicNode> queueSuite(String name, Handoff.Ordering ordering,
            IntFunction<Handoff<String>> newHandoff) {
        List<Feature<?>> features = new ArrayList<>(List.of(
                CollectionSize.ANY,
                // add, remove, iterator().remove() all supported:
                CollectionFeature.GENERAL_PURPOSE,
                // contains(null) and remove(null) answer false; only inserting null throws:
                CollectionFeature.ALLOWS_NULL_QUERIES));
        if (ordering == Handoff.Ordering.FIFO) {
            features.add(CollectionFeature.KNOWN_ORDER);
        }
        TestSuite suite = QueueTestSuiteBuilder
                .using(new TestStringQueueGenerator() {
                    @Override
                    protected Queue<String> create(String[] elements) {
                        // Room for the samples and the few more that the add testers insert.
                        Handoff<String> handoff = newHandoff.apply(Math.max(16, 2 * elements.length));
                        Collections.addAll(handoff, elements);
                        return handoff;
                    }
                })
                .named(name)
                .withFeatures(features)
                .createTestSuite();
        return toDynamic(suite).stream();
    }

    /** A suite's children (suites or cases) as dynamic nodes. */
    private static List<DynamicNode> toDynamic(TestSuite suite) {
        List<DynamicNode> nodes = new ArrayList<>();
        for (junit.framework.Test test : Collections.list(suite.tests())) {
            if (test instanceof TestSuite child) {
                nodes.add(DynamicContainer.dynamicContainer(child.getName(), toDynamic(child).stream()));
            } else if (test instanceof TestCase testCase) {
                nodes.add(DynamicTest.dynamicTest(testCase.getName(), testCase::runBare));
            } else {
                throw new IllegalStateException("unexpected guava test " + test.getClass());
            }
        }
        return nodes;
    }
}
