/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import dev.handoff.HandoffStats;

import java.util.Objects;

/**
 * How this package reads a handoff that it holds as an {@code Object} (a park's blocker, a
 * registered handoff): its kind, capacity, size and statistics. The public package implements it
 * once and installs it before any handoff exists, as the JDK's public packages hand their
 * accessors to {@code jdk.internal.access.SharedSecrets}; so nothing here names the public
 * {@code Handoff} type, and every mechanism hands its owner on as the JDK hands on a blocker.
 */
public abstract class HandoffReader {

    /** Set once, when the public package's base class of handoffs initializes; volatile. */
    private static volatile HandoffReader installed;

    protected HandoffReader() {
    }

    /** Installs the reader the events use; the public package calls this once. */
    public static void install(HandoffReader reader) {
        installed = Objects.requireNonNull(reader, "reader");
    }

    /** The installed reader, or null before any handoff class initialized. */
    static HandoffReader installed() {
        return installed;
    }

    /**
     * The kind in the handoff's spec string ({@code circular}, {@code pipe}, ...), or null if it is
     * not a handoff.
     */
    public abstract String kindOf(Object handoff);

    /** The handoff's capacity ({@code Handoff.capacity()}); only where {@link #kindOf} says one. */
    public abstract int capacityOf(Object handoff);

    /** The handoff's size, as {@code Handoff.size()}; only where {@link #kindOf} says one. */
    public abstract int sizeOf(Object handoff);

    /** The handoff's stats ({@code Handoff.stats()}); only where {@link #kindOf} says one. */
    public abstract HandoffStats statsOf(Object handoff);
}
