/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * Probing, shared by the hash table and the pipe: double hashing over m places
 * ({@link dev.handoff.internal.probe.ProbeSequence}, a permutation of the places for every key)
 * and where a probe starts ({@link dev.handoff.internal.probe.ProbeRandom}). The probe-count
 * theorems of Roussev and Wu are stated on this order. Not exported.
 */
package dev.handoff.internal.probe;
