/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

/**
 * The contract suite on a counting hash table whose producers key on the element's hash code
 * ({@code key=hash}, the papers' form), built from its spec.
 */
class ParallelHashTableKeyHashContractTest extends HandoffContractTest {

    @Override
    protected <E> Handoff<E> newHandoff(int capacity) {
        return Handoffs.create("pht:" + capacity + ",key=hash,stats");
    }

    /** None: "pht:N" builds the default key source; ParallelHashTableKeysTest covers key=hash's own rules. */
    @Override
    protected String kind() {
        return null;
    }
}
