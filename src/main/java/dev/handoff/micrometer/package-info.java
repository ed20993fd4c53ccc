/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Micrometer metrics for handoffs: {@link dev.handoff.micrometer.HandoffMetrics}.
 *
 * <p>This package is the only part of the library that needs Micrometer
 * ({@code io.micrometer:micrometer-core}, an optional dependency of {@code dev.handoff:handoff} and
 * a {@code requires static} of the module): an application that uses it puts Micrometer on its
 * class or module path itself; everything else in the library works without it.
 */
package dev.handoff.micrometer;
