/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The importance classes' room: what a buffered handoff with {@code classes=K} is built from,
 * K handoffs of one kind behind the single count consumers wait on.
 *
 * <p>{@link dev.handoff.internal.classes.ImportanceClasses} holds K, N, the classifier and the
 * take rule (which class a take looks at first, and the bound of one take in K*N for a class that
 * stays non-empty). {@link dev.handoff.internal.classes.Reservations} is the closable count of
 * elements consumers may take, where they spin and park. {@link
 * dev.handoff.internal.classes.ClassHandoffs} holds the K handoffs with a count per class, and
 * the take that a reservation guarantees to find an element, with the argument why.
 * {@link dev.handoff.internal.classes.CountingSink} counts what a drain moved out of each class.
 * The public behaviour ({@code dev.handoff.Importance}) and the insert protocol live in the
 * package-private {@code dev.handoff.ClassedHandoff}.
 *
 * <p>Not exported: the module's {@code exports} keeps it out of the API. It uses the shared
 * mechanisms ({@code internal.waiting}) and, from {@code dev.handoff}, only the contract types.
 */
package dev.handoff.internal.classes;
