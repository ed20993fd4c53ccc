/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.probe;

import java.util.Arrays;

/**
 * Double hashing over m slots: h(k, i) = (start + i * stride) mod m with stride coprime to m,
 * so every probe sequence is a permutation of the m slots. The hash table's producers and
 * consumers probe in this order, and so does the pipe's scan of its worker slots (with a stride
 * drawn uniformly from {@link #coprimeStrides()}); the permutation property is tested once, in
 * ParallelHashTableTheoremProperties.
 */
public final class ProbeSequence {
    private final int m;
    /** The distinct prime factors of m; a stride is coprime to m iff none divides it. */
    private final int[] primeFactors;

    public ProbeSequence(int m) {
        this.m = m;
        this.primeFactors = distinctPrimeFactors(m);
    }

    /** Spreads a 32-bit hash code into 64 well-mixed bits (the SplitMix64 finalizer). */
    public static long spread(int hashCode) {
        long z = hashCode * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** h1: the high 32 bits of the key reduced to [0, m) by multiply-shift. */
    public int start(long key) {
        return (int) (((key >>> 32) * m) >>> 32);
    }

    /** h2: 1 + the low 32 bits reduced to [0, m-1), moved up to the next value coprime to m. */
    public int stride(long key) {
        if (m <= 2) {
            return 1;
        }
        int s = 1 + (int) (((key & 0xFFFF_FFFFL) * (m - 1)) >>> 32);
        while (!coprime(s)) {
            s = s == m - 1 ? 1 : s + 1; // 1 is coprime to m, so this ends
        }
        return s;
    }

    /** The slot after pos: (pos + stride) mod m, without overflow for any m. */
    public int next(int pos, int stride) {
        return pos >= m - stride ? pos - (m - stride) : pos + stride;
    }

    /**
     * The numbers in [1, m) coprime to m, ascending ({1} when m == 1): the strides to draw from
     * uniformly when a probe sequence needs no key.
     */
    public int[] coprimeStrides() {
        if (m == 1) {
            return new int[] {1};
        }
        int[] found = new int[m - 1];
        int n = 0;
        for (int s = 1; s < m; s++) {
            if (coprime(s)) {
                found[n++] = s;
            }
        }
        return Arrays.copyOf(found, n);
    }

    public boolean coprime(int s) {
        for (int p : primeFactors) {
            if (p <= s && s % p == 0) {
                return false;
            }
        }
        return true;
    }

    public static int[] distinctPrimeFactors(int m) {
        int[] found = new int[10]; // an int has at most 9 distinct prime factors
        int n = 0;
        int rest = m;
        for (int p = 2; (long) p * p <= rest; p++) {
            if (rest % p == 0) {
                found[n++] = p;
                while (rest % p == 0) {
                    rest /= p;
                }
            }
        }
        if (rest > 1) {
            found[n++] = rest;
        }
        return Arrays.copyOf(found, n);
    }
}
