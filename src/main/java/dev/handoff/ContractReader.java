/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.observe.HandoffReader;

/**
 * Reads a handoff for the JFR events through its public contract ({@link Handoff#spec()},
 * {@link Handoff#capacity()}, {@link Handoff#size()}, {@link Handoff#stats()}); installed once by
 * {@link AbstractHandoff}'s class initialization, before any handoff exists.
 */
final class ContractReader extends HandoffReader {

    @Override
    public String kindOf(Object handoff) {
        return handoff instanceof Handoff<?> h ? h.spec().kind() : null;
    }

    @Override
    public int capacityOf(Object handoff) {
        return ((Handoff<?>) handoff).capacity();
    }

    @Override
    public int sizeOf(Object handoff) {
        return ((Handoff<?>) handoff).size();
    }

    @Override
    public HandoffStats statsOf(Object handoff) {
        return ((Handoff<?>) handoff).stats();
    }
}
